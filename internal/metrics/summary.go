package metrics

import (
	"bytes"
	"strings"

	"github.com/tidwall/gjson"
)

// maxFailing bounds Summary.Failing; maxCollect bounds the names one
// runner collects before they are merged and trimmed.
const (
	maxFailing = 20
	maxCollect = 256
)

// Summary is what the closing lines of test runners said about a run.
type Summary struct {
	// Runner names the runners whose summaries were found, in the order
	// they first appear, comma-separated: "go", "go,pytest".
	Runner string
	// Passed, Failed and Skipped add up every summary found. Errors
	// (pytest, surefire, rspec) count as failed; xfailed, todo, pending
	// and ignored tests as skipped.
	Passed, Failed, Skipped int
	// Failing names failing tests, as the runner writes them
	// ("TestDiv/odd", "tests/test_calc.py::test_sub"), at most 20. It
	// may be empty when the runner does not name them in its output.
	Failing []string
	// Found reports that a runner's output was recognised.
	Found bool
}

// ParseSummary reads test-runner summaries in output (a command's combined
// output, ANSI colours and all): go test (plain, -v and -json), pytest,
// jest, vitest, cargo test, mocha, node --test, rspec and Maven Surefire,
// and as a last resort (Runner "generic") the last line like "12 passed,
// 1 failed". Summaries of several runners (a Makefile running go test
// then pytest) add up.
//
// go test has no closing counts: every test and subtest line counts, and
// plain `go test` prints lines only for failing tests, so only -v and
// -json give go's passed and skipped counts. Failing lists the failing subtest,
// not also its parent, and a package that failed outside any test (a
// build error) as "example.com/pkg [build failed]".
//
// Run reads the same summary from a command's whole output as it streams
// (Result.Summary); ParseSummary of Result.Output sees only what was kept.
func ParseSummary(output string) Summary {
	p := newSummaryParser()
	for len(output) > 0 {
		line := output
		if i := strings.IndexByte(output, '\n'); i >= 0 {
			line, output = output[:i], output[i+1:]
		} else {
			output = ""
		}
		p.line(line)
	}
	return p.summary()
}

// maxLine bounds the part of one line that summaryWriter keeps: summaries
// are short lines, and a command may print a gigabyte without a newline.
const maxLine = 16 << 10

// summaryWriter feeds output to a summaryParser as it is written, so the
// summary covers all of it however much Run keeps. A carriage return not
// followed by a newline starts the line over, as on a terminal.
type summaryWriter struct {
	p   *summaryParser
	buf []byte
	cr  bool // the last byte was a '\r'
}

func (w *summaryWriter) write(b []byte) {
	for len(b) > 0 {
		if w.cr {
			switch b[0] {
			case '\n':
				w.cr = false
				w.emit()
				b = b[1:]
				continue
			case '\r':
				b = b[1:]
				continue
			}
			w.cr = false
			w.buf = w.buf[:0] // a redraw
		}
		i := bytes.IndexAny(b, "\r\n")
		if i < 0 {
			w.keep(b)
			return
		}
		w.keep(b[:i])
		if b[i] == '\n' {
			w.emit()
		} else {
			w.cr = true
		}
		b = b[i+1:]
	}
}

func (w *summaryWriter) keep(b []byte) {
	if room := maxLine - len(w.buf); room > 0 {
		w.buf = append(w.buf, b[:min(room, len(b))]...)
	}
}

func (w *summaryWriter) emit() {
	w.p.line(string(w.buf))
	w.buf = w.buf[:0]
}

// summary reads a last line without a newline and returns the summary.
func (w *summaryWriter) summary() Summary {
	if len(w.buf) > 0 || w.cr {
		w.cr = false
		w.emit()
	}
	return w.p.summary()
}

// runner scans output line by line for one test runner.
type runner interface {
	// line reads one line, s as printed (less colours and redraws), t
	// trimmed; n counts lines from 1.
	line(s, t string, n int)
	done() *tally
}

// summaryParser reads output line by line (ParseSummary, and Run as the
// output streams in) into a Summary.
type summaryParser struct {
	runners []runner
	n       int   // lines read
	generic tally // the last line with generic counts
	gotest  goRunner
	pytest  pytestRunner
	jest    jestRunner
	vitest  vitestRunner
	cargo   cargoRunner
	mocha   mochaRunner
	node    nodeRunner
	rspec   rspecRunner
	maven   mavenRunner
}

func newSummaryParser() *summaryParser {
	p := &summaryParser{}
	p.runners = []runner{&p.gotest, &p.pytest, &p.jest, &p.vitest, &p.cargo, &p.mocha, &p.node, &p.rspec, &p.maven}
	return p
}

// line reads one line of output, without its newline.
func (p *summaryParser) line(s string) {
	s = stripANSI(lastRedraw(s))
	p.n++
	t := strings.TrimSpace(s)
	for _, r := range p.runners {
		r.line(s, t, p.n)
	}
	if passed, failed, skipped, ok := genericCounts(t); ok {
		p.generic = tally{name: "generic", found: true, passed: passed, failed: failed, skipped: skipped}
	}
}

// summary adds up what the runners found; the generic counts only stand
// in when no runner was recognised.
func (p *summaryParser) summary() Summary {
	var found []*tally
	for _, r := range p.runners {
		if t := r.done(); t.found {
			found = append(found, t)
		}
	}
	if len(found) == 0 && p.generic.found {
		found = append(found, &p.generic)
	}
	return merge(found)
}

// tally is what one runner found.
type tally struct {
	name                    string
	found                   bool
	first                   int // line of the first summary, for ordering
	passed, failed, skipped int
	failing                 []string
	seen                    map[string]bool
}

func (t *tally) hit(name string, n int) {
	if !t.found {
		t.found, t.first, t.name = true, n, name
	}
}

func (t *tally) fail(name string) {
	name = strings.TrimSpace(name)
	if name == "" || len(t.failing) >= maxCollect || t.seen[name] {
		return
	}
	if t.seen == nil {
		t.seen = map[string]bool{}
	}
	t.seen[name] = true
	t.failing = append(t.failing, name)
}

// merge adds tallies up, in the order they were first found.
func merge(ts []*tally) Summary {
	var s Summary
	for i := 1; i < len(ts); i++ { // insertion sort: a handful of runners
		for j := i; j > 0 && ts[j].first < ts[j-1].first; j-- {
			ts[j], ts[j-1] = ts[j-1], ts[j]
		}
	}
	seen := map[string]bool{}
	var names []string
	for _, t := range ts {
		s.Found = true
		names = append(names, t.name)
		s.Passed += t.passed
		s.Failed += t.failed
		s.Skipped += t.skipped
		for _, f := range t.failing {
			if len(s.Failing) < maxFailing && !seen[f] {
				seen[f] = true
				s.Failing = append(s.Failing, f)
			}
		}
	}
	s.Runner = strings.Join(names, ",")
	return s
}

// goRunner reads go test output: "--- FAIL: TestX (0.00s)" lines (all
// of them with -v, failures only without), "ok"/"FAIL" package lines,
// and -json events.
type goRunner struct {
	t        tally
	pkgFails int             // test failures since the last package line
	jsonFail map[string]bool // -json: packages with a failed test
}

func (g *goRunner) line(s, t string, n int) {
	switch {
	case strings.HasPrefix(t, "--- "):
		verb, rest, ok := strings.Cut(t[4:], ": ")
		if !ok || (verb != "PASS" && verb != "FAIL" && verb != "SKIP") {
			return
		}
		i := strings.LastIndex(rest, " (")
		if i <= 0 || !strings.HasSuffix(rest, "s)") {
			return
		}
		g.t.hit("go", n)
		name := rest[:i]
		switch verb {
		case "PASS":
			g.t.passed++
		case "FAIL":
			g.t.failed++
			g.pkgFails++
			g.t.fail(name)
		case "SKIP":
			g.t.skipped++
		}
	case strings.HasPrefix(s, "ok ") || strings.HasPrefix(s, "ok\t"):
		if f := strings.Fields(s); len(f) >= 3 && strings.Contains(s, "\t") {
			g.t.hit("go", n)
			g.pkgFails = 0
		}
	case strings.HasPrefix(s, "?   \t"):
		if strings.HasSuffix(s, "[no test files]") {
			g.t.hit("go", n)
		}
	case strings.HasPrefix(s, "FAIL\t"):
		f := strings.Fields(s)
		if len(f) < 2 {
			return
		}
		g.t.hit("go", n)
		if g.pkgFails == 0 { // the package failed outside any test
			name := f[1]
			for _, why := range []string{"[build failed]", "[setup failed]"} {
				if strings.Contains(s, why) {
					name += " " + why
				}
			}
			g.t.fail(name)
		}
		g.pkgFails = 0
	case strings.HasPrefix(t, `{"`) && strings.Contains(t, `"Action":"`):
		g.event(t, n)
	}
}

// event reads one go test -json event.
func (g *goRunner) event(s string, n int) {
	r := gjson.GetMany(s, "Action", "Test", "Package", "FailedBuild")
	action, test, pkg := r[0].String(), r[1].String(), r[2].String()
	if pkg == "" {
		return
	}
	switch action {
	case "pass", "fail", "skip":
	default:
		return
	}
	g.t.hit("go", n)
	if test == "" {
		if action == "fail" && !g.jsonFail[pkg] {
			name := pkg
			if r[3].String() != "" {
				name += " [build failed]"
			}
			g.t.fail(name)
		}
		return
	}
	switch action {
	case "pass":
		g.t.passed++
	case "fail":
		g.t.failed++
		if g.jsonFail == nil {
			g.jsonFail = map[string]bool{}
		}
		g.jsonFail[pkg] = true
		g.t.fail(test)
	case "skip":
		g.t.skipped++
	}
}

// done drops a failing test whose subtest also failed: the subtest says
// more.
func (g *goRunner) done() *tally {
	var leaves []string
	for _, a := range g.t.failing {
		parent := false
		for _, b := range g.t.failing {
			if len(b) > len(a) && b[len(a)] == '/' && strings.HasPrefix(b, a) {
				parent = true
				break
			}
		}
		if !parent {
			leaves = append(leaves, a)
		}
	}
	g.t.failing = leaves
	return &g.t
}

// pytestRunner reads pytest's closing line ("==== 3 failed, 10 passed in
// 0.12s ====", or without the rules with -q) and its FAILED/ERROR lines.
type pytestRunner struct{ t tally }

func (p *pytestRunner) line(s, t string, n int) {
	if rest, ok := strings.CutPrefix(t, "FAILED "); ok {
		p.failing(rest)
		return
	}
	if rest, ok := strings.CutPrefix(t, "ERROR "); ok {
		p.failing(rest)
		return
	}
	if name, verdict, ok := strings.Cut(firstTwoFields(t), " "); ok && (verdict == "FAILED" || verdict == "ERROR") && strings.Contains(name, "::") {
		p.t.fail(name) // -v: "tests/test_x.py::test_y FAILED [ 50%]"
		return
	}
	if !strings.HasSuffix(t, "s") && !strings.HasSuffix(t, "=") && !strings.HasSuffix(t, ")") {
		return
	}
	t = strings.TrimSpace(strings.Trim(t, "="))
	i := strings.LastIndex(t, " in ")
	if i < 0 || !pytestDuration(t[i+4:]) {
		return
	}
	body := t[:i]
	var passed, failed, skipped int
	if body != "no tests ran" {
		for part := range strings.SplitSeq(body, ", ") {
			k, word, ok := countWord(part)
			if !ok {
				return
			}
			switch word {
			case "passed", "xpassed":
				passed += k
			case "failed", "error", "errors":
				failed += k
			case "skipped", "xfailed":
				skipped += k
			case "deselected", "warning", "warnings", "rerun":
			default:
				return
			}
		}
	}
	p.t.hit("pytest", n)
	p.t.passed += passed
	p.t.failed += failed
	p.t.skipped += skipped
}

// failing reads "tests/test_x.py::test_y - AssertionError…".
func (p *pytestRunner) failing(rest string) {
	name, _, _ := strings.Cut(rest, " - ")
	name = strings.TrimSpace(name)
	if strings.Contains(name, ".py") {
		p.t.fail(name)
	}
}

func (p *pytestRunner) done() *tally { return &p.t }

// firstTwoFields returns s up to the end of its second space-separated
// field.
func firstTwoFields(s string) string {
	i := strings.IndexByte(s, ' ')
	if i < 0 {
		return s
	}
	j := strings.IndexByte(s[i+1:], ' ')
	if j < 0 {
		return s
	}
	return s[:i+1+j]
}

// pytestDuration reports whether s is pytest's "0.12s" or
// "65.31s (0:01:05)".
func pytestDuration(s string) bool {
	d, clock, hasClock := strings.Cut(s, " ")
	if hasClock && !(strings.HasPrefix(clock, "(") && strings.HasSuffix(clock, ")")) {
		return false
	}
	num, ok := strings.CutSuffix(d, "s")
	return ok && isDecimal(num)
}

// jestRunner reads jest's "Tests:       1 failed, 2 skipped, 5 passed, 8
// total" and its "● Suite › test" headings.
type jestRunner struct {
	t    tally
	file string // the last "FAIL path" line
}

func (j *jestRunner) line(s, t string, n int) {
	if rest, ok := strings.CutPrefix(t, "FAIL "); ok {
		j.file = strings.TrimSpace(rest)
		return
	}
	if name, ok := strings.CutPrefix(t, "● "); ok {
		name = strings.TrimSpace(name)
		switch {
		case name == "Test suite failed to run":
			if j.file != "" {
				j.t.fail(j.file)
			}
		case strings.Contains(name, "Warning:"), strings.HasPrefix(name, "Console"):
		default:
			j.t.fail(name)
		}
		return
	}
	rest, ok := strings.CutPrefix(t, "Tests:")
	if !ok {
		return
	}
	var passed, failed, skipped int
	total := false
	for part := range strings.SplitSeq(strings.TrimSpace(rest), ", ") {
		k, word, ok := countWord(part)
		if !ok {
			return
		}
		switch word {
		case "passed":
			passed += k
		case "failed":
			failed += k
		case "skipped", "todo", "pending":
			skipped += k
		case "total":
			total = true
		default:
			return
		}
	}
	if !total {
		return
	}
	j.t.hit("jest", n)
	j.t.passed += passed
	j.t.failed += failed
	j.t.skipped += skipped
}

func (j *jestRunner) done() *tally { return &j.t }

// vitestRunner reads vitest's "Tests  2 failed | 10 passed (12)", its
// " FAIL  src/x.test.ts > suite > name" lines and, failing those, its
// "× name" lines.
type vitestRunner struct {
	t       tally
	crosses tally // names from "×" lines
}

func (v *vitestRunner) line(s, t string, n int) {
	if rest, ok := strings.CutPrefix(t, "FAIL "); ok {
		rest = strings.TrimSpace(rest)
		if i := strings.Index(rest, " [ "); i > 0 && strings.HasSuffix(rest, " ]") {
			rest = rest[:i] // a file that failed to load: "x.test.ts [ x.test.ts ]"
		}
		v.t.fail(rest)
		return
	}
	if name, ok := strings.CutPrefix(t, "× "); ok {
		v.crosses.fail(trimDuration(name))
		return
	}
	rest, ok := strings.CutPrefix(t, "Tests ")
	if !ok || !strings.HasSuffix(rest, ")") {
		return
	}
	i := strings.LastIndex(rest, " (")
	if i < 0 || !isDigits(rest[i+2:len(rest)-1]) {
		return
	}
	var passed, failed, skipped int
	for part := range strings.SplitSeq(strings.TrimSpace(rest[:i]), " | ") {
		k, word, ok := countWord(part)
		if !ok {
			return
		}
		switch word {
		case "passed":
			passed += k
		case "failed":
			failed += k
		case "skipped", "todo":
			skipped += k
		}
	}
	v.t.hit("vitest", n)
	v.t.passed += passed
	v.t.failed += failed
	v.t.skipped += skipped
}

func (v *vitestRunner) done() *tally {
	if len(v.t.failing) == 0 {
		v.t.failing = v.crosses.failing
	}
	return &v.t
}

// trimDuration drops a trailing " 12ms" or " 1.5s".
func trimDuration(s string) string {
	i := strings.LastIndexByte(s, ' ')
	if i < 0 {
		return s
	}
	d := s[i+1:]
	if num, ok := strings.CutSuffix(d, "ms"); ok && isDecimal(num) {
		return s[:i]
	}
	if num, ok := strings.CutSuffix(d, "s"); ok && isDecimal(num) {
		return s[:i]
	}
	return s
}

// cargoRunner reads each test binary's "test result: FAILED. 3 passed; 1
// failed; 0 ignored; …" and its "test name ... FAILED" lines.
type cargoRunner struct{ t tally }

func (c *cargoRunner) line(s, t string, n int) {
	if rest, ok := strings.CutPrefix(s, "test "); ok {
		if name, ok := strings.CutSuffix(rest, " ... FAILED"); ok {
			c.t.fail(name)
			return
		}
	}
	if rest, ok := strings.CutPrefix(s, "---- "); ok {
		if name, ok := strings.CutSuffix(rest, " stdout ----"); ok {
			c.t.fail(name)
		}
		return
	}
	rest, ok := strings.CutPrefix(t, "test result: ")
	if !ok {
		return
	}
	_, rest, ok = strings.Cut(rest, ". ")
	if !ok {
		return
	}
	var passed, failed, skipped int
	for part := range strings.SplitSeq(rest, "; ") {
		if strings.HasPrefix(part, "finished in ") {
			continue
		}
		k, word, ok := countWord(part)
		if !ok {
			return
		}
		switch word {
		case "passed":
			passed += k
		case "failed":
			failed += k
		case "ignored":
			skipped += k
		}
	}
	c.t.hit("cargo", n)
	c.t.passed += passed
	c.t.failed += failed
	c.t.skipped += skipped
}

func (c *cargoRunner) done() *tally { return &c.t }

// mochaRunner reads mocha's "5 passing (12ms)", "2 failing" and "1
// pending" lines and the numbered failures after them.
type mochaRunner struct {
	t       tally
	failing bool     // after "N failing": numbered failures follow
	title   []string // the title being read, over several lines
}

func (m *mochaRunner) line(s, t string, n int) {
	if len(m.title) > 0 {
		m.title = append(m.title, t)
		if strings.HasSuffix(t, ":") || len(m.title) >= 8 || t == "" {
			m.endTitle()
		}
		return
	}
	k, word, ok := countWord(t)
	if w, _, timed := strings.Cut(word, " ("); timed && strings.HasSuffix(word, ")") {
		word = w // "5 passing (12ms)"
	}
	if ok {
		switch word {
		case "passing":
			m.t.hit("mocha", n)
			m.t.passed += k
			return
		case "failing":
			m.t.hit("mocha", n)
			m.t.failed += k
			m.failing = true
			return
		case "pending":
			if m.t.found {
				m.t.skipped += k
			}
			return
		}
	}
	if !m.failing {
		return
	}
	// "1) Array" then "#indexOf()" then "should return -1:" on the next lines.
	num, title, ok := strings.Cut(t, ") ")
	if !ok || !isDigits(num) {
		return
	}
	m.title = append(m.title, title)
	if strings.HasSuffix(title, ":") {
		m.endTitle()
	}
}

func (m *mochaRunner) endTitle() {
	name := strings.TrimSuffix(strings.Join(m.title, " "), ":")
	m.title = m.title[:0]
	m.t.fail(strings.TrimSpace(name))
}

func (m *mochaRunner) done() *tally { return &m.t }

// nodeRunner reads node --test's closing counts, spec ("ℹ pass 2") or TAP
// ("# pass 2"), and its failing tests ("✖ name (1.2ms)" after "✖ failing
// tests:", or TAP's "not ok 2 - name").
type nodeRunner struct {
	t       tally
	listing bool // after "✖ failing tests:"
	notOk   bool // the last name in t.failing came from a "not ok" line
}

func (r *nodeRunner) line(s, t string, n int) {
	if t == "✖ failing tests:" {
		r.listing = true
		return
	}
	if rest, ok := strings.CutPrefix(t, "✖ "); ok && r.listing {
		r.t.fail(trimParenDuration(rest))
		return
	}
	if rest, ok := strings.CutPrefix(t, "not ok "); ok {
		if _, name, ok := strings.Cut(rest, " - "); ok {
			name, _, _ = strings.Cut(name, " # ")
			before := len(r.t.failing)
			r.t.fail(name)
			r.notOk = len(r.t.failing) > before
			return
		}
	}
	if t == "failureType: 'subtestsFailed'" && r.notOk {
		// The last "not ok" was a suite failing through its tests: drop it.
		r.t.failing = r.t.failing[:len(r.t.failing)-1]
		r.notOk = false
		return
	}
	var rest string
	var ok bool
	if rest, ok = strings.CutPrefix(s, "ℹ "); !ok {
		if rest, ok = strings.CutPrefix(s, "# "); !ok {
			return
		}
	}
	word, num, ok := strings.Cut(rest, " ")
	if !ok || !isDigits(num) {
		return
	}
	k := atoi(num)
	switch word {
	case "pass":
		r.t.hit("node", n)
		r.t.passed += k
	case "fail":
		r.t.hit("node", n)
		r.t.failed += k
	case "cancelled":
		r.t.failed += k
	case "skipped", "todo":
		r.t.skipped += k
	}
}

func (r *nodeRunner) done() *tally {
	if !r.t.found {
		r.t.passed, r.t.failed, r.t.skipped = 0, 0, 0
	}
	return &r.t
}

// trimParenDuration drops a trailing " (1.848715ms)".
func trimParenDuration(s string) string {
	if i := strings.LastIndex(s, " ("); i > 0 && strings.HasSuffix(s, "ms)") {
		return s[:i]
	}
	return s
}

// rspecRunner reads rspec's "10 examples, 2 failures, 1 pending" and its
// "rspec ./spec/x_spec.rb:12 # description" lines.
type rspecRunner struct{ t tally }

func (r *rspecRunner) line(s, t string, n int) {
	if rest, ok := strings.CutPrefix(t, "rspec ./"); ok {
		r.t.fail("./" + rest)
		return
	}
	if rest, ok := strings.CutPrefix(t, "An error occurred while loading "); ok {
		r.t.fail(strings.TrimSuffix(rest, "."))
		return
	}
	if t == "" || t[0] < '0' || t[0] > '9' || !strings.Contains(t, " example") {
		return
	}
	var examples, failures, pending, errs int
	for i, part := range strings.Split(t, ", ") {
		if rest, ok := strings.CutSuffix(part, " occurred outside of examples"); ok {
			part = rest
		}
		k, word, ok := countWord(part)
		if !ok {
			return
		}
		switch {
		case i == 0 && (word == "example" || word == "examples"):
			examples = k
		case i == 1 && (word == "failure" || word == "failures"):
			failures = k
		case i > 1 && word == "pending":
			pending = k
		case i > 1 && (word == "error" || word == "errors"):
			errs = k
		default:
			return
		}
	}
	r.t.hit("rspec", n)
	r.t.passed += max(examples-failures-pending, 0)
	r.t.failed += failures + errs
	r.t.skipped += pending
}

func (r *rspecRunner) done() *tally { return &r.t }

// mavenRunner reads Maven Surefire's "Tests run: 10, Failures: 1, Errors:
// 0, Skipped: 2": the totals after "Results:" where there are any, else
// the per-class lines; and its "<<< FAILURE!" lines.
type mavenRunner struct {
	t       tally
	classes tally // per-class lines, used without totals
}

func (m *mavenRunner) line(s, t string, n int) {
	if strings.HasPrefix(t, "[") { // "[INFO] ", "[ERROR] "
		if i := strings.Index(t, "] "); i > 0 && i < 10 {
			t = strings.TrimSpace(t[i+2:])
		}
	}
	rest, ok := strings.CutPrefix(t, "Tests run: ")
	if !ok {
		if strings.HasSuffix(t, "<<< FAILURE!") || strings.HasSuffix(t, "<<< ERROR!") {
			name := t
			for _, sep := range []string{" -- Time elapsed", "  Time elapsed", " Time elapsed"} {
				if i := strings.Index(name, sep); i > 0 {
					name = name[:i]
					break
				}
			}
			m.t.fail(name)
		}
		return
	}
	run, failures, errs, skipped := atoi(firstNumber(rest)), 0, 0, 0
	for part := range strings.SplitSeq(rest, ",") {
		key, val, ok := strings.Cut(strings.TrimSpace(part), ": ")
		if !ok {
			continue
		}
		switch key {
		case "Failures":
			failures = atoi(firstNumber(val))
		case "Errors":
			errs = atoi(firstNumber(val))
		case "Skipped":
			skipped = atoi(firstNumber(val))
		}
	}
	into := &m.t
	if strings.Contains(rest, "Time elapsed") {
		into = &m.classes
	}
	into.hit("maven", n)
	into.passed += max(run-failures-errs-skipped, 0)
	into.failed += failures + errs
	into.skipped += skipped
}

func (m *mavenRunner) done() *tally {
	if !m.t.found && m.classes.found {
		m.t.found, m.t.first, m.t.name = true, m.classes.first, m.classes.name
		m.t.passed, m.t.failed, m.t.skipped = m.classes.passed, m.classes.failed, m.classes.skipped
	}
	return &m.t
}

// genericCounts finds "N word" pairs in s, a line that counts tests in
// some way ("12 passed, 1 failed", "Result: 3 passed"): passed, failed,
// skipped and their synonyms. ok needs a passed or failed count.
func genericCounts(s string) (passed, failed, skipped int, ok bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' || (i > 0 && isWordByte(s[i-1])) {
			continue
		}
		j := i
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		num := s[i:j]
		i = j - 1
		if j >= len(s) || s[j] != ' ' {
			continue
		}
		k := j + 1
		for k < len(s) && s[k] >= 'a' && s[k] <= 'z' {
			k++
		}
		if k < len(s) && isWordByte(s[k]) && s[k] != '.' {
			continue // "3 passedx", "3 failed_tests"; "3 passed." is fine
		}
		n := atoi(num)
		switch s[j+1 : k] {
		case "passed", "passing", "pass", "succeeded":
			passed += n
			ok = true
		case "failed", "failing", "failures", "failure", "fail", "errors", "error":
			failed += n
			ok = true
		case "skipped", "pending", "ignored", "skip":
			skipped += n
		}
	}
	return passed, failed, skipped, ok
}

func isWordByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '.'
}

// countWord reads "12 passed" (the word may be several: "filtered out").
func countWord(s string) (int, string, bool) {
	s = strings.TrimSpace(s)
	num, word, ok := strings.Cut(s, " ")
	if !ok || !isDigits(num) {
		return 0, "", false
	}
	return atoi(num), strings.TrimSpace(word), true
}

// firstNumber returns the digits s starts with.
func firstNumber(s string) string {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return s[:i]
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// isDecimal reports whether s is digits with at most one '.'.
func isDecimal(s string) bool {
	whole, frac, _ := strings.Cut(s, ".")
	return isDigits(whole) && (frac == "" || isDigits(frac))
}

// atoi parses digits, saturating at a billion: counts beyond it are noise.
func atoi(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			break
		}
		n = n*10 + int(s[i]-'0')
		if n >= 1e9 {
			return 1e9
		}
	}
	return n
}

// lastRedraw returns what a terminal would show of a line written with
// carriage returns (progress output): the text after the last one.
func lastRedraw(s string) string {
	s = strings.TrimSuffix(s, "\r")
	for {
		i := strings.LastIndexByte(s, '\r')
		if i < 0 {
			return s
		}
		if i < len(s)-1 {
			return s[i+1:]
		}
		s = s[:i]
	}
}

// stripANSI removes terminal escape sequences: CSI ("\x1b[31m"), OSC
// ("\x1b]8;;url\x07"), and the short ones ("\x1b(B", "\x1b7").
func stripANSI(s string) string {
	i := strings.IndexByte(s, 0x1b)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i >= 0 {
		b.WriteString(s[:i])
		s = s[i+1:]
		switch {
		case s == "":
		case s[0] == '[': // CSI: parameters, intermediates, one final byte
			j := 1
			for j < len(s) && s[j] >= 0x20 && s[j] <= 0x3f {
				j++
			}
			if j < len(s) && s[j] >= 0x40 && s[j] <= 0x7e {
				j++
			}
			s = s[j:]
		case s[0] == ']': // OSC: up to BEL or ESC \, never past the line
			j := 1
			for j < len(s) && s[j] != 0x07 && s[j] != 0x1b && s[j] != '\n' {
				j++
			}
			switch {
			case j < len(s) && s[j] == 0x07:
				j++
			case j+1 < len(s) && s[j] == 0x1b && s[j+1] == '\\':
				j += 2
			}
			s = s[j:]
		default: // intermediates, then one final byte: "\x1b(B", "\x1b7"
			j := 0
			for j < len(s) && s[j] >= 0x20 && s[j] <= 0x2f {
				j++
			}
			if j < len(s) && s[j] >= 0x30 && s[j] <= 0x7e {
				j++
			}
			s = s[j:]
		}
		i = strings.IndexByte(s, 0x1b)
	}
	b.WriteString(s)
	return b.String()
}
