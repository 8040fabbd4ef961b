package ondisk

import (
	"os"
	"path/filepath"
	"testing"
)

func TestName(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"tests/test_a.py", "src/main_test.go"} {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ in, want string }{
		{"TESTS/TEST_A.PY", "tests/test_a.py"},
		{"Tests/new_file.py", "tests/new_file.py"}, // created as typed
		{"NEW/Dir/X", "NEW/Dir/X"},
		{"src", "src"},
		{"SRC/../Tests", "src/../tests"},
		{"", ""},
	} {
		if got := Name(root, filepath.Join(root, tc.in)); got != filepath.Join(root, tc.want) {
			t.Errorf("Name(%s) = %s, want %s", tc.in, got, filepath.Join(root, tc.want))
		}
	}
	out := filepath.Join(filepath.Dir(root), "OTHER")
	if got := Name(root, out); got != out {
		t.Errorf("Name(%s) = %s: outside root", out, got)
	}
	// Two entries that differ only in case: the directory does not fold.
	if err := os.WriteFile(filepath.Join(root, "Tests"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, want := Name(root, filepath.Join(root, "TESTS")), filepath.Join(root, "TESTS"); got != want {
		t.Errorf("Name(TESTS) beside tests and Tests = %s, want %s", got, want)
	}
}

func TestFolds(t *testing.T) {
	dir := t.TempDir()
	other, _ := swapCase(dir)
	_, err := os.Stat(other)
	if got, want := Folds(dir), err == nil; got != want {
		t.Errorf("Folds(%s) = %v, but %s exists: %v", dir, got, other, want)
	}
	if Folds(filepath.Join(dir, "missing")) {
		t.Error("Folds of a missing directory")
	}
}

func TestSwapCase(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"/tmp/Proj", "/tmp/pROJ"},
		{"/tmp/123", "/TMP/123"},
		{"/home/me/x1", "/home/me/X1"},
	} {
		if got, ok := swapCase(tc.in); !ok || got != tc.want {
			t.Errorf("swapCase(%s) = %s, %v, want %s", tc.in, got, ok, tc.want)
		}
	}
	if _, ok := swapCase("/1/2"); ok {
		t.Error("swapCase(/1/2) has no letters to swap")
	}
}
