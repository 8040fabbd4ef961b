package tamper

import (
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/config"
)

// TestJudgeFoldedCase: on a case-insensitive filesystem a Write of
// TESTS/TEST_CALC.PY rewrites tests/test_calc.py, and is judged as such.
// Linux's filesystems are case-sensitive: folding is simulated.
func TestJudgeFoldedCase(t *testing.T) {
	root := project(t, map[string]string{"tests/test_calc.py": pyTests})
	cfg, err := config.Default()
	if err != nil {
		t.Fatal(err)
	}
	write := ev(t, root, "Write", map[string]any{"file_path": "TESTS/TEST_CALC.PY", "content": "def test_add():\n    assert add(2, 3) == 5\n"})
	if !folds(root) {
		if v, err := Judge(cfg, root, write); err != nil || v != nil {
			t.Fatalf("case-sensitive: Judge = %+v, %v; want nothing (no such file)", v, err)
		}
	}
	defer func(f func(string) bool) { folds = f }(folds)
	folds = func(string) bool { return true }
	v, err := Judge(cfg, root, write)
	if err != nil || v == nil || v.Action != answer.Deny || v.Path != "tests/test_calc.py" {
		t.Fatalf("case-insensitive: Judge = %+v, %v; want a denial for tests/test_calc.py", v, err)
	}
}
