package tamper

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/ralph-hooks/ralph-hooks/internal/event"
	"github.com/ralph-hooks/ralph-hooks/internal/testscan"
)

// corpusCase is one edit of testdata/corpus: a change to a real-world test
// file that is tampering (deny) or legitimate (allow).
type corpusCase struct {
	archive string
	name    string // the case, e.g. "deny: delete the failing test"
	path    string // the test file
	deny    bool   // tampering: should be denied
	known   bool   // a known limitation: the result is the wrong one, on purpose
	tool    string
	before  string
	after   string
}

// loadCorpus reads testdata/corpus/*.txtar. In each archive the first file
// is the test file; every other file is a case named "deny: …" (tampering)
// or "allow: …" (a legitimate edit), or, for a known limitation,
// "miss: …" (tampering that is let through) or "fp: …" (a legitimate edit
// that is denied). A case is a Write of its contents when its description
// starts with "write"; otherwise it is a list of edits, each
//
//	<<<
//	old lines
//	===
//	new lines
//	>>>
//
// (one edit: an Edit; several: a MultiEdit).
func loadCorpus(t testing.TB) []corpusCase {
	t.Helper()
	files, err := filepath.Glob("testdata/corpus/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus in testdata/corpus (%v)", err)
	}
	var out []corpusCase
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if len(ar.Files) < 2 {
			t.Fatalf("%s: want a test file and cases", file)
		}
		base := ar.Files[0]
		for _, f := range ar.Files[1:] {
			c := corpusCase{archive: filepath.Base(file), name: f.Name, path: base.Name, before: string(base.Data)}
			kind, desc, _ := strings.Cut(f.Name, ": ")
			switch kind {
			case "deny", "miss":
				c.deny, c.known = true, kind == "miss"
			case "allow", "fp":
				c.known = kind == "fp"
			default:
				t.Fatalf("%s: case %q: want \"deny: …\", \"allow: …\", \"miss: …\" or \"fp: …\"", file, f.Name)
			}
			if strings.HasPrefix(desc, "write") {
				c.tool, c.after = "Write", string(f.Data)
			} else {
				edits, err := parseEdits(string(f.Data))
				if err != nil {
					t.Fatalf("%s: case %q: %v", file, f.Name, err)
				}
				c.tool = "Edit"
				if len(edits) > 1 {
					c.tool = "MultiEdit"
				}
				c.after, err = Apply(c.before, edits)
				if err != nil {
					t.Fatalf("%s: case %q: the edit does not apply: %v", file, f.Name, err)
				}
			}
			out = append(out, c)
		}
	}
	return out
}

// parseEdits reads the <<< === >>> blocks of a case.
func parseEdits(s string) ([]event.Edit, error) {
	var edits []event.Edit
	var old, nw []string
	state := 0 // 0 outside, 1 old, 2 new
	for l := range strings.Lines(s) {
		line := strings.TrimSuffix(l, "\n")
		switch {
		case line == "<<<" && state == 0:
			state, old, nw = 1, nil, nil
		case line == "===" && state == 1:
			state = 2
		case line == ">>>" && state == 2:
			edits = append(edits, event.Edit{Old: block(old), New: block(nw)})
			state = 0
		case state == 1:
			old = append(old, line)
		case state == 2:
			nw = append(nw, line)
		case strings.TrimSpace(line) != "":
			return nil, fmt.Errorf("text outside an edit block: %q", line)
		}
	}
	if state != 0 || len(edits) == 0 {
		return nil, fmt.Errorf("want <<< old === new >>> blocks")
	}
	return edits, nil
}

func block(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(lines, "\n") + "\n"
}

// TestCorpus checks every case of the corpus and reports the catch rate
// (tampering denied) and the false-positive rate (legitimate edits
// denied), per language and overall.
func TestCorpus(t *testing.T) {
	cases := loadCorpus(t)
	type tally struct{ deny, caught, allow, flagged int }
	stats := map[string]*tally{}
	var total, held tally // held: the held-out archives alone
	for _, c := range cases {
		lang := testscan.Lang(c.path)
		if stats[lang] == nil {
			stats[lang] = &tally{}
		}
		st := stats[lang]
		f := Check(c.path, []byte(c.before), []byte(c.after), Options{Tool: c.tool})
		denied := f != nil && len(f.Problems) > 0
		sets := []*tally{st, &total}
		if strings.HasPrefix(c.archive, "holdout_") {
			sets = append(sets, &held)
		}
		for _, s := range sets {
			switch {
			case c.deny:
				s.deny++
				if denied {
					s.caught++
				}
			default:
				s.allow++
				if denied {
					s.flagged++
				}
			}
		}
		t.Run(strings.TrimSuffix(c.archive, ".txtar")+"/"+c.name, func(t *testing.T) {
			switch {
			case c.known && c.deny && denied:
				t.Errorf("%s %s: a known miss is now denied: make the case deny:", c.tool, c.path)
			case c.known && !c.deny && !denied:
				t.Errorf("%s %s: a known false positive is now allowed: make the case allow:", c.tool, c.path)
			case c.known:
			case c.deny && !denied:
				t.Errorf("%s %s: not denied, want a denial", c.tool, c.path)
			case !c.deny && denied:
				t.Errorf("%s %s: denied (%s), want it allowed", c.tool, c.path, f.Reason())
			case denied && !strings.Contains(f.Reason(), "(line"):
				t.Errorf("reason names no line: %s", f.Reason())
			}
			if os.Getenv("CORPUS_REASONS") != "" && denied {
				t.Log(f.Reason())
			}
		})
	}
	langs := make([]string, 0, len(stats))
	for l := range stats {
		langs = append(langs, l)
	}
	sort.Strings(langs)
	var b strings.Builder
	for _, l := range langs {
		s := stats[l]
		fmt.Fprintf(&b, "%-7s tampering caught %2d/%-2d  legitimate flagged %d/%d\n", l, s.caught, s.deny, s.flagged, s.allow)
	}
	for _, s := range []struct {
		name string
		t    tally
	}{{"all", total}, {"held out", held}} {
		fmt.Fprintf(&b, "%-8s tampering caught %d/%d (%.1f %%)  legitimate flagged %d/%d (%.1f %%)\n", s.name,
			s.t.caught, s.t.deny, 100*float64(s.t.caught)/float64(max(1, s.t.deny)),
			s.t.flagged, s.t.allow, 100*float64(s.t.flagged)/float64(max(1, s.t.allow)))
	}
	t.Log("corpus:\n" + b.String())
	if os.Getenv("CORPUS_STATS") != "" {
		fmt.Println(b.String())
	}
}
