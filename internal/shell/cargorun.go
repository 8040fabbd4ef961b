package shell

import (
	"path/filepath"
	"strings"
)

// cargo run runs the crate's own program, and cargo build leaves it in
// target/debug (target/release with --release) to be run by path, in the
// same line or a later call: its code is read as go run's is (gotool.go),
// Rust's std::fs and std::process::Command calls (toolcode.go's moreCode).
// Read are the program's own file — src/main.rs, src/bin/NAME.rs or
// src/bin/NAME/, examples/NAME.rs — and the crate's modules under src/,
// not the other programs of src/bin.

// maxRustFiles bounds the files of a crate read for one program.
const maxRustFiles = 200

// cargoRun walks the program cargo run (args after "run") runs from the
// crate at or above dir (or the member of the workspace at top that -p
// names), in the scope's directory.
func (w *walker) cargoRun(c *ctx, args []Word, dir, top string, sc *scope) {
	kind, name := "bin", ""
	for i := 0; i < len(args); i++ {
		s := args[i].Lit()
		if s == "--" {
			break
		}
		for _, k := range []string{"bin", "example"} {
			switch {
			case s == "--"+k && i+1 < len(args):
				i++
				v, ok := args[i].Value()
				if !ok {
					w.opaque("cargo run of a program named at run time: " + args[i].Raw)
					return
				}
				kind, name = k, v
			case strings.HasPrefix(s, "--"+k+"="):
				kind, name = k, strings.TrimPrefix(s, "--"+k+"=")
			}
		}
	}
	crate := w.rustCrate(dir, top, optValue1(args, "-p", "--package"))
	if crate == "" {
		return
	}
	if kind == "bin" && name != "" {
		if text, ok := w.readText(filepath.Join(crate, "Cargo.toml")); ok {
			if kv, _ := tomlStrings(text); len(kv["package.name"]) == 1 && kv["package.name"][0] == name {
				name = "" // the package's own program: src/main.rs
			}
		}
	}
	w.rustProgram(c.with("cargo run"), crate, kind, name, sc)
}

// rustCrate returns the directory of the package cargo run runs from dir:
// the one named pkg among the workspace's under top, or the nearest
// Cargo.toml with a [package] from dir up.
func (w *walker) rustCrate(dir, top, pkg string) string {
	if pkg != "" {
		found := ""
		w.eachFile(top, []string{"Cargo.toml"}, func(p string) {
			if text, ok := w.readText(p); ok && found == "" {
				if kv, _ := tomlStrings(text); len(kv["package.name"]) == 1 && kv["package.name"][0] == pkg {
					found = filepath.Dir(p)
				}
			}
		})
		return found
	}
	for d := dir; d != "/" && d != "."; d = filepath.Dir(d) {
		if text, ok := w.readText(filepath.Join(d, "Cargo.toml")); ok {
			if kv, _ := tomlStrings(text); len(kv["package.name"]) == 1 {
				return d
			}
		}
	}
	return ""
}

// rustBinary returns the walk of a program cargo built (p, under a
// crate's target/debug or target/release), run by path; nil when p is
// not one.
func (w *walker) rustBinary(p string, sc *scope) func(c *ctx) {
	if w.a.ReadFile == nil {
		return nil
	}
	dir, name := filepath.Split(p)
	dir = filepath.Clean(dir)
	kind := "bin"
	if filepath.Base(dir) == "examples" {
		kind, dir = "example", filepath.Dir(dir)
	}
	if prof := filepath.Base(dir); prof != "debug" && prof != "release" || name == "" {
		return nil
	}
	for d := filepath.Dir(dir); d != "/" && d != "."; d = filepath.Dir(d) {
		if filepath.Base(d) != "target" {
			continue
		}
		top := filepath.Dir(d)
		text, ok := w.readText(filepath.Join(top, "Cargo.toml"))
		if !ok {
			return nil
		}
		kv, _ := tomlStrings(text)
		if pkg := kv["package.name"]; kind == "bin" && len(pkg) == 1 && pkg[0] == name {
			name = "" // the package's own program: src/main.rs
		}
		files := w.rustSources(top, kind, name)
		if w.rebuilt(p, files) {
			return w.stale(p)
		}
		return func(c *ctx) { w.rustProgram(c.with(p), top, kind, name, sc) }
	}
	return nil
}

// rustProgram walks the code of the crate at top that its program runs:
// kind "bin" (name "" for src/main.rs) or "example".
func (w *walker) rustProgram(c *ctx, top, kind, name string, sc *scope) {
	if w.a.ReadDir == nil || w.a.ReadFile == nil || c.depth >= MaxDepth {
		return
	}
	files := w.rustSources(top, kind, name)
	if len(files) > maxRustFiles {
		w.opaqueCode("a Rust program of more than 200 files")
		return
	}
	for _, f := range files {
		w.readCode(c, "rust", f, sc)
	}
}

// rustSources lists the files of the crate at top that its program (kind
// "bin", name "" for src/main.rs, or "example") is built from.
func (w *walker) rustSources(top, kind, name string) []string {
	var files []string
	switch {
	case kind == "example":
		files = []string{filepath.Join(top, "examples", name+".rs")}
		files = append(files, w.rustFiles(filepath.Join(top, "examples", name), nil)...)
	case name != "":
		files = []string{filepath.Join(top, "src", "bin", name+".rs")}
		files = append(files, w.rustFiles(filepath.Join(top, "src", "bin", name), nil)...)
	}
	return w.rustFiles(filepath.Join(top, "src"), files) // main.rs and the modules
}

// rustFiles appends to files the .rs files under dir, but src/bin's.
func (w *walker) rustFiles(dir string, files []string) []string {
	ents, err := w.a.ReadDir(dir)
	if err != nil {
		return files
	}
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		switch {
		case len(files) > maxRustFiles:
			return files
		case e.IsDir() && e.Name() != "bin" && !strings.HasPrefix(e.Name(), "."):
			files = w.rustFiles(p, files)
		case !e.IsDir() && strings.HasSuffix(e.Name(), ".rs"):
			files = append(files, p)
		}
	}
	return files
}
