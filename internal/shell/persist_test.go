package shell

import (
	"slices"
	"strings"
	"testing"
)

func TestOutlasting(t *testing.T) {
	tests := []struct {
		src           string
		defs, readers string // substrings of the joined findings; "" for none
	}{
		{"alias ls='rm -rf src'", "alias ls=rm -rf src", ""},
		{"alias", "", ""},
		{"ls() { rm -rf src; }", "the function ls", ""},
		{"trap 'rm -rf src' EXIT", "trap rm -rf src EXIT", ""},
		{"trap -p", "", ""},
		{"PROMPT_COMMAND='rm -rf src'", "PROMPT_COMMAND", ""},
		{"PATH=./bin go test", "", ""}, // for one command only
		{"export PATH=./bin:$PATH", "export PATH", ""},
		{"declare -x BASH_ENV=./x.sh", "BASH_ENV", ""},
		{"printf -v PS1 '%s' x", "printf PS1", ""},
		{"read IFS", "read IFS", ""},
		{"BASH_ALIASES[ls]=x", "BASH_ALIASES", ""},
		{"exec >log.txt", "exec with redirections", ""},
		{"exec python3", "exec python3", "python3"},
		{"set -euo pipefail", "", ""},
		{"set -k", "set -k", ""},
		{"set -o posix", "set -o posix", ""},
		{"set -- a b", "", ""},
		{"shopt -s expand_aliases", "shopt -s expand_aliases", ""},
		{"shopt -p", "", ""},
		{"source .venv/bin/activate", "source .venv/bin/activate", ""},
		{"eval \"alias ls='rm -rf src'\"", "alias ls=rm -rf src", ""},
		{"eval \"$X\"", "eval of computed text", ""},
		{"eval 'echo hi'", "", ""},
		{"builtin alias x=y", "alias x=y", ""},
		{"hash -p /bin/rm ls", "hash -p /bin/rm ls", ""},
		// zsh's.
		{"setopt extendedglob", "setopt extendedglob", ""},
		{"setopt", "", ""},
		{"unsetopt nomatch", "unsetopt nomatch", ""},
		{"sched +1 'rm -rf src'", "sched +1 rm -rf src", ""},
		{"autoload -U zmv", "autoload -U zmv", ""},
		{"bindkey -s '^M' 'rm -rf src^M'", "bindkey -s", ""},
		{"bindkey -L", "", ""},
		{"add-zsh-hook precmd f", "add-zsh-hook precmd f", ""},
		{"emulate sh", "emulate sh", ""},
		{"emulate sh -c 'ls'", "", ""},
		{"hash ls=/bin/rm", "hash ls=/bin/rm", ""},
		{"hash -d src=/tmp", "hash -d src=/tmp", ""},
		{"functions[ls]='rm -rf src'", "functions", ""},
		{"path=(./bin $path)", "path", ""},
		{"NULLCMD=f", "NULLCMD", ""},
		{"noglob vim", "", "vim"},
		{"python3", "", "python3"},
		{"python3 -i app.py", "", "python3"},
		{"python3 -", "", "python3"},
		{"python3 app.py", "", ""},
		{"python3 -m pytest", "", ""},
		{"python3 -c 'print(1)'", "", ""},
		{"bash", "", "bash"},
		{"bash --norc -i", "", "bash"},
		{"bash -lc 'ls'", "", ""},
		{"bash run.sh", "", ""},
		{"sudo -u x bash", "", "bash"},
		{"node", "", "node"},
		{"node server.js", "", ""},
		{"psql -d app", "", "psql"},
		{"psql -c 'select 1'", "", ""},
		{"sqlite3 app.db", "", "sqlite3"},
		{"sqlite3 app.db .tables", "", ""},
		{"ssh host", "", "ssh"},
		{"ssh -p 22 host", "", "ssh"},
		{"ssh host ls", "", ""},
		{"vim x.go", "", "vim"},
		{"python3 < in.py", "", ""},
		{"cat in.py | python3", "", ""},
		{"python3 <<EOF\nprint(1)\nEOF", "", ""},
		{"python3 &", "", ""},
		{"go test ./...", "", ""},
		{"cat >> tests/test_a.py", "", "cat (writing what is typed into a file)"},
		{"cat > notes.txt", "", "cat"},
		{"cat notes.txt > copy.txt", "", ""},
		{"cat", "", ""},
		{"tee -a log.txt", "", "tee"},
		{"echo x | tee log.txt", "", ""},
		{"dd of=x.bin", "", "dd"},
		{"dd if=a of=b", "", ""},
		{"echo 'hi", "", ""},
	}
	for _, tt := range tests {
		l := Outlasting(tt.src)
		defs, readers := strings.Join(l.Defs, "; "), strings.Join(l.Readers, ", ")
		if tt.defs == "" && defs != "" || !strings.Contains(defs, tt.defs) {
			t.Errorf("Outlasting(%q).Defs = %q, want %q", tt.src, defs, tt.defs)
		}
		if tt.readers == "" && readers != "" || !strings.Contains(readers, tt.readers) {
			t.Errorf("Outlasting(%q).Readers = %q, want %q", tt.src, readers, tt.readers)
		}
	}
}

func TestDirs(t *testing.T) {
	exists := func(p string) bool { return !strings.Contains(p, "new") }
	tests := []struct {
		src   string
		want  []string // nil: unknown
		known bool
	}{
		{"ls", []string{"/p"}, true},
		{"cd sub", []string{"/p/sub"}, true},
		{"cd /", []string{"/"}, true},
		{"cd ..; cd x", []string{"/x"}, true},
		{"cd new", []string{"/p", "/p/new"}, true}, // may fail: not there yet
		{"mkdir -p new && cd new", []string{"/p", "/p/new"}, true},
		{"cd sub && go test", []string{"/p/sub"}, true},
		{"true && cd sub", []string{"/p", "/p/sub"}, true},
		{"if x; then cd sub; fi", []string{"/p", "/p/sub"}, true},
		{"(cd sub; ls)", []string{"/p"}, true},
		{"cd sub | cat", []string{"/p"}, true},
		{"cd sub &", []string{"/p"}, true},
		{"echo $(cd /)", []string{"/p"}, true},
		{"cd \"$X\"", nil, false},
		{"cd", nil, false},
		{"cd -", nil, false},
		{"cd ~/x", nil, false},
		{"pushd /tmp", nil, false},
		{"popd", nil, false},
		{"eval cd /", nil, false},
		{"source x.sh", nil, false},
		{"$X /", nil, false},
		{"for d in a b; do cd $d; done", nil, false},
		{"for d in a b; do cd x; done", nil, false},
		{"f() { cd /; }; f", nil, false},
		{"f() { echo hi; }; f", []string{"/p"}, true},
		{"cd a; cd b; cd c; cd d; true && cd e", []string{"/p/a/b/c/d", "/p/a/b/c/d/e"}, true},
		{"true && cd a; true && cd b; true && cd c", nil, false}, // too many
		{"cd 'x y'", []string{"/p/x y"}, true},
		{"builtin cd /", []string{"/"}, true},
	}
	for _, tt := range tests {
		got, known := Dirs(tt.src, []string{"/p"}, exists)
		slices.Sort(got)
		if known != tt.known || known && !slices.Equal(got, tt.want) {
			t.Errorf("Dirs(%q) = %q, %v; want %q, %v", tt.src, got, known, tt.want, tt.known)
		}
	}
}

func FuzzOutlasting(f *testing.F) {
	for _, s := range []string{"alias ls='rm -rf src'", "cd /; ls() { cd x; }", "eval \"eval 'alias a=b'\"", "python3 -i", "cd sub && cd ..", "exec 3<>x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		Outlasting(src)
		if dirs, known := Dirs(src, []string{"/p"}, func(string) bool { return true }); known && len(dirs) == 0 {
			t.Errorf("Dirs(%q): known, but no directory", src)
		}
	})
}
