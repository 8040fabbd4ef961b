package reflection

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/ralph-hooks/ralph-hooks/internal/clip"
	"github.com/ralph-hooks/ralph-hooks/internal/jsonerr"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
)

// Dir is where reflections live, relative to the project root.
const Dir = project.RalphDir + "/reflections"

// indexFile counts one loop's signatures, beside its iteration YAMLs.
const indexFile = "signatures.json"

// Bounds on a loop's index.
const (
	maxSeen      = 100 // signatures of each kind remembered per loop
	maxSeenIters = 10  // iterations remembered per signature
	maxRecent    = 10  // last reflections kept for Summary
	maxExample   = 120 // bytes of a signature's example
)

// CheckLoop returns an error naming id when it cannot name a loop's
// reflections: a ralph loop id, or an external loop's name of 1 to 100
// bytes of [a-z0-9._-], starting with a letter or digit, without "..".
func CheckLoop(id string) error {
	if project.ValidLoopID(id) || externalID(id) {
		return nil
	}
	return fmt.Errorf("invalid loop id %q: want a ralph loop id (ralph-<slug>-<8 hex digits>) or a name of 1 to 100 characters a-z 0-9 . _ -, starting with a letter or digit, without \"..\"", clip.String(id, 120))
}

func externalID(id string) bool {
	if len(id) == 0 || len(id) > 100 || strings.Contains(id, "..") {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		case i > 0 && (c == '.' || c == '_' || c == '-'):
		default:
			return false
		}
	}
	return true
}

// loopDir is the directory of a loop's reflections; loop must be checked.
func loopDir(root, loop string) string {
	return filepath.Join(root, filepath.FromSlash(Dir), "loops", loop)
}

// patternDir is the directory of a project's recurring patterns.
func patternDir(root string) string {
	return filepath.Join(root, filepath.FromSlash(Dir), "patterns")
}

// iterationPath is iteration-{n}.yaml, as aiwg names it (no zero padding).
func iterationPath(dir string, n int) string {
	return filepath.Join(dir, "iteration-"+strconv.Itoa(n)+".yaml")
}

// index is signatures.json: what Record needs to number an iteration,
// compare it with the last and count repeats, without reading every YAML.
type index struct {
	Last        int              `json:"last_iteration"`         // highest trial number stored
	LastTime    time.Time        `json:"last_time,omitzero"`     // its timestamp
	LastOutcome string           `json:"last_outcome,omitempty"` // its outcome
	LastFailure string           `json:"last_failure,omitempty"` // its failing tests and error signature, hashed
	LastDiff    string           `json:"last_diff,omitempty"`    // its change's identity
	Recent      []recent         `json:"recent"`                 // the highest trial numbers, ascending, with their summary lines
	Reflections map[string]*seen `json:"reflections"`            // normalised agent reflection → occurrences
	Failures    map[string]*seen `json:"fingerprints"`           // failure fingerprint → occurrences (outcome not success)
}

// recent is one of the last reflections of a loop, as a summary shows it.
type recent struct {
	N    int    `json:"n"`
	Line string `json:"line"`
}

// seen counts one signature in a loop. Its example is kept once it recurs.
type seen struct {
	Count      int    `json:"count"`
	Iterations []int  `json:"iterations"` // the most recent, ascending
	Example    string `json:"example,omitempty"`
}

// loadIndex decodes a loop's index. Without one (a new loop, or a deleted
// index) it starts afresh, numbering after the iteration files present and
// summarising the last of them.
func loadIndex(dir string, data []byte) (*index, error) {
	idx := &index{}
	if data != nil {
		if err := json.Unmarshal(data, idx); err != nil {
			return nil, fmt.Errorf("%s is corrupt (%s); it was left as is: move it aside to start counting afresh", filepath.Join(dir, indexFile), jsonerr.Say(err))
		}
	} else {
		ents, err := os.ReadDir(dir)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("reading %s: %w", dir, err)
		}
		var ns []int
		for _, e := range ents {
			s, ok := strings.CutPrefix(e.Name(), "iteration-")
			s, ok2 := strings.CutSuffix(s, ".yaml")
			if n, err := strconv.Atoi(s); ok && ok2 && err == nil && n > 0 {
				ns = append(ns, n)
			}
		}
		slices.Sort(ns)
		if len(ns) > 0 {
			idx.Last = ns[len(ns)-1]
		}
		for _, n := range ns[max(len(ns)-maxRecent, 0):] {
			if r, err := Read(iterationPath(dir, n)); err == nil {
				idx.Recent = addRecent(idx.Recent, n, summaryLine(r))
			}
		}
	}
	if idx.Reflections == nil {
		idx.Reflections = map[string]*seen{}
	}
	if idx.Failures == nil {
		idx.Failures = map[string]*seen{}
	}
	return idx, nil
}

// addRecent adds (or replaces) iteration n and its summary line in the
// ascending list of the last iterations.
func addRecent(rs []recent, n int, line string) []recent {
	i, found := slices.BinarySearchFunc(rs, n, func(r recent, n int) int { return r.N - n })
	if found {
		rs[i].Line = line
	} else {
		rs = slices.Insert(rs, i, recent{n, line})
	}
	if len(rs) > maxRecent {
		rs = rs[len(rs)-maxRecent:]
	}
	return rs
}

// forget removes iteration n from every signature, before it is recorded
// again.
func (idx *index) forget(n int) {
	for _, m := range []map[string]*seen{idx.Reflections, idx.Failures} {
		for k, s := range m {
			if i := slices.Index(s.Iterations, n); i >= 0 {
				s.Iterations = slices.Delete(s.Iterations, i, i+1)
				s.Count--
				if s.Count <= 0 {
					delete(m, k)
				}
			}
		}
	}
}

// count records iteration n under key and returns the signature's count.
func count(m map[string]*seen, key string, n int, example string) *seen {
	s := m[key]
	if s == nil {
		if len(m) >= maxSeen {
			evict(m)
		}
		s = &seen{}
		m[key] = s
	}
	s.Count++
	if s.Count >= 2 && s.Example == "" {
		s.Example = clip.String(example, maxExample)
	}
	i, _ := slices.BinarySearch(s.Iterations, n)
	s.Iterations = slices.Insert(s.Iterations, i, n)
	if len(s.Iterations) > maxSeenIters {
		s.Iterations = s.Iterations[len(s.Iterations)-maxSeenIters:]
	}
	return s
}

// evict forgets the signature seen least recently.
func evict(m map[string]*seen) {
	oldest, at := "", 0
	for k, s := range m {
		last := 0
		if len(s.Iterations) > 0 {
			last = s.Iterations[len(s.Iterations)-1]
		}
		if oldest == "" || last < at || last == at && k < oldest {
			oldest, at = k, last
		}
	}
	delete(m, oldest)
}

// hash is a short hex hash of parts.
func hash(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}

// encode renders r as the YAML stored.
func encode(r Reflection) ([]byte, error) {
	var b bytes.Buffer
	e := yaml.NewEncoder(&b)
	e.SetIndent(2)
	if err := e.Encode(r); err != nil {
		return nil, fmt.Errorf("encoding reflection %d: %w", r.TrialNumber, err)
	}
	if err := e.Close(); err != nil {
		return nil, fmt.Errorf("encoding reflection %d: %w", r.TrialNumber, err)
	}
	return b.Bytes(), nil
}

// Read reads one stored reflection.
func Read(path string) (Reflection, error) {
	var r Reflection
	data, err := os.ReadFile(path)
	if err != nil {
		return r, fmt.Errorf("reading reflection: %w", err)
	}
	if err := yaml.Unmarshal(data, &r); err != nil {
		return r, fmt.Errorf("reflection %s is corrupt: %v", path, err)
	}
	return r, nil
}
