package completion

import "testing"

// TestExitsComputed: exits reached by a computed name are exit lines;
// the everyday getattr, send and dict forms are not.
func TestExitsComputed(t *testing.T) {
	for _, c := range []struct {
		rel, line string
		exit      bool
	}{
		{"calc.py", `getattr(shutil.os, "_ex" + "it")(0)`, true},
		{"calc.py", `getattr(m, "_ex" + "it")(0)`, true},
		{"calc.py", `getattr(m, name)(0)`, true},
		{"calc.py", `getattr(m, f"_{n}")(0)`, true},
		{"calc.py", `getattr(m, "_%s" % n)(0)`, true},
		{"calc.py", `vars(os)["_ex" + "it"](0)`, true},
		{"calc.py", `__import__("o" + "s")._ex` + `it(0)`, true},
		{"calc.py", `m = importlib.import_module("o" + "s")`, true},
		{"calc.py", `m = sys.modules["o" + "s"]`, true},
		{"calc.py", `operator.methodcaller("_ex" + "it", 0)(m)`, true},
		{"calc.py", `exec("import o" + "s; o" + "s._ex" + "it(0)")`, true},
		{"calc.py", `eval(code)`, true},
		{"calc.py", `m.__getattribute__("_ex" + "it")(0)`, true},
		{"calc.py", `m = tempfile._os`, true},
		{"calc.py", `m = subprocess.os`, true},
		{"calc.py", `value = getattr(obj, "name", None)`, false},
		{"calc.py", `value = getattr(obj, 'name')`, false},
		{"calc.py", `p = os.path.join(a, b)`, false},
		{"calc.py", `return self.evaluate(x)`, false},
		{"calc.py", `d = dict(a=1)`, false},
		{"calc.py", `pat = re.compile(r"\d+")`, false},
		{"calc.py", `v = ast.literal_eval(s)`, false},
		{"calc.py", `code = compile(src, "x", "exec")`, true},
		{"lib/calc.rb", `Process.send("ex" + "it!", 0)`, true},
		{"lib/calc.rb", `Process.public_send(name, 0)`, true},
		{"lib/calc.rb", `Process.__send__(:"exit!", 0)`, true},
		{"lib/calc.rb", `Process.method(:exit!).call(0)`, true},
		{"lib/calc.rb", `Kernel.instance_eval { exit!(0) }`, true},
		{"lib/calc.rb", `Object.const_get("Pro" + "cess")`, true},
		{"lib/calc.rb", `obj.send(:name)`, false},
		{"lib/calc.rb", `mailer.deliver(message)`, false},
		{"lib/calc.rb", `def sub(a, b) = a - b`, false},
	} {
		if got := len(exitLines(c.rel, []byte(c.line+"\n"))) > 0; got != c.exit {
			t.Errorf("%s %q: an exit line = %v, want %v", c.rel, c.line, got, c.exit)
		}
	}
}
