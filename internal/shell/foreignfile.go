package shell

import (
	"bytes"
	"slices"
	"strings"
)

// The interpreters ralph has no reader for (tclsh, groovy, jshell,
// Rscript, julia, elixir, kotlin, dart…) run a script file as they run
// the code of their -e option: `tclsh x.tcl` with `file delete -force
// tests` (tcl 8.6 here) and `groovy x.groovy` with `new
// File("tests").deleteDir()` (groovy 2.4 here) each deleted tests/
// while their -e form asked. The script, the first word that is no option
// and names a text file ralph can read, is judged as that code is: one
// that names a way to delete or to run commands is opaque.

// Compilers are read the same way, since the program they make runs in
// this line or a later call, and so are the runners of a language's own
// (from each tool's documentation, none installed here): `zig run
// x.zig` and `zig build-exe x.zig`, `runghc x.hs`/`runhaskell`, `ghc
// x.hs` and `ghc -e EXPR`, `kotlinc -script x.kts` and `kotlinc x.kt`,
// `swiftc x.swift`, `mix run x.exs` (and -e), and R's script on stdin
// (`R --vanilla < x.R`, as tclsh's is). zig's and mix's other verbs (zig
// build, zig test, mix test) run the project's build and tests, read as
// any other runner's are not: their files name too much to be judged so.

// foreignArgs returns the arguments of a foreign interpreter or compiler
// name that hold its script or code: for zig and mix those after the verb
// that runs code, and false for the other verbs.
func foreignArgs(name string, args []Word) ([]Word, bool) {
	verbs := map[string][]string{"zig": {"run", "build-exe", "build-lib", "build-obj"}, "mix": {"run"}}[name]
	if verbs == nil {
		return args, true
	}
	for i, a := range args {
		s := a.Lit()
		if strings.HasPrefix(s, "-") {
			continue // zig's and mix's global options come first
		}
		return args[i+1:], slices.Contains(verbs, s)
	}
	return nil, false
}

// foreignScript judges the script file a foreign interpreter name runs.
func (w *walker) foreignScript(name string, args []Word, sc *scope) {
	if name == "pwsh" || name == "powershell" || sc.cwd == "" || w.a.ReadFile == nil {
		return
	}
	for _, a := range args {
		s, ok := a.Value()
		if !ok || s == "" || strings.HasPrefix(s, "-") {
			continue
		}
		p := dirOf(s, sc)
		data, err := w.a.ReadFile(p)
		if err != nil || len(data) > maxWritten {
			text, ok := w.writtenText(p, "", false)
			if !ok {
				continue
			}
			data = []byte(text)
		}
		if bytes.IndexByte(data[:min(len(data), 512)], 0) >= 0 {
			return // a program or an archive: not a script to judge
		}
		if deletes(string(data)) {
			w.opaque(name + " script " + s + " that ralph cannot read, which deletes files or runs commands")
		}
		return
	}
}

// foreignShebang judges a script run by path whose #! line names one of
// those interpreters (#!/usr/bin/tclsh, #!/usr/bin/env groovy), as the
// interpreter given the file.
func (w *walker) foreignShebang(v string, sc *scope) {
	if w.a.ReadFile == nil || w.file != "" || sc.cwd == "" {
		return
	}
	data, err := w.a.ReadFile(dirOf(v, sc))
	if err != nil || !bytes.HasPrefix(data, []byte("#!")) {
		return
	}
	first, _, _ := bytes.Cut(data, []byte("\n"))
	f := strings.Fields(strings.TrimPrefix(string(first), "#!"))
	for i, a := range f {
		if i > 0 && (strings.HasPrefix(a, "-") || strings.Contains(a, "=")) {
			continue
		}
		name := strings.ToLower(a[strings.LastIndexByte(a, '/')+1:])
		if name == "env" {
			continue
		}
		if _, ok := foreignCode[name]; ok {
			w.foreignScript(name, []Word{{Raw: v, Values: []string{v}}}, sc)
		}
		return
	}
}
