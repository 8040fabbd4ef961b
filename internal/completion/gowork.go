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
	d, err := filepath.Abs(root)
	if err != nil {
		return
	}
	if info, err := os.Stat(filepath.Join(d, "go.work")); err == nil && !info.IsDir() {
		return // the project's own, digested as "go.work"
	}
	goroot := filepath.Clean(os.Getenv("GOROOT"))
	for {
		parent := filepath.Dir(d)
		if parent == d || parent == goroot {
			return
		}
		d = parent
		p := filepath.Join(d, "go.work")
		if info, err := os.Stat(p); err == nil && !info.IsDir() {
			data, _ := readSmall(p)
			if data == nil {
				data = []byte(info.ModTime().String())
			}
			in.add("go.work above the project ("+p+")", data)
			return
		}
	}
}
