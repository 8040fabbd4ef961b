package loop

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/testscan"
)

// maxTestFile bounds the size of a test file that is scanned; larger ones
// are counted as files but not read.
const maxTestFile = 4 << 20

// Index is what the scanner found in each test file, by path relative to
// the project root (slash-separated). A loop keeps the index of its start
// (baseline.json) and the latest one (test-index.json), so each Stop reads
// only the files whose size or modification time changed.
type Index map[string]FileScan

// FileScan is one test file.
type FileScan struct {
	Size       int64    `json:"size"`
	ModTime    int64    `json:"mtime_ns"`
	Tests      []string `json:"tests"`
	Skips      int      `json:"skips"`
	Assertions int      `json:"assertions"`
	Err        string   `json:"error,omitempty"` // why it could not be scanned
}

// ScanTests walks the project at root for test files (doublestar globs
// relative to the root) and scans those not already in prev with the same
// size and modification time.
func ScanTests(root string, globs []string, prev Index) Index {
	idx := Index{}
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable: not measured
		}
		if d.IsDir() {
			if p != root && project.NotSource(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		// The language check is a few string compares; the globs cost a
		// match each: most files of a large tree fail the first.
		rel := filepath.ToSlash(strings.TrimLeft(strings.TrimPrefix(p, root), string(filepath.Separator)))
		if testscan.Lang(rel) == "" || !matchAny(globs, rel) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		fsc := FileScan{Size: info.Size(), ModTime: info.ModTime().UnixNano()}
		if old, ok := prev[rel]; ok && old.Size == fsc.Size && old.ModTime == fsc.ModTime {
			idx[rel] = old
			return nil
		}
		idx[rel] = scanFile(p, rel, fsc)
		return nil
	})
	return idx
}

func scanFile(path, rel string, fsc FileScan) FileScan {
	if fsc.Size > maxTestFile {
		fsc.Err = "larger than 4 MiB: not scanned"
		return fsc
	}
	src, err := os.ReadFile(path)
	if err != nil {
		fsc.Err = err.Error()
		return fsc
	}
	f, err := testscan.Scan(rel, src)
	if err != nil {
		fsc.Err = err.Error()
	}
	if f == nil {
		return fsc
	}
	fsc.Tests = make([]string, 0, len(f.Tests))
	for _, t := range f.Tests {
		fsc.Tests = append(fsc.Tests, t.Name)
	}
	fsc.Skips, fsc.Assertions = f.Skips, f.Assertions
	return fsc
}

func matchAny(globs []string, rel string) bool {
	for _, g := range globs {
		if doublestar.MatchUnvalidated(g, rel) {
			return true
		}
	}
	return false
}

// Totals adds up the index into metrics.
func (idx Index) Totals() Metrics {
	var m Metrics
	for _, f := range idx {
		m.TestFiles++
		m.Tests += len(f.Tests)
		m.Skips += f.Skips
		m.Assertions += f.Assertions
	}
	return m
}

// Missing returns the tests of base that idx no longer has, as
// "path: name", sorted. A test counts as still there when a test of the
// same name exists anywhere (a test moved to another file is not deleted).
func (idx Index) Missing(base Index) []string {
	now := map[string]int{}
	for _, f := range idx {
		for _, t := range f.Tests {
			now[t]++
		}
	}
	var gone []string
	paths := make([]string, 0, len(base))
	for p := range base {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		for _, t := range base[p].Tests {
			if now[t] > 0 {
				now[t]--
				continue
			}
			gone = append(gone, p+": "+t)
		}
	}
	return slices.Clip(gone)
}

// readIndex reads an index file; a missing one is empty.
func readIndex(path string) (Index, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Index{}, nil
	}
	if err != nil {
		return nil, err
	}
	idx := Index{}
	if err := json.Unmarshal(data, &idx); err != nil {
		return nil, err
	}
	return idx, nil
}
