package completion

import (
	"bytes"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/tidwall/gjson"
)

// Outcomes of a test in [Results].
const (
	Pass = "pass"
	Fail = "fail"
	Skip = "skip"
)

// Results are the per-test outcomes a run's output reported, by unit and
// test name. A unit is what a runner runs as one: a Go package
// ("go:example.com/calc"), a pytest file ("pytest:tests/test_calc.py"),
// all of a cargo run ("cargo").
type Results struct {
	// Runners are the runners that reported per test, in the order they
	// were found: "go", "pytest", "cargo". Empty: nothing usable was
	// reported, and nothing is known to have run.
	Runners []string `json:"runners,omitempty"`
	// Units maps each unit the run reached to how: "ran", or why its tests
	// could not run ("build failed", "no test files", "collection error").
	Units map[string]string `json:"units,omitempty"`
	// Tests maps unit, then test name, to its outcome (Pass, Fail, Skip).
	Tests map[string]map[string]string `json:"tests,omitempty"`
	// Retried maps unit to the tests that failed and then passed on a
	// later try of the same run: jest's invocations over 1, a vitest test
	// passed with failure messages, pytest-rerunfailures' RERUN lines.
	// Their outcome in Tests is the last try's.
	Retried map[string][]string `json:"retried,omitempty"`
}

// RetriedTests returns "unit name" of every test that passed on a later
// try, sorted.
func (r Results) RetriedTests() []string {
	var out []string
	for u, ns := range r.Retried {
		for _, n := range ns {
			if r.Tests[u][n] == Pass {
				out = append(out, u+" "+n)
			}
		}
	}
	sort.Strings(out)
	return out
}

// retried records that test name of unit failed on a try of the run.
func (r *Results) retried(u, name string) {
	if r.Retried == nil {
		r.Retried = map[string][]string{}
	}
	if len(r.Retried[u]) >= maxTests || slices.Contains(r.Retried[u], name) {
		return
	}
	r.Retried[u] = append(r.Retried[u], name)
}

// Known reports whether a runner reported per test.
func (r Results) Known() bool { return len(r.Runners) > 0 }

// Count returns how many tests passed, failed and were skipped.
func (r Results) Count() (passed, failed, skipped int) {
	for _, ts := range r.Tests {
		for _, o := range ts {
			switch o {
			case Pass:
				passed++
			case Fail:
				failed++
			case Skip:
				skipped++
			}
		}
	}
	return passed, failed, skipped
}

// Failing returns "unit name" of every failing test, sorted.
func (r Results) Failing() []string {
	var out []string
	for u, ts := range r.Tests {
		for n, o := range ts {
			if o == Fail {
				out = append(out, u+" "+n)
			}
		}
	}
	sort.Strings(out)
	return out
}

// Outcome returns the outcome of test name of unit, "" when not reported.
func (r Results) Outcome(unit, name string) string { return r.Tests[unit][name] }

func (r *Results) runner(name string) {
	for _, n := range r.Runners {
		if n == name {
			return
		}
	}
	r.Runners = append(r.Runners, name)
}

func (r *Results) unit(u, how string) {
	if r.Units == nil {
		r.Units = map[string]string{}
	}
	if old, ok := r.Units[u]; !ok || old == "ran" {
		r.Units[u] = how
	}
}

func (r *Results) add(u, name, outcome string) {
	if r.Tests == nil {
		r.Tests = map[string]map[string]string{}
	}
	ts := r.Tests[u]
	if ts == nil {
		ts = map[string]string{}
		r.Tests[u] = ts
	}
	// A test reported twice (-count=2, a rerun) keeps its worst outcome.
	if old := ts[name]; old == Fail || old == Pass && outcome == Skip {
		return
	}
	ts[name] = outcome
	if _, ok := r.Units[u]; !ok {
		r.unit(u, "ran")
	}
}

// maxLine bounds the part of a line the Reader keeps.
const maxLine = 16 << 10

// maxTests bounds the tests a Reader records: a run of more is cut there,
// which can only make tests look not run, never run.
const maxTests = 200_000

// Reader reads a run's output as it is written (an io.Writer for
// metrics.Tee) into Results.
type Reader struct {
	res       Results
	buf       []byte
	n         int
	goPending []goTest // go test -v lines waiting for their package's line
	pyKnown   bool     // pytest's short summary or -v lines were seen
	pyLines   []pyTest
	gradle    []string // gradle tasks the output says were up to date
}

type goTest struct{ name, outcome string }
type pyTest struct{ unit, name, outcome string }

// Write implements io.Writer; it never fails.
func (r *Reader) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			r.keep(p)
			break
		}
		r.keep(p[:i])
		r.line(string(r.buf))
		r.buf = r.buf[:0]
		p = p[i+1:]
	}
	return n, nil
}

func (r *Reader) keep(b []byte) {
	if room := maxLine - len(r.buf); room > 0 {
		r.buf = append(r.buf, b[:min(room, len(b))]...)
	}
}

// Results returns what the output reported, once it is all written.
func (r *Reader) Results() Results {
	if len(r.buf) > 0 {
		r.line(string(r.buf))
		r.buf = r.buf[:0]
	}
	if r.pyKnown {
		for _, t := range r.pyLines {
			r.res.add(t.unit, t.name, t.outcome)
		}
		r.pyLines = nil
		if len(r.res.Tests) > 0 || len(r.res.Units) > 0 {
			r.res.runner("pytest")
		}
	}
	return r.res
}

// Gradle returns the gradle tasks (":test", ":app:test") the output said
// were up to date or taken from the build cache: their reports, written
// before the run, are this run's (see [Reports.Read]).
func (r *Reader) Gradle() []string { return r.gradle }

// ReadOutput reads a whole output at once.
func ReadOutput(out string) Results {
	var r Reader
	r.Write([]byte(out))
	return r.Results()
}

func (r *Reader) line(s string) {
	r.n++
	if r.n > maxTests*4 {
		return
	}
	s = strings.TrimSuffix(stripANSI(s), "\r")
	switch {
	case strings.HasPrefix(s, "--- "):
		r.goLine(s)
	case strings.HasPrefix(s, "ok  \t"), strings.HasPrefix(s, "FAIL\t"), strings.HasPrefix(s, "?   \t"):
		r.goPackage(s)
	case strings.HasPrefix(s, `{"`) && strings.Contains(s, `"Action":"`):
		r.goEvent(s)
	case strings.HasPrefix(s, "test ") && (strings.HasSuffix(s, " ... ok") || strings.HasSuffix(s, " ... FAILED") || strings.HasSuffix(s, " ... ignored") || strings.Contains(s, " ... ignored, ")):
		r.cargoTest(s)
	case strings.HasPrefix(s, "test result: "):
		r.res.runner("cargo")
		r.res.unit("cargo", "ran")
	case strings.HasPrefix(s, "> Task :") && (strings.HasSuffix(s, " UP-TO-DATE") || strings.HasSuffix(s, " FROM-CACHE")):
		if f := strings.Fields(s); len(f) == 4 && len(r.gradle) < 1000 {
			r.gradle = append(r.gradle, f[2])
		}
	case strings.HasPrefix(strings.TrimSpace(s), "FLAKY ") || strings.HasPrefix(strings.TrimSpace(s), "TRY "):
		r.nextestRetry(strings.TrimSpace(s))
	case strings.HasPrefix(s, "RSpec::Retry: "):
		r.rspecRetry(s)
	case strings.HasPrefix(s, "error: could not compile"):
		r.res.runner("cargo")
		r.res.unit("cargo", "build failed")
	default:
		r.pyLine(s)
	}
}

// goLine reads "--- PASS: TestX (0.00s)": a top-level test of the package
// whose line follows.
func (r *Reader) goLine(s string) {
	verb, rest, ok := strings.Cut(s[4:], ": ")
	if !ok {
		return
	}
	i := strings.LastIndex(rest, " (")
	if i <= 0 || !strings.HasSuffix(rest, "s)") {
		return
	}
	var o string
	switch verb {
	case "PASS":
		o = Pass
	case "FAIL":
		o = Fail
	case "SKIP":
		o = Skip
	default:
		return
	}
	if len(r.goPending) < maxTests {
		r.goPending = append(r.goPending, goTest{rest[:i], o})
	}
}

// goPackage reads a package's closing line: "ok  \tpkg\t0.01s",
// "FAIL\tpkg [build failed]", "?   \tpkg\t[no test files]".
func (r *Reader) goPackage(s string) {
	f := strings.Fields(s)
	if len(f) < 2 {
		return
	}
	pkg := f[1]
	u := "go:" + pkg
	r.res.runner("go")
	switch {
	case strings.Contains(s, "[build failed]"), strings.Contains(s, "[setup failed]"):
		r.res.unit(u, "build failed")
	case strings.Contains(s, "[no test files]"):
		r.res.unit(u, "no test files")
	default:
		r.res.unit(u, "ran")
	}
	for _, t := range r.goPending {
		r.res.add(u, t.name, t.outcome)
	}
	r.goPending = r.goPending[:0]
}

// goEvent reads one go test -json event.
func (r *Reader) goEvent(s string) {
	v := gjson.GetMany(s, "Action", "Test", "Package", "FailedBuild")
	action, test, pkg := v[0].String(), v[1].String(), v[2].String()
	if pkg == "" {
		return
	}
	var o string
	switch action {
	case "pass":
		o = Pass
	case "fail":
		o = Fail
	case "skip":
		o = Skip
	default:
		return
	}
	u := "go:" + pkg
	r.res.runner("go")
	if test == "" {
		switch {
		case v[3].String() != "":
			r.res.unit(u, "build failed")
		case o == Skip:
			r.res.unit(u, "no test files")
		default:
			r.res.unit(u, "ran")
		}
		return
	}
	if !strings.Contains(test, "/") {
		r.res.add(u, test, o)
	}
}

// nextestRetry reads cargo nextest's lines of a test that passed on a
// later try: "TRY 2 PASS [   0.002s] crate::basic tests::flaky" as it
// passes, "FLAKY 2/3 [   0.002s] crate::basic tests::flaky" in the
// summary (its retries: --retries, .config/nextest.toml's retries).
func (r *Reader) nextestRetry(s string) {
	f := strings.Fields(s)
	name := ""
	switch {
	case len(f) >= 3 && f[0] == "FLAKY" && strings.Contains(f[1], "/"):
		name = f[len(f)-1]
	case len(f) >= 4 && f[0] == "TRY" && f[1] != "1" && f[2] == "PASS":
		name = f[len(f)-1]
	}
	if name == "" || !strings.Contains(s, "] ") || strings.HasSuffix(name, "]") {
		return
	}
	r.res.runner("cargo")
	r.res.add("cargo", name, Pass)
	r.res.Tests["cargo"][name] = Pass // its failed tries' output is no outcome
	r.res.retried("cargo", name)
}

// rspecRetry reads rspec-retry's verbose line of a try after the first:
// "RSpec::Retry: 2nd try ./spec/calc_spec.rb:3" (verbose_retry; a silent
// rspec-retry says nothing the Stop can read).
func (r *Reader) rspecRetry(s string) {
	f := strings.Fields(s)
	if len(f) != 4 || f[2] != "try" || f[1] == "1st" {
		return
	}
	file, _, _ := strings.Cut(strings.TrimPrefix(f[3], "./"), ":")
	file = path.Clean(file)
	if !strings.HasSuffix(file, ".rb") || strings.HasPrefix(file, "../") || strings.HasPrefix(file, "/") {
		return
	}
	r.res.retried("rspec:"+file, "line "+strings.TrimPrefix(f[3][strings.LastIndexByte(f[3], ':')+1:], ":"))
}

// cargoTest reads "test tests::adds ... ok".
func (r *Reader) cargoTest(s string) {
	name, o, _ := strings.Cut(s[len("test "):], " ... ")
	if strings.Contains(name, " - ") { // a doc test: "src/lib.rs - add (line 3)"
		return
	}
	switch {
	case o == "ok":
		o = Pass
	case o == "FAILED":
		o = Fail
	default:
		o = Skip
	}
	r.res.runner("cargo")
	r.res.add("cargo", name, o)
}

// pyLine reads pytest's short summary ("PASSED tests/test_x.py::test_a",
// "FAILED tests/test_x.py::test_b - assert …", "ERROR tests/test_x.py -
// …") and its -v lines ("tests/test_x.py::test_a PASSED [ 50%]").
func (r *Reader) pyLine(s string) {
	if strings.HasPrefix(s, "=") && strings.Contains(s, " short test summary info ") {
		r.pyKnown = true
		return
	}
	word, rest, ok := strings.Cut(s, " ")
	if !ok {
		return
	}
	if word == "RERUN" {
		// -rR's summary: "RERUN tests/test_x.py::test_a - …"
		id, _, _ := strings.Cut(rest, " - ")
		r.pyRerun(strings.TrimSpace(id))
		return
	}
	if o, ok := pyOutcome(word); ok {
		id, _, _ := strings.Cut(rest, " - ")
		r.pyNode(strings.TrimSpace(id), o, word == "ERROR")
		return
	}
	// -v: "path::name OUTCOME [ 50%]"
	if !strings.Contains(word, "::") {
		return
	}
	f := strings.Fields(rest)
	if len(f) == 0 {
		return
	}
	if o, ok := pyOutcome(f[0]); ok {
		r.pyKnown = true
		r.pyNode(word, o, f[0] == "ERROR")
	}
	if f[0] == "RERUN" {
		r.pyRerun(word)
	}
}

// pyRerun records a pytest node id that pytest-rerunfailures ran again
// after it failed.
func (r *Reader) pyRerun(id string) {
	file, name, ok := strings.Cut(id, "::")
	if !ok || file == "" || strings.ContainsAny(file, " \t") || !strings.HasSuffix(file, ".py") {
		return
	}
	if i := strings.IndexByte(name, '['); i > 0 && strings.HasSuffix(name, "]") {
		name = name[:i]
	}
	r.res.retried("pytest:"+file, name)
}

func pyOutcome(w string) (string, bool) {
	switch w {
	case "PASSED", "XPASS":
		return Pass, true
	case "FAILED", "ERROR":
		return Fail, true
	case "SKIPPED", "XFAIL":
		return Skip, true
	}
	return "", false
}

// pyNode records the outcome of a pytest node id; an ERROR of a file
// (no "::") is a collection error of the file.
func (r *Reader) pyNode(id, o string, isErr bool) {
	file, name, ok := strings.Cut(id, "::")
	if file == "" || strings.ContainsAny(file, " \t") || !strings.HasSuffix(file, ".py") {
		return
	}
	u := "pytest:" + file
	if !ok {
		if isErr {
			r.res.unit(u, "collection error")
		}
		return
	}
	if i := strings.IndexByte(name, '['); i > 0 && strings.HasSuffix(name, "]") {
		name = name[:i] // parametrized: the test, once
	}
	if len(r.pyLines) < maxTests {
		r.pyLines = append(r.pyLines, pyTest{u, name, o})
	}
}

// stripANSI removes CSI escape sequences ("\x1b[31m").
func stripANSI(s string) string {
	if strings.IndexByte(s, 0x1b) < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[' {
			j := i + 2
			for j < len(s) && s[j] >= 0x20 && s[j] <= 0x3f {
				j++
			}
			i = j // the final byte
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
