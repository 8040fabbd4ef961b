// Package ondisk spells paths as the files on the way are named on disk.
//
// On a case-insensitive filesystem (macOS's and Windows' defaults) a file
// can be named in any case: `echo x > tests/a_TEST.GO` writes
// tests/a_test.go there, and `rm -rf SPEC` deletes spec/. Globs such as a
// project's test_files match the names files have, so a path is judged by
// the names on disk ([Name]), not as it was typed, wherever the
// filesystem folds case ([Folds]).
package ondisk

import (
	"os"
	"path/filepath"
	"strings"
	"unicode"
)

// Folds reports whether the filesystem of dir, an existing absolute
// directory, is case-insensitive: dir's name in another case is dir.
func Folds(dir string) bool {
	other, ok := swapCase(dir)
	if !ok {
		return false
	}
	a, err := os.Stat(dir)
	if err != nil {
		return false
	}
	b, err := os.Stat(other)
	return err == nil && os.SameFile(a, b)
}

// swapCase returns p with the case of the letters of its last component
// that has any swapped, and whether it has any.
func swapCase(p string) (string, bool) {
	sep := string(filepath.Separator)
	dir, base, tail := filepath.Clean(p), "", ""
	for dir != "" && dir != sep && dir != filepath.VolumeName(dir) {
		dir, base = filepath.Split(dir)
		if len(dir) > len(filepath.VolumeName(dir))+1 {
			dir = strings.TrimSuffix(dir, sep)
		}
		if strings.IndexFunc(base, unicode.IsLetter) >= 0 {
			swapped := strings.Map(func(r rune) rune {
				if unicode.IsUpper(r) {
					return unicode.ToLower(r)
				}
				return unicode.ToUpper(r)
			}, base)
			return filepath.Join(dir, swapped, tail), swapped != base
		}
		tail = filepath.Join(base, tail)
	}
	return "", false
}

// Name returns p, a clean absolute path under root (in any case), spelled
// as a case-insensitive filesystem names it: root as given, then each
// component that exists as the entry of its directory that it names.
// Components from the first that names no entry are kept as typed (a file
// to be created is created with that name). Callers use it where [Folds]
// says the filesystem folds case: it reads the directories on the way.
func Name(root, p string) string {
	if len(p) < len(root) || !strings.EqualFold(p[:len(root)], root) {
		return p
	}
	parts := strings.Split(strings.TrimPrefix(p[len(root):], string(filepath.Separator)), string(filepath.Separator))
	out := root
	for i, name := range parts {
		if name == "" {
			continue
		}
		real, ok := entry(out, name)
		if !ok {
			return filepath.Join(append([]string{out}, parts[i:]...)...)
		}
		out = filepath.Join(out, real)
	}
	return out
}

// entry returns the entry of dir that name is on a case-insensitive
// filesystem: name itself when dir lists it, else the one entry that
// equals it but for case.
func entry(dir, name string) (string, bool) {
	if name == "." || name == ".." {
		return name, true
	}
	es, err := os.ReadDir(dir)
	if err != nil {
		return "", false
	}
	found := ""
	for _, e := range es {
		switch n := e.Name(); {
		case n == name:
			return n, true
		case strings.EqualFold(n, name):
			if found != "" {
				return "", false // two names for one: this directory does not fold
			}
			found = n
		}
	}
	return found, found != ""
}
