package testindex

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/testscan"
)

// maxFile bounds the size of a test file that is scanned; larger ones are
// counted as files but not read.
const maxFile = 4 << 20

// Scan walks the project at root for the test files the census counts
// (see [Lang]) and scans those not already in prev with the same size and
// modification time.
func Scan(root string, globs []string, prev Index) Index {
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
		rel := filepath.ToSlash(strings.TrimLeft(strings.TrimPrefix(p, root), string(filepath.Separator)))
		if Lang(globs, rel) == "" {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		f := File{Size: info.Size(), ModTime: info.ModTime().UnixNano()}
		if old, ok := prev[rel]; ok && old.Size == f.Size && old.ModTime == f.ModTime {
			idx[rel] = old
			return nil
		}
		idx[rel] = scan(p, rel, f)
		return nil
	})
	return idx
}

// ScanFile scans the one file rel (slash-separated, relative to root) as
// [Scan] would. It returns false when rel is not a regular file (deleted,
// a directory, a symbolic link); the caller decides whether rel is a test
// file the census counts.
func ScanFile(root, rel string) (File, bool) {
	p := filepath.Join(root, filepath.FromSlash(rel))
	info, err := os.Lstat(p)
	if err != nil || !info.Mode().IsRegular() {
		if err != nil && !isNotExist(err) {
			return File{Err: err.Error()}, true // there, but unreadable
		}
		return File{}, false
	}
	return scan(p, rel, File{Size: info.Size(), ModTime: info.ModTime().UnixNano()}), true
}

// scan reads the file at path, named rel, into f.
func scan(path, rel string, f File) File {
	if f.Size > maxFile {
		f.Err = "larger than 4 MiB: not scanned"
		return f
	}
	src, err := os.ReadFile(path)
	if err != nil {
		f.Err = err.Error()
		return f
	}
	sf, err := testscan.Scan(rel, src)
	if err != nil {
		f.Err = err.Error()
	}
	if sf == nil {
		return f
	}
	f.Tests = make([]string, 0, len(sf.Tests))
	for _, t := range sf.Tests {
		f.Tests = append(f.Tests, t.Name)
	}
	f.Skips, f.Assertions = sf.Skips, sf.Assertions
	return f
}

// isNotExist reports whether err says the path is not there: missing, or
// below something that is not a directory.
func isNotExist(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}
