package completion

import (
	_ "embed"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/tidwall/gjson"
)

// shim is the node module ralph loads into every node process of a run
// (NODE_OPTIONS=--require): in the process of a jest, vitest or mocha
// command line, it asks the runner for a report of every test it runs,
// written into RALPH_REPORT_DIR (see shim.cjs).
//
//go:embed shim.cjs
var shim []byte

// ReportDirVar names the directory the runners write their reports into.
const ReportDirVar = "RALPH_REPORT_DIR"

// maxReport bounds a report file that is read.
const maxReport = 64 << 20

// Reports are the per-test reports of one run of the completion command
// that do not come through its output: files the runners write, which
// ralph asks for through their environment or finds where they always
// write them.
//
//   - jest, vitest, mocha: the shim (NODE_OPTIONS) adds jest's --json
//     --outputFile, vitest's json reporter, mocha's root hook plugin, each
//     writing into a directory of ralph's outside the project.
//   - rspec: SPEC_OPTS adds the json formatter (with progress to the
//     output; formatters of .rspec or the command line are replaced).
//   - maven (surefire, failsafe) and gradle: the JUnit XML reports they
//     write anyway, target/surefire-reports/TEST-*.xml,
//     target/failsafe-reports/TEST-*.xml and
//     build/test-results/<task>/TEST-*.xml, written during the run (or of
//     a gradle test task the output calls UP-TO-DATE or FROM-CACHE).
type Reports struct {
	root  string
	dir   string
	start time.Time
}

// NewReports prepares the reports of a run of the project at root: a
// directory of ralph's for the runners to write into, with the shim,
// outside the project (its snapshots and census never see it): in the
// temporary directory, else the user's cache directory, else /tmp.
func NewReports(root string) (*Reports, error) {
	dir, err := reportDir(root)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "shim.cjs"), shim, 0o444); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	out := filepath.Join(dir, "out")
	if err := os.Mkdir(out, 0o700); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return &Reports{root: root, dir: dir, start: time.Now()}, nil
}

// reportDir makes a new directory for a run's reports, outside root.
func reportDir(root string) (string, error) {
	var bases []string
	bases = append(bases, os.TempDir())
	if c, err := os.UserCacheDir(); err == nil {
		bases = append(bases, filepath.Join(c, "ralph"))
	}
	bases = append(bases, "/tmp")
	r := realPath(root)
	for _, b := range bases {
		if !filepath.IsAbs(b) || inside(r, realPath(b)) || inside(root, b) {
			continue
		}
		if err := os.MkdirAll(b, 0o700); err != nil {
			continue
		}
		if dir, err := os.MkdirTemp(b, "ralph-reports-"); err == nil {
			return dir, nil
		}
	}
	return "", errors.New("no directory for the runners' reports outside the project")
}

// inside reports whether p is root or below it.
func inside(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// Env returns the variables that make the runners write their reports,
// to add after [Environ]'s.
func (r *Reports) Env() []string {
	return []string{
		ReportDirVar + "=" + filepath.Join(r.dir, "out"),
		`NODE_OPTIONS=--require "` + filepath.Join(r.dir, "shim.cjs") + `"`,
		"SPEC_OPTS=--format progress --format json --out " + filepath.Join(r.dir, "out", "rspec.json"),
		// Python (and pytest's rewritten tests) compile into a cache of
		// this run's own: bytecode left in the project's __pycache__ is
		// trusted by the source's size and mtime alone, so a source put
		// back over code compiled earlier, its mtime restored, would run
		// the earlier code.
		"PYTHONPYCACHEPREFIX=" + filepath.Join(r.dir, "pycache"),
	}
}

// Close removes the reports' directory.
func (r *Reports) Close() error { return os.RemoveAll(r.dir) }

// Read adds to res what the run's reports say; gradle names the test
// tasks of the run whose reports were already there (see [Reader.Gradle]).
func (r *Reports) Read(res *Results, gradle []string) {
	ents, _ := os.ReadDir(filepath.Join(r.dir, "out"))
	for _, e := range ents {
		data, err := readReport(filepath.Join(r.dir, "out", e.Name()))
		if err != nil {
			continue
		}
		switch runner, _, _ := strings.Cut(e.Name(), "-"); {
		case runner == "jest" || runner == "vitest":
			res.readJestJSON(r.root, runner, data)
		case runner == "mocha":
			res.readMochaJSON(r.root, data)
		case e.Name() == "rspec.json":
			res.readRSpecJSON(data)
		}
	}
	for _, f := range junitFiles(r.root, r.start, gradle) {
		if data, err := readReport(f.path); err == nil {
			res.readJUnitXML(f.runner, data)
		}
	}
}

func readReport(p string) ([]byte, error) {
	info, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() || info.Size() > maxReport {
		return nil, errors.New("not a report")
	}
	return os.ReadFile(p)
}

// relCache remembers relTo's answers for one report, whose tests name the
// same few files again and again.
type relCache struct {
	root string
	m    map[string]string
}

func (c *relCache) rel(p string) string {
	if r, ok := c.m[p]; ok {
		return r
	}
	if c.m == nil {
		c.m = map[string]string{}
	}
	r := relTo(c.root, p)
	if len(c.m) < 10000 {
		c.m[p] = r
	}
	return r
}

// relTo returns the path p (absolute, as node names test files) relative
// to root, slash-separated; "" when it is outside.
func relTo(root, p string) string {
	if p == "" {
		return ""
	}
	if !filepath.IsAbs(p) {
		return path.Clean(filepath.ToSlash(strings.TrimPrefix(p, "./")))
	}
	if rel, err := filepath.Rel(root, p); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	if rr := realPath(root); rr != root {
		if rel, err := filepath.Rel(rr, p); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	if rp := realPath(p); rp != p {
		return relTo(root, rp)
	}
	return ""
}

func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// readJestJSON reads jest's --json report, or vitest's json reporter's,
// which has the same shape: per test file its assertion results, each with
// its describe titles, title and status. A file that failed without
// results did not run ("collection error": a syntax error, a setup file
// that threw).
func (res *Results) readJestJSON(root, runner string, data []byte) {
	if !gjson.ValidBytes(data) {
		return
	}
	res.runner(runner)
	gjson.GetBytes(data, "testResults").ForEach(func(_, f gjson.Result) bool {
		rel := relTo(root, f.Get("name").String())
		if rel == "" {
			return true
		}
		u := "js:" + rel
		as := f.Get("assertionResults").Array()
		if len(as) == 0 && f.Get("status").String() == "failed" {
			res.unit(u, "collection error")
			return true
		}
		res.unit(u, "ran")
		for _, a := range as {
			var titles []string
			for _, t := range a.Get("ancestorTitles").Array() {
				titles = append(titles, t.String())
			}
			titles = append(titles, a.Get("title").String())
			var o string
			switch a.Get("status").String() {
			case "passed":
				o = Pass
				// A pass after failed tries: jest counts the test's
				// invocations, vitest keeps the earlier tries' errors.
				if a.Get("invocations").Int() > 1 || len(a.Get("failureMessages").Array()) > 0 {
					res.retriedJS(u, titles)
				}
			case "failed":
				o = Fail
			default: // pending, skipped, todo, disabled
				o = Skip
			}
			res.addJS(u, titles, o)
		}
		return true
	})
}

// retriedJS records a JavaScript test, by its titles, that passed on a
// later try.
func (res *Results) retriedJS(u string, titles []string) {
	var keep []string
	for _, t := range titles {
		if t != "" {
			keep = append(keep, t)
		}
	}
	if len(keep) > 0 {
		res.retried(u, strings.Join(keep, " > "))
	}
}

// readMochaJSON reads the shim's mocha report: each test that ran, its
// file, titles and state.
func (res *Results) readMochaJSON(root string, data []byte) {
	if !gjson.ValidBytes(data) {
		return
	}
	res.runner("mocha")
	files := relCache{root: root}
	gjson.GetBytes(data, "tests").ForEach(func(_, t gjson.Result) bool {
		rel := files.rel(t.Get("file").String())
		if rel == "" {
			return true
		}
		var titles []string
		for _, x := range t.Get("titles").Array() {
			titles = append(titles, x.String())
		}
		o := Fail
		if t.Get("state").String() == "passed" {
			o = Pass
			// A pass on a later try: its earlier tries failed.
			if t.Get("retry").Int() > 0 {
				res.retriedJS("js:"+rel, titles)
			}
		}
		res.addJS("js:"+rel, titles, o)
		return true
	})
}

// addJS records a JavaScript test by its titles, joined as the census
// joins them ("outer > inner > test"); the root suite of mocha, whose
// title is empty, is left out.
func (res *Results) addJS(u string, titles []string, o string) {
	var keep []string
	for _, t := range titles {
		if t != "" {
			keep = append(keep, t)
		}
	}
	if len(keep) == 0 {
		return
	}
	res.add(u, strings.Join(keep, " > "), o)
}

// readRSpecJSON reads rspec's json formatter: each example's file,
// full description and status.
func (res *Results) readRSpecJSON(data []byte) {
	if !gjson.ValidBytes(data) {
		return
	}
	res.runner("rspec")
	gjson.GetBytes(data, "examples").ForEach(func(_, e gjson.Result) bool {
		rel := path.Clean(strings.TrimPrefix(e.Get("file_path").String(), "./"))
		if rel == "." || strings.HasPrefix(rel, "../") || strings.HasPrefix(rel, "/") {
			return true
		}
		var o string
		switch e.Get("status").String() {
		case "passed":
			o = Pass
		case "failed":
			o = Fail
		default: // pending
			o = Skip
		}
		res.add("rspec:"+rel, e.Get("full_description").String(), o)
		// rspec-retry's verbose line names the example by its line.
		if old := "line " + e.Get("line_number").String(); slices.Contains(res.Retried["rspec:"+rel], old) {
			i := slices.Index(res.Retried["rspec:"+rel], old)
			res.Retried["rspec:"+rel][i] = e.Get("full_description").String()
		}
		return true
	})
	// A file that failed to load: "An error occurred while loading
	// ./spec/x_spec.rb" among the messages, no examples.
	gjson.GetBytes(data, "messages").ForEach(func(_, m gjson.Result) bool {
		s := m.String()
		if i := strings.Index(s, "An error occurred while loading "); i >= 0 {
			f := strings.Fields(s[i+len("An error occurred while loading "):])
			if len(f) > 0 {
				rel := path.Clean(strings.TrimSuffix(strings.TrimPrefix(f[0], "./"), "."))
				res.unit("rspec:"+rel, "collection error")
			}
		}
		return true
	})
}

// rspecName is how rspec's full description names the census's test
// "Calc > #sub > subtracts": its titles joined by a space, without one
// before a title that starts with "#", "." or "::" ("Calc#sub subtracts").
func rspecName(census string) string {
	parts := strings.Split(census, " > ")
	var b strings.Builder
	for i, p := range parts {
		if i > 0 && !strings.HasPrefix(p, "#") && !strings.HasPrefix(p, ".") && !strings.HasPrefix(p, "::") {
			b.WriteByte(' ')
		}
		b.WriteString(p)
	}
	return b.String()
}

type junitFile struct{ path, runner string }

// junitFiles finds the JUnit XML reports maven and gradle wrote during the
// run that began at start, and those of the gradle test tasks in gradle
// (":test", ":app:test") that were up to date, at most a few levels of
// modules deep.
func junitFiles(root string, start time.Time, gradle []string) []junitFile {
	if !exists(root, "pom.xml") && !exists(root, "build.gradle") && !exists(root, "build.gradle.kts") &&
		!exists(root, "settings.gradle") && !exists(root, "settings.gradle.kts") {
		return nil
	}
	since := start.Truncate(time.Second)
	upToDate := map[string]bool{}
	for _, t := range gradle {
		proj, task := ":", t
		if i := strings.LastIndex(t, ":"); i >= 0 {
			proj, task = t[:i], t[i+1:]
		}
		dir := strings.ReplaceAll(strings.Trim(proj, ":"), ":", "/")
		upToDate[path.Join(dir, "build/test-results", task)] = true
	}
	var out []junitFile
	add := func(dir, runner string, all bool) {
		ents, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(dir)))
		if err != nil {
			return
		}
		for _, e := range ents {
			n := e.Name()
			if !strings.HasPrefix(n, "TEST-") || !strings.HasSuffix(n, ".xml") {
				continue
			}
			info, err := e.Info()
			if err != nil || !info.Mode().IsRegular() || (!all && info.ModTime().Before(since)) {
				continue
			}
			out = append(out, junitFile{filepath.Join(root, filepath.FromSlash(dir), n), runner})
		}
	}
	var walk func(dir string, depth int)
	walk = func(dir string, depth int) {
		ents, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(dir)))
		if err != nil {
			return
		}
		for _, e := range ents {
			n := e.Name()
			if !e.IsDir() || strings.HasPrefix(n, ".") || n == "node_modules" || n == "src" {
				continue
			}
			sub := path.Join(dir, n)
			switch n {
			case "target":
				add(path.Join(sub, "surefire-reports"), "maven", false)
				add(path.Join(sub, "failsafe-reports"), "maven", false)
				continue
			case "build":
				tasks, _ := os.ReadDir(filepath.Join(root, filepath.FromSlash(sub), "test-results"))
				for _, t := range tasks {
					if t.IsDir() {
						d := path.Join(sub, "test-results", t.Name())
						add(d, "gradle", upToDate[d])
					}
				}
				continue
			}
			if depth < 4 {
				walk(sub, depth+1)
			}
		}
	}
	walk("", 0)
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out
}

func exists(root, name string) bool {
	_, err := os.Stat(filepath.Join(root, name))
	return err == nil
}

// readJUnitXML reads a JUnit XML report (surefire's, gradle's): its
// testcases, each with its class and name, failed when it holds a failure
// or an error, skipped when it holds skipped. A test is named as the census
// names a Java test, "Class.method" ("Outer.Inner.method" for a nested
// class), in the unit of its package ("junit:com.example"); a
// parameterised case ("sub(int, int)[1]") counts as its method.
func (res *Results) readJUnitXML(runner string, data []byte) {
	d := xml.NewDecoder(strings.NewReader(string(data)))
	d.Strict = false
	var cur *junitCase
	suite := false
	for {
		tok, err := d.Token()
		if err == io.EOF || err != nil {
			break
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "testsuite":
				suite = true
			case "testcase":
				cur = &junitCase{outcome: Pass}
				for _, a := range t.Attr {
					switch a.Name.Local {
					case "classname":
						cur.class = a.Value
					case "name":
						cur.name = a.Value
					}
				}
			case "failure", "error":
				if cur != nil {
					cur.outcome = Fail
				}
			case "skipped":
				if cur != nil && cur.outcome != Fail {
					cur.outcome = Skip
				}
			case "flakyFailure", "flakyError":
				// surefire's rerunFailingTestsCount: a failed try of a
				// test that passed on a later one.
				if cur != nil {
					cur.flaky = true
				}
			}
		case xml.EndElement:
			if t.Name.Local == "testcase" && cur != nil {
				res.addJUnit(cur)
				cur = nil
			}
		}
	}
	if suite {
		res.runner(runner)
	}
}

type junitCase struct {
	class, name, outcome string
	flaky                bool
}

func (res *Results) addJUnit(c *junitCase) {
	name := c.name
	if i := strings.IndexAny(name, "([{"); i > 0 {
		name = name[:i]
	}
	name = strings.TrimSpace(name)
	if name == "" || c.class == "" {
		return
	}
	pkg, cls := "", c.class
	if i := strings.LastIndexByte(cls, '.'); i >= 0 {
		pkg, cls = cls[:i], cls[i+1:]
	}
	cls = strings.ReplaceAll(cls, "$", ".")
	res.add("junit:"+pkg, cls+"."+name, c.outcome)
	if c.flaky && c.outcome == Pass {
		res.retried("junit:"+pkg, cls+"."+name)
	}
}
