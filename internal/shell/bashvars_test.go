package shell

import (
	"io/fs"
	"reflect"
	"testing"
)

// TestBashVars checks that PROMPT_COMMAND's value is walked as the code an
// interactive bash runs, and HISTFILE's as a history -w of the file,
// wherever the line sets them.
func TestBashVars(t *testing.T) {
	a := &Analyzer{Env: testEnv}
	tests := []struct {
		src  string
		want []string
	}{
		{"PROMPT_COMMAND='rm -rf tests' bash -i", []string{"rm -rf tests [via PROMPT_COMMAND]", "bash -i"}},
		// Set by printf -v or read, found by the interactive bash (atk13).
		{"printf -v PROMPT_COMMAND 'rm -rf tests'; export PROMPT_COMMAND; bash -i", []string{"printf -v PROMPT_COMMAND rm -rf tests", "rm -rf tests [via PROMPT_COMMAND]", "bash -i"}},
		{"export PROMPT_COMMAND='rm x'", []string{"rm x [via PROMPT_COMMAND]"}},
		{"PROMPT_COMMAND=('rm a' 'rm b')", []string{"rm a [via PROMPT_COMMAND]", "rm b [via PROMPT_COMMAND]"}},
		{"env PROMPT_COMMAND='rm x' bash -i", []string{"rm x [via PROMPT_COMMAND]", "bash -i [via env]"}},
		{"PROMPT_COMMAND= bash -i", []string{"bash -i"}},
		{"HISTFILE=tests/a.py bash -i", []string{"history -w tests/a.py [via HISTFILE]", "bash -i"}},
		{"env HISTFILE=x bash -i", []string{"history -w x [via HISTFILE]", "bash -i [via env]"}},
		{"HISTFILE= bash -i", []string{"bash -i"}},
		{"export PROMPT_COMMAND", []string{}},
	}
	for _, tt := range tests {
		if got := renderAll(a.Analyze(tt.src, "/p")); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q: got %q, want %q", tt.src, got, tt.want)
		}
	}
	for _, src := range []string{"PROMPT_COMMAND=$X bash -i", "PROMPT_COMMAND+=\"$(cat f)\""} {
		if an := a.Analyze(src, "/p"); len(an.Opaque) == 0 {
			t.Errorf("%q: not opaque", src)
		}
	}
}

// TestShellStartHome checks the start-up files of a bash or zsh whose
// HOME (or POSIX mode's ENV) the line points elsewhere.
func TestShellStartHome(t *testing.T) {
	files := map[string]string{"/h/.bashrc": "rm rc\n", "/h/.bash_profile": "rm bp\n", "/h/.profile": "rm pr\n",
		"/h/.zshenv": "rm ze\n", "/p/env.sh": "rm env\n"}
	a := &Analyzer{Env: testEnv, ReadFile: func(p string) ([]byte, error) {
		if s, ok := files[p]; ok {
			return []byte(s), nil
		}
		return nil, fs.ErrNotExist
	}}
	tests := []struct {
		src  string
		want []string
	}{
		{"HOME=/h bash -ic true", []string{"rm rc [via HOME .bashrc]", "bash -ic true", "true [via bash -c]"}},
		{"HOME=/h bash -c true", []string{"bash -c true", "true [via bash -c]"}},
		{"HOME=/h bash --norc -i", []string{"bash --norc -i"}},
		{"HOME=/h bash -l", []string{"rm bp [via HOME .bash_profile]", "rm pr [via HOME .profile]", "bash -l"}},
		{"HOME=/h bash -l --noprofile", []string{"bash -l --noprofile"}},
		{"HOME=/h sh -l", []string{"rm pr [via HOME .profile]", "sh -l"}},
		{"HOME=/h zsh -c true", []string{"rm ze [via zsh HOME]", "zsh -c true", "true [via zsh -c]"}},
		{"ENV=env.sh bash --posix -i", []string{"rm env [via ENV]", "bash --posix -i"}},
		{"ENV=env.sh bash -o posix -i", []string{"rm env [via ENV]", "bash -o posix -i"}},
		{"ENV=env.sh POSIXLY_CORRECT=1 bash -i", []string{"rm env [via ENV]", "bash -i"}},
		{"ENV=env.sh bash -i", []string{"bash -i"}},
		{"bash -o posix x.sh", []string{"bash -o posix x.sh"}},
	}
	for _, tt := range tests {
		if got := renderAll(a.Analyze(tt.src, "/p")); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q: got %q, want %q", tt.src, got, tt.want)
		}
	}
	if an := a.Analyze("HOME=$X bash -i", "/p"); len(an.Opaque) == 0 {
		t.Errorf("HOME=$X bash -i: not opaque")
	}
}

// TestCompgenLessOpen checks the code compgen/complete -C and -F run, and
// the $LESSOPEN/$LESSCLOSE a line sets for less.
func TestCompgenLessOpen(t *testing.T) {
	a := &Analyzer{Env: testEnv}
	tests := []struct {
		src  string
		want []string
	}{
		{"compgen -C 'rm x' w", []string{"rm x compgen word prev [via compgen -C]", "compgen -C rm x w"}},
		{"compgen -W 'a b' a", []string{"compgen -W a b a"}},
		{"LESSOPEN='|rm x %s' less f", []string{"rm x FILE [via LESSOPEN]", "less f"}},
		{"LESSOPEN='|rm x %s' cat f", []string{"cat f"}},
	}
	for _, tt := range tests {
		if got := renderAll(a.Analyze(tt.src, "/p")); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q: got %q, want %q", tt.src, got, tt.want)
		}
	}
}
