package testscan

import (
	"fmt"
	"strings"
)

// Changes is what an edit did to a test file's tests, as far as tampering
// goes. Tests are matched by name (tests sharing a name in their order), so
// a renamed test shows as one removed and one added.
type Changes struct {
	// Removed are the tests of before that after lacks.
	Removed []string `json:"removed,omitempty"`
	// Added are the tests of after that before lacked.
	Added []string `json:"added,omitempty"`
	// Skipped are the tests of both that are skipped only after.
	Skipped []string `json:"skipped,omitempty"`
	// Emptied are the tests of both whose body is empty only after.
	Emptied []string `json:"emptied,omitempty"`
	// Weakened are the tests of both with fewer real assertions after:
	// assertions removed, or replaced by trivially true ones.
	Weakened []string `json:"weakened,omitempty"`
	// Skips, Assertions and Trivial are the changes of the file's skips,
	// real (not trivially true) assertions and trivially true assertions:
	// after's count less before's.
	Skips      int `json:"skips"`
	Assertions int `json:"assertions"`
	Trivial    int `json:"trivial"`
}

// Diff compares a test file before and after an edit. A nil before is a
// new file, a nil after a deleted one.
func Diff(before, after *File) Changes {
	if before == nil {
		before = &File{}
	}
	if after == nil {
		after = &File{}
	}
	var c Changes
	now := map[string][]Test{}
	for _, t := range after.Tests {
		now[t.Name] = append(now[t.Name], t)
	}
	matched := map[string]int{}
	for _, b := range before.Tests {
		n := matched[b.Name]
		if n >= len(now[b.Name]) {
			c.Removed = append(c.Removed, b.Name)
			continue
		}
		matched[b.Name]++
		a := now[b.Name][n]
		if a.Skipped && !b.Skipped {
			c.Skipped = append(c.Skipped, a.Name)
		}
		if a.Empty && !b.Empty {
			c.Emptied = append(c.Emptied, a.Name)
		}
		if a.Assertions-a.Trivial < b.Assertions-b.Trivial {
			c.Weakened = append(c.Weakened, a.Name)
		}
	}
	seen := map[string]int{}
	for _, a := range after.Tests {
		seen[a.Name]++
		if seen[a.Name] > matched[a.Name] {
			c.Added = append(c.Added, a.Name)
		}
	}
	c.Skips = after.Skips - before.Skips
	c.Assertions = (after.Assertions - after.Trivial) - (before.Assertions - before.Trivial)
	c.Trivial = after.Trivial - before.Trivial
	return c
}

// Suspicious reports whether the changes remove or weaken what the tests
// check: a test removed, newly skipped, emptied or weakened, more skips,
// fewer real assertions, or more trivially true ones.
func (c Changes) Suspicious() bool {
	return len(c.Removed)+len(c.Skipped)+len(c.Emptied)+len(c.Weakened) > 0 ||
		c.Skips > 0 || c.Assertions < 0 || c.Trivial > 0
}

// String says in one line what is suspicious about the changes, "" when
// nothing is: "tests removed: TestA, TestB; 2 assertions removed; 1
// trivially true assertion added".
func (c Changes) String() string {
	var parts []string
	list := func(what string, names []string) {
		if len(names) == 0 {
			return
		}
		const show = 5
		s := strings.Join(names[:min(len(names), show)], ", ")
		if len(names) > show {
			s += fmt.Sprintf(" and %d more", len(names)-show)
		}
		parts = append(parts, what+": "+s)
	}
	count := func(n int, one, many string) {
		if n == 1 {
			parts = append(parts, "1 "+one)
		} else {
			parts = append(parts, fmt.Sprintf("%d %s", n, many))
		}
	}
	list("tests removed", c.Removed)
	list("tests newly skipped", c.Skipped)
	list("test bodies emptied", c.Emptied)
	list("tests with fewer real assertions", c.Weakened)
	if c.Skips > 0 {
		count(c.Skips, "skip added", "skips added")
	}
	if c.Assertions < 0 {
		count(-c.Assertions, "assertion removed", "assertions removed")
	}
	if c.Trivial > 0 {
		count(c.Trivial, "trivially true assertion added", "trivially true assertions added")
	}
	return strings.Join(parts, "; ")
}
