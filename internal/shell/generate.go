package shell

import (
	"path/filepath"
	"strconv"
	"strings"
)

// Build tools that run code of the project that the command line does not
// show: go generate runs the //go:generate lines of the packages' files,
// pip install of a directory runs its setup.py. They are walked like
// script files: what they name literally is judged as strictly as a
// command line, what they compute only warns.

// maxGenerateFiles bounds the Go files go generate ./... is read in; past
// it, what it runs is opaque.
const maxGenerateFiles = 2000

// maxGenerateBytes bounds what go generate ./... is read in, so that the
// reading stays well inside pre-tool-call's time.
const maxGenerateBytes = 16 << 20

// goGenerate walks the //go:generate directives go generate runs: those
// of the packages (or files) named, ./... and DIR/... included, each in
// its package's directory.
func (w *walker) goGenerate(c *ctx, args []Word, sc *scope) {
	if w.a.ReadFile == nil || w.a.ReadDir == nil || w.file != "" || c.depth >= MaxDepth {
		return
	}
	var pkgs []string
	for i := 0; i < len(args); i++ {
		s := args[i].Lit()
		switch {
		case s == "-run" || s == "-skip":
			i++
		case strings.HasPrefix(s, "-"):
		default:
			v, ok := args[i].Value()
			if !ok {
				w.opaque("go generate of packages computed at run time: " + args[i].Raw)
				return
			}
			pkgs = append(pkgs, v)
		}
	}
	if len(pkgs) == 0 {
		pkgs = []string{"."}
	}
	var files []string
	for _, p := range pkgs {
		dir, recursive, ok := goPackageDir(p, sc)
		if !ok {
			continue // an import path: a dependency's package, not the project's files
		}
		if dir == "" {
			w.opaque("go generate in an unknown directory")
			return
		}
		if strings.HasSuffix(dir, ".go") {
			files = append(files, dir)
			continue
		}
		if !w.goFiles(dir, recursive, &files) {
			w.opaque("go generate over more than " + strconv.Itoa(maxGenerateFiles) + " Go files")
			return
		}
	}
	gc := c.with("go generate")
	read := 0
	for _, f := range files {
		text, ok := w.readText(f)
		if read += len(text); read > maxGenerateBytes {
			w.opaque("go generate over more than " + strconv.Itoa(maxGenerateBytes>>20) + " MiB of Go files")
			return
		}
		if !ok || !strings.Contains(text, "//go:generate") {
			continue
		}
		for _, line := range strings.Split(text, "\n") {
			cmd, ok := strings.CutPrefix(strings.TrimRight(line, "\r"), "//go:generate ")
			if !ok {
				continue
			}
			w.inFile(gc, f, "//go:generate in "+filepath.Base(f), cmd, filepath.Dir(f), sc)
		}
	}
}

// goFiles adds the .go files of dir (and of its subdirectories, but the
// ones go skips: vendor, testdata, .x and _x) to files; false when there
// are more than maxGenerateFiles.
func (w *walker) goFiles(dir string, recursive bool, files *[]string) bool {
	ents, err := w.a.ReadDir(dir)
	if err != nil {
		return true
	}
	for _, e := range ents {
		name := e.Name()
		p := filepath.Join(dir, name)
		switch {
		case e.IsDir():
			if recursive && name != "vendor" && name != "testdata" && name != "node_modules" && !strings.HasPrefix(name, ".") && !strings.HasPrefix(name, "_") {
				if !w.goFiles(p, true, files) {
					return false
				}
			}
		case strings.HasSuffix(name, ".go"):
			if len(*files) >= maxGenerateFiles {
				return false
			}
			*files = append(*files, p)
		}
	}
	return true
}

// pipInstall walks the setup.py that pip install (or pip wheel, pip
// download) of a local directory runs: pip install ., pip install -e DIR.
func (w *walker) pipInstall(c *ctx, name string, args []Word, sc *scope) {
	if len(args) == 0 || w.a.ReadFile == nil {
		return
	}
	switch args[0].Lit() {
	case "install", "wheel", "download":
	default:
		return
	}
	reqs := map[string]bool{}
	for i := 1; i < len(args); i++ {
		s := args[i].Lit()
		if (s == "-r" || s == "--requirement") && i+1 < len(args) {
			w.pipRequirements(c, name, args[0].Lit(), args[i+1].Lit(), sc, reqs) // pipreq.go
		} else if v, ok := strings.CutPrefix(s, "--requirement="); ok {
			w.pipRequirements(c, name, args[0].Lit(), v, sc, reqs)
		}
		switch {
		case s == "-r" || s == "-c" || s == "-t" || s == "--target" || s == "--prefix" || s == "--root" ||
			s == "-i" || s == "--index-url" || s == "--extra-index-url" || s == "-f" || s == "--find-links" ||
			s == "--requirement" || s == "--constraint" || s == "-w" || s == "--wheel-dir" || s == "-d" || s == "--dest":
			i++
		case s == "-e" || s == "--editable":
		case strings.HasPrefix(s, "-"):
		default:
			v, ok := args[i].Value()
			if !ok || !(v == "." || strings.HasPrefix(v, "./") || strings.HasPrefix(v, "../") || filepath.IsAbs(v)) {
				continue // a package from an index
			}
			v, _, _ = strings.Cut(v, "[") // .[dev]
			w.pipLocalDir(c, name, args[0].Lit(), dirOf(v, sc), sc)
		}
	}
}

// goPackageDir returns the directory of a go command's package pattern
// in the project (., ./x, ./..., an absolute path), "" when it is not
// known, and whether the pattern names the packages below it too; false
// for an import path (a dependency's package, not the project's files).
func goPackageDir(p string, sc *scope) (dir string, recursive, ok bool) {
	if p == "..." || strings.HasSuffix(p, "/...") {
		recursive, p = true, strings.TrimSuffix(strings.TrimSuffix(p, "..."), "/")
		if p == "" {
			p = "."
		}
	}
	if !strings.HasPrefix(p, ".") && !filepath.IsAbs(p) {
		return "", false, false
	}
	return dirOf(p, sc), recursive, true
}
