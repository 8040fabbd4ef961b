package reflection

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/ralph-hooks/ralph-hooks/internal/state"
)

// Bounds on a project's patterns.
const (
	maxPatternSeen  = 500 // signatures remembered project-wide
	maxPatternLoops = 20  // loops listed in a pattern
	maxKnown        = 10  // patterns Known returns
	maxPatternFiles = 1000
)

// seenFile counts every signature of the project, recurring or not, so a
// signature met once in each of two loops is known to recur.
const seenFile = "seen.json"

// Pattern is a reflection or failure that recurs in the project, stored as
// reflections/patterns/{kind}-{signature}.yaml.
type Pattern struct {
	Signature string    `yaml:"signature" json:"signature"`
	Kind      string    `yaml:"kind" json:"kind"` // "reflection" or "failure"
	Count     int       `yaml:"count" json:"count"`
	Example   string    `yaml:"example" json:"example"`
	Loops     []string  `yaml:"loops" json:"loops"` // the loops it occurred in, most recent last, bounded
	FirstSeen time.Time `yaml:"first_seen" json:"first_seen"`
	LastSeen  time.Time `yaml:"last_seen" json:"last_seen"`
}

// pattern is one signature of an iteration, to be counted project-wide.
type pattern struct{ kind, sig, example string }

// notePatterns counts an iteration's signatures project-wide, under the
// lock of patterns/seen.json, and writes the pattern file of each one
// that has now occurred twice or more (twice in a loop, or in two loops).
// The pattern files are staged: synced with seen.json, at once, and
// renamed into place before it (state.Stage), so a count of two or more
// in seen.json always has its file.
func notePatterns(root, loop string, at time.Time, ps []pattern) error {
	if len(ps) == 0 {
		return nil
	}
	dir := patternDir(root)
	return state.UpdateJSONStaged(filepath.Join(dir, seenFile), func(m *map[string]*Pattern, stage *state.Stage) error {
		if *m == nil {
			*m = map[string]*Pattern{}
		}
		for _, p := range ps {
			key := p.kind + "-" + p.sig
			pt := (*m)[key]
			if pt == nil {
				if len(*m) >= maxPatternSeen {
					evictPattern(*m)
				}
				pt = &Pattern{Signature: p.sig, Kind: p.kind, Example: p.example, FirstSeen: at}
				(*m)[key] = pt
			}
			pt.Count++
			pt.LastSeen = at
			if i := slices.Index(pt.Loops, loop); i >= 0 {
				pt.Loops = slices.Delete(pt.Loops, i, i+1)
			}
			pt.Loops = append(pt.Loops, loop)
			if len(pt.Loops) > maxPatternLoops {
				pt.Loops = pt.Loops[len(pt.Loops)-maxPatternLoops:]
			}
			if pt.Count < 2 {
				continue
			}
			data, err := yaml.Marshal(pt)
			if err != nil {
				return fmt.Errorf("encoding pattern %s: %w", key, err)
			}
			if err := stage.Write(filepath.Join(dir, key+".yaml"), data, 0o644); err != nil {
				return err
			}
		}
		return nil
	})
}

// evictPattern forgets the signature seen least recently.
func evictPattern(m map[string]*Pattern) {
	oldest := ""
	for k, p := range m {
		if oldest == "" || p.LastSeen.Before(m[oldest].LastSeen) || p.LastSeen.Equal(m[oldest].LastSeen) && k < oldest {
			oldest = k
		}
	}
	delete(m, oldest)
}

// Known returns the project's recurring patterns, most frequent first (then
// most recent), at most 10, for a new loop's first prompt. A pattern file
// that does not parse is left out and named in the error; the patterns
// read are returned all the same.
func Known(root string) ([]Pattern, error) {
	dir := patternDir(root)
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading patterns: %w", err)
	}
	var out []Pattern
	var bad []string
	read := 0
	for _, e := range ents {
		name := e.Name()
		if !strings.HasSuffix(name, ".yaml") || !(strings.HasPrefix(name, "reflection-") || strings.HasPrefix(name, "failure-")) {
			continue
		}
		if read++; read > maxPatternFiles {
			break
		}
		path := filepath.Join(dir, name)
		data, err := os.ReadFile(path)
		if err != nil {
			bad = append(bad, fmt.Sprintf("%s: %v", path, err))
			continue
		}
		var p Pattern
		if err := yaml.Unmarshal(data, &p); err != nil || p.Signature == "" {
			if err == nil {
				err = errors.New("no signature")
			}
			bad = append(bad, fmt.Sprintf("pattern %s is corrupt: %v", path, err))
			continue
		}
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b Pattern) int {
		if a.Count != b.Count {
			return b.Count - a.Count
		}
		if c := b.LastSeen.Compare(a.LastSeen); c != 0 {
			return c
		}
		return strings.Compare(a.Kind+a.Signature, b.Kind+b.Signature)
	})
	if len(out) > maxKnown {
		out = out[:maxKnown]
	}
	if len(bad) > 0 {
		msg := bad[0]
		if len(bad) > 1 {
			msg += fmt.Sprintf(" (and %d more)", len(bad)-1)
		}
		return out, errors.New(msg)
	}
	return out, nil
}

// exists reports whether path exists.
func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// readIfExists reads path, or returns nil when it does not exist.
func readIfExists(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return data, nil
}
