package completion

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/testindex"
)

// TestPytestAbove: a project with no pytest configuration of its own has
// its parents' digested (pytest would read them); one with its own has
// not.
func TestPytestAbove(t *testing.T) {
	dir := t.TempDir()
	put(t, filepath.Join(dir, "pytest.ini"), "[pytest]\n")
	put(t, filepath.Join(dir, "conftest.py"), "x = 1\n")
	put(t, filepath.Join(dir, "a/proj/test_calc.py"), "def test_x(): pass\n")
	put(t, filepath.Join(dir, "b/proj/test_calc.py"), "def test_x(): pass\n")
	put(t, filepath.Join(dir, "b/proj/setup.cfg"), "[tool:pytest]\naddopts = -q\n")
	idx := testindex.Index{"test_calc.py": {}}

	in := Collect(filepath.Join(dir, "a/proj"), "pytest", idx, nil, time.Time{})
	for _, k := range []string{"../../pytest.ini", "../../conftest.py"} {
		if _, ok := in[k]; !ok {
			t.Errorf("no configuration of its own: %s not digested (%v)", k, in)
		}
	}
	in = Collect(filepath.Join(dir, "b/proj"), "pytest", idx, nil, time.Time{})
	if _, ok := in["../../pytest.ini"]; ok {
		t.Errorf("a setup.cfg [tool:pytest] of its own: its parents' digested too")
	}
}
