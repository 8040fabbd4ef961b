package completion

import (
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// goSetup digests, for the Go test file p, every test file of its
// package's directory as code ([codeText]): what runs in the test binary
// with the test besides its own function — an init or a package-level
// variable that replaces the code under test's function value, a
// TestMain, a helper the test calls. A new setup_test.go whose init sets
// `sub = func(a, b int) int { return a - b }` passes TestSub with calc.go
// unchanged (attack_stop_go_setup.txtar). "" for a file that is not Go.
func goSetup(root, p string) string {
	if !strings.HasSuffix(p, "_test.go") {
		return ""
	}
	dir := path.Dir(p)
	ents, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(dir)))
	if err != nil {
		return ""
	}
	var names []string
	for _, e := range ents {
		if n := e.Name(); strings.HasSuffix(n, "_test.go") && e.Type().IsRegular() {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		rel := path.Join(dir, n)
		b.WriteString(n + "\x00" + codeDigestFile(root, rel) + "\n")
	}
	return digest([]byte(b.String()))
}
