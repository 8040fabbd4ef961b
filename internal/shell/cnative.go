package shell

import (
	"regexp"
	"strings"
)

// The calls of C and C++ code that run programs or delete, move and write
// files: system and popen (a shell's command line), the exec family and
// posix_spawn (an argument list, given in the call or in an array of
// string literals), remove, unlink, rmdir, rename, fopen for writing,
// open with O_WRONLY/O_RDWR/O_TRUNC/O_CREAT, creat, truncate, link and
// symlink, std::filesystem's remove_all, rename and copy, an ofstream,
// and nftw walking depth first (the way a tree is deleted). Strings are
// followed through #define and variables of one literal; a call on what
// the code computes only warns, as an interpreter's does.

type cOp struct {
	re    *regexp.Regexp
	argv  []string // the command the call is, before its paths
	paths []int    // the arguments that are its paths
	kind  string   // "shell", "execl", "execv", "write", "open", "nftw"
	at    int      // the argument a shell, exec or write call takes first
}

// cPre is what comes before a call of the C library: not a member
// (x.remove, p->remove) nor a longer name.
const cPre = `(?:^|[^\w.>:]|::)`

var cOps = func() []cOp { return cOpsLazy.get() }
var cOpsLazy = lazy[[]cOp]{f: func() []cOp {
	m := func(name string) *regexp.Regexp { return regexp.MustCompile(cPre + `(?:` + name + `)\s*\(`) }
	return []cOp{
		{re: m(`system|popen`), kind: "shell"},
		{re: m(`execlp?e?`), kind: "execl", at: 1},
		{re: m(`execvp?e?|execvP`), kind: "execv", at: 1},
		{re: m(`posix_spawnp?`), kind: "execv", at: 4},
		{re: m(`remove|unlink`), argv: []string{"rm", "-f"}, paths: []int{0}},
		{re: m(`unlinkat`), argv: []string{"rm", "-f"}, paths: []int{1}},
		{re: m(`rmdir`), argv: []string{"rmdir"}, paths: []int{0}},
		{re: m(`remove_all`), argv: []string{"rm", "-r", "-f"}, paths: []int{0}},
		{re: m(`rename`), argv: []string{"mv"}, paths: []int{0, 1}},
		{re: m(`renameat2?`), argv: []string{"mv"}, paths: []int{1, 3}},
		{re: m(`copy_file|filesystem::copy|fs::copy`), argv: []string{"cp", "-r"}, paths: []int{0, 1}},
		{re: m(`symlink`), argv: []string{"ln", "-s", "-f"}, paths: []int{0, 1}},
		{re: m(`link`), argv: []string{"ln", "-f"}, paths: []int{0, 1}},
		{re: m(`creat|truncate`), argv: []string{"tee"}, paths: []int{0}},
		{re: m(`fopen|fopen64|freopen`), kind: "write", argv: []string{"tee"}, paths: []int{0}, at: 1},
		{re: m(`open|open64`), kind: "open", argv: []string{"tee"}, paths: []int{0}},
		{re: m(`openat`), kind: "open", argv: []string{"tee"}, paths: []int{1}},
		{re: regexp.MustCompile(`\bofstream\s+\w+\s*[({]`), argv: []string{"tee"}, paths: []int{0}},
		{re: m(`n?ftw`), kind: "nftw", argv: []string{"rm", "-r", "-f"}, paths: []int{0}},
	}
}}

var (
	cDefineRe     = func() *regexp.Regexp { return cDefineReLazy.get() }
	cDefineReLazy = lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)^[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+("(?:[^"\\\n]|\\.)*")`)
	}}
	cStringVarRe     = func() *regexp.Regexp { return cStringVarReLazy.get() }
	cStringVarReLazy = lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
		return regexp.MustCompile(`\b(\w+)\s*(?:\[\s*\d*\s*\])?\s*=\s*"`)
	}}
	cArrayRe     = func() *regexp.Regexp { return cArrayReLazy.get() }
	cArrayReLazy = lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
		return regexp.MustCompile(`\b(\w+)\s*\[\s*\d*\s*\]\s*=\s*\{([^{}]*)\}`)
	}}
	cAdjacentRe     = func() *regexp.Regexp { return cAdjacentReLazy.get() }
	cAdjacentReLazy = lazy[*regexp.Regexp]{f: func() *regexp.Regexp { return regexp.MustCompile(`"\s*\n?\s*"`) }}
	cOpaqueRe       = func() *regexp.Regexp { return cOpaqueReLazy.get() }
	cOpaqueReLazy   = lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
		return regexp.MustCompile(cPre + `(?:dlopen|dlsym|syscall|__asm__|asm)\s*[(\s]`)
	}}
)

// cText walks the C or C++ source text of file p.
func (w *walker) cText(c *ctx, p, text string, sc *scope) {
	prev, prevCode := w.file, w.inCode
	w.file, w.inCode = p, true
	defer func() { w.file, w.inCode = prev, prevCode }()
	text = cAdjacentRe().ReplaceAllString(text, "") // "rm -rf " "tests"
	vars, arrays := cVars(text)
	for _, o := range cOps() {
		for _, m := range o.re.FindAllStringIndex(text, 256) {
			args := evalArgs(parseArgs(cOneLine(text[m[1]:])), vars)
			switch o.kind {
			case "shell":
				w.shellCall(c, "c", args[:min(1, len(args))], sc)
				continue
			case "execl":
				var list []codeArg
				for _, a := range args[min(o.at, len(args)):] {
					if cNull(a) {
						break
					}
					list = append(list, a)
				}
				w.shellCall(c, "c", []codeArg{{list: list}}, sc)
				continue
			case "execv":
				if o.at < len(args) {
					if list, ok := arrays[strings.TrimSpace(strings.TrimPrefix(args[o.at].raw, "(char **)"))]; ok {
						w.shellCall(c, "c", []codeArg{{list: list}}, sc)
						continue
					}
				}
				w.opaqueCode(strings.Join(c.via, " ") + " runs a program with arguments ralph cannot read: " + strings.TrimSpace(text[m[0]:m[1]]) + "…)")
				continue
			case "write":
				if o.at >= len(args) || args[o.at].lit && !strings.ContainsAny(args[o.at].val, "wa+") {
					continue // read only
				}
			case "open":
				k := o.paths[0] + 1
				if k >= len(args) || !strings.Contains(args[k].raw, "O_WRONLY") && !strings.Contains(args[k].raw, "O_RDWR") &&
					!strings.Contains(args[k].raw, "O_TRUNC") && !strings.Contains(args[k].raw, "O_CREAT") {
					continue
				}
			case "nftw":
				if !strings.Contains(text[m[1]:min(len(text), m[1]+maxExpr)], "FTW_DEPTH") {
					continue // a walk that reads
				}
			}
			var paths []codeArg
			for _, k := range o.paths {
				if k < len(args) {
					paths = append(paths, args[k])
				}
			}
			if len(paths) == len(o.paths) {
				w.synthetic(c, o.argv, paths, sc)
			}
		}
	}
	if m := cOpaqueRe().FindString(text); m != "" {
		w.opaqueCode(strings.Join(c.via, " ") + " runs code ralph cannot read: " + strings.TrimSpace(strings.TrimLeft(m, "(;{} \t\n")) + "…")
	}
}

// cOneLine returns the call starting s with its arguments on one line
// (C splits a long call over lines).
func cOneLine(s string) string {
	if k := closeParen(s); k >= 0 && k < maxExpr {
		return strings.NewReplacer("\n", " ", "\r", " ").Replace(s[:k+1])
	}
	return s[:min(len(s), maxExpr)]
}

// cNull reports whether a is the null pointer that ends execl's list.
func cNull(a codeArg) bool {
	if a.lit {
		return false
	}
	r := strings.ReplaceAll(a.raw, " ", "")
	return r == "NULL" || r == "0" || r == "nullptr" || r == "(char*)NULL" || r == "(char*)0" || r == "(char*)nullptr"
}

// cVars returns the string values of #define NAME "…" and of variables
// given one literal (char *x = "…", char x[] = "…"), and the arrays of
// string literals (char *argv[] = {"rm", "-rf", "tests", NULL}) by name.
// A name given two values is of no known one.
func cVars(text string) (map[string]codeArg, map[string][]codeArg) {
	vars := map[string]codeArg{}
	seen := map[string]int{}
	set := func(name string, a codeArg) {
		if seen[name]++; seen[name] > 1 || !a.lit {
			delete(vars, name)
			return
		}
		vars[name] = a
	}
	for _, m := range cDefineRe().FindAllStringSubmatchIndex(text, 256) {
		a, _ := parseArg(text[m[4]:m[5]])
		set(text[m[2]:m[3]], a)
	}
	for _, m := range cStringVarRe().FindAllStringSubmatchIndex(text, 256) {
		a, _ := parseArg(text[m[1]-1:])
		set(text[m[2]:m[3]], a)
	}
	arrays := map[string][]codeArg{}
	for _, m := range cArrayRe().FindAllStringSubmatch(text, 64) {
		var list []codeArg
		for _, a := range evalArgs(parseArgs(strings.NewReplacer("\n", " ", "\r", " ").Replace(m[2])), vars) {
			if cNull(a) {
				break
			}
			list = append(list, a)
		}
		arrays[m[1]] = list
	}
	return vars, arrays
}
