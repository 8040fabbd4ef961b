package completion

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/testindex"
)

// Expectation is what a loop keeps of a test that failed at its start:
// its source then, and the digest of the code it exercises.
type Expectation struct {
	Test Test   `json:"test"`
	Body string `json:"body"` // the test function's source, at most maxBody bytes
	Code string `json:"code"` // digest of the code under test
	// Goldens are the expected outputs its file compares with (golden
	// files, snapshots; goldens.go): path from the root → digest.
	Goldens map[string]string `json:"goldens,omitempty"`
	// Hard are the lines of the code under test that compared its inputs
	// with the test's literals at the start (hardcoded.go): not the
	// loop's doing.
	Hard []string `json:"hard,omitempty"`
	// Setup is, for a Go test, the digest of its package's test files as
	// code (gosetup.go): an init, a TestMain or a helper there runs with
	// the test; for a Python test, of its packages' __init__.py and its
	// directory's other test modules' top level (pysetup.go).
	Setup string `json:"setup,omitempty"`
}

// BentTest is a test that failed at the start and passes now, whose own
// source changed while the code it exercises did not.
type BentTest struct {
	Test Test
	Old  []string // lines of the old source that are gone (its expectations, its assertions)
	New  []string // lines that took their place
}

// maxBody bounds the source kept of one failing test.
const maxBody = 16 << 10

// maxExpectations bounds the failing tests a baseline keeps.
const maxExpectations = 200

// Expectations returns, for each test of idx that failed in res (the
// baseline run), its source and the digest of the code it exercises:
//
//   - Go: the test function; the non-test .go files of its package.
//   - Python: the test function (or method), and the module's code outside
//     its tests (fixtures, helpers, an assignment that patches the code
//     under test); the local modules its file
//     imports, found beside it, at the root or under src/, else every
//     Python file of the project that is no test file.
//   - Rust: the test function; the .rs files that are no test files.
//   - JavaScript and TypeScript: the it, test or specify call that holds
//     the test (found by its own title), and the file's code outside its
//     tests (mocks of the code under test, helpers, hooks); the files its
//     file imports by a
//     relative path (require, import, import()), else every JavaScript
//     and TypeScript file of the project that is no test file.
//   - Ruby (rspec): the example found by its title, and the file's code
//     outside its examples (a class reopened, a before hook, a let); the
//     files it requires (require_relative, or lib/ for require), else
//     every Ruby file of the project that is no test file.
//   - Java and Kotlin (JUnit): the test method; the project's Java and
//     Kotlin files that are no test files.
//
// Other languages are not followed.
func Expectations(root string, globs []string, idx testindex.Index, res Results) []Expectation {
	m := newMapper(root)
	var out []Expectation
	codes := map[string]string{} // by test file
	goldens := map[string]map[string]string{}
	for _, p := range sortedPaths(idx) {
		for _, name := range idx[p].Tests {
			t, ok := m.test(p, name)
			if !ok || outcome(res, t) != Fail {
				continue
			}
			body := testSource(root, t)
			if body == "" {
				continue
			}
			if _, ok := codes[p]; !ok {
				codes[p] = codeDigest(root, globs, p)
				goldens[p] = goldenDigests(root, p)
			}
			out = append(out, Expectation{Test: t, Body: body, Code: codes[p], Goldens: goldens[p], Hard: hardLines(root, globs, p, body), Setup: testSetup(root, p)})
			if len(out) >= maxExpectations {
				return dedupExp(out)
			}
		}
	}
	return dedupExp(out)
}

// Bent returns the expectations whose test passes in cur, whose source
// or expected outputs (golden files, snapshots) changed, and whose code
// under test did not: the test was bent to agree with the code, not the
// code fixed.
func Bent(root string, globs []string, exp []Expectation, cur Results) []BentTest {
	var out []BentTest
	for _, e := range exp {
		if outcome(cur, e.Test) != Pass {
			continue
		}
		body := testSource(root, e.Test)
		if body == "" {
			continue
		}
		rewritten := goldensChanged(root, e.Goldens)
		setup := e.Setup != "" && testSetup(root, e.Test.Path) != e.Setup // pysetup.go
		if body == e.Body && len(rewritten) == 0 && !setup {
			continue
		}
		if codeDigest(root, globs, e.Test.Path) != e.Code {
			continue // the code changed too: a fix, with the test adjusted
		}
		old, nw := lineDiff(e.Body, body)
		for _, g := range rewritten {
			old = append(old, "expected output "+g)
			nw = append(nw, g+" rewritten")
		}
		if setup && body == e.Body {
			o, n := setupNote(e.Test.Path)
			old = append(old, o)
			nw = append(nw, n)
		}
		out = append(out, BentTest{Test: e.Test, Old: old, New: nw})
	}
	return out
}

func dedupExp(es []Expectation) []Expectation {
	seen := map[Test]bool{}
	out := es[:0]
	for _, e := range es {
		if !seen[e.Test] {
			seen[e.Test] = true
			out = append(out, e)
		}
	}
	return out
}

// lineDiff returns the lines (trimmed) of a missing from b, and of b
// missing from a, in order.
func lineDiff(a, b string) (gone, added []string) {
	count := func(s string) map[string]int {
		m := map[string]int{}
		for _, l := range strings.Split(s, "\n") {
			m[strings.TrimSpace(l)]++
		}
		return m
	}
	ca, cb := count(a), count(b)
	for _, l := range strings.Split(a, "\n") {
		if t := strings.TrimSpace(l); t != "" && cb[t] == 0 {
			gone = append(gone, t)
		} else {
			cb[t]--
		}
	}
	for _, l := range strings.Split(b, "\n") {
		if t := strings.TrimSpace(l); t != "" && ca[t] == 0 {
			added = append(added, t)
		} else {
			ca[t]--
		}
	}
	return gone, added
}

// testSource returns the source of test t, "" when it cannot be found.
func testSource(root string, t Test) string {
	src, err := readSmall(filepath.Join(root, filepath.FromSlash(t.Path)))
	if err != nil || src == nil {
		return ""
	}
	name := t.Name
	if i := strings.LastIndex(name, "::"); i >= 0 && !jsFile(t.Path) {
		name = name[i+2:]
	}
	var body string
	switch {
	case strings.HasSuffix(t.Path, ".go"):
		body = goFunc(src, name)
	case strings.HasSuffix(t.Path, ".py"):
		if body = withAbove(string(src), pyFunc(src, name)); body != "" {
			// What the module does outside its tests (a fixture, a
			// helper, calc.sub = … patching the code under test) is
			// part of the test too.
			body += "\n" + pyOutside(string(src))
		}
	case strings.HasSuffix(t.Path, ".rs"):
		body = withAbove(string(src), braceFunc(src, "fn "+name))
	case strings.HasSuffix(t.Path, ".rb"):
		title := t.Name
		if i := strings.LastIndex(title, " > "); i >= 0 {
			title = title[i+3:]
		}
		body = rbSource(string(src), title) // bent_rb.go
	case strings.HasSuffix(t.Path, ".java"), strings.HasSuffix(t.Path, ".kt"):
		m := t.Name
		if i := strings.LastIndexAny(m, ".#"); i >= 0 {
			m = m[i+1:]
		}
		if i := strings.IndexAny(m, "(["); i >= 0 {
			m = m[:i]
		}
		body = withAbove(string(src), javaMethod(src, m))
	case jsFile(t.Path):
		title := t.Name
		if i := strings.LastIndex(title, " > "); i >= 0 {
			title = title[i+3:]
		}
		if call := jsCall(string(src), title); call != "" {
			// What the file does outside its tests (a jest.mock or
			// vi.mock of the code under test, a helper, a beforeEach)
			// is part of the test too.
			body = call + "\n" + jsOutside(string(src))
		}
	}
	if body != "" {
		// The test's own support modules (tests/helpers.py, a spec's
		// support file) are part of it: one that patches the code under
		// test bends the test as much as the test's own lines.
		for _, f := range supportImports(root, t.Path) {
			if src, _ := readSmall(filepath.Join(root, filepath.FromSlash(f))); src != nil {
				body += "\n# " + f + "\n" + string(src)
			}
		}
	}
	if len(body) > maxBody {
		body = body[:maxBody]
	}
	return body
}

// supportImports returns the project's files the test file p imports that
// are test support ([testSupport]), not code under test.
func supportImports(root, p string) []string {
	var imps []string
	switch {
	case strings.HasSuffix(p, ".py"):
		imps = pyImports(root, p)
	case strings.HasSuffix(p, ".rb"):
		imps = rbRequiresAll(root, p)
	case jsFile(p):
		imps = jsImports(root, p)
	}
	var out []string
	for _, f := range imps {
		if testSupport(f) && f != p && path.Base(f) != "__init__.py" {
			out = append(out, f)
		}
	}
	return out
}

// notSupport returns files without the test support among them.
func notSupport(files []string) []string {
	out := files[:0]
	for _, f := range files {
		if !testSupport(f) {
			out = append(out, f)
		}
	}
	return out
}

func goFunc(src []byte, name string) string {
	fset := token.NewFileSet()
	af, _ := parser.ParseFile(fset, "x.go", src, parser.SkipObjectResolution)
	if af == nil {
		return ""
	}
	for _, d := range af.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && fn.Name.Name == name {
			from, to := fset.Position(fn.Pos()).Offset, fset.Position(fn.End()).Offset
			if from >= 0 && to <= len(src) && from < to {
				return string(src[from:to])
			}
		}
	}
	return ""
}

// pyFunc returns "def name(" and the lines indented below it.
func pyFunc(src []byte, name string) string {
	lines := strings.Split(string(src), "\n")
	for i, l := range lines {
		t := strings.TrimLeft(l, " \t")
		if !strings.HasPrefix(t, "def "+name+"(") && !strings.HasPrefix(t, "async def "+name+"(") {
			continue
		}
		indent := len(l) - len(t)
		end := i + 1
		for end < len(lines) {
			lt := strings.TrimLeft(lines[end], " \t")
			if lt != "" && len(lines[end])-len(lt) <= indent {
				break
			}
			end++
		}
		return strings.Join(lines[i:end], "\n")
	}
	return ""
}

// pyOutside returns the Python module src without its test functions and
// test classes (def test…, async def test…, class Test…, each with the
// decorators above it): what the module does around its tests.
func pyOutside(src string) string {
	var b strings.Builder
	var deco []string // decorators waiting for what they decorate
	skip := false
	for _, l := range strings.Split(src, "\n") {
		t := strings.TrimSpace(l)
		top := t != "" && l[0] != ' ' && l[0] != '\t'
		if !top {
			if !skip && len(deco) == 0 {
				b.WriteString(l + "\n")
			}
			continue
		}
		skip = false
		switch {
		case strings.HasPrefix(t, "@"):
			deco = append(deco, l)
			continue
		case strings.HasPrefix(t, "def test"), strings.HasPrefix(t, "async def test"), strings.HasPrefix(t, "class Test"):
			skip = true
		default:
			for _, d := range deco {
				b.WriteString(d + "\n")
			}
			b.WriteString(l + "\n")
		}
		deco = deco[:0]
	}
	return b.String()
}

// braceFunc returns the text from head to the brace that closes the body
// after it (strings and comments are not lexed: a best effort).
func braceFunc(src []byte, head string) string {
	s := string(src)
	i := strings.Index(s, head+"(")
	if i < 0 {
		return ""
	}
	depth, opened := 0, false
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '{':
			depth++
			opened = true
		case '}':
			depth--
			if opened && depth == 0 {
				return s[i : j+1]
			}
		}
	}
	return s[i:]
}

// codeDigest digests the code a test in file p exercises (see
// [Expectations]).
func codeDigest(root string, globs []string, p string) string {
	var all bytes.Buffer
	for _, f := range codeFiles(root, globs, p) {
		all.WriteString(f + "\x00" + codeDigestFile(root, f) + "\n")
	}
	return digest(all.Bytes())
}

// codeFiles returns the files of the code the test file p exercises (see
// [Expectations]), sorted.
func codeFiles(root string, globs []string, p string) []string {
	var files []string
	switch {
	case strings.HasSuffix(p, ".go"):
		dir := filepath.Join(root, filepath.FromSlash(path.Dir(p)))
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if n := e.Name(); strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
				files = append(files, path.Join(path.Dir(p), n))
			}
		}
	case strings.HasSuffix(p, ".py"):
		files = notSupport(pyImports(root, p))
		if len(files) == 0 {
			files = sourceFiles(root, globs, ".py")
		}
	case strings.HasSuffix(p, ".rs"):
		files = sourceFiles(root, globs, ".rs")
	case strings.HasSuffix(p, ".rb"):
		files = rbRequires(root, p)
		if len(files) == 0 {
			files = sourceFiles(root, globs, ".rb")
		}
	case strings.HasSuffix(p, ".java"), strings.HasSuffix(p, ".kt"):
		files = append(sourceFiles(root, globs, ".java"), sourceFiles(root, globs, ".kt")...)
	case jsFile(p):
		files = notSupport(jsImports(root, p))
		if len(files) == 0 {
			for _, ext := range jsExts {
				files = append(files, sourceFiles(root, globs, ext)...)
			}
		}
	}
	sort.Strings(files)
	return files
}

// pyImports resolves the modules the Python file p imports to files of
// the project: beside it, at the root, or under src/.
func pyImports(root, p string) []string {
	src, _ := readSmall(filepath.Join(root, filepath.FromSlash(p)))
	var out []string
	seen := map[string]bool{}
	for _, l := range strings.Split(string(src), "\n") {
		f := strings.Fields(l)
		if len(f) < 2 || (f[0] != "import" && f[0] != "from") {
			continue
		}
		mods := []string{f[1]}
		if f[0] == "import" {
			mods = strings.Split(strings.Join(f[1:], " "), ",")
		} else if len(f) > 3 && f[2] == "import" {
			// from pkg import mod: pkg/mod.py too.
			for _, name := range strings.Split(strings.Join(f[3:], " "), ",") {
				if n := strings.Fields(strings.Trim(name, " ()") + " ")[0]; n != "" && n != "*" {
					mods = append(mods, strings.TrimRight(f[1], ".")+"."+n)
				}
			}
		}
		for _, mod := range mods {
			mod = strings.TrimSpace(strings.Fields(mod + " ")[0])
			mod = strings.TrimLeft(mod, ".")
			if mod == "" {
				continue
			}
			rel := strings.ReplaceAll(mod, ".", "/")
			for _, base := range []string{path.Dir(p), ".", "src"} {
				for _, cand := range []string{rel + ".py", rel + "/__init__.py"} {
					c := path.Clean(path.Join(base, cand))
					if !seen[c] && digestFile(filepath.Join(root, filepath.FromSlash(c))) != "" {
						seen[c] = true
						out = append(out, c)
					}
				}
			}
		}
	}
	return out
}

// sourceFiles returns the files of the project ending in ext that are no
// test files, up to a bound.
func sourceFiles(root string, globs []string, ext string) []string {
	var out []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if p != root && (project.NotSource(d.Name()) || d.Name() == "target") {
				return filepath.SkipDir
			}
			return nil
		}
		rel := filepath.ToSlash(strings.TrimPrefix(strings.TrimPrefix(p, root), string(filepath.Separator)))
		if strings.HasSuffix(rel, ext) && !testindex.IsTestFile(globs, rel) && path.Base(rel) != "conftest.py" {
			out = append(out, rel)
		}
		if len(out) >= 5000 {
			return filepath.SkipAll
		}
		return nil
	})
	return out
}

// jsExts are the extensions of JavaScript and TypeScript files.
var jsExts = []string{".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".mts", ".cts"}

// jsTestCall matches the start of a test call and its title: it('…',
// test.only("…", specify(`…`, xit(…, test.concurrent(….
var jsTestCall = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(?:it|test|specify|xit|fit|xtest)(?:\.(?:only|skip|concurrent|failing|fails|sequential))*\s*\(\s*(?:'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|` + "`([^`$]*)`" + `)`)
})

// jsCall returns the source of the first test call of src titled title,
// to its closing parenthesis (strings, template literals and comments
// skipped; regular expression literals are not told from division: a
// best effort).
func jsCall(src, title string) string {
	for _, m := range jsTestCall().FindAllStringSubmatchIndex(src, -1) {
		var got string
		for g := 1; g <= 3; g++ {
			if m[2*g] >= 0 {
				got = src[m[2*g]:m[2*g+1]]
			}
		}
		if unescapeJS(got) != title {
			continue
		}
		open := strings.IndexByte(src[m[0]:m[1]], '(') + m[0]
		if end := jsClose(src, open); end > 0 {
			return src[m[0]:end]
		}
		return src[m[0]:]
	}
	return ""
}

// jsOutside returns src without its test calls.
func jsOutside(src string) string {
	var b strings.Builder
	last := 0
	for _, m := range jsTestCall().FindAllStringIndex(src, -1) {
		if m[0] < last {
			continue
		}
		open := strings.IndexByte(src[m[0]:m[1]], '(') + m[0]
		end := jsClose(src, open)
		if end == 0 {
			break
		}
		b.WriteString(src[last:m[0]])
		last = end
	}
	b.WriteString(src[last:])
	return b.String()
}

func unescapeJS(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// jsClose returns the offset after the bracket that closes the one at
// open, 0 when there is none.
func jsClose(src string, open int) int {
	depth := 0
	for i := open; i < len(src); i++ {
		switch c := src[i]; c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				return i + 1
			}
		case '\'', '"', '`':
			for i++; i < len(src) && src[i] != c; i++ {
				if src[i] == '\\' {
					i++
				}
			}
		case '/':
			if i+1 < len(src) && src[i+1] == '/' {
				for i < len(src) && src[i] != '\n' {
					i++
				}
			} else if i+1 < len(src) && src[i+1] == '*' {
				if j := strings.Index(src[i+2:], "*/"); j >= 0 {
					i += j + 3
				} else {
					return 0
				}
			}
		}
	}
	return 0
}

// jsImport matches a relative module a JavaScript file imports.
var jsImport = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:\bfrom|\brequire\s*\(|\bimport\s*\(|\bimport)\s*['"](\.{1,2}/[^'"\n]+)['"]`)
})

// jsImports resolves the relative modules the JavaScript file p imports to
// files of the project, as node and bundlers do: the path, with one of
// jsExts, or its index file.
func jsImports(root, p string) []string {
	src, _ := readSmall(filepath.Join(root, filepath.FromSlash(p)))
	var out []string
	seen := map[string]bool{}
	for _, m := range jsImport().FindAllStringSubmatch(string(src), 200) {
		base := path.Join(path.Dir(p), m[1])
		if strings.HasPrefix(base, "../") || base == ".." {
			continue
		}
		cands := []string{base}
		for _, ext := range jsExts {
			cands = append(cands, base+ext)
		}
		for _, ext := range jsExts {
			cands = append(cands, base+"/index"+ext)
		}
		// TypeScript's ESM style: './calc.js' names calc.ts.
		if ext := path.Ext(base); ext == ".js" || ext == ".mjs" || ext == ".cjs" {
			stem := strings.TrimSuffix(base, ext)
			cands = append(cands, stem+".ts", stem+".mts", stem+".cts", stem+".tsx")
		}
		for _, c := range cands {
			if seen[c] {
				break
			}
			if digestFile(filepath.Join(root, filepath.FromSlash(c))) != "" {
				seen[c] = true
				out = append(out, c)
				break
			}
		}
	}
	return out
}
