package shell

import (
	"io/fs"
	"reflect"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// TestZsh checks the zsh reading of command lines bash parses too: the
// commands zsh runs, as rendered by render (the bash reading's commands
// come along), and what is opaque.
func TestZsh(t *testing.T) {
	tests := []struct {
		src    string
		want   []string // rendered commands; nil to skip the check
		opaque string   // a substring of Opaque; "" for none
	}{
		{"=rm -rf tests", []string{"rm -rf tests", "=rm -rf tests"}, ""},
		{"'=rm' -rf tests", []string{"=rm -rf tests"}, ""},
		{"noglob rm -rf tests", []string{"rm -rf tests [via noglob]"}, ""},
		{"nocorrect noglob rm x", []string{"rm x [via nocorrect, noglob]"}, ""},
		{"- rm x", []string{"rm x [via -]"}, ""},
		{"repeat 2 rm x", []string{"rm x [via repeat]"}, ""},
		{"repeat 2 { rm x }", []string{"repeat 2 { rm x }", "rm x [via repeat]"}, ""},
		{"repeat 2 { rm x; rm y }", []string{"repeat 2 { rm x", "rm x [via repeat]", "rm y }"}, ""},
		{"zf_rm -rf tests", []string{"rm -rf tests"}, ""},
		{"zf_chmod 777 x", []string{"chmod 777 x"}, ""},
		{"emulate sh -c 'rm x'", []string{"emulate sh -c rm x", "rm x [via emulate -c]"}, ""},
		{"zargs -- a b -- rm -f", []string{"rm -f a b [via zargs]"}, ""},
		{"zargs -l 2 -- a b -- rm -f", []string{"rm -f a b [via zargs]"}, ""},
		{"zargs a", []string{"zargs a"}, ""},
		{"zpty -b p 'rm x'", []string{"zpty -b p rm x", "rm x [via zpty]"}, ""},
		{"zstyle -e :c s 'rm x'", []string{"zstyle -e :c s rm x", "rm x [via zstyle -e]"}, ""},
		{"zstyle :c s 'rm x'", []string{"zstyle :c s rm x"}, ""},
		{"TRAPEXIT() { rm x; }", []string{"rm x [via TRAPEXIT()]", "rm x [via TRAPEXIT()]"}, ""}, // where set and where the script ends
		{"TRAPexit() { rm x; }", nil, ""},
		{"precmd() { rm x; }", []string{"rm x [via precmd()]", "rm x [via precmd()]"}, ""},
		{"c='rm -rf x'; $=c", []string{"rm -rf x"}, ""},
		{"c='x*'; rm $~c", []string{"rm x*"}, ""},
		{"$=c", []string{""}, ""},
		{"echo $=", []string{"echo $="}, ""},
		{"ls *(e:'rm x':)", nil, "glob qualifier"},
		{"ls *(.e:'rm x':)", nil, "glob qualifier"},
		{"ls *(+f)", nil, "glob qualifier"},
		{"ls *(Oe:'rm x':)", nil, "glob qualifier"},
		{"ls *(u:root:e:'rm x':)", nil, "glob qualifier"},
		{"ls *(.)", nil, ""},
		{"ls *(om[1,3])", nil, ""},
		{"ls *(Lk+10)", nil, ""},
		{"ls *(:e)", nil, ""},
		{"ls *(u:root:)", nil, ""},
		{"ls @(a|b)", nil, ""},
		{"functions[x]='rm y'", nil, "functions[x]"},
		{"functions=(x 'rm y')", nil, "functions=("},
		{"declare -A galiases; galiases[X]='rm y'", nil, "galiases"},
		{"mapfile[x]=y", nil, "mapfile"},
		{"fpath+=(.)", nil, "fpath"},
		{"m[x]=1", nil, ""},
		{"sched +1 'rm x'", []string{"sched +1 rm x", "rm x [via sched]"}, ""},
		{"sched -o 10:00 rm x", []string{"sched -o 10:00 rm x", "rm x [via sched]"}, ""},
		{"sched -1", []string{"sched -1"}, ""},
		{"c='*(e:rm:)'; ls $~c", nil, "glob qualifiers"},
		{"c='*.go'; ls $~c", nil, ""},
		{"setopt GLOB_SUBST", nil, "GLOB_SUBST"},
		{"zmv '(*)' x", nil, "zmv"},
		{"setopt extended_glob", nil, "extended_glob"},
		{"setopt nullglob", nil, ""},
		{"set -o extendedglob", nil, "extendedglob"},
		{"set -A functions x 'rm y'", nil, "set -A functions"},
		{"alias -g X='rm y'", nil, "global or suffix alias"},
		{"alias x='rm y'", nil, ""},
		{"add-zsh-hook precmd f", nil, "add-zsh-hook"},
		{"autoload -U ./f", nil, "autoload"},
		{"autoload -U zmv", nil, ""},
		{"unset 'mapfile[x]'", nil, "mapfile"},
		{"sysopen -w -u 3 x", nil, "sysopen"},
		{"sysopen -r -u 3 x", nil, ""},
		// hash binds a name to a program (progcopy.go): ls is rm.
		{"hash ls=/bin/rm; ls -rf x", []string{"hash ls=/bin/rm", "rm -rf x"}, ""},
		{"hash -p /bin/rm ls; ls -rf x", []string{"hash -p /bin/rm ls", "rm -rf x"}, ""},
		{"hash -r", nil, ""},
		{"r", nil, "history"},
		{"R -e 1", nil, ""},
		{"fc -e - a=b", nil, "history"},
		{"fc -l", nil, ""},
		{"fc -e vi", nil, "history"},
		{"fc", nil, "history"},
		{"fc -W", nil, ""},
		{"fc -p", nil, ""},
		{"NULLCMD=f", nil, "NULLCMD"},
		{"setopt PROMPT_SUBST", nil, "PROMPT_SUBST"},
		{"zsh -o extendedglob -c 'ls'", nil, "extendedglob"},
		{"ZDOTDIR=$(date) zsh -c ls", nil, "ZDOTDIR computed"},
		{"ZDOTDIR=/p zsh -c 'rm x'", []string{"zsh -c rm x", "rm x [via zsh -c]"}, ""},
	}
	for _, tt := range tests {
		a := testAnalyzer().Analyze(tt.src, "/proj")
		if tt.want != nil {
			if got := renderAll(a); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("%q: got %q, want %q", tt.src, got, tt.want)
			}
		}
		got := strings.Join(a.Opaque, "; ")
		if tt.opaque == "" && got != "" || !strings.Contains(got, tt.opaque) {
			t.Errorf("%q: opaque %q, want %q", tt.src, got, tt.opaque)
		}
	}
}

// TestZshWords checks the values zsh gives ~NAME and the targets of >!.
func TestZshWords(t *testing.T) {
	tests := []struct {
		src  string
		want []string // every value of the last command's last argument, or of its last redirection's target
	}{
		{"x=/p/tests; rm ~x/a", []string{"/home/x/a", "/p/tests/a"}},
		{"hash -d t=/p/tests; rm ~t", []string{"/home/t", "/p/tests"}},
		{"x=rel; rm ~x", []string{"/home/x"}},
		{"rm ~u/a", []string{"/home/u/a"}},
		{"rm ~/a", []string{"/home/u/a"}},
		{"x=$(date); rm ~x", nil},
		{"true >! f", []string{"f"}},
		{"true >>!f", []string{"f"}},
		{"true > '!'", []string{"!"}},
	}
	for _, tt := range tests {
		a := testAnalyzer().Analyze(tt.src, "/proj")
		c := a.Cmds[len(a.Cmds)-1]
		var wd Word
		if len(c.Redirs) > 0 {
			wd = c.Redirs[len(c.Redirs)-1].Target
		} else {
			wd = c.Args[len(c.Args)-1]
		}
		if tt.want == nil {
			if !wd.Dynamic {
				t.Errorf("%q: %q, want dynamic", tt.src, wd.Values)
			}
			continue
		}
		if !reflect.DeepEqual(wd.Values, tt.want) {
			t.Errorf("%q: %q, want %q", tt.src, wd.Values, tt.want)
		}
	}
}

// FuzzZshQualifier feeds glob qualifier lists to zshQualifier: it must
// not panic.
func FuzzZshQualifier(f *testing.F) {
	for _, s := range []string{"e:'rm x':", "u:r:", "om[1]", "Lk+10", "f{u+x}", "P:x", "#qe:y:", "u"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		zshQualifier(&syntax.ExtGlob{Op: syntax.GlobZeroOrMore, Pattern: &syntax.Lit{Value: s}})
	})
}

// TestZshStartup checks that the startup files a shell started with
// ZDOTDIR or BASH_ENV reads are walked as scripts.
func TestZshStartup(t *testing.T) {
	files := map[string]string{"/p/.zshenv": "rm -rf tests\n", "/p/env.sh": "rm -rf src\n"}
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
		{"ZDOTDIR=/p zsh -c true", []string{"rm -rf tests [via zsh ZDOTDIR]", "zsh -c true", "true [via zsh -c]"}},
		{"ZDOTDIR=/q zsh -c true", []string{"zsh -c true", "true [via zsh -c]"}},
		// bashEnv's: any program may start a bash, which reads it.
		{"BASH_ENV=env.sh bash -c true", []string{"rm -rf src [via BASH_ENV]", "bash -c true", "true [via bash -c]"}},
	}
	for _, tt := range tests {
		if got := renderAll(a.Analyze(tt.src, "/p")); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q: got %q, want %q", tt.src, got, tt.want)
		}
	}
}

// TestZshPattern checks the bash glob that stands for a zsh extendedglob
// word.
func TestZshPattern(t *testing.T) {
	tests := []struct {
		src, want string // "" for none
	}{
		{"rm ^src", "*"},
		{"rm tests/^keep.go", "tests/*"},
		{"rm *~src", "*"},
		{"rm tests/*.go~tests/keep.go", "tests/*.go"},
		{"rm '^src'", ""},
		{`rm \^src`, ""},
		{"rm a~b", ""},
		{"rm *.go~", "*.go"},
		{"rm ~/x", ""},
		{"rm -^x", ""},
		{"rm x^y", ""},
		{"rm $x/^y", ""},
	}
	for _, tt := range tests {
		a := testAnalyzer().Analyze(tt.src, "/proj")
		got, ok := ZshPattern(a.Cmds[0].Args[0])
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("%q: %q %v, want %q", tt.src, got, ok, tt.want)
		}
	}
}

// TestEchoText checks what echo prints of text holding a backslash.
func TestEchoText(t *testing.T) {
	tests := []struct {
		text  string
		e, E  bool
		want  string
		known bool
	}{
		{`\x72m -rf x`, true, false, "rm -rf x", true},
		{`\0162m`, true, false, "rm", true},
		{`a\nb\tc`, true, false, "a\nb\tc", true},
		{`a\cb`, true, false, "a", true},
		{`\u00e9\U0001F600`, true, false, "é😀", true},
		{`a\\b\q`, true, false, `a\b\q`, true},
		{`\x`, true, false, `\x`, true},
		{`\x72m`, false, false, "", false},
		{`ok\`, false, false, `ok\`, true},
		{`a\q`, false, false, `a\q`, true},
		{`\x72m`, false, true, `\x72m`, true},
	}
	for _, tt := range tests {
		got, known := echoText(tt.text, tt.e, tt.E)
		if got != tt.want || known != tt.known {
			t.Errorf("echoText(%q, %v, %v) = %q, %v; want %q, %v", tt.text, tt.e, tt.E, got, known, tt.want, tt.known)
		}
	}
}
