package metrics

// This file reads what test runners print at the end of a run into a
// Summary: the line-by-line parser, the tallies and their merge, and the
// helpers the runners share. Each runner has its file: summary_gotest.go,
// summary_pytest.go, summary_jest.go, summary_vitest.go, summary_cargo.go,
// summary_mocha.go, summary_node.go, summary_rspec.go, summary_maven.go.

import (
	"bytes"
	"strings"
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
