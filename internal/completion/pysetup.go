package completion

import (
	"bytes"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// testSetup digests what runs with the test in the test file p besides
// its own source: a Go package's test files ([goSetup]), a Python test's
// packages and sibling test modules ([pySetup]); "" for other files.
func testSetup(root, p string) string {
	if strings.HasSuffix(p, ".py") {
		return pySetup(root, p)
	}
	return goSetup(root, p)
}

// pySetup digests, for the Python test file p, the __init__.py of its
// directory and of each directory above it up to the root, as code
// ([codeText]; one missing is recorded missing, so a new one is a
// change), and the code outside the tests ([pyOutside]) of the other test
// modules of its directory: pytest imports a test module's packages
// before it, and collects every module before it runs a test, so a
// tests/__init__.py or a new tests/test_aaa.py whose top level sets
// `calc.sub = lambda a, b: a - b` passes test_sub with calc.py and
// test_calc.py unchanged (attack_stop9_pysetup.txtar).
func pySetup(root, p string) string {
	var b strings.Builder
	dir := path.Dir(p)
	for d := dir; ; d = path.Dir(d) {
		rel := path.Join(d, "__init__.py")
		if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(rel))); err == nil {
			b.WriteString(rel + "\x00" + codeDigestFile(root, rel) + "\n")
		} else {
			b.WriteString(rel + "\x00-\n")
		}
		if d == "." || d == "/" || d == "" {
			break
		}
	}
	ents, _ := os.ReadDir(filepath.Join(root, filepath.FromSlash(dir)))
	var names []string
	for _, e := range ents {
		n := e.Name()
		if path.Join(dir, n) != p && e.Type().IsRegular() && strings.HasSuffix(n, ".py") && (strings.HasPrefix(n, "test_") || strings.HasSuffix(n, "_test.py")) {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		src, _ := readSmall(filepath.Join(root, filepath.FromSlash(dir), n))
		if top := bytes.TrimSpace(codeText(n, []byte(pyOutside(string(src))))); len(top) > 0 {
			b.WriteString(n + "\x00" + digest(top) + "\n") // only tests: nothing runs before them
		}
	}
	return digest([]byte(b.String()))
}

// setupNote is what Bent says of a test whose setup ([testSetup])
// changed while its own source did not: the old and the new line.
func setupNote(p string) (old, nw string) {
	if strings.HasSuffix(p, ".py") {
		return "its packages' __init__.py and the other test modules of its directory",
			"its packages' __init__.py or the other test modules of its directory changed (top-level code that runs before the test)"
	}
	return "the package's test files", "the package's test files changed (an init, TestMain, variable or helper that runs with the test)"
}
