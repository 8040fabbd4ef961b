// Package testindex is ralph's census of a project's tests: which files are
// test files, what the scanner (package testscan) finds in each, and the
// index of them that a loop keeps at its start (baseline.json) and keeps up
// to date (test-index.json). The guard, the tamper check, post-tool-call
// and the loop all ask it, so that none of them calls a file a test that
// another does not.
//
// # What a test file is
//
// A path (slash-separated, relative to the project root) is a test file
// when it matches one of the project's test_files globs (doublestar) and
// no directory on it is vendored: one that holds no project source, such
// as node_modules, .venv or .git (see [project.NotSource]). Whatever is a
// test file is protected: the guard warns before it is changed and denies
// deleting it, fixtures and helpers included.
//
// The census counts the tests of a test file when the scanner knows its
// language by its name ([testscan.Lang]: foo_test.go, test_foo.py,
// foo.test.ts, any .rs, FooTest.java, foo_spec.rb, …), and it is not a
// fixture: Go files under a testdata directory, which go test never
// builds. So tests/fixtures/data.json and tests/helper.py are test files
// that hold no counted tests; node_modules/x/a.test.js is no test file at
// all; app/tests.py, a name the scanner knows, is counted only when a
// glob calls it a test file. [Lang] gives the census's answer.
//
// # The index
//
// An [Index] maps each counted test file to what was found in it, with
// its size and modification time: a scan of the tree reads only the files
// whose size or modification time changed since the index it is given.
// [Read] and [Write] are its reader and writer, [Entry] reads one file's
// entry without decoding the rest.
package testindex

import (
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/testscan"
)

// IsTestFile reports whether rel (slash-separated, relative to the project
// root) is a test file: it matches one of globs and lies in no vendored
// directory.
func IsTestFile(globs []string, rel string) bool {
	return matchAny(globs, rel) && !Vendored(rel)
}

// Lang returns the language in which the census reads the tests of rel,
// one of those of [testscan.Lang], or "" when it counts none: rel is no
// test file, a name of no known language, or a fixture.
func Lang(globs []string, rel string) string {
	// The language is a few string compares, the globs a match each: most
	// files of a large tree fail the first.
	lang := testscan.Lang(rel)
	if lang == "" || Fixture(rel) || !IsTestFile(globs, rel) {
		return ""
	}
	return lang
}

// Vendored reports whether a directory on rel holds no project source
// ([project.NotSource]): walks of the tree never go there.
func Vendored(rel string) bool {
	for {
		dir, rest, ok := strings.Cut(rel, "/")
		if !ok {
			return false
		}
		if project.NotSource(dir) {
			return true
		}
		rel = rest
	}
}

// Fixture reports whether rel is a file that looks like a test but that
// no test run reads: a Go file under a testdata directory.
func Fixture(rel string) bool {
	return strings.HasSuffix(rel, ".go") && (strings.HasPrefix(rel, "testdata/") || strings.Contains(rel, "/testdata/"))
}

func matchAny(globs []string, rel string) bool {
	for _, g := range compile(globs) {
		if g.match(rel) {
			return true
		}
	}
	return false
}
