package risk

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
)

// TestGoIgnores checks which new names take a Go test out of go test's
// run, on this machine's GOOS and GOARCH.
func TestGoIgnores(t *testing.T) {
	other := "windows"
	if runtime.GOOS == other {
		other = "linux"
	}
	tests := []struct {
		from, to string
		want     bool
	}{
		{"p/a_test.go", "p/b_test.go", false},
		{"p/a_test.go", "p/a_" + runtime.GOOS + "_test.go", false},
		{"p/a_test.go", "p/a_" + runtime.GOARCH + "_test.go", false},
		{"p/a_test.go", "p/a_helper_test.go", false},
		{"p/a_test.go", "p/a_" + other + "_test.go", true},
		{"p/a_" + other + "_test.go", "p/b_" + other + "_test.go", false}, // it was another platform's already
		{"p/a_test.go", "p/_a_test.go", true},
		{"p/a_test.go", "p/.a_test.go", true},
		{"p/a_test.go", "p/testdata/a_test.go", true},
		{"p/a_test.go", "_p/a_test.go", true},
		{"p/testdata/a_test.go", "p/testdata/b_test.go", false},
		{"p/x.go", "p/testdata", true},
	}
	for _, tt := range tests {
		if got := goIgnores(tt.from, tt.to); got != tt.want {
			t.Errorf("goIgnores(%q, %q) = %v, want %v", tt.from, tt.to, got, tt.want)
		}
	}
}

// TestPytestIgnores checks which new places take a Python test out of a
// plain pytest's collection.
func TestPytestIgnores(t *testing.T) {
	tests := []struct {
		from, to string
		want     bool
	}{
		{"tests/test_a.py", "tests/test_b.py", false},
		{"tests/test_a.py", "build/test_a.py", true},
		{"tests/test_a.py", "tests/dist/test_a.py", true},
		{"tests/test_a.py", "venv/test_a.py", true},
		{"tests/test_a.py", ".hidden/test_a.py", true},
		{"tests/test_a.py", "x.egg/test_a.py", true},
		{"build/test_a.py", "build/test_b.py", false}, // not collected before either
		{"tests/test_a.py", "tests/unit/test_a.py", false},
	}
	for _, tt := range tests {
		if got := pytestIgnores(tt.from, tt.to); got != tt.want {
			t.Errorf("pytestIgnores(%q, %q) = %v, want %v", tt.from, tt.to, got, tt.want)
		}
	}
}

// TestHardLinkOutside checks that a hard link to a test made outside the
// project (on its filesystem) is written as the test.
func TestHardLinkOutside(t *testing.T) {
	root := sample(t)
	g := newGuard(t, root, nil)
	link := filepath.Join(t.TempDir(), "h")
	if err := os.Link(filepath.Join(root, "tests/test_a.py"), link); err != nil {
		t.Fatalf("link: %v", err)
	}
	for _, tt := range []struct {
		cmd  string
		want answer.Decision
	}{
		{"truncate -s0 " + link, answer.Deny},
		{": > " + link, answer.Deny},
	} {
		if v := g.Command(tt.cmd, root); v.Decision != tt.want {
			t.Errorf("%s = %s, want %s", tt.cmd, v.Decision, tt.want)
		}
	}
}
