package loop

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/ralph-hooks/ralph-hooks/internal/project"
)

// This file serves post-tool-call (package posttool), which re-measures
// the test files a tool call touched between two Stops.

// IndexPath returns the loop's test-index.json: the latest index of its
// test files, a cache keyed by size and modification time that the stop
// hook and post-tool-call both rewrite (the last writer wins).
func IndexPath(sc project.Scope) string { return filepath.Join(sc.Dir(), "test-index.json") }

// BaselinePath returns the loop's baseline.json: the index of its test
// files at the start.
func BaselinePath(sc project.Scope) string { return filepath.Join(sc.Dir(), "baseline.json") }

// WriteIndex replaces the loop's test-index.json with idx, atomically and
// in the stop hook's format.
func WriteIndex(sc project.Scope, idx Index) error { return writeJSON(IndexPath(sc), idx) }

// ScanFile scans the one test file rel (slash-separated, relative to root)
// as ScanTests would. It returns false when rel is not a regular file
// (deleted, a directory, a symbolic link); the caller decides whether rel
// is a test file at all.
func ScanFile(root, rel string) (FileScan, bool) {
	p := filepath.Join(root, filepath.FromSlash(rel))
	info, err := os.Lstat(p)
	if err != nil || !info.Mode().IsRegular() {
		if err != nil && !isNotExist(err) {
			return FileScan{Err: err.Error()}, true // there, but unreadable
		}
		return FileScan{}, false
	}
	return scanFile(p, rel, FileScan{Size: info.Size(), ModTime: info.ModTime().UnixNano()}), true
}

// isNotExist reports whether err says the path is not there: missing, or
// below something that is not a directory.
func isNotExist(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}
