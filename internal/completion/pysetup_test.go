package completion

import (
	"os"
	"path/filepath"
	"testing"
)

func TestPySetup(t *testing.T) {
	root := t.TempDir()
	mkfile(t, root, "calc.py", "def sub(a, b):\n    return a + b\n")
	mkfile(t, root, "tests/test_calc.py", "from calc import sub\n\n\ndef test_sub():\n    assert sub(5, 3) == 2\n")
	mkfile(t, root, "tests/helpers.py", "X = 1\n")
	base := pySetup(root, "tests/test_calc.py")
	for _, c := range []struct {
		name    string
		file    string // written (relative to root); "" removes nothing
		content string
		changed bool
	}{
		{"a comment in a new __init__.py is still a new file", "tests/__init__.py", "# tests\n", true},
		{"tests/__init__.py patching the code under test", "tests/__init__.py", "import calc\ncalc.sub = lambda a, b: a - b\n", true},
		{"the root's __init__.py", "__init__.py", "import calc\ncalc.sub = None\n", true},
		{"a sibling test module's top level", "tests/test_aaa.py", "import calc\ncalc.sub = lambda a, b: a - b\n", true},
		{"a sibling test module's new test", "tests/test_zzz.py", "def test_more():\n    assert True\n", false},
		{"a helper module that is no test module", "tests/helpers.py", "X = 2\n", false},
		{"the test file itself (its body is the test's)", "tests/test_calc.py", "import calc\ncalc.sub = None\n", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(root, filepath.FromSlash(c.file))
			old, had := os.ReadFile(p)
			mkfile(t, root, c.file, c.content)
			defer func() {
				if had == nil {
					mkfile(t, root, c.file, string(old))
				} else if err := os.Remove(p); err != nil {
					t.Fatal(err)
				}
			}()
			if got := pySetup(root, "tests/test_calc.py") != base; got != c.changed {
				t.Errorf("setup changed = %v, want %v", got, c.changed)
			}
		})
	}
	if pySetup(root, "tests/test_calc.py") != base {
		t.Error("setup differs with every file put back")
	}
	if s := testSetup(root, "tests/test_calc.py"); s != base {
		t.Errorf("testSetup of a Python test = %q, want pySetup's %q", s, base)
	}
	if s := testSetup(root, "calc.rb"); s != "" {
		t.Errorf("testSetup of a Ruby file = %q, want \"\"", s)
	}
}
