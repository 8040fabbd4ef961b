package risk

import (
	"path/filepath"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
)

// TestFold checks that on a case-insensitive filesystem (macOS's and
// Windows' defaults) a test file named in another case is judged as the
// test file it is: `rm -rf TESTS` deletes tests/ there. Linux's
// filesystems are case-sensitive, so the folding is simulated (fold set);
// onDisk finds the entries by listing their directories, as the probe
// would let it on macOS.
func TestFold(t *testing.T) {
	root := sample(t)
	for _, tc := range []struct{ typed, real string }{
		{"rm -rf TESTS", "rm -rf tests"},
		{"rm -f Tests/Test_A.py", "rm -f tests/test_a.py"},
		{"echo x > src/MAIN_TEST.GO", "echo x > src/main_test.go"},
		{"cp README.md WEB/__Tests__/X.test.js", "cp README.md web/__tests__/x.test.js"},
		{"rm -rf Web/__TESTS__", "rm -rf web/__tests__"},
		{"sed -i d PKG/Foo/Foo_Test.go", "sed -i d pkg/foo/foo_test.go"},
		{"cd TESTS && rm -rf ../SRC/Main_Test.go", "cd tests && rm -rf ../src/main_test.go"},
		{"truncate -s0 " + root + "/SRC/main_test.GO", "truncate -s0 " + root + "/src/main_test.go"},
	} {
		g := newGuard(t, root, nil)
		if !g.folds() {
			if v := g.Command(tc.typed, root); v.Decision != answer.Allow {
				t.Errorf("case-sensitive: %s = %s, want allow (no such file)", tc.typed, v.Decision)
			}
		}
		g = newGuard(t, root, nil)
		g.fold = foldYes
		want := g.Command(tc.real, root).Decision
		if want == answer.Allow {
			t.Fatalf("%s is allowed: the case proves nothing", tc.real)
		}
		if v := g.Command(tc.typed, root); v.Decision != want {
			t.Errorf("case-insensitive: %s = %s, want %s as %s", tc.typed, v.Decision, want, tc.real)
		}
	}
	for _, tc := range []struct{ typed, real string }{
		{"SRC/Main_Test.go", "src/main_test.go"},
		{"tests/TEST_A.PY", "tests/test_a.py"},
	} {
		g := newGuard(t, root, nil)
		g.fold = foldYes
		want := g.File("Write", filepath.Join(root, tc.real))
		got := g.File("Write", filepath.Join(root, tc.typed))
		if want.Decision == answer.Allow || got.Decision != want.Decision {
			t.Errorf("Write %s = %s, want %s as %s", tc.typed, got.Decision, want.Decision, tc.real)
		}
	}
}
