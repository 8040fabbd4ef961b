package completion

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// goInstall records in in a file of the Go installations that build the
// tests of the Go project at root changed after since: go hashes the
// standard library's sources into its build cache's keys, so a testing
// package whose Fail returns at once, put in GOROOT/src/testing, is
// compiled into every test binary, ralph's own GOCACHE and -count=1
// notwithstanding, and no test fails again. The files read are the
// standard library's (GOROOT/src without cmd, testdata and test files),
// the programs and headers of bin and pkg (go, compile, link, vet …) and
// GOROOT's go.env (GOFLAGS=-toolexec …).
func goInstall(root string, since time.Time, budget *int, in Inputs) {
	gomod, _ := readSmall(filepath.Join(root, "go.mod"))
	if gomod == nil {
		return
	}
	for _, r := range goRoots(gomod) {
		if f := goRootChanged(r, since, budget); f != "" {
			in.add("Go installation file changed since the start: "+f, []byte(f))
		}
	}
	goToolchainPrograms(root, gomod, since, budget, in) // gotoolpath.go
}

// goRoots returns the Go installations that may build the tests: GOROOT
// of the environment, the one of the go program on PATH (bin/go's
// parent's parent, its links resolved, as go finds itself), and the
// toolchain go.mod's toolchain line names, as GOTOOLCHAIN=auto downloads
// it into the module cache or golang.org/dl's program into ~/sdk; those
// that exist, each once.
func goRoots(gomod []byte) []string {
	var cands []string
	if r := os.Getenv("GOROOT"); r != "" {
		cands = append(cands, r)
	}
	if p, err := exec.LookPath("go"); err == nil {
		if q, err := filepath.EvalSymlinks(p); err == nil {
			p = q
		}
		cands = append(cands, filepath.Dir(filepath.Dir(p)))
	}
	if t := toolchainName(gomod); t != "" {
		if mc := modCache(); mc != "" {
			cands = append(cands, filepath.Join(mc, "golang.org", "toolchain@v0.0.1-"+t+"."+runtime.GOOS+"-"+runtime.GOARCH))
		}
		if sdk := sdkRoot(t); sdk != "" {
			cands = append(cands, sdk) // gotoolpath.go: golang.org/dl's
		}
	}
	var out []string
	seen := map[string]bool{}
	for _, c := range cands {
		if a, err := filepath.Abs(c); err == nil {
			c = a
		}
		if seen[c] {
			continue
		}
		seen[c] = true
		if info, err := os.Stat(filepath.Join(c, "src", "testing")); err == nil && info.IsDir() {
			out = append(out, c)
		}
	}
	return out
}

// toolchainName returns the toolchain go.mod's toolchain line names
// ("go1.22.3"), or "go" and its go line's version when that names a
// release (three numbers: go 1.22.3), which GOTOOLCHAIN=auto runs when
// the local go is older; "" when neither does.
func toolchainName(gomod []byte) string {
	goLine := ""
	for _, l := range bytes.Split(gomod, []byte("\n")) {
		f := strings.Fields(string(l))
		if len(f) < 2 {
			continue
		}
		switch f[0] {
		case "toolchain":
			if strings.HasPrefix(f[1], "go") && !strings.ContainsAny(f[1], `/\`) {
				return f[1]
			}
		case "go":
			if strings.Count(f[1], ".") == 2 && !strings.ContainsAny(f[1], `/\`) {
				goLine = "go" + f[1]
			}
		}
	}
	return goLine
}

// modCache returns the module cache's directory as go finds it without
// a go env file: GOMODCACHE, else the first of GOPATH's entries, else
// ~/go, followed by pkg/mod.
func modCache() string {
	if d := os.Getenv("GOMODCACHE"); d != "" {
		return d
	}
	if gp := filepath.SplitList(os.Getenv("GOPATH")); len(gp) > 0 && gp[0] != "" {
		return filepath.Join(gp[0], "pkg", "mod")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, "go", "pkg", "mod")
}

// goRootChanged returns the first file or directory (a file made or
// removed changes its directory's) of the Go installation at r that
// [goInstall] reads whose status changed after since, "" when none did.
func goRootChanged(r string, since time.Time, budget *int) string {
	if changedEntry(filepath.Join(r, "go.env"), since, budget) {
		return filepath.Join(r, "go.env")
	}
	cmd := filepath.Join(r, "src", "cmd")
	skipDir := func(p string) bool { return p == cmd || filepath.Base(p) == "testdata" }
	skipFile := func(p string) bool { return strings.HasSuffix(p, "_test.go") }
	dir := ""
	for _, top := range []string{"bin", "pkg", "src"} {
		f, d := firstChanged(filepath.Join(r, top), since, budget, skipDir, skipFile)
		if f != "" {
			return f
		}
		if dir == "" {
			dir = d
		}
	}
	return dir
}
