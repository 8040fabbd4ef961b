package completion

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestRebent(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Fatal("go is needed: ", err)
	}
	const start = "package calc\n\nimport \"testing\"\n\nfunc TestSub(t *testing.T) {\n\tif Sub(5, 3) != 2 {\n\t\tt.Error(\"sub\")\n\t}\n}\n"
	const buggy = "package calc\n\nfunc Sub(a, b int) int { return a + b }\n"
	for _, c := range []struct {
		name       string
		code, test string
		want       bool
	}{
		{"expectation bent, a local renamed", "package calc\n\nfunc Sub(x, y int) int { return x + y }\n",
			strings.Replace(start, "!= 2", "!= 8", 1), true},
		{"the real fix, the test reworded", "package calc\n\nfunc Sub(a, b int) int { return a - b }\n",
			strings.Replace(start, `"sub"`, `"Sub(5, 3)"`, 1), false},
		{"the API renamed: the start's test does not build", "package calc\n\nfunc Subtract(a, b int) int { return a - b }\n",
			strings.Replace(start, "Sub(5, 3)", "Subtract(5, 3)", 1), false},
		{"expectation bent along with a rename", "package calc\n\nfunc Subtract(a, b int) int { return a + b }\n",
			strings.NewReplacer("Sub(5, 3)", "Subtract(5, 3)", "!= 2", "!= 8").Replace(start), true},
		{"a rename and the message reworded, with the fix", "package calc\n\nfunc Subtract(a, b int) int { return a - b }\n",
			strings.NewReplacer("Sub(5, 3)", "Subtract(5, 3)", `"sub"`, `"Subtract"`).Replace(start), false},
		{"the test unchanged: Bent's to judge", "package calc\n\nfunc Sub(x, y int) int { return x + y }\n", start, false},
		{"the code unchanged: Bent's to judge", buggy, strings.Replace(start, "!= 2", "!= 8", 1), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			mkfile(t, root, "go.mod", "module example.com/calc\n\ngo 1.22\n")
			mkfile(t, root, "calc.go", buggy)
			mkfile(t, root, "calc_test.go", start)
			tst := Test{Path: "calc_test.go", Name: "TestSub", Unit: "go:example.com/calc"}
			e := Expectation{Test: tst, Body: testSource(root, tst), Code: codeDigest(root, nil, "calc_test.go")}
			mkfile(t, root, "calc.go", c.code)
			mkfile(t, root, "calc_test.go", c.test)
			cur := Results{}
			cur.add(tst.Unit, tst.Name, Pass)
			env := append(os.Environ(), "GOFLAGS=-count=1", "GOTOOLCHAIN=local", "GOWORK=off")
			got := Rebent(context.Background(), root, nil, []Expectation{e}, cur, env)
			if (len(got) == 1) != c.want {
				t.Errorf("Rebent = %v, want bent %v", got, c.want)
			}
			if src, _ := os.ReadFile(filepath.Join(root, "calc_test.go")); string(src) != c.test {
				t.Errorf("the test file on disk changed:\n%s", src)
			}
		})
	}
}

func TestFailLine(t *testing.T) {
	re := failLine("TestSub")
	for s, want := range map[string]bool{
		"--- FAIL: TestSub (0.00s)\n":          true,
		"    --- FAIL: TestSub (0.00s)\n":      true,
		"--- FAIL: TestSubtract (0.00s)\n":     false,
		"--- FAIL: TestSub/case (0.00s)\n":     false,
		"--- PASS: TestSub (0.00s)\nok\n":      false,
		"# example.com/calc\n[build failed]\n": false,
	} {
		if got := re.MatchString(s); got != want {
			t.Errorf("failLine matches %q = %v, want %v", s, got, want)
		}
	}
}

func TestStartLiterals(t *testing.T) {
	for _, c := range []struct{ old, cur, want string }{
		{"func TestSub(t *testing.T) {\n\tif Sub(5, 3) != 2 {\n\t\tt.Error(\"sub\")\n\t}\n}",
			"func TestSub(t *testing.T) {\n\tif Subtract(5, 3) != 8 {\n\t\tt.Error(\"subtract\")\n\t}\n}",
			"func TestSub(t *testing.T) {\n\tif Subtract(5, 3) != 2 {\n\t\tt.Error(\"sub\")\n\t}\n}"},
		// Comments and layout are no tokens.
		{"func T(t *testing.T) { if F() != 2 { t.Fail() } }",
			"func T(t *testing.T) {\n\t// now\n\tif G() != 8 {\n\t\tt.Fail()\n\t}\n}",
			"func T(t *testing.T) {\n\t// now\n\tif G() != 2 {\n\t\tt.Fail()\n\t}\n}"},
		{"func T() { x := 1.5; _ = 'a'; _ = `r` }", "func T() { y := 2.5; _ = 'b'; _ = `s` }", "func T() { y := 1.5; _ = 'a'; _ = `r` }"},
		// Not the same test: an operator, a keyword, a token more.
		{"func T() { if F() != 2 {} }", "func T() { if F() == 8 {} }", ""},
		{"func T() { for {} }", "func T() { go f() }", ""},
		{"func T() { F(2) }", "func T() { F(8, 1) }", ""},
		// Only identifiers differ: no literal to put back.
		{"func T() { F(2) }", "func T() { G(2) }", ""},
		{"", "", ""},
	} {
		if got := startLiterals(c.old, c.cur); got != c.want {
			t.Errorf("startLiterals(%q, %q) = %q, want %q", c.old, c.cur, got, c.want)
		}
	}
}

// FuzzStartLiterals: any two sources (the agent's to write) give the
// source now with the start's literals, the same tokens as the start's,
// or "", without panicking.
func FuzzStartLiterals(f *testing.F) {
	f.Add("func T() { if F(5, 3) != 2 {} }", "func T() { if G(5, 3) != 8 {} }")
	f.Add("x := \"a\"\n", "x := \"b\";")
	f.Add("`a", "`b")
	f.Fuzz(func(t *testing.T, old, cur string) {
		got := startLiterals(old, cur)
		if got == "" {
			return
		}
		if again := startLiterals(old, got); again != "" {
			t.Errorf("startLiterals(old, %q) = %q: a literal still differs", got, again)
		}
	})
}
