package shell

import (
	"reflect"
	"testing"
)

// TestInert lists what a command line reads as but does not run, apart
// from what it runs.
func TestInert(t *testing.T) {
	tests := []struct {
		name      string
		src       string
		runs      []string
		readsAs   []string
		recursive string
	}{
		{"command -v", "command -v git reset --hard", []string{"command -v git reset --hard"}, []string{"git reset --hard [via command -v]"}, ""},
		{"command -v of names", "command -v git node", []string{"command -v git node"}, []string{"git node [via command -v]"}, ""},
		{"command -v of one name", "command -v git", []string{"command -v git"}, []string{}, ""},
		{"not an assignment", "1A=2 git reset --hard", []string{"1a=2 git reset --hard"}, []string{"git reset --hard"}, ""},
		{"an assignment", "A=2 git status", []string{"git status"}, []string{}, ""},
		{"line starting with an option", "git reset\n--hard", []string{"git reset", "--hard"}, []string{"git reset --hard"}, ""},
		{"option line first", "--hard", []string{"--hard"}, []string{}, ""},
		{"shell text to node", `node -e "rm -rf /"`, []string{`node -e rm -rf /`}, []string{"rm -rf / [via node -e]"}, ""},
		{"javascript to node", `node -e "console.log(1)"`, []string{`node -e console.log(1)`}, []string{}, ""},
		{"xargs to $1", `printf '%s\n' 'rm -rf /' | xargs sh -c 'eval "$1"' _`,
			[]string{`printf %s\n rm -rf /`, `xargs sh -c eval "$1" _`, `sh -c eval "$1" _ rm -rf / [via xargs]`, `rm [via xargs, sh -c, eval]`},
			[]string{"rm -rf / [via xargs]"}, ""},
		{"recursion", "f() { f; }; f", []string{}, []string{}, "f"},
		{"a function called twice", "f() { echo; }; f; f", []string{"echo [via f()]", "echo [via f()]"}, []string{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := (&Analyzer{}).Analyze(tt.src, "/proj")
			if got := renderAll(a); !reflect.DeepEqual(got, tt.runs) {
				t.Errorf("runs %q, want %q", got, tt.runs)
			}
			got := []string{}
			for _, c := range a.Inert {
				got = append(got, render(c))
				if c.Inert == "" {
					t.Errorf("%s: no reason why it does not run", render(c))
				}
			}
			if !reflect.DeepEqual(got, tt.readsAs) {
				t.Errorf("reads as %q, want %q", got, tt.readsAs)
			}
			if a.Recursive != tt.recursive {
				t.Errorf("Recursive = %q, want %q", a.Recursive, tt.recursive)
			}
			if a.ParseErr != nil || len(a.Opaque) > 0 {
				t.Errorf("ParseErr %v, Opaque %q: the reading leaked into the analysis", a.ParseErr, a.Opaque)
			}
		})
	}
}

// TestUnset checks that unset empties a variable and removes a function.
func TestUnset(t *testing.T) {
	env := func(k string) string {
		if k == "TMPDIR" {
			return "/tmp/t"
		}
		return ""
	}
	for src, want := range map[string][]string{
		`unset TMPDIR; rm -rf "$TMPDIR/x"`:          {"unset TMPDIR", "rm -rf /x"},
		`unset -v TMPDIR X; rm -rf "$TMPDIR/x"`:     {"unset -v TMPDIR X", "rm -rf /x"},
		`rm -rf "$TMPDIR/x"`:                        {"rm -rf /tmp/t/x"},
		`f() { rm -rf /; }; unset -f f; f`:          {"unset -f f", "f"},
		`(unset TMPDIR); rm -rf "$TMPDIR/x"`:        {"unset TMPDIR", "rm -rf /tmp/t/x"},
		`unset -f TMPDIR; rm -rf "${TMPDIR:-/y}/x"`: {"unset -f TMPDIR", "rm -rf /tmp/t/x"},
	} {
		a := (&Analyzer{Env: env}).Analyze(src, "/proj")
		if got := renderAll(a); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: runs %q, want %q", src, got, want)
		}
	}
}
