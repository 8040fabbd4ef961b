package completion

import (
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// goToolchainPrograms records in in a program on PATH named for the Go
// toolchain go.mod or the go.work go uses (see [goWorkPath]) asks for
// ("go1.99.0") whose status changed after since. Under GOTOOLCHAIN=auto,
// Go's default, a go older than that toolchain runs the program of its
// name on PATH before it looks in the module cache: the program
// golang.org/dl installs into ~/go/bin, which the agent can overwrite or
// write (one that prints "--- PASS" for every test) with nothing of the
// project changed. The program's link, its target, and the installation
// golang.org/dl's program runs (~/sdk/go1.99.0) are read.
func goToolchainPrograms(root string, gomod []byte, since time.Time, budget *int, in Inputs) {
	for _, t := range goToolchains(root, gomod) {
		p, err := exec.LookPath(t)
		if err != nil {
			continue
		}
		if a, err := filepath.Abs(p); err == nil {
			p = a
		}
		if changedEntry(p, since, budget) {
			in.add("Go toolchain program on PATH changed since the start: "+p, []byte(p))
		}
	}
}

// goToolchains returns the toolchains go.mod's and the go.work's
// toolchain or go lines name (see [toolchainName]), each once.
func goToolchains(root string, gomod []byte) []string {
	var out []string
	add := func(t string) {
		for _, o := range out {
			if o == t {
				return
			}
		}
		if t != "" {
			out = append(out, t)
		}
	}
	add(toolchainName(gomod))
	if p, _ := goWorkPath(root); p != "" {
		if src, _ := readSmall(p); src != nil {
			add(toolchainName(src))
		}
	}
	return out
}

// sdkRoot returns the installation golang.org/dl's program for the
// toolchain t runs: ~/sdk/t, "" when there is no home.
func sdkRoot(t string) string {
	home, err := os.UserHomeDir()
	if err != nil || t == "" {
		return ""
	}
	return filepath.Join(home, "sdk", t)
}
