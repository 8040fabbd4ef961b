package completion

import (
	"testing"
)

// TestCodeText: a comment or blank lines added to code are no change of
// it; a change inside a string, or of the code, is.
func TestCodeText(t *testing.T) {
	for _, c := range []struct {
		rel, a, b string
		same      bool
	}{
		{"calc.go", "package calc\n\nfunc Sub(a, b int) int { return a + b }\n", "package calc\n\n// Sub subtracts.\nfunc Sub(a, b int) int {\n\treturn a + b /* the sum, for now */\n}\n\n", true},
		{"calc.go", "package calc\n\nfunc Sub(a, b int) int { return a + b }\n", "package calc\n\nfunc Sub(a, b int) int { return a - b }\n", false},
		{"calc.go", "package calc\n\nvar s = \"a // b\"\n", "package calc\n\nvar s = \"a // c\"\n", false},
		{"calc.py", "def sub(a, b):\n    return a + b\n", "# helper\ndef sub(a, b):  # subtracts\n\n    return a + b\n", true},
		{"calc.py", "s = '# not a comment'\n", "s = '# changed'\n", false},
		{"calc.py", "def f():\n    \"\"\"doc # x\"\"\"\n", "def f():\n    \"\"\"doc # y\"\"\"\n", false},
		{"calc.js", "exports.sub = (a, b) => a + b;\n", "/** sub */\nexports.sub = (a, b) => a + b; // same\n", true},
		{"calc.js", "const u = 'http://x';\n", "const u = 'http://y';\n", false},
		{"calc.js", "const t = `a\n// b`;\n", "const t = `a\n// c`;\n", false},
		{"lib.rs", "fn sub(a: i32, b: i32) -> i32 { a + b }", "/// Subtracts.\nfn sub(a: i32, b: i32) -> i32 { a + b }", true},
	} {
		same := string(codeText(c.rel, []byte(c.a))) == string(codeText(c.rel, []byte(c.b)))
		if same != c.same {
			t.Errorf("%s: %q vs %q: same %v, want %v", c.rel, c.a, c.b, same, c.same)
		}
	}
}

// FuzzCodeText: any source (the agent's to write) is read without
// panicking, and adding a line comment at its end changes nothing.
func FuzzCodeText(f *testing.F) {
	f.Add("calc.go", "package calc\nfunc f() { return \"//\" }\n")
	f.Add("calc.py", "s = '''a\n# b'''\n# c\n")
	f.Add("calc.js", "x = `/* ${y} */` /* z */\n'\\'' // q")
	f.Fuzz(func(t *testing.T, rel, src string) {
		codeText(rel, []byte(src))
	})
}
