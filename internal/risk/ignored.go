package risk

import (
	"path"
	"path/filepath"
	"runtime"
	"strings"
)

// go test builds a package's _test.go files but not those it ignores by
// name: a file or directory whose name starts with _ or ., anything under
// a directory named testdata, and a file whose name ends in a GOOS or
// GOARCH other than the machine's (a_windows_test.go on Linux). A test
// moved to such a name is gone from the run as surely as deleted, though
// the test_files globs still match it (checked with go 1.24: mv
// a_test.go a_windows_test.go leaves "no test files", exit 0).

// goIgnores reports whether go test leaves out the Go file or the files
// under the directory at rel (slash-separated, relative to the root)
// that were built at from.
func goIgnores(from, rel string) bool {
	for _, d := range strings.Split(path.Dir(rel), "/") {
		if d == "testdata" || strings.HasPrefix(d, "_") || strings.HasPrefix(d, ".") && d != "." && d != ".." {
			return !strings.Contains("/"+path.Dir(from)+"/", "/"+d+"/")
		}
	}
	b := path.Base(rel)
	if strings.HasPrefix(b, "_") || strings.HasPrefix(b, ".") {
		return true
	}
	if !strings.HasSuffix(b, ".go") {
		return b == "testdata" // a directory moved to testdata
	}
	return platform(b) != "" && platform(b) != platform(path.Base(from))
}

// platform returns the GOOS or GOARCH a Go file's name limits it to,
// other than the machine's, or "".
func platform(name string) string {
	parts := strings.Split(strings.TrimSuffix(strings.TrimSuffix(name, ".go"), "_test"), "_")
	for _, p := range parts[1:] {
		if p != runtime.GOOS && p != runtime.GOARCH && (isGOOS(p) || isGOARCH(p)) {
			return p
		}
	}
	return ""
}

func isGOOS(s string) bool {
	switch s {
	case "aix", "android", "darwin", "dragonfly", "freebsd", "hurd", "illumos", "ios", "js", "linux", "nacl", "netbsd",
		"openbsd", "plan9", "solaris", "wasip1", "windows", "zos":
		return true
	}
	return false
}

func isGOARCH(s string) bool {
	switch s {
	case "386", "amd64", "arm", "arm64", "loong64", "mips", "mipsle", "mips64", "mips64le", "ppc64", "ppc64le",
		"riscv64", "s390x", "wasm":
		return true
	}
	return false
}

// pytest does not look into directories named by its norecursedirs,
// whose default is .*, *.egg, _darcs, build, CVS, dist, node_modules,
// venv and {arch}: a test moved under build/ is not collected by a plain
// pytest (checked with pytest 7.2: "no tests ran", exit 5 — and exit 0
// when another test still runs).

// pytestIgnores reports whether pytest, by its default norecursedirs,
// does not collect the Python test at rel that it collected at from.
func pytestIgnores(from, rel string) bool {
	skipped := func(p string) string {
		for _, d := range strings.Split(path.Dir(p), "/") {
			if d != "." && d != ".." && (strings.HasPrefix(d, ".") || strings.HasSuffix(d, ".egg") || pytestSkip(d)) {
				return d
			}
		}
		return ""
	}
	d := skipped(rel)
	return d != "" && d != skipped(from)
}

func pytestSkip(d string) bool {
	switch d {
	case "_darcs", "build", "CVS", "dist", "node_modules", "venv", "{arch}":
		return true
	}
	return false
}

// runnerIgnores reports whether moving src (a Go or Python test file,
// or a directory holding such tests) to dest takes its tests out of go
// test's or pytest's run.
func (g *Guard) runnerIgnores(src, dest string) bool {
	from, ok1 := g.inProject(src)
	to, ok2 := g.inProject(dest)
	if !ok1 || !ok2 {
		return false
	}
	from, to = filepath.ToSlash(from), filepath.ToSlash(to)
	if strings.HasSuffix(from, "_test.go") {
		return goIgnores(from, to)
	}
	if strings.HasSuffix(from, ".py") {
		return pytestIgnores(from, to)
	}
	for _, t := range g.testsIn(src, from) {
		switch {
		case strings.HasSuffix(t, "_test.go"):
			return goIgnores(from+"/x.go", to+"/x.go") || path.Base(to) == "testdata"
		case strings.HasSuffix(t, ".py"):
			return pytestIgnores(from+"/x.py", to+"/x.py")
		}
	}
	return false
}
