package surface

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/tidwall/gjson"

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
	idx, _ := ScanSame(v, skip, prev, since)
	return idx
}

// ScanSame is ScanView, and reports whether the index is prev: every
// file of prev kept, no other (idx.Same(prev), without comparing tens of
// thousands of entries again). false may still be the same.
func ScanSame(v *treeview.View, skip func(rel string) bool, prev Index, since time.Time) (Index, bool) {
	settled := int64(math.MaxInt64) // since unknown: an equal stamp is trusted
	if !since.IsZero() {
		settled = since.Add(-treeview.Margin).UnixNano()
	}
	rels := v.Files(func(name string) bool { return Lang(name) != "" }, func(rel string) bool { return skip == nil || !skip(rel) })
	v.StatAll(rels)
	idx := make(Index, len(rels))
	read := 0 // entries not kept from prev
	for _, rel := range rels {
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
		read++
	}
	// Every entry one of prev under its own name, as many as prev has.
	return idx, read == 0 && len(idx) == len(prev)
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
	idx, err := decode(data)
	if err != nil {
		return Index{}, fmt.Errorf("%s is corrupt (%v)", path, err)
	}
	return idx, nil
}

// decode decodes an index with gjson rather than encoding/json, which
// takes ten times as long over the tens of thousands of files of a large
// project, at every Stop.
func decode(data []byte) (Index, error) {
	if !gjson.ValidBytes(data) {
		return nil, errors.New("not JSON")
	}
	root := gjson.ParseBytes(data)
	if !root.IsObject() {
		return nil, errors.New("not a JSON object")
	}
	idx := Index{}
	var err error
	root.ForEach(func(k, v gjson.Result) bool {
		var e Entry
		if e, err = decodeEntry(v); err != nil {
			err = fmt.Errorf("%q: %w", k.Str, err)
			return false
		}
		idx[strings.ToValidUTF8(k.Str, "\uFFFD")] = e
		return true
	})
	if err != nil {
		return nil, err
	}
	return idx, nil
}

func decodeEntry(v gjson.Result) (Entry, error) {
	var e Entry
	if !v.IsObject() {
		return e, errors.New("not an object")
	}
	var err error
	num := func(key string, r gjson.Result) int64 {
		if r.Type != gjson.Number {
			err = fmt.Errorf("%s: want a number", key)
		}
		return r.Int()
	}
	v.ForEach(func(k, r gjson.Result) bool {
		switch k.Str {
		case "size":
			e.Size = num(k.Str, r)
		case "mtime":
			e.ModTime = num(k.Str, r)
		case "ctime":
			e.CTime = num(k.Str, r)
		case "ino":
			if r.Type != gjson.Number {
				err = errors.New("ino: want a number")
			}
			e.Ino = r.Uint()
		case "symbols":
			if r.Type == gjson.Null {
				return true
			}
			if !r.IsArray() {
				err = errors.New("symbols: want an array")
				return false
			}
			r.ForEach(func(_, sr gjson.Result) bool {
				if !sr.IsObject() {
					err = errors.New("symbols: want objects")
					return false
				}
				var sym Symbol
				sr.ForEach(func(sk, sv gjson.Result) bool {
					if sv.Type != gjson.String {
						err = fmt.Errorf("symbols: %s: want a string", sk.Str)
						return false
					}
					switch sk.Str {
					case "kind":
						sym.Kind = strings.ToValidUTF8(sv.Str, "\uFFFD")
					case "name":
						sym.Name = strings.ToValidUTF8(sv.Str, "\uFFFD")
					case "file":
						sym.File = strings.ToValidUTF8(sv.Str, "\uFFFD")
					}
					return true
				})
				e.Symbols = append(e.Symbols, sym)
				return err == nil
			})
		}
		return err == nil
	})
	return e, err
}

// Same reports whether a and b are the same reading of the same files.
func (idx Index) Same(b Index) bool {
	return maps.EqualFunc(idx, b, Entry.same)
}

// same reports whether x and y are the same reading of the same file.
func (x Entry) same(y Entry) bool {
	return x.Size == y.Size && x.ModTime == y.ModTime && x.CTime == y.CTime && x.Ino == y.Ino && slices.Equal(x.Symbols, y.Symbols)
}

// Settled reports whether every entry's status change time is older than
// since (when the index is written) by more than treeview.Margin: else
// the index must be written again once they settle.
func (idx Index) Settled(since time.Time) bool {
	limit := since.Add(-treeview.Margin).UnixNano()
	for _, e := range idx {
		if e.CTime == 0 || e.CTime >= limit {
			return false
		}
	}
	return true
}

// Write writes idx to path atomically.
func Write(path string, idx Index) error {
	data, err := json.Marshal(idx)
	if err != nil {
		return fmt.Errorf("encoding %s: %w", path, err)
	}
	return state.WriteFile(path, append(data, '\n'), 0o644)
}

// WriteBaseline writes idx to path atomically as Write does, but only
// what a baseline is read for, its symbols: no stamps (which only the
// latest scan's cache uses) and no file without symbols. Read reads it.
// The vault digests the baseline at every hook call: at 50,000 files
// that is 47 % fewer bytes (7.7 → 4.1 MB).
func WriteBaseline(path string, idx Index) error {
	type entry struct {
		Symbols []Symbol `json:"symbols"`
	}
	out := make(map[string]entry, len(idx))
	for rel, e := range idx {
		if len(e.Symbols) > 0 {
			out[rel] = entry{e.Symbols}
		}
	}
	data, err := json.Marshal(out)
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
