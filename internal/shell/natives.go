package shell

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Programs compiled from the project's sources by a C, C++, Rust or Java
// compiler do what their code says when they run: in the same line
// (gcc -o x clean.c && ./x), in a later call (the binary of C carries no
// trace of its sources once stripped), at once (tcc -run clean.c, java
// Clean.java, the single-file source launcher). Their code is read when
// the compiler is given it, as an interpreter's script is when it runs:
// what the program does literally is judged as strictly as a command line,
// what it computes only warns. A clean program compiles as before.
// Read are the sources the compiler is named (and a C file's own "quoted"
// includes, a Rust file's mod files), source on stdin (gcc -x c -), and
// the arguments of an @file; java CLASS reads CLASS.java on its class
// path when there.

// maxNativeFiles bounds the files read for one compiler's command.
const maxNativeFiles = 200

// nativeLang returns the language of the compiler name ("c", "rust",
// "javac"), or "".
func nativeLang(name string) string {
	switch name {
	case "rustc":
		return "rust"
	case "javac":
		return "javac"
	}
	// gcc, gcc-12, x86_64-linux-gnu-gcc-12, clang++-15, tcc
	base := name
	if k := strings.LastIndexByte(base, '-'); k > 0 && strings.Trim(base[k+1:], "0123456789.") == "" {
		base = base[:k]
	}
	if k := strings.LastIndexByte(base, '-'); k > 0 && strings.Count(base, "-") >= 2 {
		base = base[k+1:] // a cross compiler's triplet
	}
	switch base {
	case "gcc", "cc", "c++", "g++", "clang", "clang++", "tcc", "c89", "c99":
		return "c"
	}
	return ""
}

// valueOpt reports whether s is an option of the compiler of lang whose
// value is the next word (a file C includes is read: -include, -imacros).
func valueOpt(lang, s string) bool {
	switch lang {
	case "c":
		switch s {
		case "-o", "-x", "-I", "-D", "-U", "-L", "-l", "-MF", "-MT", "-MQ", "-T", "-Xlinker", "-Xassembler",
			"-Xpreprocessor", "-isystem", "-idirafter", "-iquote", "-include", "-imacros", "-aux-info", "--param",
			"-arch", "-target", "-iprefix", "-isysroot", "-e", "-u", "-z":
			return true
		}
	case "rust":
		switch s {
		case "-o", "-L", "-l", "--out-dir", "--crate-type", "--crate-name", "--edition", "--emit", "--cfg", "--extern",
			"--target", "-C", "--cap-lints", "-A", "-W", "-D", "-F", "--explain", "--print":
			return true
		}
	case "javac":
		switch s {
		case "-d", "-cp", "-classpath", "--class-path", "-sourcepath", "--source-path", "-encoding", "-source",
			"--source", "-target", "--release", "-s", "-h", "-processorpath", "--processor-path", "-processor",
			"--module-path", "-p", "--add-modules", "--module-source-path", "-m", "--module":
			return true
		}
	}
	return false
}

// native walks the code a compiler (or java's launcher) is given.
func (w *walker) native(c *ctx, name string, args []Word, sc *scope, redirs []Redir, in *Cmd) {
	if w.a.ReadFile == nil || c.depth >= MaxDepth || sc.cwd == "" {
		return
	}
	name = filepath.Base(name)
	switch name {
	case "java":
		w.javaLaunch(c, args, sc)
		return
	case "make", "gmake":
		w.makeImplicit(c.with(name), args, sc)
		return
	}
	lang := nativeLang(name)
	if lang == "" {
		return
	}
	args = w.argFiles(args, sc)
	nc := c.with(name)
	n := 0
	for i := 0; i < len(args); i++ {
		s, ok := args[i].Value()
		if !ok {
			if i == 0 || !valueOpt(lang, args[i-1].Lit()) {
				w.opaqueCode(name + " compiling a file named at run time: " + args[i].Raw)
			}
			continue
		}
		if lang == "c" && w.cProgramOpt(nc, args, i, sc) {
			if valueOpt(lang, s) || s == "-B" || s == "-wrapper" || s == "-specs" || s == "--ld-path" {
				i++
			}
			continue
		}
		switch {
		case valueOpt(lang, s):
			if (s == "-include" || s == "-imacros") && i+1 < len(args) {
				w.nativeFile(nc, lang, dirOf(args[i+1].Lit(), sc), sc, &n)
			}
			i++
			continue
		case s == "-":
			if lang != "c" {
				continue
			}
			if t, ok := stdinText(redirs, in); ok {
				w.cText(nc, "<stdin>", t, sc)
			} else if f, ok := stdinFile(redirs); ok {
				if v, ok := f.Value(); ok {
					w.nativeFile(nc, lang, dirOf(v, sc), sc, &n)
				}
			} else if v, ok := catFile(in); ok {
				w.nativeFile(nc, lang, dirOf(v, sc), sc, &n)
			} else {
				w.opaque(name + " compiling a program read from its input")
			}
			continue
		case strings.HasPrefix(s, "-"):
			continue
		}
		if nativeSource(lang, s) {
			w.nativeFile(nc, lang, dirOf(s, sc), sc, &n)
		}
	}
}

// nativeSource reports whether the file s is source code of lang.
func nativeSource(lang, s string) bool {
	switch lang {
	case "rust":
		return strings.HasSuffix(s, ".rs")
	case "javac":
		return strings.HasSuffix(s, ".java")
	}
	switch filepath.Ext(s) {
	case ".c", ".cc", ".cpp", ".cxx", ".c++", ".C", ".i", ".ii", ".h", ".hh", ".hpp", ".m", ".mm", ".cp", ".CPP":
		return true
	}
	return false
}

// argFiles expands the @file arguments of a compiler (the words of the
// file, read as the compiler reads them).
func (w *walker) argFiles(args []Word, sc *scope) []Word {
	var out []Word
	for _, a := range args {
		s, ok := a.Value()
		if !ok || len(s) < 2 || s[0] != '@' {
			out = append(out, a)
			continue
		}
		text, ok := w.readText(dirOf(s[1:], sc))
		if !ok {
			out = append(out, a)
			continue
		}
		for _, f := range strings.Fields(text) {
			f = strings.Trim(f, `"'`)
			out = append(out, Word{Raw: f, Values: []string{f}})
		}
	}
	return out
}

// nativeFile reads the source file p of lang, once, and the files it
// brings in (C's "quoted" includes, Rust's mod and include!).
func (w *walker) nativeFile(c *ctx, lang, p string, sc *scope, n *int) {
	if p == "" || *n >= maxNativeFiles {
		return
	}
	*n++
	if lang == "javac" {
		w.gradleFile(c, p, sc.cwd, sc.cwd, sc) // Java's calls, read as Gradle's code is (jvm.go)
		return
	}
	text, ok := w.readOnce(p)
	if !ok {
		return
	}
	dir := filepath.Dir(p)
	switch lang {
	case "rust":
		prev := w.file
		w.file = p
		w.moreCode(c, "rust", text, sc)
		w.file = prev
		for _, m := range rustModRe().FindAllStringSubmatch(text, 64) {
			switch {
			case m[1] != "":
				w.nativeFile(c, lang, filepath.Join(dir, m[1]+".rs"), sc, n)
				w.nativeFile(c, lang, filepath.Join(dir, m[1], "mod.rs"), sc, n)
			case m[2] != "":
				w.nativeFile(c, lang, filepath.Join(dir, m[2]), sc, n)
			}
		}
	case "c":
		w.cText(c, p, text, sc)
		for _, m := range cIncludeRe().FindAllStringSubmatch(text, 64) {
			w.nativeFile(c, lang, filepath.Join(dir, m[1]), sc, n)
		}
	}
}

var (
	rustModRe     = func() *regexp.Regexp { return rustModReLazy.get() }
	rustModReLazy = lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;|\binclude!\s*\(\s*"([^"\n]+)"`)
	}}
	cIncludeRe     = func() *regexp.Regexp { return cIncludeReLazy.get() }
	cIncludeReLazy = lazy[*regexp.Regexp]{f: func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s*#\s*include\s*"([^"\n]+)"`) }}
)

// javaLaunch walks the Java code java runs: the source file of the
// single-file launcher (java Clean.java), or the main class's source on
// the class path (java -cp dir Clean) when it is there.
func (w *walker) javaLaunch(c *ctx, args []Word, sc *scope) {
	cp := []string{"."}
	for i := 0; i < len(args); i++ {
		s, ok := args[i].Value()
		if !ok {
			return
		}
		switch {
		case s == "-jar" || s == "--module" || s == "-m" || s == "-version" || s == "--version" || s == "-help" || s == "--help":
			return // a jar's classes are not read
		case s == "-cp" || s == "-classpath" || s == "--class-path":
			if i+1 < len(args) {
				cp = filepath.SplitList(args[i+1].Lit())
			}
			i++
		case strings.HasPrefix(s, "--class-path="):
			cp = filepath.SplitList(strings.TrimPrefix(s, "--class-path="))
		case s == "--source" || s == "-p" || s == "--module-path" || s == "--add-modules" || s == "-d":
			i++
		case strings.HasPrefix(s, "-"):
		case strings.HasSuffix(s, ".java"):
			w.gradleFile(c.with("java "+filepath.Base(s)), dirOf(s, sc), sc.cwd, sc.cwd, sc)
			return
		default:
			cl, _, _ := strings.Cut(s, "$")
			rel := filepath.FromSlash(strings.ReplaceAll(cl, ".", "/")) + ".java"
			for _, d := range cp {
				if strings.HasSuffix(d, ".jar") || strings.HasSuffix(d, "*") {
					continue
				}
				f := filepath.Join(dirOf(d, sc), rel)
				if _, ok := w.readText(f); ok {
					w.gradleFile(c.with("java "+s), f, sc.cwd, sc.cwd, sc)
					break
				}
			}
			return
		}
	}
}

// catFile returns the one file cat pipes into a command (cat x.c | gcc -x c -).
func catFile(in *Cmd) (string, bool) {
	if in == nil || in.Name != "cat" || len(in.Args) != 1 {
		return "", false
	}
	return in.Args[0].Value()
}

// makeImplicit reads the C and C++ sources make's built-in rules compile
// for the targets named (make x builds x from x.c, x.o from x.c, with no
// makefile at all: GNU make 4.3 here built and ran such a program). A
// target whose source is not there reads nothing.
func (w *walker) makeImplicit(c *ctx, args []Word, sc *scope) {
	dir := sc.cwd
	n := 0
	for i := 0; i < len(args); i++ {
		s, ok := args[i].Value()
		switch {
		case !ok:
		case s == "-C" || s == "--directory":
			if i+1 < len(args) {
				dir = dirOf(args[i+1].Lit(), &scope{cwd: dir})
			}
			i++
		case strings.HasPrefix(s, "--directory="):
			dir = dirOf(strings.TrimPrefix(s, "--directory="), &scope{cwd: dir})
		case s == "-f" || s == "--file" || s == "--makefile" || s == "-I" || s == "--include-dir" || s == "-o" || s == "-W" ||
			s == "--old-file" || s == "--what-if" || s == "--new-file" || s == "--assume-new" || s == "--assume-old" || s == "-j" && i+1 < len(args) && isNumber(args[i+1].Lit()):
			i++
		case strings.HasPrefix(s, "-") || strings.Contains(s, "=") || dir == "":
		default:
			base := filepath.Join(dir, strings.TrimSuffix(s, ".o"))
			for _, ext := range []string{".c", ".cc", ".cpp", ".C"} {
				if _, ok := w.readText(base + ext); ok {
					nsc := sc.child()
					nsc.setCwd(dir)
					w.nativeFile(c, "c", base+ext, nsc, &n)
					w.makeCompiler(c, args, ext, base+ext, nsc)
					break
				}
			}
		}
	}
}

// isNumber reports whether s is a decimal number.
func isNumber(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// makeCompiler walks the compiler make's built-in rule runs for the source
// src: $(CC) for C, $(CXX) for C++, from the command line's VAR=value or
// the environment (make CC=./tools/cc x: GNU make 4.3 here ran it).
func (w *walker) makeCompiler(c *ctx, args []Word, ext, src string, sc *scope) {
	k := "CC"
	if ext != ".c" {
		k = "CXX"
	}
	val, set := "", false
	if v, ok := sc.vars[k]; ok {
		if v.dynamic || len(v.vals) != 1 {
			w.opaque("make's rule compiling with $" + k + " computed at run time")
			return
		}
		val, set = v.vals[0], true
	}
	for _, a := range args {
		if s, ok := a.Value(); ok && strings.HasPrefix(s, k+"=") {
			val, set = strings.TrimPrefix(s, k+"="), true
		} else if !ok && strings.HasPrefix(a.Raw, k+"=") {
			w.opaque("make's rule compiling with " + k + " computed at run time")
			return
		}
	}
	if set && strings.TrimSpace(val) != "" {
		w.shellString(c.with("$("+k+")"), val+" -c "+shellQuote([]string{src}), sc)
	}
}

// cCompilerProgs are the programs gcc runs from a -B directory.
var cCompilerProgs = []string{"as", "ld", "cc1", "cc1plus", "collect2", "lto-wrapper", "ld.bfd", "ld.gold", "cpp"}

// cProgramOpt judges an option of gcc or clang at args[i] that makes the
// compiler run a program of the agent's (gcc 12 here: -B tools/ ran
// tools/as, -wrapper sh,-c,CMD ran CMD); it reports whether args[i] was
// one.
func (w *walker) cProgramOpt(c *ctx, args []Word, i int, sc *scope) bool {
	s := args[i].Lit()
	next := func() (string, bool) {
		if i+1 >= len(args) {
			return "", false
		}
		return args[i+1].Value()
	}
	var dir, wrapper, prog string
	switch {
	case s == "-B":
		v, ok := next()
		if !ok {
			w.opaque("a compiler's -B directory computed at run time")
			return true
		}
		dir = v
	case strings.HasPrefix(s, "-B"):
		dir = s[2:]
	case s == "-wrapper":
		v, ok := next()
		if !ok {
			w.opaque("a compiler's -wrapper computed at run time")
			return true
		}
		wrapper = v
	case strings.HasPrefix(s, "-fuse-ld=") && strings.Contains(s, "/"):
		prog = strings.TrimPrefix(s, "-fuse-ld=")
	case strings.HasPrefix(s, "--ld-path="):
		prog = strings.TrimPrefix(s, "--ld-path=")
	case s == "--ld-path":
		prog, _ = next()
	case strings.HasPrefix(s, "-fplugin=") || s == "-load" || strings.HasPrefix(s, "-specs=") || s == "-specs":
		w.opaque("a compiler loading a plugin or specs ralph cannot read: " + s)
		return true
	default:
		return false
	}
	switch {
	case wrapper != "":
		var words []Word
		for _, f := range strings.Split(wrapper, ",") {
			words = append(words, Word{Raw: f, Values: []string{f}})
		}
		w.exec(c.with("-wrapper"), words, sc, nil, nil)
	case prog != "":
		w.exec(c.with("the linker"), []Word{{Raw: prog, Values: []string{prog}}}, sc, nil, nil)
	case dir != "":
		d := dirOf(dir, sc)
		for _, n := range cCompilerProgs {
			p := filepath.Join(d, n)
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
				w.exec(c.with("-B"), []Word{{Raw: p, Values: []string{p}}}, sc, nil, nil)
			}
		}
	}
	return true
}
