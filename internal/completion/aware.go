package completion

import (
	"bytes"
	"os"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/testindex"
	"github.com/ralph-hooks/ralph-hooks/internal/treeview"
)

// AwareLabel starts the digests of [testChecks]: "test check in REL:
// LABEL". A change of one is a test_aware regression, not a
// completion_tampered one.
const AwareLabel = "test check in "

// testCheck is one way code asks whether it runs under a test runner.
type testCheck struct {
	label  string
	exts   []string // the files it is looked for in
	needle string   // a word the line must hold, before the pattern is tried
	re     *regexp.Regexp
}

var (
	goExts   = []string{".go"}
	pyExts   = []string{".py"}
	rsExts   = []string{".rs"}
	javaExts = []string{".java", ".kt", ".scala", ".groovy"}
	rbExts   = []string{".rb"}
)

// testChecks are the runtime and environment checks code under test has
// no business making: with one, it can give the tests the answer they
// want and the program another.
var testChecks = sync.OnceValue(func() []testCheck {
	c := func(label string, exts []string, needle, re string) testCheck {
		return testCheck{label, exts, needle, regexp.MustCompile(re)}
	}
	return append([]testCheck{
		c("testing.Testing()", goExts, "Testing", `\btesting\.Testing\(\)`),
		c("a test flag", goExts, "test.", `"-?test\.(v|run|skip|short|count|timeout|bench\w*|cpu|parallel|failfast|list|cover\w*|paniconexit0|testlogfile|gocoverdir|shuffle|fullpath)\b`),
		c("the test binary's name", goExts, ".test", `(os\.Args|Executable\(\)).*\.test\b|\.test\b.*os\.Args`),
		c("PYTEST_CURRENT_TEST", pyExts, "PYTEST_", `PYTEST_(CURRENT_TEST|VERSION|XDIST_WORKER)`),
		c("pytest loaded", pyExts, "pytest", `["']_?pytest["']\s*(not\s+)?in\s+sys\.modules|sys\.modules\.get\(\s*["']_?pytest|sys\.argv.*pytest|pytest.*sys\.argv|^\s*(import|from)\s+_?pytest\b`),
		c("unittest loaded", pyExts, "unittest", `["']unittest["']\s*(not\s+)?in\s+sys\.modules|sys\.argv.*unittest`),
		c("JEST_WORKER_ID", jsExts, "JEST_", `JEST_WORKER_ID`),
		c("VITEST", jsExts, "VITEST", `\bVITEST(_[A-Z_]+)?\b`),
		c("a test runner's global", jsExts, "typeof", `typeof\s+(jest|vi|describe|it|expect|beforeEach)\b`),
		c("a test runner's global", jsExts, "globalThis", `globalThis\s*\.\s*(jest|vi|expect|__vitest\w*)\b`),
		c("NODE_ENV test", jsExts, "NODE_ENV", `NODE_ENV\s*[!=]==?\s*['"`+"`"+`]test['"`+"`"+`]|['"`+"`"+`]test['"`+"`"+`]\s*[!=]==?\s*process\.env\.NODE_ENV`),
		c("the runner's command line", jsExts, "argv", `process\.argv.*\b(jest|vitest|mocha)\b`),
		c("cfg(test)", rsExts, "test", `cfg!\s*\(\s*test\s*\)|cfg\s*\(\s*not\s*\(\s*test\s*\)\s*\)`),
		c("RUST_TEST_THREADS", rsExts, "RUST_TEST", `RUST_TEST_[A-Z_]+`),
		c("a test framework", javaExts, "", `\b(org\.junit|junit\.framework|org\.testng|org\.apache\.maven\.surefire)\b|surefire\.(real\.class\.path|test\.class\.path)`),
		c("a test framework", rbExts, "", `defined\?\(\s*(::)?(RSpec|Minitest)\b|\$(0|PROGRAM_NAME).*\b(rspec|rake)\b|\bRSpec\.(current_example|configuration)\b`),
	}, moreTestChecks()...) // aware_more.go
})

// awareExts are the extensions of the files testChecks look in, known
// without compiling them: listing the files costs no regexp, and a Stop
// whose files did not change since the start reads none of them
// (TestAwareExts holds the two to the same extensions).
var awareExts = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, exts := range [][]string{goExts, pyExts, jsExts, rsExts, javaExts, rbExts} {
		for _, e := range exts {
			m[e] = true
		}
	}
	return m
})

// testChecksIn digests, in every source file of the project that is no
// test file nor test support (see [testSupport]), the lines that ask
// whether the code runs under a test runner: "test check in calc.go:
// testing.Testing()". Such a check added since the start, or changed, is
// code under test that can answer the tests otherwise than it answers
// the program (if testing.Testing() { return 2 }). A file unchanged since
// base was collected keeps base's digests.
func testChecksIn(v *treeview.View, idx testindex.Index, in, base Inputs, since time.Time) {
	// Go files are read by goStart, which digests their checks too.
	rels := v.Files(func(name string) bool { return path.Ext(name) != ".go" && awareExts()[path.Ext(name)] }, func(rel string) bool {
		_, test := idx[rel]
		return !test && !testSupport(rel)
	})
	eachChanged(v, rels, in, base, since, []string{AwareLabel}, func(rel string, src []byte) {
		for label, lines := range testCheckLines(rel, src) {
			in.add(AwareLabel+rel+": "+label, []byte(strings.Join(lines, "\n")))
		}
	})
}

// eachChanged calls fn with the text of each regular file of rels (up to
// maxInput bytes) changed since base was collected (see [unchanged]); a
// file unchanged keeps in base's digests of it, those whose key is one of
// labels followed by the file's path and ": ".
func eachChanged(v *treeview.View, rels []string, in, base Inputs, since time.Time, labels []string, fn func(rel string, src []byte)) {
	prev := map[string][]string{} // base's digests by file
	for k := range base {
		for _, label := range labels {
			if rest, ok := strings.CutPrefix(k, label); ok {
				if i := strings.LastIndex(rest, ": "); i >= 0 {
					prev[rest[:i]] = append(prev[rest[:i]], k)
				}
			}
		}
	}
	v.StatAll(rels)
	for _, rel := range rels {
		st, ok := v.Stat(rel)
		if !ok || !st.Mode.IsRegular() || st.Size > maxInput {
			continue
		}
		if unchanged(v, rel, base, since) {
			for _, k := range prev[rel] {
				in[k] = base[k]
			}
			continue
		}
		if src, err := os.ReadFile(v.Path(rel)); err == nil {
			fn(rel, src)
		}
	}
}

// testCheckLines returns the lines of the file rel, whose text is src,
// that ask whether it runs under a test runner, trimmed, by the label of
// the check.
func testCheckLines(rel string, src []byte) map[string][]string {
	ext := path.Ext(rel)
	var out map[string][]string
	for _, c := range testChecks() {
		if !hasExt(c.exts, ext) || (c.needle != "" && !bytes.Contains(src, []byte(c.needle))) {
			continue
		}
		for _, l := range strings.Split(string(src), "\n") {
			if (c.needle == "" || strings.Contains(l, c.needle)) && c.re.MatchString(l) {
				if out == nil {
					out = map[string][]string{}
				}
				out[c.label] = append(out[c.label], strings.TrimSpace(l))
			}
		}
	}
	for label, ls := range out {
		sort.Strings(ls)
		out[label] = slices.Compact(ls) // a line two checks of one label found
	}
	return out
}

func hasExt(exts []string, ext string) bool {
	for _, e := range exts {
		if e == ext {
			return true
		}
	}
	return false
}

// testDirs are directories whose files are tests or test support.
var testDirs = map[string]bool{"test": true, "tests": true, "spec": true, "specs": true, "__tests__": true, "__mocks__": true,
	"testdata": true, "testing": true, "fixtures": true, "e2e": true, "testutil": true, "testutils": true, "test-utils": true}

// testSupport reports whether rel is test code by its place or name,
// whether or not the census counts tests in it: a file under a test
// directory (src/test/java too), a test file of any runner's naming, a
// conftest.py, a runner's setup or config file, an rspec helper.
func testSupport(rel string) bool {
	dirs := strings.Split(path.Dir(rel), "/")
	for _, d := range dirs {
		if testDirs[d] {
			return true
		}
	}
	b := path.Base(rel)
	stem := strings.TrimSuffix(b, path.Ext(b))
	switch {
	case strings.HasSuffix(b, "_test.go"), strings.HasPrefix(b, "test_") && strings.HasSuffix(b, ".py"),
		strings.HasSuffix(b, "_test.py"), b == "conftest.py", strings.HasSuffix(b, "_spec.rb"), strings.HasSuffix(b, "_test.rb"),
		b == "spec_helper.rb", b == "rails_helper.rb", strings.HasSuffix(stem, "Test"), strings.HasSuffix(stem, "Tests"),
		strings.HasSuffix(stem, "IT"), strings.HasSuffix(stem, "Spec"):
		return true
	}
	for _, part := range strings.Split(stem, ".")[1:] {
		switch part {
		case "test", "spec", "config", "setup":
			return true
		}
	}
	for _, pre := range []string{"setupTests", "setup-tests", "jest.", "vitest.", "vite.", "karma.", "playwright.", "cypress."} {
		if strings.HasPrefix(b, pre) {
			return true
		}
	}
	return false
}
