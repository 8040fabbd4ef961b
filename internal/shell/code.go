package shell

import (
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// interpreter returns the language of an interpreter name, or "". A
// version after the name (ruby3.1, php8.2, pypy3.10: Debian's names) is
// the same interpreter.
func interpreter(name string) string {
	if i := strings.IndexAny(name, "0123456789"); i > 0 && strings.Trim(name[i:], "0123456789.") == "" {
		name = name[:i]
	}
	switch {
	case name == "python" || name == "pypy" || name == "pypy3" ||
		strings.HasPrefix(name, "python2") || strings.HasPrefix(name, "python3"):
		return "python"
	case name == "node" || name == "nodejs" || name == "deno" || name == "bun" || name == "tsx" || name == "ts-node" || name == "zx":
		return "node"
	case name == "perl" || strings.HasPrefix(name, "perl5"):
		return "perl"
	case name == "ruby" || name == "jruby":
		return "ruby"
	case name == "php":
		return "php"
	case name == "awk" || name == "gawk" || name == "mawk" || name == "nawk":
		return "awk"
	case name == "lua" || name == "luajit" || strings.HasPrefix(name, "lua5"):
		return "lua"
	}
	return ""
}

// codeFlag is each language's option for inline code.
var codeFlag map[string]string

// interp finds the inline code an interpreter runs (-c, -e, eval, a heredoc
// or piped text) and turns the file deletions, moves, writes and shell
// calls in it into commands. A script file it runs (python x.py, python -m
// a project module) is read the same way, as a file: what it computes only
// warns (see interpFile).
func (w *walker) interp(c *ctx, lang, name string, args []Word, redirs []Redir, sc *scope, in *Cmd) {
	if lang == "awk" {
		w.awk(c, name, args, sc)
		return
	}
	if lang == "ruby" || lang == "perl" {
		w.libLoads(c, lang, name, args, sc) // libload.go
	}
	if name == "deno" {
		var ok bool
		if args, ok = denoArgs(args); !ok {
			return
		}
	}
	if name == "bun" && len(args) > 0 && args[0].Lit() == "run" {
		// bun run x.ts runs the file as bun x.ts does (bun's docs); a
		// package.json script of that name is read as a script
		// (indirect.go), and a name that is no file reads nothing here.
		args = args[1:]
	}
	flag := codeFlag[lang]
	var codes []Word
	var file *Word
	script := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		s := a.Lit()
		switch {
		case s == "--":
			i = len(args)
		case (s == "eval" && i == 0 || s == "-p" || s == "--print" || s == "--eval") && lang == "node" && i+1 < len(args):
			codes = append(codes, args[i+1])
			i++
		case strings.HasPrefix(s, "--eval=") || strings.HasPrefix(s, "--print="):
			v := s[strings.Index(s, "=")+1:]
			codes = append(codes, Word{Raw: v, Values: []string{v}})
		case s == "-m" && lang == "python":
			script = true // python -m module: runs a module, not inline code
			if i+1 < len(args) {
				if m, ok := w.moduleFile(args[i+1].Lit(), sc.cwd); ok {
					file = &m // a module of the project: read like its file
				}
			}
			i = len(args)
		case lang == "node" && (s == "-r" || s == "--require" || s == "--import" || s == "--loader" || s == "--experimental-loader") && i+1 < len(args):
			w.interpFile(c, lang, name, args[i+1], sc) // a module loaded first
			i++
		case lang == "node" && (strings.HasPrefix(s, "--require=") || strings.HasPrefix(s, "--import=")):
			v := s[strings.Index(s, "=")+1:]
			w.interpFile(c, lang, name, Word{Raw: v, Values: []string{v}}, sc)
		case optValue(lang, s) && i+1 < len(args):
			i++ // python -W ignore x.py: the value is not the script
		case len(s) > 2 && s[0] == '-' && s[1] != '-' && optValue(lang, s[:2]):
			// A value glued to its option (perl -MFile::Path=rmtree, ruby
			// -rtime): its letters are not flags, and the e in rmtree is
			// no -e.
		case len(s) > 1 && s[0] == '-' && !strings.HasPrefix(s, "--") && !a.Dynamic:
			if strings.HasSuffix(s, flag) && i+1 < len(args) {
				codes = append(codes, args[i+1])
				i++
			} else if lang == "perl" && strings.Contains(s, flag) {
				// perl -e'code' glued to its option
				if k := strings.Index(s, flag); k < len(s)-1 {
					v := s[k+1:]
					codes = append(codes, Word{Raw: v, Values: []string{v}})
				}
			}
		case strings.HasPrefix(s, "--") && len(s) > 2 && !a.Dynamic:
			// Another long option (node --no-warnings, ruby
			// --disable-gems, python --check-hash-based-pycs always): not
			// the script. It was read as one, and the -e code after it
			// went unread (attack_run5.txtar).
			if lang == "python" && s == "--check-hash-based-pycs" && i+1 < len(args) {
				i++
			}
		case s == "-":
			if text, ok := stdinText(redirs, in); ok {
				codes = append(codes, Word{Raw: "<stdin>", Values: []string{text}})
			}
			i = len(args)
		default:
			if len(codes) == 0 {
				script = true
				file = &args[i]
				if v, ok := a.Value(); ok {
					if text, ok := w.writtenFile(v, sc.cwd); ok {
						// A script this command line wrote.
						codes = append(codes, Word{Raw: v, Values: []string{text}})
						script = false
					}
				}
			}
			i = len(args)
		}
	}
	if len(codes) == 0 && !script {
		if text, ok := stdinText(redirs, in); ok {
			codes = append(codes, Word{Raw: "<stdin>", Values: []string{text}})
		}
	}
	if script && len(codes) == 0 && file != nil {
		w.interpFile(c, lang, name, *file, sc)
	}
	if lang == "python" {
		w.pyRun(c, args, sc) // pyscript.go
	}
	label := name + " -" + flag
	for _, code := range codes {
		v, ok := code.Value()
		if !ok {
			w.opaqueCode(label + " of computed code: " + code.Raw)
			continue
		}
		w.code(c.with(label), lang, v, sc)
		w.codeInert(c, label, v, sc)
	}
}

// optValue reports whether an interpreter's option s takes the next
// argument as its value.
func optValue(lang, s string) bool {
	switch lang {
	case "python":
		return s == "-W" || s == "-X" || s == "-Q"
	case "node":
		return s == "-C" || s == "--conditions" || s == "--env-file" || s == "--input-type" || s == "--title" || s == "--stack-size"
	case "ruby":
		return s == "-r" || s == "-I" || s == "-C" || s == "-E" || s == "-F"
	case "perl":
		return s == "-I" || s == "-M" || s == "-m"
	}
	return false
}

// awk finds the program of awk [-F fs] [-v var=val] 'PROGRAM' [file…] or
// awk -f progfile: the first operand, unless -f (or gawk's -e) gives it.
func (w *walker) awk(c *ctx, name string, args []Word, sc *scope) {
	var codes []Word
	fromFile := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		s := a.Lit()
		switch {
		case s == "--":
			if i+1 < len(args) && !fromFile && len(codes) == 0 {
				codes = append(codes, args[i+1])
			}
			i = len(args)
		case (s == "-f" || s == "--file" || s == "-E" || s == "--exec" || s == "-i" || s == "--include") && i+1 < len(args):
			// A program file (gawk's -E too), or a source file gawk's
			// -i includes: read as written earlier in the line, else
			// from the disk (awk -f x.awk, with x.awk an earlier call's,
			// ran system("rm -rf tests") with mawk 1.3.4 here).
			fromFile = fromFile || s != "-i" && s != "--include"
			codes = w.awkFile(c, name, args[i+1], codes, sc)
			i++
		case (strings.HasPrefix(s, "--file=") || strings.HasPrefix(s, "--exec=") || strings.HasPrefix(s, "--include=")) && !a.Dynamic:
			fromFile = fromFile || !strings.HasPrefix(s, "--include=")
			v := s[strings.IndexByte(s, '=')+1:]
			codes = w.awkFile(c, name, Word{Raw: v, Values: []string{v}}, codes, sc)
		case len(s) > 2 && (s[:2] == "-f" || s[:2] == "-E") && !a.Dynamic:
			// -fx.awk: the file glued to its option (mawk, gawk).
			fromFile = true
			v := s[2:]
			codes = w.awkFile(c, name, Word{Raw: v, Values: []string{v}}, codes, sc)
		case (s == "-e" || s == "--source") && i+1 < len(args):
			codes = append(codes, args[i+1])
			i++
		case s == "-F" || s == "-v" || s == "--assign" || s == "--field-separator" || s == "-l" || s == "--load":
			i++
		case strings.HasPrefix(s, "-") && len(s) > 1 && !a.Dynamic:
		default:
			if !fromFile && len(codes) == 0 {
				codes = append(codes, a)
			}
			i = len(args)
		}
	}
	for _, code := range codes {
		v, ok := code.Value()
		if !ok {
			w.opaque(name + " running a computed program: " + code.Raw)
			continue
		}
		w.code(c.with(name), "awk", v, sc)
	}
}

// awkFile adds to codes the program file f of awk -f f when this command
// line wrote it, or walks it from the disk (interpFile); a file named at
// run time is a computed program.
func (w *walker) awkFile(c *ctx, name string, f Word, codes []Word, sc *scope) []Word {
	v, ok := f.Value()
	if !ok {
		return append(codes, f)
	}
	if text, ok := w.writtenFile(v, sc.cwd); ok {
		return append(codes, Word{Raw: v, Values: []string{text}})
	}
	if v != "-" && v != "/dev/stdin" {
		w.interpFile(c, "awk", name, f, sc)
	}
	return codes
}

// op maps an API call in code to the shell command with the same effect.
type op struct {
	re   string
	argv []string // command and flags; the call's path arguments follow
	// shell: the call runs a shell command line (a string) or an argv (a
	// list); argv is then unused.
	shell bool
	// quoted: the match ends with an opening mark (`, qx{, %x() and the
	// shell command line runs to the matching closing mark.
	quoted bool
	// paths is how many path arguments to take: 1, 2 (move, copy), or the
	// special forms pathOpen and pathObject.
	paths int
	// getline: the match is awk's "COMMAND" | getline.
	getline bool
}

const (
	pathOpen     = -1 // open(path, mode): a write only in a write mode
	pathObject   = -2 // Path(p).unlink(), .rmdir(), .write_text()
	pathPerlOpen = -3 // Perl's open(FH, MODE, path) or open(FH, ">path")
	pathLiteral  = -4 // awk's print > "path": a literal path only
	pathOsOpen   = -5 // os.open(path, flags): a write with O_WRONLY, O_RDWR or O_TRUNC
	pathTreeCopy = -6 // copytree(src, dst), cpSync(src, dst): src's contents into dst
	pathUnpack   = -7 // unpack_archive(file, dir): an archive extracted into dir
	pathInplace  = -8 // fileinput.input(files, inplace=True): each file rewritten
)

// compiled returns the regexps of opsTable()[lang], compiled on first use and one
// language at a time: most hook calls never see interpreter code, and one
// that does sees one language (compiling all of them cost a python
// one-liner's call half a millisecond).
func compiled(lang string) []*regexp.Regexp {
	return opsRe.get(lang, func() (pats []string) {
		for _, o := range opsTable()[lang] {
			pats = append(pats, o.re)
		}
		return pats
	})
}

var opsRe regexps

// regexps compiles lists of patterns by key on first use.
type regexps struct {
	mu sync.Mutex
	m  map[string][]*regexp.Regexp
}

// get returns the compiled patterns of key, which pats lists.
func (r *regexps) get(key string, pats func() []string) []*regexp.Regexp {
	r.mu.Lock()
	defer r.mu.Unlock()
	res, ok := r.m[key]
	if !ok {
		for _, p := range pats() {
			res = append(res, regexp.MustCompile(p))
		}
		if r.m == nil {
			r.m = map[string][]*regexp.Regexp{}
		}
		r.m[key] = res
	}
	return res
}

// quick lists substrings without which code cannot match any op, so most
// one-liners (print, json, imports) are judged without a regexp.
var quick []string

// shells are the programs that run the text piped into them as commands.
var shells map[string]bool

// code finds the effects of inline code and emits them as commands.
func (w *walker) code(c *ctx, lang, code string, sc *scope) {
	prev := w.inCode
	w.inCode = true
	defer func() { w.inCode = prev }()
	if lang == "awk" {
		// print | "sh": the program's output runs as commands.
		for _, m := range awkPipe().FindAllStringSubmatch(code, -1) {
			if f := strings.Fields(m[1]); len(f) > 0 && shells[path.Base(f[0])] {
				w.opaque(strings.Join(c.via, " ") + " piping its output into " + m[1])
			}
		}
	}
	w.dynamic(c, lang, code, sc)
	if lang == "node" {
		w.denoCalls(c, code, sc) // deno.go
	}
	w.codeLoads(c, lang, code, sc) // codeloads.go
	hit := false
	for _, q := range quick {
		if strings.Contains(code, q) {
			hit = true
			break
		}
	}
	if !hit {
		return
	}
	vars := assignments(code)
	for i, re := range compiled(lang) {
		o := opsTable()[lang][i]
		for _, m := range re.FindAllStringIndex(code, -1) {
			rest := code[m[1]:]
			if o.shell && m[1] > m[0] && strings.IndexByte(`['"`, code[m[1]-1]) >= 0 {
				// subprocess.run("rm -rf x", shell=True): the match took
				// the argument's opening mark, which is the argument's.
				rest = code[m[1]-1:]
			}
			if o.quoted {
				if k := strings.IndexByte(rest, closer(code[m[1]-1])); k >= 0 {
					w.shellString(c, rest[:k], sc)
				}
				continue
			}
			if o.getline {
				// "COMMAND" | getline: the command is the string before the pipe.
				q := code[m[0]:m[1]]
				if k := strings.IndexByte(q[1:], '"'); k >= 0 {
					w.shellString(c, q[1:k+1], sc)
				}
				continue
			}
			args := evalArgs(parseArgs(rest), vars)
			switch {
			case o.shell:
				w.shellCall(c, lang, args, sc)
			case o.paths == pathOpen:
				if len(args) >= 2 && args[1].lit && strings.ContainsAny(args[1].val, "wax+") {
					w.synthetic(c, o.argv, args[:1], sc)
				}
			case o.paths == pathPerlOpen:
				if p, ok := perlOpenPath(args); ok {
					w.synthetic(c, o.argv, []codeArg{p}, sc)
				}
			case o.paths == pathOsOpen:
				if len(args) >= 2 && (strings.Contains(args[1].raw, "O_WRONLY") || strings.Contains(args[1].raw, "O_RDWR") || strings.Contains(args[1].raw, "O_TRUNC")) {
					w.synthetic(c, o.argv, args[:1], sc)
				}
			case o.paths == pathTreeCopy:
				// cp -r SRC/. DST: the contents, as these calls copy them.
				if len(args) >= 2 {
					src := args[0]
					if src.lit {
						src = codeArg{val: strings.TrimSuffix(src.val, "/") + "/.", lit: true, raw: src.raw}
					}
					w.synthetic(c, o.argv, []codeArg{src, args[1]}, sc)
				}
			case o.paths == pathUnpack:
				if len(args) >= 1 {
					dir := codeArg{val: ".", lit: true, raw: "."}
					if len(args) >= 2 {
						dir = args[1]
					}
					lit := func(s string) codeArg { return codeArg{val: s, lit: true, raw: s} }
					w.synthetic(c, []string{"tar"}, []codeArg{lit("-xf"), args[0], lit("-C"), dir}, sc)
				}
			case o.paths == pathInplace:
				if files, ok := inplaceFiles(args); ok {
					w.synthetic(c, o.argv, files, sc)
				}
			case o.paths == pathLiteral:
				if len(args) > 0 && args[0].lit {
					w.synthetic(c, o.argv, args[:1], sc)
				}
			case o.paths == pathObject:
				after := rest
				if k := closeParen(rest); k >= 0 {
					after = rest[k+1:]
				}
				after = strings.TrimLeft(after, " \t")
				switch {
				case strings.HasPrefix(after, ".unlink("), strings.HasPrefix(after, ".rmdir("):
					w.synthetic(c, o.argv, args[:min(1, len(args))], sc)
				case strings.HasPrefix(after, ".write_text("), strings.HasPrefix(after, ".write_bytes("):
					w.synthetic(c, []string{"tee"}, args[:min(1, len(args))], sc)
				case strings.HasPrefix(after, ".rename("), strings.HasPrefix(after, ".replace("):
					// Path(p).rename(dest): mv p dest.
					_, rest, _ := strings.Cut(after, "(")
					if dest := parseArgs(rest); len(args) > 0 && len(dest) > 0 {
						w.synthetic(c, []string{"mv"}, []codeArg{args[0], dest[0]}, sc)
					}
				}
			default:
				n := min(o.paths, len(args))
				if n == 0 {
					args = []codeArg{{raw: strings.TrimSpace(firstLine(rest))}}
					n = 1
				}
				w.synthetic(c, o.argv, args[:n], sc)
			}
		}
	}
}

func closer(open byte) byte {
	switch open {
	case '{':
		return '}'
	case '(':
		return ')'
	}
	return open
}

// synthetic emits argv followed by the code's path arguments.
func (w *walker) synthetic(c *ctx, argv []string, args []codeArg, sc *scope) {
	words := make([]Word, 0, len(argv)+len(args))
	for _, a := range argv {
		words = append(words, Word{Raw: a, Values: []string{a}})
	}
	for _, a := range args {
		wd := a.word()
		if v, ok := wd.Value(); ok && (v == "~" || strings.HasPrefix(v, "~/")) {
			if h := sc.vars["HOME"]; !h.dynamic && len(h.vals) == 1 {
				v = h.vals[0] + v[1:]
				wd = Word{Raw: wd.Raw, Values: []string{v}}
			}
		}
		words = append(words, wd)
	}
	w.exec(c, words, sc, nil, nil)
}

// shellCall handles system("cmd"), subprocess.run(["rm", "-rf", x]),
// spawn("rm", ["-rf", x]) and the like.
func (w *walker) shellCall(c *ctx, lang string, args []codeArg, sc *scope) {
	if len(args) == 0 {
		return
	}
	a := args[0]
	switch {
	case a.list != nil:
		w.exec(c, codeWords(a.list), sc, nil, nil)
	case a.lit && len(args) > 1 && args[1].list != nil: // spawn("rm", ["-rf", x])
		w.exec(c, append([]Word{a.word()}, codeWords(args[1].list)...), sc, nil, nil)
	case a.lit && len(args) > 1 && args[1].lit && !strings.ContainsAny(a.val, " ;|&"): // system("rm", "-rf", "x")
		var list []codeArg
		for _, x := range args {
			if x.list != nil {
				break
			}
			list = append(list, x)
		}
		w.exec(c, codeWords(list), sc, nil, nil)
	case a.lit:
		w.shellString(c, a.val, sc)
	case lang == "awk":
		// awk's system() of a computed string runs its input as commands.
		w.opaque(strings.Join(c.via, " ") + " running a computed command: system(" + a.raw + ")")
	default:
		w.opaqueCode(strings.Join(c.via, " ") + " runs a computed command: " + a.raw)
	}
}

func (w *walker) shellString(c *ctx, s string, sc *scope) {
	w.scriptAt(s, sc.clone(), c.via, c.depth+1, c.line)
}

func codeWords(list []codeArg) []Word {
	out := make([]Word, len(list))
	for i, a := range list {
		out[i] = a.word()
	}
	return out
}

// codeArg is one argument of a call in code: a string literal, a list of
// them, or an expression ralph cannot evaluate.
type codeArg struct {
	val  string
	lit  bool
	glob bool // a pattern: glob("/etc/*")
	list []codeArg
	raw  string
}

func (a codeArg) word() Word {
	if a.lit {
		return Word{Raw: a.val, Values: []string{a.val}, Glob: a.glob}
	}
	return Word{Raw: a.raw, Dynamic: true}
}

// maxExpr bounds how far one argument of a call in code is read.
const maxExpr = 4096

// parseArgs reads the arguments of a call whose "(" (or a space, in perl
// and ruby) was just consumed, up to the closing parenthesis, a semicolon
// or the end of the line.
func parseArgs(s string) []codeArg {
	var out []codeArg
	i := 0
	for i < len(s) {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if i >= len(s) || s[i] == ')' || s[i] == ';' || s[i] == '\n' {
			break
		}
		a, n := parseArg(s[i:])
		if n == 0 {
			break
		}
		if j := i + n; (a.lit || a.list != nil) && j < len(s) {
			for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
				j++
			}
			if j < len(s) && !strings.ContainsRune(",;)]}\n", rune(s[j])) {
				// '.ai' + 'wg', "a".join(…): an expression that only
				// starts with a literal.
				a, n = parseExpr(s[i:])
			}
		}
		out = append(out, a)
		i += n
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if i < len(s) && s[i] == ',' {
			i++
			continue
		}
		break
	}
	return out
}

// parseArg reads one argument and returns it with the bytes it used.
func parseArg(s string) (codeArg, int) {
	start := 0
	// Python string prefixes: r'', b'', f'' (an f-string is computed).
	fstr := false
	for start < 2 && start+1 < len(s) && strings.IndexByte("rRbBfFuU", s[start]) >= 0 && strings.IndexByte("rRbBfFuU'\"", s[start+1]) >= 0 {
		if s[start] == 'f' || s[start] == 'F' {
			fstr = true
		}
		start++
	}
	if start < len(s) && (s[start] == '\'' || s[start] == '"' || s[start] == '`') {
		q := s[start]
		var b strings.Builder
		for i := start + 1; i < len(s) && i < maxExpr; i++ {
			switch {
			case s[i] == '\\' && i+1 < len(s) && s[i+1] == 'x' && i+3 < len(s) && isHex(s[i+2]) && isHex(s[i+3]):
				v, _ := strconv.ParseUint(s[i+2:i+4], 16, 8)
				b.WriteByte(byte(v))
				i += 3
			case s[i] == '\\' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '7':
				j := i + 1
				for j < len(s) && j < i+4 && s[j] >= '0' && s[j] <= '7' {
					j++
				}
				v, _ := strconv.ParseUint(s[i+1:j], 8, 8)
				b.WriteByte(byte(v))
				i = j - 1
			case s[i] == '\\' && i+1 < len(s):
				i++
				b.WriteByte(unescapeChar(s[i]))
			case s[i] == q:
				v := b.String()
				if fstr && strings.Contains(v, "{") || q == '`' && strings.Contains(v, "${") ||
					q == '"' && (isSigil(v) || strings.Contains(v, "#{")) {
					return codeArg{raw: s[:i+1]}, i + 1
				}
				return codeArg{val: v, lit: true, raw: s[:i+1]}, i + 1
			default:
				b.WriteByte(s[i])
			}
		}
		return codeArg{raw: s}, len(s)
	}
	if start == 0 && len(s) > 0 && s[0] == '[' {
		var list []codeArg
		i := 1
		for i < len(s) {
			for i < len(s) && (s[i] == ' ' || s[i] == ',' || s[i] == '\t') {
				i++
			}
			if i >= len(s) || s[i] == ']' {
				end := min(i+1, len(s))
				return codeArg{list: list, raw: s[:end]}, end
			}
			a, n := parseArg(s[i:])
			if n == 0 {
				break
			}
			list = append(list, a)
			i += n
		}
		return codeArg{raw: s}, len(s)
	}
	return parseExpr(s)
}

// parseExpr reads an expression: up to the next top-level comma or
// closing paren, and no further than maxExpr bytes, so unbalanced input
// stays linear.
func parseExpr(s string) (codeArg, int) {
	depth := 0
	for i := 0; i < len(s); i++ {
		if i >= maxExpr {
			return codeArg{raw: s[:i]}, i
		}
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth == 0 {
				return codeArg{raw: strings.TrimSpace(s[:i])}, i
			}
			depth--
		case ',', ';', '\n':
			if depth == 0 {
				return codeArg{raw: strings.TrimSpace(s[:i])}, i
			}
		}
	}
	return codeArg{raw: strings.TrimSpace(s)}, len(s)
}

// isSigil reports whether a double-quoted perl/ruby/php string interpolates
// a variable ("$dir", "@list").
func isSigil(v string) bool {
	for i := 0; i+1 < len(v); i++ {
		if (v[i] == '$' || v[i] == '@') && (v[i+1] == '_' || v[i+1] == '{' || v[i+1] >= 'a' && v[i+1] <= 'z' || v[i+1] >= 'A' && v[i+1] <= 'Z') {
			return true
		}
	}
	return false
}

func unescapeChar(c byte) byte {
	switch c {
	case 'n':
		return '\n'
	case 't':
		return '\t'
	}
	return c
}

func closeParen(s string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			if depth == 0 {
				return i
			}
			depth--
		}
	}
	return -1
}

func firstLine(s string) string {
	if i := strings.IndexAny(s, ";\n"); i >= 0 {
		return s[:i]
	}
	return s
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// awkPipe matches awk's print … | "COMMAND".
var awkPipe = func() *regexp.Regexp { return awkPipeLazy.get() }
var awkPipeLazy = lazy[*regexp.Regexp]{f: func() *regexp.Regexp { return regexp.MustCompile(`\|\s*"([^"\n]*)"`) }}

// assignRe matches a variable assigned in code: name = value (const, let,
// var, my, $name).
var assignRe = func() *regexp.Regexp { return assignReLazy.get() }
var assignReLazy = lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)(?:^|[;{(\s])(?:const\s+|let\s+|var\s+|my\s+|local\s+)?\$?([A-Za-z_]\w*)\s*=\s*([^=\s])`)
}}

// assignments returns the variables code assigns a value ralph can work
// out (a string, Path('x'), os.path.join of strings …); the last
// assignment of a name wins.
func assignments(code string) map[string]codeArg {
	if !strings.Contains(code, "=") {
		return nil
	}
	vars := map[string]codeArg{}
	for _, m := range assignRe().FindAllStringSubmatchIndex(code, 64) {
		name := code[m[2]:m[3]]
		a, _ := parseArg(code[m[4]:])
		if v, ok := evalArg(a, vars); ok {
			vars[name] = v
		} else {
			delete(vars, name)
		}
	}
	return vars
}

// evalArgs works out the arguments that are expressions of known values.
func evalArgs(args []codeArg, vars map[string]codeArg) []codeArg {
	for i, a := range args {
		if v, ok := evalArg(a, vars); ok {
			args[i] = v
		}
	}
	return args
}

// wrappers are calls that return their (path) argument unchanged, for
// ralph's purpose.
var pathCalls []string

// joinCalls join their arguments into a path.
var joinCalls []string

// homeExprs stand for the home directory.
var homeExprs []string

// evalArg works out the value of an argument that is an expression of
// known values, or reports false.
func evalArg(a codeArg, vars map[string]codeArg) (codeArg, bool) {
	if a.lit || a.list != nil {
		return a, true
	}
	e := strings.TrimSpace(a.raw)
	if v, ok := vars[strings.TrimPrefix(e, "$")]; ok {
		return v, true
	}
	for _, h := range homeExprs {
		if e == h {
			return codeArg{val: "~", lit: true, raw: e}, true
		}
	}
	if strings.HasPrefix(e, "%w[") && strings.HasSuffix(e, "]") || strings.HasPrefix(e, "%w(") && strings.HasSuffix(e, ")") {
		var list []codeArg
		for _, f := range strings.Fields(e[3 : len(e)-1]) {
			list = append(list, codeArg{val: f, lit: true, raw: f})
		}
		if len(list) == 1 {
			return list[0], true
		}
		return codeArg{list: list, raw: e}, true
	}
	open := strings.IndexByte(e, '(')
	if open <= 0 || !strings.HasSuffix(e, ")") || closeParen(e[open+1:]) != len(e)-open-2 {
		return a, false
	}
	fn := e[:open]
	inner := parseArgs(e[open+1 : len(e)-1])
	for i, x := range inner {
		v, ok := evalArg(x, vars)
		if !ok || !v.lit {
			return a, false
		}
		inner[i] = v
	}
	switch {
	case slices.Contains(joinCalls, fn) && len(inner) > 0:
		parts := make([]string, len(inner))
		for i, x := range inner {
			parts[i] = x.val
		}
		joined := parts[0]
		for _, p := range parts[1:] {
			if strings.HasPrefix(p, "/") {
				joined = p
			} else {
				joined = strings.TrimSuffix(joined, "/") + "/" + p
			}
		}
		return codeArg{val: joined, lit: true, raw: e}, true
	case slices.Contains(pathCalls, fn) && len(inner) == 1:
		return codeArg{val: inner[0].val, lit: true, raw: e}, true
	case (fn == "glob" || fn == "glob.glob" || fn == "Dir.glob" || fn == "glob.sync") && len(inner) == 1:
		return codeArg{val: inner[0].val, lit: true, glob: true, raw: e}, true
	}
	return a, false
}

// perlOpenPath returns the file Perl's open writes: open(FH, MODE, PATH)
// with a mode that writes (>, >>, +<, +>), or open(FH, ">PATH") with the
// mode before the path in one string.
func perlOpenPath(args []codeArg) (codeArg, bool) {
	writes := func(mode string) bool {
		mode = strings.TrimSpace(mode)
		return strings.HasPrefix(mode, ">") || strings.HasPrefix(mode, "+<") || strings.HasPrefix(mode, "+>")
	}
	switch {
	case len(args) >= 3 && args[1].lit && writes(args[1].val):
		return args[2], true
	case len(args) == 2 && args[1].lit && writes(args[1].val):
		p := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(args[1].val), "+<>"))
		if p == "" || p == "-" || strings.HasPrefix(p, "&") {
			return codeArg{}, false // standard output, a duplicated handle
		}
		return codeArg{val: p, lit: true, raw: strconv.Quote(p)}, true
	}
	return codeArg{}, false
}

// inplaceFiles returns the files Python's fileinput.input (or FileInput)
// rewrites, its first argument or files=, a name or a list of them, when
// it is given inplace=True (any true value but a literal False or 0).
func inplaceFiles(args []codeArg) ([]codeArg, bool) {
	inplace := false
	var files *codeArg
	for i := range args {
		r := strings.Join(strings.Fields(args[i].raw), "")
		switch {
		case strings.HasPrefix(r, "inplace="):
			v := strings.TrimPrefix(r, "inplace=")
			inplace = v != "False" && v != "0" && v != "None"
		case strings.HasPrefix(r, "files="):
			a := args[i]
			if l := parseArgs(strings.TrimPrefix(strings.TrimSpace(a.raw), "files=") + ")"); len(l) == 1 {
				a = l[0] // files=[…]: the list itself
			}
			files = &a
		case i == 0 && !strings.Contains(r, "="):
			a := args[i]
			files = &a
		}
	}
	if !inplace || files == nil {
		return nil, false
	}
	if files.list != nil {
		return files.list, true
	}
	return []codeArg{*files}, true
}
