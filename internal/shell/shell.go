// Package shell reads a Bash command the way Bash would run it, to find every
// program it executes and with which arguments, working directory and
// redirections.
//
// It parses with mvdan.cc/sh/v3 and then sees through what hides a command:
// wrappers (sudo, env, command, nice, nohup, timeout, time, exec, xargs, …),
// VAR=x prefixes, absolute and backslashed names, bash -c / sh -lc / eval of
// literal strings, heredocs and echoed text fed to a shell, pipelines, lists,
// subshells, command and process substitution, cd, aliases, loops over
// literal lists, find -exec, ssh remote commands, docker/podman run and
// exec, and interpreter one-liners (python -c, node -e, perl -e, ruby -e),
// whose file deletions are turned into the equivalent rm. What a command
// runs from a file is read too (indirect.go): make and just recipes,
// package.json scripts, git aliases from git's configuration, script files
// of every language. Text that is only
// data (echo "rm -rf /", a grep pattern, a commit message) never becomes a
// command. What the package cannot know (a $VAR from outside, a $(…) result)
// is marked dynamic, so callers can judge it conservatively.
//
// The package only describes; package risk decides.
package shell

import (
	"fmt"
	"github.com/ralph-hooks/ralph-hooks/internal/clip"
	"io/fs"
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// MaxDepth bounds nested shells (bash -c 'bash -c …'), evals and scripts.
const MaxDepth = 8

// Analysis is what a command line runs.
type Analysis struct {
	Source string
	Cmds   []*Cmd
	// ParseErr is set when the command line (or a nested script) could not
	// be parsed; Cmds then holds what could be understood (the statements
	// before the error).
	ParseErr error
	// Refused is set, instead of ParseErr, when the command line (or a
	// nested script) stops at its end with a quote or bracket still open,
	// which Bash refuses to run (see refused.go): Cmds holds what runs
	// before it, and nothing of the rest runs.
	Refused error
	// Opaque lists what ran but could not be seen into: eval of a computed
	// string, a script file that could not be read, nesting beyond MaxDepth.
	Opaque []string
	// OpaqueCode lists interpreter code that runs something computed
	// (os.system(cmd), a path built at run time for a shell call).
	OpaqueCode []string
	// ForkBomb is set when a function pipes into itself (:(){ :|:& };:).
	ForkBomb bool
	// Recursive names a function of the command line that calls itself,
	// which Bash lets run until the shell runs out of stack.
	Recursive string
	// Inert are the commands the line reads as but does not run (see
	// inert.go), each with Cmd.Inert saying why.
	Inert []*Cmd
}

// Cmd is one program run.
type Cmd struct {
	Name string // program name without directory ("rm"); "" when not known
	Args []Word // arguments after the name
	// NameWord is the word naming the program, for messages.
	NameWord Word
	Cwd      string   // directory it runs in; "" when not known
	Remote   string   // host, for a command run through ssh
	Via      []string // what it was found inside: "sudo", "bash -c", "python -c", …
	Redirs   []Redir  // redirections
	// Input is the command whose output feeds this one's FromInput
	// arguments (find for find -exec; the left side of a pipe for xargs).
	Input *Cmd
	// Stdout is the literal text the command prints, when it is data only
	// (echo, printf, cat of a heredoc); StdoutKnown tells whether it is set.
	Stdout      string
	StdoutKnown bool
	// Compound marks the output of a compound command ({ …; }, ( … ),
	// if, for …) piped into this one's: unknown text, and no command of
	// the analysis itself (its commands are).
	Compound bool
	Line     int // line in the outermost command line
	// File is the script file the command was read from (bash x.sh,
	// source x.sh), or "" for the command line itself.
	File string
	// Inert says why the command does not run as written, for a command
	// of Analysis.Inert.
	Inert string
	// Code is set for a command found in interpreter code (python -c,
	// node -e, a script file): a call ralph turned into the command with
	// the same effect.
	Code bool
	// Background is set for a command of a statement run in the
	// background (cmd &, ( … ) &, or inside one): it may outlive the call.
	Background bool
}

// Word is one argument.
type Word struct {
	Raw string // as written
	// Values are the word's possible values after expansion (quotes
	// removed, known variables substituted, braces expanded). Nil when
	// the word is dynamic.
	Values []string
	// Dynamic is set when the value depends on something unknown (a
	// variable from outside, a command substitution, $RANDOM).
	Dynamic bool
	// Prefix is the literal beginning of a dynamic word ("/tmp/" for
	// "/tmp/$x"), for judging where it points.
	Prefix string
	// Glob is set when the word holds unquoted pattern characters.
	Glob bool
	// FromInput marks the argument that find -exec or xargs fills in
	// from Cmd.Input's output.
	FromInput bool
	// Many is set when a dynamic word may stand for any number of
	// arguments: an unquoted $(…), or a loop variable over one.
	Many bool
	// Line is set when a dynamic word may stand for a whole command line
	// where it names the program: an array expanded with [@] or [*]
	// ("${cmd[@]}" with cmd=(rm -rf tests)), or the unquoted output of a
	// command that does not print a path ($(<file), $(base64 -d …)).
	Line bool
}

// Value returns the single value of w, or false if w is dynamic, a glob or
// has several values.
func (w Word) Value() (string, bool) {
	tables()
	if w.Dynamic || w.Glob || w.FromInput || len(w.Values) != 1 {
		return "", false
	}
	return w.Values[0], true
}

// Lit returns w's value when it is one literal, else its raw text. Use it
// for flags and messages, not for paths.
func (w Word) Lit() string {
	tables()
	if v, ok := w.Value(); ok {
		return v
	}
	return w.Raw
}

// Redir is one redirection.
type Redir struct {
	Op     string // ">", ">>", ">|", "&>", "&>>", "<", "<>", "<<", "<<<", …
	Fd     string // explicit fd ("2" in 2>), or ""
	Target Word   // file, or the here-string / heredoc text
}

// Writes reports whether r writes to its target file.
func (r Redir) Writes() bool {
	tables()
	switch r.Op {
	case ">", ">>", ">|", "&>", "&>>", "<>":
		return true
	}
	return false
}

// Clobbers reports whether r truncates its target file.
func (r Redir) Clobbers() bool {
	tables()
	tables()
	return r.Op == ">" || r.Op == ">|" || r.Op == "&>"
}

// Text renders the command for people.
func (c *Cmd) Text() string {
	tables()
	var b strings.Builder
	if c.NameWord.Raw != "" {
		b.WriteString(c.NameWord.Raw)
	} else {
		b.WriteString(c.Name)
	}
	for _, a := range c.Args {
		b.WriteByte(' ')
		if a.FromInput {
			b.WriteString("{}")
		} else {
			b.WriteString(a.Raw)
		}
	}
	for _, r := range c.Redirs {
		if r.Op == "<<" || r.Op == "<<-" {
			fmt.Fprintf(&b, " %s%s…", r.Fd, r.Op)
			continue
		}
		fmt.Fprintf(&b, " %s%s %s", r.Fd, r.Op, r.Target.Raw)
	}
	return strings.TrimSpace(b.String())
}

// Output returns what c writes on its standard output when that is
// literal data: echo's text and newline, printf's, cat's heredoc.
func (c *Cmd) Output() (string, bool) {
	tables()
	if !c.StdoutKnown {
		return "", false
	}
	if c.Name == "echo" && !hasFlag(c.Args, "n") {
		return c.Stdout + "\n", true
	}
	return c.Stdout, true
}

// Env gives the variables a command line may use whose values ralph knows
// (HOME, TMPDIR, …). It returns "" for variables it does not know.
type Env func(name string) string

// knownVars are the environment variables whose value the hook sees as the
// agent's shell would. Any other variable from outside is dynamic.
var knownVars []string

// Analyzer analyses command lines.
type Analyzer struct {
	Env Env // known environment; nil for none
	// Root is the project's directory: a git repository other than the
	// one holding it is another's, whose configuration the command
	// line's git reads unseen (gitforeign.go); "" takes none for another.
	Root string
	// ReadFile reads a script run by path (bash x.sh, source x.sh); nil
	// leaves such scripts opaque.
	ReadFile func(path string) ([]byte, error)
	// GitConfig returns the value of a key of git's configuration as git
	// run in dir sees it (alias.NAME), for an alias the command line does
	// not define; nil leaves such aliases unread.
	GitConfig func(dir, key string) (string, bool)
	// ReadDir lists a directory, for the files a build tool reads its
	// commands from (go generate ./...); nil leaves them unread.
	ReadDir func(dir string) ([]fs.DirEntry, error)
	// GoMain returns the directory of the project's main package that the
	// Go program at bin (run from cwd) was built from, or fromFiles when
	// it was built from a list of files; "" and false for any other
	// program. nil leaves compiled programs unread.
	GoMain func(bin, cwd string) (dir string, fromFiles bool)
	// Rebuilt reports whether one of the sources (files, or directories'
	// files) of the program at bin changed after it was built; nil takes
	// them for unchanged.
	Rebuilt func(bin string, sources []string) bool
	// Program returns the program a file on disk runs when it is another
	// one under this name (a link to /bin/rm, a copy of it); nil, or
	// false, takes the file for what its name says.
	Program func(path string) (string, bool)
	// GoSetup, when set, keeps what go test's reading of TestMain and
	// init found in each Go file, by its stamp (gosetupmemo.go).
	GoSetup *GoSetupMemo
}

// Analyze returns what src runs when started in directory cwd.
func (a *Analyzer) Analyze(src, cwd string) *Analysis {
	tables()
	out := &Analysis{Source: src}
	w := &walker{a: a, out: out}
	sc := &scope{vars: map[string]value{}}
	sc.setCwd(cwd)
	if a.Env != nil {
		for _, k := range knownVars {
			if v := a.Env(k); v != "" {
				sc.vars[k] = value{vals: []string{v}}
			}
		}
	}
	// Field splitting uses IFS; unset, it is space, tab and newline.
	sc.vars["IFS"] = value{vals: []string{" \t\n"}}
	if _, ok := sc.vars["TMPDIR"]; !ok {
		// Unset (or empty), $TMPDIR/x is /x, whatever the writer meant:
		// judging it as /tmp/x would let rm -rf "$TMPDIR/etc" through.
		// ${TMPDIR:-/tmp}/x is still /tmp/x.
		sc.vars["TMPDIR"] = value{vals: []string{""}, unset: true}
	}
	w.scriptAt(src, sc, nil, 0, 0)
	return out
}

func parse(src string) (*syntax.File, error) {
	return syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
}

// walker walks one command line and the scripts nested in it.
type walker struct {
	a   *Analyzer
	out *Analysis
	// promptSeen holds the PROMPT_COMMAND values walked, by directory
	// (bashvars.go).
	promptSeen map[string]bool
	file       string // script file being walked, if any
	bg         int    // how many statements run in the background hold this one
	// calling holds the functions being walked, so that a function
	// calling itself is walked once.
	calling map[string]bool
	// written holds the files this command line writes with literal
	// text (cat > x.sh <<EOF), by absolute path, so that running them
	// later in the same line is read like an inline script.
	written map[string]string
	// changed holds the files the line changed with text ralph cannot
	// work out, with the program that did (changed.go).
	changed map[string]string
	// appended holds the files of written the line appended to (>>):
	// their disk text stays before what the line wrote (written.go).
	appended map[string]bool
	// inert is why the commands walked now do not run ("" when they do);
	// last is the last command that runs, emitted so far.
	inert string
	last  *Cmd
	// helper names what runs the commands walked now as its helpers
	// ("git" for GIT_SSH, core.sshCommand, …): a program of the project
	// that ralph cannot read is then opaque.
	helper string
	// inCode is set while the effects of interpreter code are emitted.
	inCode bool
	// indirectN counts the make, just and package-manager runs read.
	indirectN int
	// pyStartRead: 1 + the files the line had written or changed when
	// Python's start-up files were last read (pystart.go);
	// toolRead, the project files toolcode.go read, each read once.
	pyStartRead int
	toolRead    map[string]bool
	// loads counts the files code loaded (codeloads.go).
	loads int
	// envRead holds the $BASH_ENV files walked (bashenv.go).
	envRead map[string]bool
	// built are the programs a go build in the line makes, by absolute
	// path, with the packages or files they are built from (gobuilt.go).
	built map[string][]Word
	// progs and hashed are the programs the line put under other names
	// (progcopy.go).
	progs, hashed map[string]string
	// deferred is the code that runs later by itself (a trap, a zsh
	// hook function), walked again where the script that set it ends
	// (deferred.go); assigned logs the variables assigned meanwhile.
	deferred  []deferred
	assigned  []assignment
	replaying bool
}

// ctx is where a piece of shell code sits: its source (for raw text), the
// wrappers and interpreters around it, its depth and line.
type ctx struct {
	src   string
	via   []string
	depth int
	line  int // line in the outermost command line this code came from (0 at depth 0)
}

type value struct {
	vals    []string
	dynamic bool
	glob    bool // a pattern (for f in tests/*): each value a match of it
	many    bool // a loop variable over computed items (for f in $(…))
	array   bool // an array (a=(…), declare -a): "${a[@]}" is many words
	words   bool // the output of a command (x=$(<file)): $x unquoted may be a command line
	nameref bool // a nameref's marker (nameref.go)
	// unset marks a variable of the environment the hook sees unset
	// (TMPDIR), which the agent's shell may set: its value is "", but
	// an unquoted $TMPDIR that vanishes may stand for a word there.
	unset bool
	num   bool // surely a number ($((…)), $(wc -l …)): arith.go
	// integer marks a variable declared -i: bash evaluates what is
	// assigned to it as arithmetic (arith.go).
	integer bool
}

// scope is the shell state that flows from one command to the next.
type scope struct {
	cwd     string
	vars    map[string]value
	aliases map[string]string
	// funcs are the functions defined so far, by name: a body runs only
	// where the function is called. exported holds those of export -f,
	// which child shells see.
	funcs    map[string]function
	exported map[string]bool
	dirs     []string // pushd's stack, "" for an unknown directory
	// pos are the positional parameters ("$@") when posSet: set by a
	// function call, sh -c SCRIPT NAME ARG…, or set -- (positional.go).
	pos    []Word
	posSet bool
	// named are zsh's named directories (hash -d NAME=DIR), for ~NAME;
	// replaced, never changed in place, so clones share it.
	named map[string]value
	// refs are the namerefs (declare -n) and the variables they name, ""
	// when computed at run time; replaced, never changed in place
	// (nameref.go).
	refs map[string]string
}

// function is a function's body and the source it was written in.
type function struct {
	body *syntax.Stmt
	src  string
}

func (s *scope) clone() *scope {
	n := &scope{cwd: s.cwd, vars: make(map[string]value, len(s.vars)), aliases: s.aliases, exported: s.exported, pos: s.pos, posSet: s.posSet, named: s.named, refs: s.refs}
	for k, v := range s.vars {
		n.vars[k] = v
	}
	if len(s.funcs) > 0 {
		n.funcs = make(map[string]function, len(s.funcs))
		for k, v := range s.funcs {
			n.funcs[k] = v
		}
	}
	n.dirs = append([]string(nil), s.dirs...)
	return n
}

// child returns the scope of a new shell started from s (bash -c, a
// script): variables carry over (as if exported), functions only when
// exported with export -f, the directory stack not at all.
func (s *scope) child() *scope {
	n := s.clone()
	n.dirs = nil
	n.pos, n.posSet = nil, false // a new shell has its own
	for k := range n.funcs {
		if !s.exported[k] {
			delete(n.funcs, k)
		}
	}
	return n
}

// setCwd moves the scope to dir ("" when unknown), keeping $PWD in step.
func (s *scope) setCwd(dir string) {
	s.cwd = dir
	if dir == "" {
		s.vars["PWD"] = value{dynamic: true}
	} else {
		s.vars["PWD"] = value{vals: []string{dir}}
	}
}

// scriptAt parses and walks src as shell code run inside via.
func (w *walker) scriptAt(src string, sc *scope, via []string, depth, line int) {
	if depth > MaxDepth {
		w.opaque(fmt.Sprintf("nesting deeper than %d levels", MaxDepth))
		return
	}
	c := &ctx{src: src, via: via, depth: depth, line: line}
	defer w.replay(len(w.deferred), sc)
	f, err := parse(src)
	if err == nil {
		w.stmts(c, f.Stmts, sc)
		return
	}
	// Bash runs the complete lines before the error (refused.go).
	done, serr := completeStmts(src)
	ran := earlierLines(src, done)
	n := len(w.out.Cmds)
	w.stmts(c, ran, sc)
	refused := serr != nil && refusedRest(src, serr, w.out.Cmds[n:]) && refusedRest(src, err, w.out.Cmds[n:])
	if !refused {
		// What the parser cannot read, bash may run in part: judge the
		// statements on the broken line too.
		w.stmts(c, done[len(ran):], sc)
	}
	if refused {
		// Nothing of the broken line runs, but it reads as the line with
		// its quote closed: package risk asks when that would be refused.
		if rest := closedRest(src, serr, len(ran)); len(rest) > 0 {
			w.inertDo("bash refuses the line, a quote left open at its end, and runs nothing of it; it reads as the line with the quote closed", func() {
				w.stmts(c, rest, sc.clone())
			})
		}
	}
	if len(via) > 0 {
		err = fmt.Errorf("%s: %w", strings.Join(via, " → "), err)
	}
	switch {
	case refused && w.out.Refused == nil:
		w.out.Refused = err
	case !refused && w.out.ParseErr == nil:
		w.out.ParseErr = err
	}
}

// opaque records something that runs unseen. Inside a script file it is
// only worth a warning: the script is the project's, not a command line.
func (w *walker) opaque(what string) {
	if w.file != "" {
		w.opaqueCode(what + " (in " + w.file + ")")
		return
	}
	w.out.Opaque = addOnce(w.out.Opaque, what)
}

func (w *walker) opaqueCode(what string) { w.out.OpaqueCode = addOnce(w.out.OpaqueCode, what) }

func addOnce(list []string, s string) []string {
	for _, o := range list {
		if o == s {
			return list
		}
	}
	return append(list, s)
}

func (w *walker) stmts(c *ctx, list []*syntax.Stmt, sc *scope) {
	for _, s := range list {
		w.stmt(c, s, sc, nil)
	}
}

// stmt walks one statement; in is the command piping into it, if any.
func (w *walker) stmt(c *ctx, s *syntax.Stmt, sc *scope, in *Cmd) *Cmd {
	if s == nil {
		return nil
	}
	if s.Background {
		w.bg++
		defer func() { w.bg-- }()
	}
	defer w.syncRefs(sc) // nameref.go
	redirs := w.redirs(c, s.Redirs, sc)
	if len(s.Redirs) > 0 {
		redirs = append(redirs, w.zshClobber(c, s, sc)...)
	}
	switch x := s.Cmd.(type) {
	case *syntax.CallExpr:
		return w.call(c, x, sc, redirs, in, c.lineOf(s))
	case nil:
		w.emitRedirs(c, redirs, sc, s)
		return nil
	}
	w.emitRedirs(c, redirs, sc, s)
	switch x := s.Cmd.(type) {
	case *syntax.BinaryCmd:
		if x.Op == syntax.Pipe || x.Op == syntax.PipeAll {
			left := w.stmt(c, x.X, sc.clone(), in)
			return w.stmt(c, x.Y, sc.clone(), left)
		}
		w.stmt(c, x.X, sc, in)
		return w.stmt(c, x.Y, sc, nil)
	case *syntax.Subshell:
		w.stmts(c, x.Stmts, sc.clone())
	case *syntax.Block:
		w.stmts(c, x.Stmts, sc)
	case *syntax.IfClause:
		for cl := x; cl != nil; cl = cl.Else {
			w.stmts(c, cl.Cond, sc)
			w.stmts(c, cl.Then, sc)
		}
	case *syntax.WhileClause:
		w.stmts(c, x.Cond, sc)
		w.stmts(c, x.Do, sc)
	case *syntax.ForClause:
		switch l := x.Loop.(type) {
		case *syntax.WordIter:
			v := value{dynamic: len(l.Items) == 0}
			for _, it := range l.Items {
				w.subst(c, it, sc)
				w.valueCode(c, it, sc) // for x in 'a[$(cmd)]': arith.go
				wd := w.word(c, it, sc)
				if wd.Dynamic {
					v = value{dynamic: true, many: true}
					break
				}
				v.vals = append(v.vals, wd.Values...)
				v.glob = v.glob || wd.Glob
			}
			if l.Name != nil {
				sc.vars[l.Name.Value] = v
			}
		case *syntax.CStyleLoop:
			w.subst(c, l, sc)
			w.arith(c, l, sc)
		}
		w.stmts(c, x.Do, sc)
	case *syntax.CaseClause:
		w.subst(c, x.Word, sc)
		for _, it := range x.Items {
			w.stmts(c, it.Stmts, sc)
		}
	case *syntax.FuncDecl:
		if x.Name == nil {
			break
		}
		if forkBomb(x.Name.Value, x.Body) {
			w.out.ForkBomb = true
		}
		// The body runs where the function is called (see call), with
		// the shell's state at that point; a function never called runs
		// nothing.
		if sc.funcs == nil {
			sc.funcs = map[string]function{}
		}
		sc.funcs[x.Name.Value] = function{body: x.Body, src: c.src}
		if zshHook(x.Name.Value) {
			// A trap, hook or handler zsh (or bash) calls by itself.
			hc := c
			if c.depth == 0 {
				hc = &ctx{src: c.src, via: c.via, line: c.lineOf(s)}
			}
			name := x.Name.Value
			w.callFunc(hc, name, sc.funcs[name], nil, sc.clone(), nil, nil)
			w.deferRun(func(sc *scope) {
				if f, ok := sc.funcs[name]; ok {
					w.callFunc(hc, name, f, nil, sc, nil, nil)
				}
			})
		}
	case *syntax.DeclClause:
		funcs, ref, arr, integer := false, false, false, false
		for _, as := range x.Args {
			if as.Naked && as.Name == nil && as.Value != nil {
				if f := as.Value.Lit(); strings.HasPrefix(f, "-") {
					funcs = funcs || strings.Contains(f, "f")
					ref = ref || strings.Contains(f, "n") // a name for another variable
					arr = arr || strings.ContainsAny(f, "aA")
					integer = integer || strings.Contains(f, "i")
				}
				w.valueCode(c, as.Value, sc) // declare 'a[$(cmd)]=1'
				w.declName(c, x.Variant.Value, as.Value, sc)
				w.declQuoted(c, as.Value, sc) // declare "c=rm -rf x"
				continue
			}
			if ref && as.Name != nil {
				w.declName(c, x.Variant.Value, as.Value, sc) // declare -n r=$x
				if as.Value != nil {
					w.subst(c, as.Value, sc)
				}
				// declare -n r=x: r is another name for x (nameref.go).
				w.declareRef(c, as.Name.Value, as.Value, sc)
				continue
			}
			if arr && as.Name != nil {
				w.assign(c, as, sc)
				sc.vars[as.Name.Value] = value{dynamic: true, array: arr}
				continue
			}
			if funcs && as.Naked && as.Name != nil && x.Variant.Value == "export" {
				if sc.exported == nil {
					sc.exported = map[string]bool{}
				}
				sc.exported[as.Name.Value] = true
				continue
			}
			if integer && as.Name != nil {
				markInteger(sc, as.Name.Value) // declare -i y=$x: arith.go
			}
			w.assign(c, as, sc)
		}
	case *syntax.TimeClause:
		// time -- cmd, time -p -- ! cmd: Bash's time takes -- before
		// the command.
		if x.Stmt == nil {
			return nil
		}
		if ce, ok := x.Stmt.Cmd.(*syntax.CallExpr); ok && len(ce.Args) > 1 && ce.Args[0].Lit() == "--" {
			n := *ce
			n.Args = n.Args[1:]
			if n.Args[0].Lit() == "!" && len(n.Args) > 1 {
				n.Args = n.Args[1:]
			}
			st := *x.Stmt
			st.Cmd = &n
			return w.stmt(c, &st, sc, in)
		}
		return w.stmt(c, x.Stmt, sc, in)
	case *syntax.CoprocClause:
		w.stmt(c, x.Stmt, sc.clone(), nil)
		return nil
	default: // ArithmCmd, LetClause, TestClause, TestDecl: look inside for $(…)
		w.subst(c, x, sc)
		w.arith(c, x, sc)
		return nil
	}
	// A compound command ({ …; }, ( … ), if, while, for, case) prints what
	// its commands print: unknown text to a command it pipes into (bash,
	// crontab, xargs), never nothing.
	return &Cmd{NameWord: Word{Raw: c.text(s)}, Cwd: sc.cwd, Compound: true}
}

// text returns the source of s, shortened, for messages.
func (c *ctx) text(s *syntax.Stmt) string {
	i, j := int(s.Pos().Offset()), int(s.End().Offset())
	if i < 0 || j > len(c.src) || i >= j {
		return "a compound command"
	}
	return clip.String(c.src[i:j], 80)
}

// emitRedirs records redirections of a compound command ({ …; } > f) or a
// bare redirection (> f) as a nameless command, so their targets are judged.
func (w *walker) emitRedirs(c *ctx, redirs []Redir, sc *scope, s *syntax.Stmt) {
	if len(redirs) == 0 {
		return
	}
	w.emit(c, &Cmd{Redirs: redirs, Cwd: sc.cwd, Line: c.lineOf(s)})
}

func (w *walker) emit(c *ctx, cmd *Cmd) {
	if cmd.Line == 0 {
		cmd.Line = c.line
	}
	if len(c.via) > 0 {
		cmd.Via = append([]string(nil), c.via...)
	}
	cmd.File = w.file
	cmd.Code = w.inCode
	cmd.Background = w.bg > 0
	if w.inert != "" {
		cmd.Inert = w.inert
		w.out.Inert = append(w.out.Inert, cmd)
		return
	}
	w.out.Cmds = append(w.out.Cmds, cmd)
	if cmd.Name != "" {
		w.last = cmd
	}
	w.remember(cmd)
}

// maxWritten bounds the text kept of files a command line writes.
const maxWritten = 256 << 10

// remember keeps the text cmd writes to a file when it is literal (cat >
// x.sh <<EOF, echo … > x.py, … | tee x.sh), so that the file run later in
// the same command line is read as written.
func (w *walker) remember(cmd *Cmd) {
	write := func(target Word, text string, appendTo bool) {
		v, ok := target.Value()
		if !ok || v == "" || len(text) > maxWritten {
			return
		}
		if !filepath.IsAbs(v) {
			if cmd.Cwd == "" {
				return
			}
			v = filepath.Join(cmd.Cwd, v)
		}
		if w.written == nil {
			w.written = map[string]string{}
		}
		if appendTo {
			text = w.written[v] + text
			if w.appended == nil {
				w.appended = map[string]bool{}
			}
			w.appended[filepath.Clean(v)] = true
		}
		w.written[filepath.Clean(v)] = text
		delete(w.changed, filepath.Clean(v))
	}
	w.noteChanged(cmd) // changed.go
	if cmd.StdoutKnown {
		for _, r := range cmd.Redirs {
			if r.Writes() && (r.Fd == "" || r.Fd == "1") {
				write(r.Target, cmd.Stdout+"\n", r.Op == ">>" || r.Op == "&>>")
			}
		}
	}
	if cmd.Name == "tee" && cmd.Input != nil && cmd.Input.StdoutKnown {
		for _, a := range cmd.Args {
			if !strings.HasPrefix(a.Lit(), "-") {
				write(a, cmd.Input.Stdout+"\n", false)
			}
		}
	}
}

// writtenFile returns the text of a file this command line wrote, by the
// path a later command names in directory cwd.
func (w *walker) writtenFile(p, cwd string) (string, bool) {
	if len(w.written) == 0 || p == "" {
		return "", false
	}
	if !filepath.IsAbs(p) {
		if cwd == "" {
			return "", false
		}
		p = filepath.Join(cwd, p)
	}
	text, ok := w.written[filepath.Clean(p)]
	return text, ok
}

// assign records X=val in sc.
func (w *walker) assign(c *ctx, as *syntax.Assign, sc *scope) {
	w.noteCmdsAssign(c, as, sc)
	if as.Value != nil {
		w.subst(c, as.Value, sc)
		w.arith(c, as.Value, sc)
		w.valueCode(c, as.Value, sc)
	}
	if as.Index != nil {
		// x[$(rm -rf tests)]=1 runs the substitution (bash 5.2: tests/
		// gone, allowed: the subscript was not walked).
		w.subst(c, as.Index, sc)
		w.arith(c, as.Index, sc)
	}
	w.bashVarAssign(c, as, sc) // PROMPT_COMMAND, HISTFILE: bashvars.go
	if as.Array != nil {
		w.subst(c, as.Array, sc)
		w.arith(c, as.Array, sc)
		for _, e := range as.Array.Elems {
			w.valueCode(c, e.Value, sc)
		}
	}
	if as.Name == nil || as.Naked && as.Value == nil {
		return
	}
	if w.refAssign(c, as, sc) { // nameref.go
		return
	}
	name := as.Name.Value
	w.zshSpecial(name, c.raw(as))
	if sc.vars[name].integer {
		w.intAssign(c, name, as, sc)
		defer markInteger(sc, name)
	}
	if len(w.deferred) > 0 {
		defer func() { w.assigned = append(w.assigned, assignment{name, sc.vars[name]}) }()
	}
	switch {
	case as.Array != nil || as.Index != nil:
		sc.vars[name] = value{dynamic: true, array: true}
	case as.Append:
		sc.vars[name] = value{dynamic: true, array: sc.vars[name].array}
	case as.Value == nil:
		sc.vars[name] = value{vals: []string{""}}
	case isMktemp(as.Value):
		// tmp=$(mktemp -d): somewhere in the temp directory.
		sc.vars[name] = value{vals: []string{filepath.Join(tempDir(w.a.Env), "mktemp-result")}}
	default:
		wd := w.word(c, as.Value, sc)
		notePathPrefix(name, wd, sc)
		if wd.Dynamic || wd.Glob {
			sc.vars[name] = value{dynamic: true, words: line(unquote(as.Value.Parts), sc, false), num: numWord(as.Value, sc)}
		} else {
			sc.vars[name] = value{vals: wd.Values}
		}
	}
}

// forkBomb reports whether the body of function name runs name piped into
// name: the classic fork bomb.
func forkBomb(name string, body *syntax.Stmt) bool {
	found := false
	syntax.Walk(body, func(n syntax.Node) bool {
		b, ok := n.(*syntax.BinaryCmd)
		if !ok || b.Op != syntax.Pipe && b.Op != syntax.PipeAll {
			return !found
		}
		if calls(b.X, name) && calls(b.Y, name) {
			found = true
		}
		return !found
	})
	return found
}

func calls(s *syntax.Stmt, name string) bool {
	ce, ok := s.Cmd.(*syntax.CallExpr)
	return ok && len(ce.Args) > 0 && ce.Args[0].Lit() == name
}

// isMktemp reports whether word is exactly $(mktemp …).
func isMktemp(word *syntax.Word) bool {
	if len(word.Parts) != 1 {
		return false
	}
	part := word.Parts[0]
	if dq, ok := part.(*syntax.DblQuoted); ok && len(dq.Parts) == 1 {
		part = dq.Parts[0]
	}
	cs, ok := part.(*syntax.CmdSubst)
	if !ok || len(cs.Stmts) != 1 {
		return false
	}
	ce, ok := cs.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 {
		return false
	}
	return ce.Args[0].Lit() == "mktemp"
}

func tempDir(env Env) string {
	if env != nil {
		if t := env("TMPDIR"); t != "" {
			return t
		}
	}
	return "/tmp"
}

// subst walks the command and process substitutions inside node (a word or
// an expression), each in a copy of sc: they run in subshells.
func (w *walker) subst(c *ctx, node syntax.Node, sc *scope) {
	if node == nil {
		return
	}
	syntax.Walk(node, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CmdSubst:
			w.stmts(c, x.Stmts, sc.clone())
			return false
		case *syntax.ProcSubst:
			w.stmts(c, x.Stmts, sc.clone())
			return false
		case *syntax.ExtGlob:
			if zshQualifier(x) {
				w.opaque(fmt.Sprintf("zsh's glob qualifier `%s`, code zsh runs for each file the pattern matches", c.raw(x)))
			}
		}
		return true
	})
}

// redirs resolves a statement's redirections.
func (w *walker) redirs(c *ctx, rs []*syntax.Redirect, sc *scope) []Redir {
	var out []Redir
	for _, r := range rs {
		rd := Redir{Op: r.Op.String()}
		if r.N != nil {
			rd.Fd = r.N.Value
		}
		switch {
		case r.Hdoc != nil:
			w.subst(c, r.Hdoc, sc)
			text := hdocText(c, r)
			if _, lit := literal(r.Hdoc); !lit {
				// The outer shell expands an unquoted heredoc first.
				if v, ok := w.document(r.Hdoc, sc); ok {
					text = v
				}
			}
			rd.Target = Word{Raw: c.raw(r.Hdoc), Values: []string{text}}
		case r.Word != nil:
			w.subst(c, r.Word, sc)
			rd.Target = w.word(c, r.Word, sc)
		}
		out = append(out, rd)
	}
	return out
}

// hdocText is a heredoc's body: literal when the delimiter is quoted, else
// as written (expansions left in place, which is enough to read commands).
func hdocText(c *ctx, r *syntax.Redirect) string {
	if r.Hdoc == nil {
		return ""
	}
	if lit, ok := literal(r.Hdoc); ok {
		return lit
	}
	// Not c.raw(r.Hdoc): the last literal's End runs past the closing
	// delimiter line.
	var b strings.Builder
	for _, p := range r.Hdoc.Parts {
		if l, ok := p.(*syntax.Lit); ok {
			b.WriteString(l.Value)
		} else {
			b.WriteString(c.raw(p))
		}
	}
	return b.String()
}

// lineOf is the line of node in the outermost command line.
func (c *ctx) lineOf(node syntax.Node) int {
	if c.depth == 0 {
		return int(node.Pos().Line())
	}
	return c.line
}

// raw returns the source text of node.
func (c *ctx) raw(node syntax.Node) string {
	start, end := int(node.Pos().Offset()), int(node.End().Offset())
	if start < 0 || end > len(c.src) || start > end {
		return ""
	}
	return c.src[start:end]
}
