package completion

import (
	"os"
	"path/filepath"
)

// goWorkAbove digests the go.work file go finds above the project at root
// when the project has none: go looks for one from the command's directory
// up to the filesystem's root (GOWORK, which would name another, is kept
// from the completion command), but not past GOROOT. A go.work written
// there during a loop changes which code go test builds (its replace
// lines) and which toolchain runs it: its toolchain line, under
// GOTOOLCHAIN=auto (Go's default), makes go run a program of that name
// found on PATH (~/go/bin's go1.99.0 printing "--- PASS" for every test)
// in its place. It is digested under "go.work above the project (PATH)",
// so that one made, changed or removed since the start is a change of
// what decides completion.
func goWorkAbove(root string, in Inputs) {
	p, own := goWorkPath(root)
	if p == "" || own {
		return // none, or the project's own, digested as "go.work"
	}
	data, _ := readSmall(p)
	if data == nil {
		if info, err := os.Stat(p); err == nil {
			data = []byte(info.ModTime().String())
		}
	}
	in.add("go.work above the project ("+p+")", data)
}

// goWorkPath returns the go.work file go uses for a command run at root,
// "" when there is none, and whether it is the project's own.
func goWorkPath(root string) (p string, own bool) {
	d, err := filepath.Abs(root)
	if err != nil {
		return "", false
	}
	goroot := filepath.Clean(os.Getenv("GOROOT"))
	for first := true; ; first = false {
		f := filepath.Join(d, "go.work")
		if info, err := os.Stat(f); err == nil && !info.IsDir() {
			return f, first
		}
		parent := filepath.Dir(d)
		if parent == d || parent == goroot {
			return "", false
		}
		d = parent
	}
}
