package testindex

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/state"
	"github.com/ralph-hooks/ralph-hooks/internal/treeview"
)

// Index is what the scanner found in each counted test file, by path
// relative to the project root (slash-separated).
type Index map[string]File

// File is one test file of an index.
type File struct {
	Size       int64    `json:"size"`
	ModTime    int64    `json:"mtime_ns"`
	CTime      int64    `json:"ctime_ns,omitempty"` // status change time: no agent sets it back
	Ino        uint64   `json:"ino,omitempty"`
	Tests      []string `json:"tests"`
	Skips      int      `json:"skips"`
	Assertions int      `json:"assertions"`
	Err        string   `json:"error,omitempty"` // why it could not be scanned
}

// Counts are the totals of an index, as a loop's state records them.
type Counts struct {
	TestFiles  int `json:"test_files"`
	Tests      int `json:"test_count"`
	Skips      int `json:"skip_count"`
	Assertions int `json:"assertion_count"`
}

// BaselinePath returns the loop's baseline.json: the index of its test
// files at its start (or at the gate that approved a new baseline).
func BaselinePath(sc project.Scope) string { return filepath.Join(sc.Dir(), "baseline.json") }

// LatestPath returns the loop's test-index.json: the latest index of its
// test files, a cache that the stop hook and post-tool-call both rewrite
// (the last writer wins).
func LatestPath(sc project.Scope) string { return filepath.Join(sc.Dir(), "test-index.json") }

// Same reports whether a and b are the same version of a file, as far as
// a scan can tell.
func Same(a, b File) bool {
	return a.Size == b.Size && a.ModTime == b.ModTime && a.CTime == b.CTime && a.Ino == b.Ino && a.Err == b.Err
}

// Settled reports whether every entry's status change time is older than
// since (when the index is written) by more than treeview.Margin: else
// the index must be written again once they settle, or the entries too
// recent to trust would be read again at every scan.
func (idx Index) Settled(since time.Time) bool {
	limit := since.Add(-treeview.Margin).UnixNano()
	for _, f := range idx {
		if f.CTime == 0 || f.CTime >= limit {
			return false
		}
	}
	return true
}

// Totals adds up the index.
func (idx Index) Totals() Counts {
	var c Counts
	for _, f := range idx {
		c.TestFiles++
		c.Tests += len(f.Tests)
		c.Skips += f.Skips
		c.Assertions += f.Assertions
	}
	return c
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

// Write replaces the index file at path with idx, atomically.
func Write(path string, idx Index) error {
	data, err := Encode(idx)
	if err != nil {
		return fmt.Errorf("encoding %s: %w", path, err)
	}
	return state.WriteFile(path, data, 0o644)
}

// Encode returns the bytes Write writes for idx.
func Encode(idx Index) ([]byte, error) {
	data, err := json.MarshalIndent(idx, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}

// Sum returns the SHA-256 of an index file's bytes, in hex: what a loop's
// sealed state records of the latest index it wrote (test-index.json is
// a cache in the project, which anything the agent runs can rewrite).
func Sum(data []byte) string {
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}

// Read reads the index file at path; a missing one is empty.
func Read(path string) (Index, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Index{}, nil
	}
	if err != nil {
		return nil, err
	}
	idx, err := Decode(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return idx, nil
}

// Index files are read with gjson rather than encoding/json: in a project
// of 5,000 files the index is hundreds of kilobytes, which encoding/json
// takes several milliseconds to decode, a third of post-tool-call's budget.

// Decode decodes the contents of an index file.
func Decode(data []byte) (Index, error) {
	if idx, ok := decodeFast(data); ok {
		return idx, nil // fast.go: Write's form
	}
	return decodeGJSON(data)
}

// decodeGJSON is Decode of any JSON.
func decodeGJSON(data []byte) (Index, error) {
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
		var f File
		if f, err = decodeFile(v); err != nil {
			err = fmt.Errorf("%q: %w", k.Str, err)
			return false
		}
		idx[validUTF8(k.Str)] = f
		return true
	})
	if err != nil {
		return nil, err
	}
	return idx, nil
}

// Entry returns the entry of the file rel in the contents of an index
// file, or nil when it has none (or data does not parse as an index).
func Entry(data []byte, rel string) *File {
	v := gjson.GetBytes(data, gjson.Escape(rel))
	if !v.IsObject() {
		return nil
	}
	f, err := decodeFile(v)
	if err != nil {
		return nil
	}
	return &f
}

// validUTF8 replaces invalid UTF-8 as encoding/json does when it decodes.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// decodeFile decodes one entry of an index.
func decodeFile(v gjson.Result) (File, error) {
	var f File
	if !v.IsObject() {
		return f, errors.New("not an object")
	}
	var err error
	num := func(key string, r gjson.Result) int64 {
		if r.Type != gjson.Number {
			err = fmt.Errorf("%s: want a number", key)
			return 0
		}
		return r.Int()
	}
	v.ForEach(func(k, r gjson.Result) bool {
		switch k.Str {
		case "size":
			f.Size = num(k.Str, r)
		case "mtime_ns":
			f.ModTime = num(k.Str, r)
		case "ctime_ns":
			f.CTime = num(k.Str, r)
		case "ino":
			if r.Type != gjson.Number {
				err = errors.New("ino: want a number")
			}
			f.Ino = r.Uint()
		case "skips":
			f.Skips = int(num(k.Str, r))
		case "assertions":
			f.Assertions = int(num(k.Str, r))
		case "error":
			if r.Type != gjson.String {
				err = errors.New("error: want a string")
			}
			f.Err = validUTF8(r.Str)
		case "tests":
			if r.Type == gjson.Null {
				return true
			}
			if !r.IsArray() {
				err = errors.New("tests: want an array")
				return false
			}
			f.Tests = []string{}
			r.ForEach(func(_, t gjson.Result) bool {
				if t.Type != gjson.String {
					err = errors.New("tests: want strings")
					return false
				}
				f.Tests = append(f.Tests, validUTF8(t.Str))
				return true
			})
		}
		return err == nil
	})
	return f, err
}
