package completion

import (
	"bytes"
	"go/parser"
	"go/token"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/treeview"
)

// nativeLabel starts the digests of the code a Go test binary runs that no
// Go selector names (see [goNative]): "native code in REL: WHAT".
const nativeLabel = "native code in "

// nativeExts are the files go build compiles or links into the package of
// their directory besides its Go files: assembly, C, C++, Objective-C,
// Fortran, SWIG, and prebuilt objects.
var nativeExts = []string{".s", ".S", ".sx", ".c", ".h", ".cc", ".cpp", ".cxx", ".hh", ".hpp", ".hxx",
	".m", ".f", ".F", ".for", ".f90", ".swig", ".swigcxx", ".syso"}

// goNative digests what ends a Go test binary with status 0 without a call
// goStart can read (os.Exit, syscall.Exit, syscall.Exec…), each a route
// that prints go test's PASS lines from the code under test and exits
// before the failing test does:
//
//   - the //go:linkname lines of a Go file (a body-less quit pulled from
//     runtime.exit);
//   - a cgo file's preamble, the C code in the comments before import
//     "C" (C._Exit(0), or a static function of the preamble that calls
//     it);
//   - the non-Go files go build compiles or links into a package (a
//     body-less func quit implemented in quit_amd64.s by an exit_group
//     system call, a .c file beside the cgo file), whole: see [nativeExts].
//
// A loop whose task is to fix such code goes to the human when it passes,
// who approves the change.
func goNative(rel string, src []byte) map[string][]byte {
	var out map[string][]byte
	put := func(what string, body []byte) {
		if out == nil {
			out = map[string][]byte{}
		}
		out[what] = body
	}
	if bytes.Contains(src, []byte("go:linkname")) {
		var ls []string
		for _, l := range strings.Split(string(src), "\n") {
			if t := strings.TrimSpace(l); strings.HasPrefix(t, "//go:linkname") {
				ls = append(ls, t)
			}
		}
		if len(ls) > 0 {
			put("go:linkname", []byte(strings.Join(ls, "\n")))
		}
	}
	if bytes.Contains(src, []byte(`"C"`)) {
		if pre, ok := cgoPreamble(src); ok {
			put("cgo preamble", pre)
		}
	}
	return out
}

// cgoPreamble returns the comments of the Go file src up to its last
// import when it imports "C": the preamble cgo compiles, and any comment
// around it.
func cgoPreamble(src []byte) ([]byte, bool) {
	fset := token.NewFileSet()
	af, _ := parser.ParseFile(fset, "x.go", src, parser.ImportsOnly|parser.ParseComments|parser.SkipObjectResolution)
	if af == nil {
		return nil, false
	}
	cgo := false
	var end token.Pos
	for _, im := range af.Imports {
		if p, err := strconv.Unquote(im.Path.Value); err == nil && p == "C" {
			cgo = true
		}
		end = max(end, im.End())
	}
	if !cgo {
		return nil, false
	}
	var b bytes.Buffer
	for _, g := range af.Comments {
		if g.Pos() < end {
			b.WriteString(g.Text())
			b.WriteByte('\n')
		}
	}
	return b.Bytes(), true
}

// goNativeFiles digests the non-Go files ([nativeExts]) of the directories
// of the Go files gos, whole (see [goNative]). A file unchanged since base
// was collected keeps base's digest.
// relDir is the directory of a path the view made (clean, relative, cut at
// its last slash; "." the root), as path.Dir gives it without its Clean.
func relDir(rel string) string {
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		return rel[:i]
	}
	return "."
}

func goNativeFiles(v *treeview.View, gos []string, in, base Inputs, since time.Time) {
	dirs := map[string]bool{}
	last := "\x00" // a view lists a directory's files in a row
	for _, g := range gos {
		if d := relDir(g); d != last {
			dirs[d], last = true, d
		}
	}
	if len(dirs) == 0 {
		return
	}
	rels := v.Files(func(name string) bool { return hasExt(nativeExts, path.Ext(name)) }, func(rel string) bool { return dirs[relDir(rel)] })
	eachChanged(v, rels, in, base, since, []string{nativeLabel}, func(rel string, src []byte) {
		in.add(nativeLabel+rel+": file", src)
	})
}
