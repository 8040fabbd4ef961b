package shell

import (
	"regexp"
	"strings"
	"testing"
)

// TestDynQuick: every form of dynCalls holds one of its language's quick
// substrings, so that skipping code without them skips nothing.
func TestDynQuick(t *testing.T) {
	tables()
	if len(dynCalls) == 0 {
		t.Fatal("no dynamic-code forms")
	}
	samples := map[string][]string{
		"python": {`exec(x)`, `eval(x)`, `compile(x, "f", "exec")`, `execfile(x)`, `__import__(m)`, `importlib.import_module(m)`,
			`getattr(os, n)`, `os.__dict__["remove"]`, `vars(os)["remove"]`, `globals()["x"]`, `__builtins__["exec"]`, `p.unlink()`, `p.rmdir()`, `p.write_text("")`, `p.write_bytes(b"")`},
		"node": {`eval(x)`, `new Function(x)`, `vm.runInThisContext(x)`, `require(m)`, `import(m)`, `fs[m]("x")`},
		"ruby": {`eval(x)`, `instance_eval(x)`, `File.send(m, "x")`, `File.method(m)`, `Object.const_get(c)`, `File.send(:delete, "x")`},
		"perl": {`eval $x`, `eval("x")`},
		"php":  {`eval($x)`, `assert($x)`, `create_function("", $x)`, `call_user_func($f)`, `array_map("unlink", $a)`, `usort($a, "system")`, `register_shutdown_function("exec", $c)`},
	}
	for lang, calls := range dynCalls {
		for _, d := range calls {
			re := regexp.MustCompile(d.re)
			matched := false
			for _, s := range samples[lang] {
				if !re.MatchString(s) {
					continue
				}
				matched = true
				hit := false
				for _, q := range dynQuick[lang] {
					hit = hit || strings.Contains(s, q)
				}
				if !hit {
					t.Errorf("%s: %q matches %s but holds none of dynQuick", lang, s, d.re)
				}
			}
			if !matched {
				t.Errorf("%s: no sample matches %s", lang, d.re)
			}
		}
	}
}

// TestDynamic: code that runs what it computes is opaque; a literal eval is
// read as code; a path object's unlink deletes what it names.
func TestDynamic(t *testing.T) {
	tests := []struct {
		src    string
		opaque bool
		want   string // a command the analysis must show ("" for none)
	}{
		{`python3 -c "exec(bytes.fromhex('41').decode())"`, true, ""},
		{`python3 -c "exec('import shutil; shutil.rmtree(\"t\")')"`, false, "rm -r -f t"},
		{`python3 -c 'import os; getattr(os, "rem" + "ove")("x")'`, true, ""},
		{`python3 -c 'import os; print(getattr(os, "sep"))'`, false, ""},
		{`python3 -c 'print(eval("1+2"))'`, false, ""},
		{`python3 -c 'from pathlib import Path; p = Path("t/x"); p.unlink()'`, false, "rm -f t/x"},
		{`python3 -c 'import os; os.unlink("t/y")'`, false, "rm -f t/y"},
		{`node -e 'eval(process.argv[1])'`, true, ""},
		{`node -e 'console.log(require("os").cpus().length)'`, false, ""},
		{`ruby -e 'File.send(:delete, "x")'`, true, ""},
		{`ruby -e 'puts [1].send(:first)'`, false, ""},
		{`php -r 'array_map("unlink", glob("t/*"));'`, true, ""},
		{`perl -e 'eval $code'`, true, ""},
	}
	for _, tt := range tests {
		a := testAnalyzer().Analyze(tt.src, "/proj")
		if got := len(a.Opaque) > 0; got != tt.opaque {
			t.Errorf("%s: opaque = %v (%q), want %v", tt.src, got, a.Opaque, tt.opaque)
		}
		if tt.want != "" && !strings.Contains(strings.Join(renderAll(a), "; "), tt.want) {
			t.Errorf("%s: %s, want %q among its commands", tt.src, renderAll(a), tt.want)
		}
	}
}
