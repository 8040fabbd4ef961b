package shell

import (
	"path/filepath"
	"strings"
)

// The go command runs programs that its flags name, not the command line:
// -exec runs the built binary through a program (go test -exec "rm -rf
// tests --" deletes tests and prints ok), -toolexec runs the compiler and
// linker through one, -vettool is the analyzer go vet runs. GOFLAGS gives
// the same flags to every go command, and go env -w GOFLAGS=… (or CC=…)
// keeps them for the later ones. go run runs the project's own Go code,
// which is read like a script file.

// goValueFlags are the go build flags that take a value: what follows them
// is not a package.
var goValueFlags map[string]bool

// goCommand follows what a go command runs besides the go tool: the
// programs its flags and GOFLAGS name, the settings go env -w keeps, and
// the code go run runs.
func (w *walker) goCommand(c *ctx, args []Word, sc *scope) {
	dir := sc.cwd
	// go -C DIR …: the directory go changes to first, before anything.
	if len(args) > 1 && args[0].Lit() == "-C" || len(args) > 0 && strings.HasPrefix(args[0].Lit(), "-C=") {
		d, ok := args[0].Value()
		if d == "-C" {
			d, ok = args[1].Value()
			args = args[1:]
		}
		args = args[1:]
		dir = ""
		if ok {
			dir = dirOf(strings.TrimPrefix(d, "-C="), sc)
		}
	}
	if len(args) == 0 {
		return
	}
	sub := args[0].Lit()
	gc := c.with("go " + sub)
	if sub == "env" {
		w.goEnvWrite(gc, args[1:], sc)
		return
	}
	if v, ok := sc.vars["GOFLAGS"]; ok {
		if v.dynamic || len(v.vals) != 1 {
			w.opaque("go with GOFLAGS computed at run time")
		} else {
			w.goFlags(gc, v.vals[0], sc)
		}
	}
	var pos []Word
	var out Word // go build's -o
	for i := 1; i < len(args); i++ {
		s := args[i].Lit()
		if s == "--" || !strings.HasPrefix(s, "-") {
			if s == "--" {
				i++
			}
			pos = args[i:]
			break
		}
		name, val, glued := strings.Cut(strings.TrimLeft(s, "-"), "=")
		if !goValueFlags[name] {
			continue
		}
		var v Word
		switch {
		case glued:
			v = gluedWord(args[i], val)
		case i+1 < len(args):
			i++
			v = args[i]
		default:
			continue
		}
		switch name {
		case "o":
			out = v
		case "exec", "toolexec", "vettool":
			w.goProgram(gc, name, v, sc)
		case "C":
			if d, ok := v.Value(); ok {
				dir = dirOf(d, sc)
			} else {
				dir = ""
			}
		}
	}
	switch sub {
	case "run":
		w.goRun(gc, pos, dir, sc)
	case "build":
		w.goBuild(out, pos, dir, sc)
	case "install":
		if dirs := w.goBinDirs(sc); len(dirs) > 0 && (len(pos) == 0 || !strings.Contains(pos[0].Raw, "@")) {
			w.goBuild(Word{Raw: dirs[0] + "/", Values: []string{dirs[0] + "/"}}, pos, dir, sc)
		}
	}
	if sub == "tool" {
		w.goTool(gc, pos, dir, sc) // gotoolcmd.go
	}
}

// goProgram judges the program a go flag names: -exec and -toolexec are a
// command line that the binary or tool is added to, -vettool a program.
func (w *walker) goProgram(c *ctx, flag string, v Word, sc *scope) {
	s, ok := v.Value()
	if !ok {
		w.opaque("go -" + flag + " computed at run time: " + v.Raw)
		return
	}
	if s == "" {
		return
	}
	if flag == "vettool" {
		w.exec(c.with("-vettool"), []Word{{Raw: s, Values: []string{s}}}, sc, nil, nil)
		return
	}
	w.scriptAt(s, sc.child(), c.with("-"+flag).via, c.depth+1, c.line)
}

// goFlags judges the -exec, -toolexec and -vettool settings of a GOFLAGS
// value: space-separated -flag=value items, a value quoted when it holds
// spaces.
func (w *walker) goFlags(c *ctx, flags string, sc *scope) {
	for _, f := range []string{"exec", "toolexec", "vettool"} {
		for _, pre := range []string{"-" + f + "=", "--" + f + "="} {
			rest := flags
			for {
				k := strings.Index(rest, pre)
				if k < 0 {
					break
				}
				if k > 0 && rest[k-1] != ' ' && rest[k-1] != '\t' && rest[k-1] != '"' && rest[k-1] != '\'' {
					rest = rest[k+len(pre):]
					continue
				}
				rest = rest[k+len(pre):]
				val := rest
				if q := strings.IndexAny(val, " \t"); q >= 0 && (len(val) == 0 || val[0] != '"' && val[0] != '\'') {
					val = val[:q]
				} else if len(val) > 0 && (val[0] == '"' || val[0] == '\'') {
					if e := strings.IndexByte(val[1:], val[0]); e >= 0 {
						val = val[1 : e+1]
					} else {
						val = val[1:]
					}
				}
				w.goProgram(c.with("GOFLAGS"), f, Word{Raw: val, Values: []string{val}}, sc)
			}
		}
	}
}

// goEnvWrite judges what go env -w keeps for every later go command:
// GOFLAGS' programs, and the C compilers cgo runs (CC, CXX, FC).
func (w *walker) goEnvWrite(c *ctx, args []Word, sc *scope) {
	write := false
	for _, a := range args {
		s := a.Lit()
		switch {
		case s == "-w":
			write = true
			continue
		case strings.HasPrefix(s, "-"):
			continue
		}
		if !write {
			return
		}
		v, ok := a.Value()
		if !ok {
			w.opaque("go env -w of a setting computed at run time: " + a.Raw)
			continue
		}
		k, val, _ := strings.Cut(v, "=")
		switch k {
		case "GOFLAGS":
			w.goFlags(c, val, sc)
		case "CC", "CXX", "FC", "PKG_CONFIG", "GOGCCFLAGS", "AR":
			if val != "" {
				w.scriptAt(val, sc.child(), c.with("go env -w "+k).via, c.depth+1, c.line)
			}
		}
	}
}

// maxRunFiles bounds the Go files of the package go run is read in.
const maxRunFiles = 200

// goRun reads the project's Go code that go run runs (the .go files named,
// or the package in a directory of the project; not a module fetched by
// path@version, nor an import path) as code: its literal deletions and
// writes are judged like a command line's, what it computes only warns.
// The program runs in dir, the go command's directory.
func (w *walker) goRun(c *ctx, pos []Word, dir string, sc *scope) {
	if w.a.ReadFile == nil || w.a.ReadDir == nil || w.file != "" || c.depth >= MaxDepth || len(pos) == 0 {
		return
	}
	first, ok := pos[0].Value()
	if !ok {
		w.opaque("go run of a package computed at run time: " + pos[0].Raw)
		return
	}
	var files []string
	switch {
	case strings.HasSuffix(first, ".go"):
		for _, p := range pos {
			v, ok := p.Value()
			if !ok || !strings.HasSuffix(v, ".go") {
				break
			}
			files = append(files, v)
		}
	case strings.Contains(first, "@"), !strings.HasPrefix(first, ".") && !filepath.IsAbs(first):
		return // a module's command, not the project's code
	default:
		files = []string{first}
	}
	nsc := sc.child()
	nsc.setCwd(dir)
	var read []string
	for _, f := range files {
		p := dirOf(f, nsc)
		if p == "" {
			w.opaque("go run in an unknown directory")
			return
		}
		if vendored(p) {
			continue
		}
		if strings.HasSuffix(p, ".go") {
			read = append(read, p)
			continue
		}
		ents, err := w.a.ReadDir(p)
		if err != nil {
			continue
		}
		for _, e := range ents {
			if n := e.Name(); !e.IsDir() && strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
				read = append(read, filepath.Join(p, n))
			}
		}
	}
	if len(read) > maxRunFiles {
		w.opaqueCode("go run of a package of more than 200 files")
		return
	}
	for _, p := range read {
		text, ok := w.readText(p)
		if !ok {
			continue
		}
		prev := w.file
		w.file = p
		w.code(c.with(filepath.Base(p)), "go", text, nsc)
		w.file = prev
	}
}

// gluedWord returns val, the value glued to an option in a (--flag=val), as a
// word of its own: dynamic when a is.
func gluedWord(a Word, val string) Word {
	if _, ok := a.Value(); !ok {
		return Word{Raw: a.Raw, Dynamic: true}
	}
	return Word{Raw: val, Values: []string{val}}
}
