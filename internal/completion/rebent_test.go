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
		t.Skip("no go")
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
