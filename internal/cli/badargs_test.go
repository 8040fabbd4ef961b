package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/exit"
)

// TestBadCommandLines types what a user mistypes: each command line is
// refused before anything is done, with exit 2 and one error line (and
// the --help hint) that names the flag and says what it wants, in words
// (not the flag package's "invalid value … parse error"), and nothing on
// stdout. Empty values are refused: --task "" from an unset variable would
// otherwise mean every task.
func TestBadCommandLines(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"start", "t", "--completion", "true", "--max-iterations", "ten"}, `start: --max-iterations "ten": want a whole number`},
		{[]string{"start", "t", "--completion", "true", "--max-iterations", "99999999999999999999"}, `start: --max-iterations "99999999999999999999": too large (want a whole number)`},
		{[]string{"start", "t", "--completion", "true", "--max-iterations", ""}, `start: --max-iterations "": want a whole number`},
		{[]string{"start", "t", "--completion", ""}, "start: --completion is empty: give a value, or leave the flag out"},
		{[]string{"start", "t", "--completion", "true", "--priority", ""}, "start: --priority is empty: give a value, or leave the flag out"},
		{[]string{"start", "t", "--completion", "true", "--owner", " "}, "start: --owner is empty: give a value, or leave the flag out"},
		{[]string{"log", "-n", "x"}, `log: -n "x": want a whole number`},
		{[]string{"log", "--since", ""}, "log: --since is empty: give a value, or leave the flag out"},
		{[]string{"log", "--tool", ""}, "log: --tool is empty: give a value, or leave the flag out"},
		{[]string{"list", "--json=maybe"}, `list: --json "maybe": want true or false (or leave the value out)`},
		{[]string{"doctor", "--runs", "1.5"}, `doctor: --runs "1.5": want a whole number`},
		{[]string{"doctor", "--runs", "-1"}, "doctor: --runs -1: want 0 to 1000"},
		{[]string{"doctor", "--runs", "999999999"}, "doctor: --runs 999999999: want 0 to 1000"},
		{[]string{"run", "--task", ""}, "run: --task is empty: give a value, or leave the flag out"},
		{[]string{"run", "--agent", ""}, "run: --agent is empty: give a value, or leave the flag out"},
		{[]string{"run", "--parallel", "two"}, `run: --parallel "two": want a whole number`},
		{[]string{"rollback", "--iteration", "-1"}, "rollback: --iteration -1: want 0 (the loop's start) or more"},
		{[]string{"rollback", "--iteration", "-7"}, "rollback: --iteration -7: want 0 (the loop's start) or more"},
		{[]string{"rollback", "--checkpoint", ""}, "rollback: --checkpoint is empty: give a value, or leave the flag out"},
		{[]string{"install", "--scope", ""}, "install: --scope is empty: give a value, or leave the flag out"},
		{[]string{"explain", "--event", ""}, "explain: --event is empty: give a value, or leave the flag out"},
		{[]string{"version", "extra"}, `version: unexpected argument "extra"`},
		{[]string{"demo", "extra"}, `demo: unexpected argument "extra"`},
		{[]string{"log", "--bogus"}, "log: flag provided but not defined: -bogus"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, stdout, stderr := runIn(dir, tt.args)
			want := "ralph: error: " + tt.want + "\nralph: hint: run with --help for usage\n"
			if code != exit.Usage || stdout != "" || stderr != want {
				t.Errorf("ralph %q: exit %d, stdout %q, stderr\n%s\nwant exit 2, nothing, and\n%s", tt.args, code, stdout, stderr, want)
			}
			if _, err := os.Stat(filepath.Join(dir, ".aiwg")); err == nil {
				t.Errorf("ralph %q wrote .aiwg", tt.args)
			}
		})
	}
}

// TestBadPaths gives commands paths that are not what they name: each
// fails (exit 1) with one line naming the path, before doing anything.
func TestBadPaths(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "adir"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"ui", "--tasks", "nosuch"}, "ui: --tasks " + filepath.Join(dir, "nosuch") + ": no such directory (the task folders Approved, Done, Rejected are in it)"},
		{[]string{"ui", "--tasks", "go.mod"}, "ui: --tasks " + filepath.Join(dir, "go.mod") + ": no such directory (the task folders Approved, Done, Rejected are in it)"},
		{[]string{"explain", "--event", filepath.Join(dir, "adir")}, "explain: --event " + filepath.Join(dir, "adir") + " is a directory: give the file holding the event"},
		{[]string{"explain", "--event", filepath.Join(dir, "go.mod")}, "explain: " + filepath.Join(dir, "go.mod") + ": the event is not JSON: invalid character 'm' looking for beginning of value (at byte 1)"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, stdout, stderr := runIn(dir, tt.args)
			want := "ralph: error: " + tt.want + "\n"
			if code != exit.Failure || stdout != "" || stderr != want {
				t.Errorf("ralph %q: exit %d, stdout %q, stderr\n%s\nwant exit 1, nothing, and\n%s", tt.args, code, stdout, stderr, want)
			}
		})
	}
}

// runIn runs ralph with args in dir, with HOME and the state home there
// too and no other environment, and gives its exit code and output.
func runIn(dir string, args []string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, cwd: dir,
		getenv: func(k string) string {
			if k == "HOME" || k == "RALPH_STATE_HOME" {
				return dir
			}
			return ""
		}}
	code = exit.Report(&errb, run(e, args))
	return code, out.String(), errb.String()
}
