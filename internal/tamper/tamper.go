// Package tamper refuses test tampering before it happens: it is the
// test-tamper rule of pre-tool-call.
//
// For a Write, Edit or MultiEdit of a test file, [Judge] applies the change
// to the file in memory as the agent's tool would ([Apply]), reads the
// file's tests before and after with package testscan, and compares the
// two ([Check]). The judged unit is the whole file. A change tampers when
// it:
//
//   - deletes a test (a rename, a move to a sibling file or a move into
//     subtests is not a deletion), or rewrites the file with fewer tests;
//   - skips a test, focuses others with .only, adds a skip anywhere, or
//     keeps the whole file out of the build (a Go build tag nobody sets,
//     #[cfg(test)] replaced in Rust);
//   - empties a test's body, or keeps its assertions from failing it: an
//     early bare return, a catch of assertion failures, a block under a
//     constant false condition, an assertion or-ed with true;
//   - removes assertions from a test, replaces them by trivially true
//     ones (assert True, expect(true).toBe(true), assert!(true)), or
//     checks less with as many: an exact check replaced by one that a
//     value merely exists (toBe(5) by toBeDefined(), eq(120) by
//     be_truthy), by a bound (> 0), a type check (isinstance, be_a) or a
//     non-empty check (len(x) > 0); a mock's argument matcher dropped
//     (toHaveBeenCalledWith by toHaveBeenCalled, verify(m).f(any()));
//     an error's message check dropped (match=, toThrow('msg'),
//     should_panic(expected = …)); the expected exception made broader
//     (ValueError by Exception, raise_error without a class); a table or
//     parametrize case removed;
//   - keeps every test of a Go package from running: a TestMain that
//     never calls m.Run, an init in a test file that calls os.Exit (a new
//     file too: testmain.go);
//   - makes a test expect the failure it checks against (#[should_panic],
//     @Test(expected = …) or test.failing added, not.toThrow made toThrow,
//     NoError made Error, is_ok made is_err);
//   - makes a test check a stub of its own (the method its assertion calls
//     stubbed to return what it expects), run its assertions where they
//     fail nothing (a testing.T of its own, a goroutine, promise or timer
//     nobody waits for, a closure never called, contextlib.suppress, a
//     catch-all except or a catch that does not rethrow, a Python assert
//     of a tuple), pass over some of its cases (a return or continue under
//     a condition on the case, in a run over a table), or builds it only
//     under a Rust cfg cargo test does not set (dodge.go, stubs.go);
//   - makes expected output rewrite itself on every run (-update true by
//     default, INSTA_FORCE_PASS set from the test: selfupdate.go);
//   - keeps tests from being collected or from failing through pytest's
//     hooks and settings in conftest.py (collect_ignore, items removed in
//     pytest_collection_modifyitems, rep.outcome = "passed"), in a new
//     conftest.py too (pytesthooks.go);
//   - checks less with as many assertions in the ways round 2 added
//     (loose.go, cases.go): a snapshot, an inequality, a length, a partial
//     match or a wide tolerance in place of an exact check, a placeholder
//     (mock.ANY, expect.any) in place of an expected value, a field left
//     out of a comparison, the failure condition narrowed by a constant or
//     the environment, a table's cases sliced or dropped from a table kept
//     beside the tests;
//   - checks less in the idioms round 4 reads (bent13): gomega, chai,
//     sinon, node:assert and Hamcrest matchers, a truthiness check of what
//     was compared, a part of the value compared whole, one field of a
//     value compared whole (loose.go), a property test's cases cut
//     (cases.go), a tag the project's runner leaves out (tags.go: a
//     skip), a Go loop of tries (retry.go);
//   - removes assertions from helpers, fixtures or setup, or makes them
//     trivially true.
//
// Package testscan reads the tests; the lines a change adds to a test are
// read here for what it cannot see (returns, catches, constant
// conditions, loose matchers, build constraints).
//
// New tests, more assertions, renames, refactors (assertions moved into a
// helper, into subtests or another test, or folded into fewer that check
// the same things), typo fixes and reformatting pass. A Write of a new
// file is never tampering, nor is a change the tool would refuse (an
// old_string that is not in the file). test_integrity.allow in aiwg.yml
// lets named tests of named files change.
//
// Deleting, skipping, emptying or bypassing a test (expecting its failure
// included) and expectations that rewrite themselves are critical; fewer, trivial or loosened assertions are high.
// The judged change may also come from a Bash command that rewrites a test
// file with text pre-tool-call can read (a heredoc, cp of a file):
// [JudgeWrite]. The rule denies both; the
// detection mode lowers high ones as it does every rule's (off: allowed,
// minimal: asked).
package tamper

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tidwall/match"

	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/testscan"
)

// Rule is the name of the rule in answers and audit lines.
const Rule = "test-tamper"

// Levels of a finding, as package risk spells them.
const (
	High     = "high"
	Critical = "critical"
)

// Kind is what a change does to a test, or to a file's assertions outside
// its tests.
type Kind string

// Kinds of problems.
const (
	Removed     Kind = "removed"     // a test deleted
	Skipped     Kind = "skipped"     // a test that ran is skipped
	SkipAdded   Kind = "skip-added"  // a skip marker that skips no test outright (conditional, in a helper)
	Emptied     Kind = "emptied"     // a test's body emptied
	Bypassed    Kind = "bypassed"    // a test's assertions kept from failing it: an early return, a caught failure
	Excluded    Kind = "excluded"    // the file kept out of the build: a Go build constraint, a Rust cfg
	SelfUpdate  Kind = "self-update" // expected output (golden files, snapshots) rewritten from the code on every run
	Deselected  Kind = "deselected"  // tests kept from running or failing by a pytest hook or setting in conftest.py
	Weakened    Kind = "weakened"    // a test with fewer real assertions
	Trivialized Kind = "trivialized" // a test with trivially true assertions in place of real ones
	Helpers     Kind = "helpers"     // real assertions removed outside the tests
	HelperTrue  Kind = "helper-true" // trivially true assertions added outside the tests
	Retried     Kind = "retried"     // a test that ran made to pass on a later try (jest.retryTimes, a flaky marker)
)

// critical reports whether a problem of kind k is critical (else high).
func (k Kind) critical() bool {
	return k == Removed || k == Skipped || k == SkipAdded || k == Emptied || k == Bypassed || k == Excluded || k == SelfUpdate || k == Deselected
}

// Problem is one thing a change does to a file's tests.
type Problem struct {
	Kind Kind
	// Test is the test's name in the style of package testscan. For a
	// SkipAdded it is the test whose source changed when only one did;
	// for Excluded, SelfUpdate, Deselected, Helpers and HelperTrue it is "",
	// for Retried "" when the retry is above every test of the file.
	Test string
	// Line is the test's line: in the file before the change for a
	// removed test, after it otherwise. Without a test, Line to End are
	// the lines the change rewrote (Excluded: the line of the constraint),
	// in the file after it.
	Line, End int
	// Before and After count what changed: the test's real (not trivially
	// true) assertions for Weakened and Trivialized, the skips or
	// assertions outside the tests for SkipAdded, Helpers and HelperTrue.
	Before, After int
	// How says how a Bypassed test is kept from failing, how a Weakened
	// one's exact checks were loosened, how an Excluded file is kept out
	// of the build, how a SelfUpdate rewrites expected output, or how a
	// Deselected change keeps tests from running or failing, how a
	// Retried test is run again on failure.
	How string
}

// Finding is what [Check] found in a change that tampers with tests.
type Finding struct {
	Path string // the file, as given to Check
	Tool string // Write, Edit or MultiEdit
	// Tests and Was are the file's test counts after and before.
	Tests, Was int
	// Problems are the tampering that no exception allows, most severe
	// kinds first; empty when exceptions allowed all of it.
	Problems []Problem
	// Allowed are the problems test_integrity.allow lets through, and
	// Exceptions the reasons of the exceptions that did.
	Allowed    []Problem
	Exceptions []string
}

// Level is the finding's level: critical when a test is deleted, skipped,
// emptied or bypassed or the file kept out of the build, else high. A
// finding whose problems are all allowed has the level they would have had.
func (f *Finding) Level() string {
	ps := f.Problems
	if len(ps) == 0 {
		ps = f.Allowed
	}
	for _, p := range ps {
		if p.Kind.critical() {
			return Critical
		}
	}
	return High
}

// Options are the settings of [Check].
type Options struct {
	// Tool is the tool making the change, for the reason.
	Tool string
	// Allow are the exceptions of test_integrity.allow; their paths are
	// matched against the name given to Check.
	Allow []config.TestException
	// Elsewhere reports whether a test removed from the file, of name
	// name, with body as its source text (without its name) and real
	// assertions that are not trivially true, still exists in another
	// file: it was moved. Nil: never.
	Elsewhere func(name, body string, real int) bool
	// As is a name package testscan knows to read the file as, for a file
	// whose own name it does not know (a helper under tests/ that
	// test_files names); "": the file's name.
	As string
	// Prior returns the file's last text that is known to hold its tests
	// (its committed one), which stands for the text before when that
	// does not parse: a file first broken (emptied, a brace cut) and then
	// rewritten without its tests is compared with what it held. Nil, or
	// a nil result: nothing to compare with.
	Prior func() []byte
	// Excluded returns the tags and markers the project's runners leave
	// out of the run (see [ExcludedTags]), each with the file that says
	// so; read only when a change tags a test. Nil: none.
	Excluded func() map[string]string
}

// Check compares the test file name (slash-separated, relative to the
// project root) before and after a change and returns what tampers with
// its tests, or nil when nothing does. A nil before is a new file: never
// tampering. A name that is not a test file of a known language (see
// Options.As) gives nil.
func Check(name string, before, after []byte, opt Options) *Finding {
	as := name
	if opt.As != "" {
		as = opt.As
	}
	if before == nil || testscan.Lang(as) == "" {
		return nil
	}
	b, err := testscan.Scan(as, before)
	if (b == nil || err != nil) && opt.Prior != nil {
		if prior := opt.Prior(); prior != nil {
			if pb, perr := testscan.Scan(as, prior); pb != nil && perr == nil {
				before, b, err = prior, pb, nil
			}
		}
	}
	if b == nil {
		return nil
	}
	a, aerr := testscan.Scan(as, after)
	if a == nil || aerr != nil && err == nil {
		// The change breaks the syntax (a Go file that does not parse):
		// the tests cannot even build, and what was read of the file
		// cannot be trusted to list them. Unless a build constraint
		// keeps the file out of the build first: go reads the header
		// before the package clause, so `//go:build ignore` over the
		// whole file passes the package with no tests (checked with go
		// 1.24: "no test files", exit 0).
		how, line := excluded(testscan.Lang(as), string(before), string(after))
		if how == "" {
			return nil
		}
		f := &Finding{Path: name, Tool: opt.Tool, Tests: 0, Was: len(b.Tests)}
		p := Problem{Kind: Excluded, Line: line, How: how}
		if why, ok := allowed(opt.Allow, name, p); ok {
			f.Allowed, f.Exceptions = []Problem{p}, []string{why}
			return f
		}
		f.Problems = []Problem{p}
		return f
	}
	f := &Finding{Path: name, Tool: opt.Tool, Tests: len(a.Tests), Was: len(b.Tests)}
	probs := compare(as, b, a, string(before), string(after), opt)
	if testscan.Lang(as) == "python" {
		if how, line := pytestBypass(before, after); how != "" {
			probs = append(probs, Problem{Kind: Deselected, Line: line, How: how})
		}
	}
	if testscan.Lang(as) == "go" {
		if how, line := runBypass(after); how != "" {
			if was, _ := runBypass(before); was == "" {
				probs = append(probs, Problem{Kind: Bypassed, Line: line, How: how})
			}
		}
	}
	if len(probs) == 0 {
		return nil
	}
	for _, p := range probs {
		if why, ok := allowed(opt.Allow, name, p); ok {
			f.Allowed = append(f.Allowed, p)
			if !slices.Contains(f.Exceptions, why) {
				f.Exceptions = append(f.Exceptions, why)
			}
			continue
		}
		f.Problems = append(f.Problems, p)
	}
	return f
}

// allowed returns the reason of the first exception that allows p in file
// name.
func allowed(allow []config.TestException, name string, p Problem) (string, bool) {
	for _, e := range allow {
		if !pathMatch(e.Path, name) {
			continue
		}
		if len(e.Tests) == 0 {
			return e.Reason, true
		}
		if p.Test == "" {
			continue
		}
		leaf := leafName(p.Test)
		for _, pat := range e.Tests {
			if match.Match(p.Test, pat) || match.Match(leaf, pat) {
				return e.Reason, true
			}
		}
	}
	return "", false
}

// Reason is the reason of a denial, for the agent: what the change does to
// which tests, at which lines, and what to do instead.
func (f *Finding) Reason() string {
	var b strings.Builder
	tool := f.Tool
	if tool == "" {
		tool = "change"
	}
	fmt.Fprintf(&b, "this %s of %s tampers with its tests", tool, f.Path)
	if tool == "Write" && f.Tests < f.Was {
		fmt.Fprintf(&b, " (it rewrites the file with %d of its %d tests)", f.Tests, f.Was)
	}
	b.WriteString(": it ")
	b.WriteString(describe(f.Problems))
	b.WriteString(". Do not change tests to make them pass: fix the code under test. If a test is truly obsolete or wrong, stop and ask the human to change it (or to allow it under test_integrity.allow in aiwg.yml).")
	return b.String()
}

// describe says in one sentence what the problems are.
func describe(ps []Problem) string {
	var parts []string
	group := func(k Kind, verb string, item func(Problem) string) {
		var items []string
		for _, p := range ps {
			if p.Kind == k && (k != Weakened || (p.How == "") == (verb == "removes assertions from")) {
				items = append(items, item(p))
			}
		}
		if len(items) == 0 {
			return
		}
		const show = 5
		s := strings.Join(items[:min(len(items), show)], ", ")
		if len(items) > show {
			s += fmt.Sprintf(" and %d more", len(items)-show)
		}
		parts = append(parts, verb+" "+s)
	}
	named := func(p Problem) string { return fmt.Sprintf("%s (line %d)", p.Test, p.Line) }
	counts := func(p Problem) string {
		if p.How != "" {
			return fmt.Sprintf("%s (line %d: %s)", p.Test, p.Line, p.How)
		}
		return fmt.Sprintf("%s (line %d, %d → %d real assertions)", p.Test, p.Line, p.Before, p.After)
	}
	group(Removed, "deletes", named)
	group(Skipped, "skips", func(p Problem) string {
		if p.How != "" {
			return fmt.Sprintf("%s (line %d: it %s)", p.Test, p.Line, p.How)
		}
		return named(p)
	})
	group(Emptied, "empties", named)
	group(Trivialized, "replaces assertions by trivially true ones in", counts)
	group(Weakened, "removes assertions from", counts)
	group(Weakened, "weakens", counts) // the same number of checks, that check less
	for _, p := range ps {
		switch p.Kind {
		case Bypassed:
			if p.Test == "" {
				// testmain.go: the package's tests, not one of them.
				parts = append(parts, fmt.Sprintf("keeps every test of its package from running: it %s (line %d)", p.How, p.Line))
				break
			}
			parts = append(parts, fmt.Sprintf("makes %s (line %d) pass whatever happens: it %s", p.Test, p.Line, p.How))
		case Excluded:
			parts = append(parts, fmt.Sprintf("keeps every test of the file from running: it %s (line %d)", p.How, p.Line))
		case Deselected:
			parts = append(parts, fmt.Sprintf("keeps tests from running or from failing: it %s (line %d)", p.How, p.Line))
		case Retried:
			if p.Test == "" {
				parts = append(parts, fmt.Sprintf("lets its tests pass on a later try: it %s (line %d)", p.How, p.Line))
				break
			}
			parts = append(parts, fmt.Sprintf("lets %s (line %d) pass on a later try: it %s", p.Test, p.Line, p.How))
		case SelfUpdate:
			parts = append(parts, fmt.Sprintf("makes its expectations agree with whatever the code does: it %s (line %d)", p.How, p.Line))
		case SkipAdded:
			if p.Test != "" {
				parts = append(parts, fmt.Sprintf("adds %s to %s (line %d)", plural(p.After-p.Before, "skip"), p.Test, p.Line))
			} else {
				parts = append(parts, fmt.Sprintf("adds %s (%s: a conditional skip, or one in a helper, fixture or setup)", plural(p.After-p.Before, "skip"), lines(p)))
			}
		case Helpers:
			parts = append(parts, fmt.Sprintf("removes %s outside the tests (%s: helpers, fixtures or setup)", plural(p.Before-p.After, "real assertion"), lines(p)))
		case HelperTrue:
			parts = append(parts, fmt.Sprintf("adds %s outside the tests (%s)", plural(p.After-p.Before, "trivially true assertion"), lines(p)))
		}
	}
	switch len(parts) {
	case 0:
		return "weakens them"
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], "; ") + "; and " + parts[len(parts)-1]
}

// lines names the lines of a problem outside the tests.
func lines(p Problem) string {
	if p.End > p.Line {
		return fmt.Sprintf("lines %d-%d", p.Line, p.End)
	}
	return fmt.Sprintf("line %d", p.Line)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// leafName is the last part of a test name: "test_add" of
// "TestCalc::test_add", "adds" of "calc > add > adds".
func leafName(name string) string {
	// The separators of package testscan's names, the language's own
	// first: JavaScript and RSpec descriptions may hold any of the others.
	for _, sep := range []string{" > ", "::", "#", "/", "."} {
		if i := strings.LastIndex(name, sep); i >= 0 {
			return name[i+len(sep):]
		}
	}
	return name
}

// Allowed reports whether test_integrity.allow excuses a change to test
// (a full name; "" for changes outside any test) in the file at path,
// relative to the project root, and returns the exception's reason.
func Allowed(allow []config.TestException, path, test string) (string, bool) {
	return allowed(allow, path, Problem{Test: test})
}
