package completion

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"strings"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/testindex"
	"github.com/ralph-hooks/ralph-hooks/internal/treeview"
)

// The labels of the Go digests of goStart: "exit in REL: NAME #n" for code
// that can end the test binary, "test start in REL: NAME #n" for code that
// decides, before the tests, which of them run. REL may hold ": ", NAME
// does not.
const (
	exitLabel  = "exit in "
	startLabel = "test start in "
)

// goNeedles are the words a Go file must hold for goStart to parse it.
var goNeedles = [][]byte{[]byte("Exit"), []byte("Goexit"), []byte("Syscall"), []byte("Exec"), []byte("TestMain"), []byte("os.Args"),
	[]byte("flag.Set"), []byte("flag.CommandLine"), []byte("flag.Lookup"), []byte("flag.Parse"), []byte("testing.Init"), []byte("testing.MainStart")}

// goStart digests, in every Go file of the project, the code that can end
// the test binary with its own status or choose which tests run, and so
// can print go test's PASS lines for tests that never ran:
//
//   - every TestMain, whole: one that returns without m.Run exits 0
//     having run nothing, with no Exit anywhere;
//   - every init function and package-level variable initializer (var _ =
//     func() int { … }()) that refers to an exit (os.Exit, syscall.Exit,
//     runtime.Goexit, a raw exit system call, also taken as a value: quit
//     := os.Exit), to the binary's arguments (os.Args) or to its flags
//     (flag.Set, flag.CommandLine, flag.Lookup, testing.Init,
//     testing.MainStart), directly or through the functions of its file it
//     calls, which are digested with it;
//   - in a package other than main, every other function that refers to
//     an exit: library code has no business ending the process, and
//     syscall.Exit(0) in the code under test ends a test binary mid-test
//     with status 0, where the testing package catches only os.Exit(0);
//     syscall.Exec(…) replaces it by a program that prints the PASS lines
//     and exits 0. In a main package, the same but os.Exit.
//
// What Go code reaches without a Go selector (assembly, cgo, linkname) is
// digested by [goLowLevel].
//
// A file unchanged since base was collected (see [unchanged]) keeps
// base's digests.
//
// The same pass digests the Go files' test checks ([testChecksIn]), so
// that each Go file is read once.
func goStart(v *treeview.View, idx testindex.Index, in Inputs, base Inputs, since time.Time) {
	rels := v.Files(func(name string) bool { return strings.HasSuffix(name, ".go") }, nil)
	eachChanged(v, rels, in, base, since, []string{exitLabel, startLabel, AwareLabel, nativeLabel}, func(rel string, src []byte) {
		if _, test := idx[rel]; !test && !testSupport(rel) {
			for label, lines := range testCheckLines(rel, src) {
				in.add(AwareLabel+rel+": "+label, []byte(strings.Join(lines, "\n")))
			}
		}
		for what, body := range goNative(rel, src) { // gonative.go
			in.add(nativeLabel+rel+": "+what, body)
		}
		if !containsAny(src, goNeedles) {
			return
		}
		for k, body := range goStartCode(src) {
			in.add(strings.Replace(k, "\x00", rel, 1), body)
		}
	})
	goNativeFiles(v, rels, in, base, since)
}

func containsAny(src []byte, needles [][]byte) bool {
	for _, n := range needles {
		if bytes.Contains(src, n) {
			return true
		}
	}
	return false
}

// goStartCode returns the digested code of one Go file (see [goStart]) by
// its key, the file's place in it a NUL.
func goStartCode(src []byte) map[string][]byte {
	fset := token.NewFileSet()
	af, _ := parser.ParseFile(fset, "x.go", src, parser.SkipObjectResolution)
	if af == nil {
		return nil
	}
	text := func(n ast.Node) []byte {
		from, to := fset.Position(n.Pos()).Offset, fset.Position(n.End()).Offset
		if from < 0 || to > len(src) || from >= to {
			return nil
		}
		return src[from:to]
	}
	pkgs := goImports(af)
	// The file's functions and variables by name, which a root may name.
	named := map[string]ast.Node{}
	decl := map[ast.Node]*ast.Ident{}
	for _, d := range af.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && d.Body != nil && d.Name.Name != "init" && d.Name.Name != "TestMain" {
				named[d.Name.Name], decl[d] = d, d.Name
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				if vs, ok := spec.(*ast.ValueSpec); ok && d.Tok == token.VAR && len(vs.Values) > 0 {
					for _, id := range vs.Names {
						named[id.Name] = vs
					}
				}
			}
		}
	}
	// reach returns what root refers to, through the functions and
	// variables of the file it names, and their text.
	reach := func(root ast.Node) (exit, start bool, body []byte) {
		seen := map[string]bool{}
		var walk func(n ast.Node)
		walk = func(n ast.Node) {
			body = append(append(body, text(n)...), '\n')
			ast.Inspect(n, func(m ast.Node) bool {
				switch m := m.(type) {
				case *ast.SelectorExpr:
					e, s := goRefers(pkgs, m)
					exit, start = exit || e, start || s
				case *ast.Ident:
					if d := named[m.Name]; d != nil && d != root && !seen[m.Name] && decl[d] != m {
						seen[m.Name] = true
						walk(d)
					}
				}
				return true
			})
		}
		walk(root)
		return exit, start, body
	}
	out := map[string][]byte{}
	n := 0
	put := func(name string, exit, start bool, body []byte) {
		label := startLabel
		if exit {
			label = exitLabel
		}
		n++
		out[label+"\x00: "+name+" #"+string(rune('0'+min(n, 9)))] = body
	}
	for _, d := range af.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Body == nil {
				continue
			}
			switch {
			case d.Recv == nil && d.Name.Name == "TestMain":
				exit, _, body := reach(d)
				put("TestMain", exit, true, body)
			case d.Recv == nil && d.Name.Name == "init":
				if exit, start, body := reach(d); exit || start {
					put("init", exit, start, body)
				}
			default:
				// A main's own os.Exit is its business; but the testing
				// package catches os.Exit(0) during a test, not a raw
				// exit or an exec, which a main's code under test has
				// no more business making than a library's.
				main := af.Name.Name == "main"
				exit := false
				ast.Inspect(d.Body, func(m ast.Node) bool {
					if s, ok := m.(*ast.SelectorExpr); ok {
						if e, _ := goRefers(pkgs, s); e && !(main && osExit(pkgs, s)) {
							exit = true
						}
					}
					return !exit
				})
				if exit {
					put("func "+d.Name.Name, true, false, text(d))
				}
			}
		case *ast.GenDecl:
			if d.Tok != token.VAR {
				continue
			}
			for _, spec := range d.Specs {
				vs, ok := spec.(*ast.ValueSpec)
				if !ok || len(vs.Values) == 0 {
					continue
				}
				if exit, start, body := reach(vs); exit || start {
					put("var "+vs.Names[0].Name, exit, start, body)
				}
			}
		}
	}
	return out
}

// goPkgs are the import paths goRefers knows, by the name goRefers
// gives them.
var goPkgs = map[string]string{"os": "os", "syscall": "syscall", "runtime": "runtime", "flag": "flag", "testing": "testing",
	"golang.org/x/sys/unix": "syscall", "golang.org/x/sys/windows": "syscall"}

// goImports maps the names by which the file af refers to the packages of
// goPkgs (an import's own name, or its alias) to goRefers' names.
func goImports(af *ast.File) map[string]string {
	out := map[string]string{}
	for _, im := range af.Imports {
		p := strings.Trim(im.Path.Value, "`\"")
		pkg, ok := goPkgs[p]
		if !ok {
			continue
		}
		name := path.Base(p)
		if im.Name != nil {
			name = im.Name.Name
		}
		out[name] = pkg
	}
	return out
}

// osExit reports whether s is os.Exit (or runtime.Goexit), which the
// testing package turns into a failure when a test calls it.
func osExit(pkgs map[string]string, s *ast.SelectorExpr) bool {
	x, ok := s.X.(*ast.Ident)
	return ok && (pkgs[x.Name]+"."+s.Sel.Name == "os.Exit" || pkgs[x.Name]+"."+s.Sel.Name == "runtime.Goexit")
}

// goRefers says whether the selector s refers to a way to end the process
// (os.Exit, syscall.Exit, runtime.Goexit, syscall.Exec, a raw system
// call) or to the
// test binary's arguments and flags (os.Args, flag.Set, flag.CommandLine,
// flag.Lookup, flag.Parse, testing.Init, testing.MainStart), by the
// file's names for those packages (pkgs, from goImports): a method Exit
// of some value of the program's own is neither.
func goRefers(pkgs map[string]string, s *ast.SelectorExpr) (exit, start bool) {
	x, ok := s.X.(*ast.Ident)
	if !ok {
		return false, false
	}
	switch pkgs[x.Name] + "." + s.Sel.Name {
	case "os.Exit", "syscall.Exit", "runtime.Goexit", "syscall.Exec":
		// syscall.Exec replaces the test binary by a program that
		// prints the PASS lines and exits 0 (branch done2).
		return true, false
	}
	if pkgs[x.Name] == "syscall" && (strings.HasPrefix(s.Sel.Name, "Syscall") || strings.HasPrefix(s.Sel.Name, "RawSyscall")) {
		return true, false // Syscall6, RawSyscallNoError, …: a raw exit_group
	}
	switch pkgs[x.Name] + "." + s.Sel.Name {
	case "os.Args", "flag.Set", "flag.CommandLine", "flag.Lookup", "flag.Parse", "testing.Init", "testing.MainStart":
		return false, true
	}
	return false, false
}
