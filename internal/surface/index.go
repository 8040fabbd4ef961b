package surface

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/state"
)

// maxFile bounds the files read: larger ones are generated or data.
const maxFile = 1 << 20

// Index is the surface of a project's source files (tests left out), by
// file, with each file's size and modification time: a later Scan reads
// again only the files that changed, as package testindex does.
type Index map[string]Entry

// Entry is one file's surface.
type Entry struct {
	Size    int64    `json:"size"`
	ModTime int64    `json:"mtime"`
	Symbols []Symbol `json:"symbols,omitempty"`
}

// Scan reads the surface of the source files under root, skipping the
// directories of no source (project.NotSource) and the files skip says
// are not the product (the test files), reusing prev's entries of the
// files whose size and modification time did not change.
func Scan(root string, skip func(rel string) bool, prev Index) Index {
	idx := Index{}
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable: not read
		}
		if d.IsDir() {
			if p != root && project.NotSource(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || Lang(d.Name()) == "" {
			return nil
		}
		rel := filepath.ToSlash(strings.TrimLeft(strings.TrimPrefix(p, root), string(filepath.Separator)))
		if skip != nil && skip(rel) {
			return nil
		}
		info, err := d.Info()
		if err != nil || info.Size() > maxFile {
			return nil
		}
		e := Entry{Size: info.Size(), ModTime: info.ModTime().UnixNano()}
		if old, ok := prev[rel]; ok && old.Size == e.Size && old.ModTime == e.ModTime {
			idx[rel] = old
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		e.Symbols = File(rel, src)
		idx[rel] = e
		return nil
	})
	return idx
}

// Symbols returns every symbol of the index.
func (idx Index) Symbols() []Symbol {
	var out []Symbol
	for _, e := range idx {
		out = append(out, e.Symbols...)
	}
	return out
}

// Read reads an index written by Write; a missing file is an empty index
// and an error wrapping fs.ErrNotExist.
func Read(path string) (Index, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Index{}, err
	}
	idx := Index{}
	if err := json.Unmarshal(data, &idx); err != nil {
		return Index{}, fmt.Errorf("%s is corrupt (%v)", path, err)
	}
	return idx, nil
}

// Write writes idx to path atomically.
func Write(path string, idx Index) error {
	data, err := json.Marshal(idx)
	if err != nil {
		return fmt.Errorf("encoding %s: %w", path, err)
	}
	return state.WriteFile(path, append(data, '\n'), 0o644)
}

// BaselinePath is a loop's surface at its start (or at the gate that
// approved a new baseline); LatestPath its surface at the last Stop, the
// cache of the next Scan.
func BaselinePath(sc project.Scope) string { return filepath.Join(sc.Dir(), "surface-baseline.json") }

// LatestPath: see BaselinePath.
func LatestPath(sc project.Scope) string { return filepath.Join(sc.Dir(), "surface.json") }
