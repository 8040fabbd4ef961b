package shell

import (
	"reflect"
	"strings"
	"testing"
)

// TestInterpreterCode checks what interpreter code runs, in the languages
// and spellings of issue 19: awk, Lua, Ruby and Python path expressions
// and variables, escapes, and scripts written earlier in the line.
func TestInterpreterCode(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // the commands after the interpreter's own
	}{
		{"awk system", `awk 'BEGIN { system("rm -rf /") }'`, []string{"rm -rf / [via awk]"}},
		{"awk octal escapes", `awk 'BEGIN { system("rm\040-rf\040/") }'`, []string{"rm -rf / [via awk]"}},
		{"awk getline", `awk 'BEGIN { "git reset --hard" | getline }'`, []string{"git reset --hard [via awk]"}},
		{"awk -f of a written file", "cat > p.awk <<'EOF'\nBEGIN { system(\"rm -rf ~\") }\nEOF\nawk -f p.awk", []string{"rm -rf /home/u [via awk]"}},
		{"awk data only", `awk -F, '{ print $1 }' data.csv`, nil},
		{"lua os.execute", `lua -e 'os.execute("rm -rf /")'`, []string{"rm -rf / [via lua -e]"}},
		{"lua os.remove", `lua -e 'os.remove("a.txt")'`, []string{"rm -f a.txt [via lua -e]"}},
		{"python variable", `python3 -c "import shutil; p = 'build'; shutil.rmtree(p)"`, []string{"rm -r -f build [via python3 -c]"}},
		{"python Path()", `python3 -c "import shutil, pathlib; shutil.rmtree(pathlib.Path('build'))"`, []string{"rm -r -f build [via python3 -c]"}},
		{"python os.path.join", `python3 -c "import os; os.remove(os.path.join('a', 'b.txt'))"`, []string{"rm -f a/b.txt [via python3 -c]"}},
		{"python home", `python3 -c "import shutil, os; shutil.rmtree(os.path.expanduser('~'))"`, []string{"rm -r -f /home/u [via python3 -c]"}},
		{"python hex escapes", `python3 -c "import os; os.system('rm\x20-rf\x20/')"`, []string{"rm -rf / [via python3 -c]"}},
		{"ruby Dir.home", `ruby -e 'require "fileutils"; FileUtils.rm_rf(Dir.home)'`, []string{"rm -r -f /home/u [via ruby -e]"}},
		{"ruby %w", `ruby -e 'FileUtils.rm_rf %w[build]'`, []string{"rm -r -f build [via ruby -e]"}},
		{"perl glob", `perl -e 'unlink glob("/etc/*")'`, []string{"rm -f /etc/* [via perl -e]"}},
		{"node variable", `node -e "const d = 'dist'; require('fs').rmSync(d, {recursive: true})"`, []string{"rm -r -f dist [via node -e]"}},
		{"a python script written in the line", "cat > c.py <<'EOF'\nimport shutil\nshutil.rmtree('build')\nEOF\npython3 c.py", []string{"rm -r -f build [via python3 -c]"}},
		{"a script written and run by path", "printf '#!/bin/sh\\nrm -rf build\\n' > r.sh; ./r.sh", []string{"rm -rf build [via ./r.sh]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := testAnalyzer().Analyze(tt.src, "/proj")
			var got []string
			for _, c := range a.Cmds {
				if len(c.Via) > 0 {
					got = append(got, render(c))
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Analyze(%q) ran %q, want %q (all: %q)", tt.src, got, tt.want, renderAll(a))
			}
		})
	}
	// awk running what it reads: opaque.
	for _, src := range []string{`awk '{ system($0) }' cmds`, `awk '{ print | "sh" }' cmds`} {
		if a := testAnalyzer().Analyze(src, "/proj"); len(a.Opaque) == 0 {
			t.Errorf("Analyze(%q).Opaque empty, want awk running its input", src)
		}
	}
}

// codeLangs are the languages of interpreter code.
var codeLangs = []string{"python", "node", "perl", "ruby", "php", "lua", "awk", "go"}

// FuzzCode checks that no interpreter code makes the analysis panic or
// run away, and that what it finds keeps the invariants.
func FuzzCode(f *testing.F) {
	for _, s := range []string{
		`import shutil; p = Path('x'); shutil.rmtree(p)`, `os.system('rm\x20-rf\x20/')`, `BEGIN { system("rm\040-rf") }`,
		`"cmd" | getline x`, `print | "sh"`, `os.execute("rm -rf /")`, `FileUtils.rm_rf %w[a b]`, `unlink glob("/etc/*")`,
		`x = os.path.join('a', os.path.expanduser('~'), 'b'); shutil.rmtree(x)`, `require('fs').rmSync(p = 'x')`,
		strings.Repeat("Path(", 100), `a = b = c = 'x'; os.remove(a)`,
		`exec.CommandContext(ctx, "rm", "-rf", dir).Run(); os.RemoveAll("tests")`,
	} {
		for i := range codeLangs {
			f.Add(uint8(i), s)
		}
	}
	f.Fuzz(func(t *testing.T, lang uint8, code string) {
		if len(code) > 4096 {
			return
		}
		a := &Analysis{}
		w := &walker{a: testAnalyzer(), out: a}
		sc := &scope{vars: map[string]value{"HOME": {vals: []string{"/home/u"}}}}
		sc.setCwd("/proj")
		w.code(&ctx{via: []string{"fuzz"}, line: 1}, codeLangs[int(lang)%len(codeLangs)], code, sc)
		a.Source = ""
		checkAnalysis(t, "", a)
	})
}
