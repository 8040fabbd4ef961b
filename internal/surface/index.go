package surface

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/state"
	"github.com/ralph-hooks/ralph-hooks/internal/treeview"
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
	CTime   int64    `json:"ctime,omitempty"` // status change time: no agent sets it back
	Ino     uint64   `json:"ino,omitempty"`
	Symbols []Symbol `json:"symbols,omitempty"`
}

// Scan reads the surface of the source files under root, skipping the
// directories of no source (project.NotSource) and the files skip says
// are not the product (the test files), reusing prev's entries of the
// files whose stamp did not change.
func Scan(root string, skip func(rel string) bool, prev Index) Index {
	return ScanView(treeview.Open(root, ""), skip, prev, time.Time{})
}

// ScanView is Scan over a view of the tree (package treeview). An entry
// of prev is kept only when the file's size, modification time, status
// change time and inode are the same, its status change time older than
// since (when prev was taken; zero: unknown, an equal stamp is trusted) by more than treeview.Margin.
func ScanView(v *treeview.View, skip func(rel string) bool, prev Index, since time.Time) Index {
	settled := int64(math.MaxInt64) // since unknown: an equal stamp is trusted
	if !since.IsZero() {
		settled = since.Add(-treeview.Margin).UnixNano()
	}
	idx := Index{}
	for _, rel := range v.Files(func(name string) bool { return Lang(name) != "" }, func(rel string) bool { return skip == nil || !skip(rel) }) {
		st, ok := v.Stat(rel)
		if !ok || !st.Mode.IsRegular() || st.Size > maxFile {
			continue
		}
		e := Entry{Size: st.Size, ModTime: st.MTime, CTime: st.CTime, Ino: st.Ino}
		if old, ok := prev[rel]; ok && old.CTime != 0 && old.CTime < settled &&
			old.Size == e.Size && old.ModTime == e.ModTime && old.CTime == e.CTime && old.Ino == e.Ino {
			idx[rel] = old
			continue
		}
		src, err := os.ReadFile(v.Path(rel))
		if err != nil {
			continue
		}
		e.Symbols = File(rel, src)
		idx[rel] = e
	}
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
