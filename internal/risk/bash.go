package risk

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/shell"
	"github.com/ralph-hooks/ralph-hooks/internal/testindex"
)

// opKind is what a command does to a path.
type opKind int

const (
	opDelete   opKind = iota // rm, git rm, find -delete, unlink, …
	opMoveFrom               // mv's source: gone from here
	opMoveTo                 // mv's destination
	opWrite                  // >, tee, cp/ln/install destination, touch, dd of=
	opModify                 // sed -i, perl -i: edited in place
	opMeta                   // chmod, chown: metadata only
	opDiscard                // git checkout/restore of paths: back to the index
	opLink                   // ln, cp -s, os.symlink: a new name for the path
)

// op is one effect of a command on the filesystem.
type op struct {
	kind      opKind
	cmd       *shell.Cmd
	word      shell.Word // the argument as written
	paths     []string   // resolved absolute paths (globs expanded); none when unknown
	pattern   string     // the absolute glob, for a glob argument
	unknown   bool       // the target is computed at run time
	under     string     // for an unknown target: the directory it is known to be under ("" if none)
	find      *findSpec  // for deletions driven by find
	recursive bool
	force     bool
	clobber   bool   // a write that truncates (>, tee, truncate)
	overwrite bool   // a write that may replace an existing file (cp, ln, install)
	replace   bool   // a write that puts something else where a file was (ln -sf)
	dest      string // for opMoveFrom: where it goes ("" if unknown)
	sync      bool   // rsync --delete: removes only what the source lacks
	tree      bool   // cp -r, rsync, tar -x, unzip: anything may land under the path
	// text is what a write puts in the file when ralph knows it (echo,
	// printf, a heredoc); known says whether it does.
	text    string
	known   bool
	append  bool            // >>, tee -a: text goes after what the file holds
	src     string          // cp, mv: the file whose text replaces the target's
	archive string          // tar -x, unzip: the archive file extracted, when known
	entries map[string]bool // tar -x of git archive's output: the names it lands on
	// switched names the commit a git checkout, switch or read-tree takes
	// the working tree to, which lacks the path (gitrefs.go): the test is
	// asked about, not refused, as the commit left keeps it.
	switched string
}

// Command judges a Bash command line run in cwd.
func (g *Guard) Command(cmdline, cwd string) *Verdict {
	g.lineLinks, g.lineTexts, g.lineUnread, g.lineUntracked, g.refs = nil, nil, nil, nil, lineRefs{}
	a := g.analyzer.Analyze(cmdline, cwd)
	v := &Verdict{Decision: answer.Allow, Analysis: a, Target: cmdline}
	if a.ParseErr != nil {
		g.unparsed(v, cmdline, a.ParseErr)
	} else if a.Refused != nil {
		// Bash runs nothing of the rest (shell/refused.go): the commands
		// before it are judged as usual.
		f := g.builtin("unparsed", fmt.Sprintf("the command line ends with a quote left open (%v): bash refuses the line that holds it and runs nothing of it; the lines before it were checked.", a.Refused), cmdline, nil)
		f.Action, f.Level = answer.Allow, Low
		g.add(v, f)
	}
	for _, o := range a.Opaque {
		g.add(v, g.builtin("opaque", "it runs "+o+", which ralph cannot check. Write the command out literally instead.", cmdline, nil))
	}
	for _, o := range a.OpaqueCode {
		g.add(v, g.builtin("opaque-code", "ralph cannot see what "+o+" does; make sure it deletes nothing outside the task.", cmdline, nil))
	}
	if a.ForkBomb {
		g.add(v, g.builtin("fork-bomb", "the command defines a function that pipes into itself: a fork bomb, which makes the machine unusable.", cmdline, nil))
	}
	for _, c := range a.Cmds {
		g.judgeCmd(v, c)
	}
	for _, f := range g.goldenEnvRules(cmdline) { // golden.go
		g.add(v, f)
	}
	g.judgeInert(v, a)
	g.decide(v)
	if v.Decision == answer.Deny {
		v.Changes = nil
	}
	return v
}

// unparsed judges a command line the shell parser rejected. It always
// asks, whatever the line names: zsh, the shell Claude Code uses when it
// is the user's, runs lines bash cannot parse (x=r; for c (${x}m) $c -rf
// tests). The complete statements before the error, which bash runs, are
// judged as well. Only a quote left open at the end, which bash and zsh
// refuse, is let through (shell/refused.go), and that is judged before
// this.
func (g *Guard) unparsed(v *Verdict, cmdline string, err error) {
	g.add(v, g.builtin("unparsed", fmt.Sprintf("the command does not parse as shell (%v), so ralph cannot tell what it would do (zsh, which some agents run commands in, reads syntax bash does not). Fix the syntax or split it into simpler commands.", err), cmdline, nil))
}

// judgeCmd applies every rule to one command.
func (g *Guard) judgeCmd(v *Verdict, c *shell.Cmd) {
	text := quoted(c)
	switch {
	case c.Name == "" && c.NameWord.FromInput:
		g.add(v, g.builtin("dynamic-command", "in "+text+" the program to run comes from the input; ralph cannot tell what runs. Name the program literally.", text, nil))
	case c.Name == "" && c.NameWord.Line:
		g.add(v, g.builtin("dynamic-command", "in "+text+" the whole command line `"+c.NameWord.Raw+"` is computed at run time (an array, or the output of a command); ralph cannot tell what runs. Name the program and its arguments literally.", text, nil))
	case globName(c.NameWord):
		g.add(v, g.builtin("dynamic-command", "the program `"+c.NameWord.Raw+"` in "+text+" is a pattern the shell matches against file names (/bin/r[m] runs /bin/rm); ralph cannot tell what runs. Name the program literally.", text, nil))
	case c.Name == "" && len(c.Args) > 0 && c.NameWord.Dynamic && destructiveArgs(c):
		g.add(v, g.builtin("dynamic-command", "the program `"+c.NameWord.Raw+"` in "+text+" is computed at run time and its arguments look destructive; ralph cannot tell what runs. Name the program literally.", text, nil))
	}
	for _, f := range g.commandRules(c) {
		g.add(v, f)
	}
	for _, f := range g.indirectRules(c) {
		g.add(v, f)
	}
	for _, f := range g.stashRules(c) { // stashuntracked.go
		g.add(v, f)
	}
	g.noteUntracked(c)
	for _, f := range g.gitExecRules(c) {
		g.add(v, f)
	}
	for _, f := range g.agentRules(c) {
		g.add(v, f)
	}
	for _, f := range g.detachedRules(c) { // detached.go
		g.add(v, f)
	}
	for _, f := range g.hookInstallRules(c) { // hookinstall.go
		g.add(v, f)
	}
	for _, f := range g.goldenRules(c) { // golden.go
		g.add(v, f)
	}
	for _, f := range g.packRules(c) {
		g.add(v, f)
	}
	if c.Name != "" {
		for _, f := range g.matchRules("Bash", normalized(c), nil) {
			g.add(v, f)
		}
	}
	ops := g.ops(c)
	for i := range ops {
		g.judgeOp(v, &ops[i])
	}
	g.noteRefs(c) // linerefs.go: for the commands after c
}

// quoted renders a command for a reason: in backquotes, with what it was
// found inside ("`rm -rf ~/` (inside sudo → bash -c)").
func quoted(c *shell.Cmd) string {
	s := "`" + c.Text() + "`"
	if len(c.Via) > 0 {
		s += " (inside " + strings.Join(c.Via, " → ") + ")"
	}
	if c.File != "" {
		s += " (in " + c.File + ")"
	}
	return s
}

// normalized renders a command for command patterns: the program and its
// arguments' values, wrappers gone.
func normalized(c *shell.Cmd) string {
	parts := []string{c.Name}
	for _, a := range c.Args {
		parts = append(parts, a.Lit())
	}
	return strings.Join(parts, " ")
}

// globName reports whether w, a program's name, is a pattern the shell
// expands against file names before running it: an unquoted *, ? or a
// bracket expression closed by ]. A lone [ is the test command.
func globName(w shell.Word) bool {
	if !w.Glob {
		return false
	}
	s := w.Raw
	if len(w.Values) == 1 {
		s = w.Values[0]
	}
	if strings.ContainsAny(s, "*?") {
		return true
	}
	i := strings.IndexByte(s, '[')
	return i >= 0 && strings.IndexByte(s[i+1:], ']') > 0
}

// destructiveArgs reports whether arguments look like a deletion's: a
// recursive or force flag, or a path at /, ~, . or ..
func destructiveArgs(c *shell.Cmd) bool {
	for _, a := range c.Args {
		s := a.Lit()
		if strings.HasPrefix(s, "-") && !strings.HasPrefix(s, "--") && strings.ContainsAny(s, "rRf") ||
			s == "--recursive" || s == "--force" || s == "/" || s == "~" || s == ".." || s == "." || s == "*" {
			return true
		}
	}
	return false
}

// judgeOp applies the path rules to one effect.
func (g *Guard) judgeOp(v *Verdict, o *op) {
	text := quoted(o.cmd)
	if o.cmd.Remote != "" {
		g.judgeRemote(v, o, text)
		return
	}
	switch o.kind {
	case opLink:
		g.judgeLink(v, o, text)
	case opDelete, opMoveFrom:
		g.judgeDelete(v, o, text)
	default:
		g.judgeWrite(v, o, text)
	}
}

// judgeRemote judges an effect on another machine (ssh): only absolute
// paths mean anything there.
func (g *Guard) judgeRemote(v *Verdict, o *op, text string) {
	if o.kind != opDelete && o.kind != opMoveFrom || !o.recursive && !o.force {
		return
	}
	for _, p := range o.paths {
		if systemDir(p) {
			g.add(v, g.builtin("rm-critical", fmt.Sprintf("%s deletes %s of another machine or container (%s).", text, p, o.cmd.Remote), text, nil))
			return
		}
	}
	g.add(v, g.builtin("rm-outside", fmt.Sprintf("%s deletes files outside the project, on another machine or in a container (%s), where ralph cannot see what they are.", text, o.cmd.Remote), text, nil))
}

// judgeDelete judges a deletion or a move away.
func (g *Guard) judgeDelete(v *Verdict, o *op, text string) {
	verb := "deletes"
	if o.kind == opMoveFrom {
		verb = "moves away"
	}
	fix := " Fix the code under test instead of removing tests; if tests are truly obsolete, ask the human to remove them."
	if o.switched != "" {
		verb = "takes out of the working tree"
		fix = " The commit you are on keeps it, but " + o.switched + " lacks it: stay on this commit while the task's tests need it: read the other with git show REF:PATH, or check it out elsewhere with git worktree add."
	}
	if o.unknown && o.find == nil {
		g.judgeUnknown(v, o, text, verb, fix)
		return
	}
	// Bare wildcards where they take everything.
	if dir := filepath.Dir(o.pattern); o.pattern != "" && (o.recursive || o.force) && bareWildcard(o.pattern) && !g.isTemp(dir) {
		switch g.where(dir) {
		case projectRoot, home, system, outside:
			g.add(v, g.builtin("rm-glob", fmt.Sprintf("%s %s everything matching %s. Name the files to delete.", text, verb, g.rel(o.pattern)), text, nil))
			return
		}
	}
	if o.find != nil {
		g.judgeFind(v, o, text, verb)
		return
	}
	if o.pattern != "" && len(o.paths) == 0 {
		// A glob that matches nothing here: judge it by its shape.
		if rel, ok := g.inProject(o.pattern); ok && (g.IsTestPath(rel) || g.isTestDir(rel)) {
			g.add(v, g.builtin("test-delete", fmt.Sprintf("%s %s the tests matching %s.%s", text, verb, rel, fix), text, nil))
		}
		return
	}
	var tests, changes []string
	for _, p := range o.paths {
		w := g.where(p)
		if (w == system || w == home || w == projectRoot) && (o.recursive || o.force || o.kind == opMoveFrom) {
			g.add(v, g.builtin("rm-critical", fmt.Sprintf("%s %s %s.", text, verb, describePlace(g, p)), text, nil))
			continue
		}
		if g.protectedDelete(p) {
			g.add(v, g.tamper(text, p))
			if !g.gitExecOnly(p) {
				continue
			} // git's files: the deletion is judged below too (.git is history)
		}
		switch w {
		case system, home, projectRoot:
			continue
		case inTemp:
			g.judgeTemp(v, o, p, text, verb)
			continue
		case outside:
			if o.kind == opMoveFrom {
				continue // moving something from outside into the project loses nothing here
			}
			g.add(v, g.outsideFinding(text, fmt.Sprintf("%s %s %s, outside the project.", text, verb, p), o.word))
			continue
		}
		rel, _ := g.inProject(p)
		if rel == "." {
			continue
		}
		if rel == ".git" || rel == ".git/objects" || rel == ".git/refs" {
			g.add(v, g.builtin("rm-critical", fmt.Sprintf("%s %s the repository's history (%s).", text, verb, rel), text, nil))
			continue
		}
		if o.sync {
			// rsync --delete removes what the source lacks: a test
			// directory as destination may lose its tests.
			if t := g.testsIn(p, rel); len(t) > 0 || g.isTestDir(rel) {
				g.add(v, g.builtin("test-delete", fmt.Sprintf("%s deletes whatever the source lacks from %s, which holds tests.%s", text, rel, fix), text, nil))
			}
			continue
		}
		if !exists(p) {
			// Nothing to lose, but a test by its name is still not the
			// agent's to delete: the guard must not depend on what it sees.
			if (g.IsTestPath(rel) || g.isTestDir(rel)) && !(o.kind == opMoveFrom && o.dest != "" && g.stillTest(p, o.dest)) {
				tests = append(tests, rel)
			}
			continue
		}
		_, destIn := g.inProject(o.dest)
		g.walkCut = false
		if t := g.testsIn(p, rel); len(t) > 0 {
			if !(o.kind == opMoveFrom && o.dest != "" && g.stillTest(p, o.dest)) {
				tests = append(tests, t...)
			}
			continue
		}
		if o.kind == opMoveFrom && o.dest != "" && destIn || regenerable(p) {
			continue // a rename inside the project, or build output
		}
		if g.walkCut {
			// More entries than ralph looks through: what it did not
			// see may hold tests.
			g.add(v, g.builtin("rm-unknown", fmt.Sprintf("%s %s %s, more than the %d entries ralph looks through, so it cannot check that no test is among them. Delete it in parts.", text, verb, rel, maxWalk), text, nil))
			continue
		}
		changes = append(changes, p)
	}
	if len(tests) > 0 {
		f := g.builtin("test-delete", fmt.Sprintf("%s %s %s.%s", text, verb, listTests(tests), fix), text, nil)
		if o.switched != "" && f.Action == answer.Deny {
			f.Action = answer.Ask // a switch loses nothing; the human may mean it
		}
		g.add(v, f)
	}
	if len(changes) > 0 {
		g.add(v, g.fileDelete(text, changes))
		v.Changes = append(v.Changes, changes...)
	}
}

// judgeUnknown judges the deletion of a target computed at run time.
func (g *Guard) judgeUnknown(v *Verdict, o *op, text, verb, fix string) {
	if o.under != "" && g.protectedWrite(o.under) {
		g.add(v, g.tamper(text, o.under))
		return
	}
	if g.codeUnknown(v, o, text) {
		return
	}
	if !o.recursive && !o.word.Many && !o.word.FromInput {
		// An rm of one computed file cannot take a tree with it (-f
		// only silences it), but one under a test directory is a test
		// (ls tests | while read f; do rm tests/$f; done).
		if o.under != "" && o.under != g.Root {
			if rel, ok := g.inProject(o.under); ok && (g.isTestDir(rel) || g.IsTestPath(rel)) {
				g.add(v, g.builtin("rm-unknown", fmt.Sprintf("%s %s a file under %s, a test directory, whose name is computed at run time, so ralph cannot check it. Name the files literally.", text, verb, rel), text, nil))
			}
		}
		return
	}
	if o.under != "" {
		if g.isTemp(o.under) {
			return
		}
		if rel, ok := g.inProject(o.under); ok && o.under != g.Root {
			switch {
			case g.protectedDelete(o.under):
				g.add(v, g.tamper(text, o.under))
			case g.isTestDir(rel) || g.IsTestPath(rel):
				g.add(v, g.builtin("test-delete", fmt.Sprintf("%s %s files under %s, a test directory.%s", text, verb, rel, fix), text, nil))
			}
			return
		}
	}
	if o.cmd.File != "" {
		g.add(v, g.builtin("opaque-code", fmt.Sprintf("%s, which %s %s, computed at run time.", text, verb, describeUnknown(o)), text, nil))
		return
	}
	g.add(v, g.builtin("rm-unknown", fmt.Sprintf("%s %s %s, which is computed at run time, so ralph cannot check it. Name the paths literally.", text, verb, describeUnknown(o)), text, nil))
}

// fileDelete is the finding that marks an allowed deletion or overwrite,
// so it is checkpointed and logged.
func (g *Guard) fileDelete(text string, paths []string) Finding {
	return g.builtin("file-delete", fmt.Sprintf("%s changes or deletes %s; a rollback checkpoint is taken first.", text, strings.Join(firstN(relAll(g, paths), 5), ", ")), text, paths)
}

// stillTest reports whether a test moved from src to dest stays a test in
// the project: under a test path, and, for a test file the runners find by
// its name (a_test.go, test_a.py), under a name they find too (not
// a_test.go.bak, though still under tests/).
func (g *Guard) stillTest(src, dest string) bool {
	rel, ok := g.inProject(dest)
	if !ok || rel == "." || !g.IsTestPath(rel) && !g.isTestDir(rel) || g.runnerIgnores(src, dest) {
		return false
	}
	if from, ok := g.inProject(src); ok && testindex.Lang(g.cfg.TestFiles, from) != "" {
		return testindex.Lang(g.cfg.TestFiles, rel) != ""
	}
	return true
}

// judgeWrite judges writes, edits, metadata changes and discards.
func (g *Guard) judgeWrite(v *Verdict, o *op, text string) {
	if o.unknown {
		if o.under != "" && g.protectedWrite(o.under) {
			g.add(v, g.tamper(text, o.under))
			return
		}
		if q, ok := g.findReaches(o); ok {
			g.add(v, g.tamper(text, q))
			return
		}
		if t, ok := g.findTests(o); ok {
			g.judgeWrite(v, t, text)
			return
		}
		if g.inputClobber(v, o, text) {
			return
		}
		if o.kind != opMeta && o.kind != opDiscard {
			g.codeUnknown(v, o, text)
		}
		return
	}
	var changes, created, copied []string
	defer func() { g.matchNew(v, created) }()
	for _, p := range o.paths {
		if isDevice(p) {
			if o.kind == opWrite || o.kind == opModify {
				g.add(v, g.builtin("dd-device", fmt.Sprintf("%s writes to the device %s, which can destroy a disk.", text, p), text, nil))
			}
			continue
		}
		if whole := o.kind == opMeta && o.recursive && g.protectedDelete(p) && g.where(p) == inProject; whole || g.protectedWrite(p) {
			g.add(v, g.tamperAt(text, p, whole))
			if !g.gitExecOnlyAt(p, whole) {
				continue
			}
		}
		if o.tree {
			if q, ok := g.treeReaches(o, p); ok {
				g.add(v, g.tamper(text, q))
				continue
			}
		}
		if q, ok := g.shadows(p); ok && o.kind != opDiscard {
			g.add(v, g.builtin("system-write", fmt.Sprintf("%s puts %s on PATH ahead of %s: every later command that runs %s would run it instead, ralph's own checks included. Run the program by its path instead.", text, g.rel(p), q, filepath.Base(q)), text, nil))
			continue
		}
		if systemFile(p) && (o.kind != opWrite || o.clobber || o.overwrite) {
			g.add(v, g.builtin("system-write", fmt.Sprintf("%s changes %s, a system file outside the project.", text, p), text, nil))
			continue
		}
		if w := g.where(p); (w == outside || w == home) && (o.clobber || o.overwrite && o.kind == opWrite || o.kind == opModify) &&
			!g.isTemp(p) && !strings.HasPrefix(p, "/dev/") && !strings.HasPrefix(p, "/proc/") && exists(p) {
			verb := "replaces"
			if o.kind == opModify {
				verb = "edits in place" // sed -i d ~/notes: no checkpoint covers it
			}
			g.add(v, g.builtin("system-write", fmt.Sprintf("%s %s %s, an existing file outside the project.", text, verb, g.rel(p)), text, nil))
			continue
		}
		if o.kind == opMeta {
			continue
		}
		if _, ok := g.inProject(p); !ok {
			continue
		}
		fi, err := os.Lstat(p)
		if err != nil && o.kind != opMeta {
			created = append(created, p)
			if o.kind == opWrite && o.known && !o.append && strings.HasSuffix(p, "_test.go") {
				g.write(v, p, o.text) // a new Go test file may keep its package's tests from running (tamper/testmain.go)
			}
		}
		if err == nil && fi.IsDir() && o.kind == opWrite && (o.overwrite || o.tree) && (o.archive != "" || o.src != "" && isDir(o.src)) {
			copied = append(copied, p) // a directory or an archive copied over this one
		}
		if err != nil || fi.IsDir() {
			continue
		}
		if rel, _ := g.inProject(p); o.replace && g.IsTestPath(rel) {
			g.add(v, g.builtin("test-delete", fmt.Sprintf("%s puts a link where test %s was, which deletes it. Fix the code under test instead of removing tests.", text, rel), text, nil))
			continue
		}
		changes = append(changes, p)
	}
	// A test file rewritten by the shell is judged like a Write: its new
	// text, when known, goes to the test-tamper check; unknown, it is
	// refused, as nothing can check it.
	var unseen []string
	replaces := o.clobber || o.overwrite && !o.replace || o.kind == opMoveTo
	for _, p := range changes {
		rel, _ := g.inProject(p)
		if o.kind == opModify && g.readableTest(rel) && o.cmd != nil {
			// sed -i, perl -pi: checked like an Edit when ralph can
			// work out the text (sedwrite.go).
			if text, ok := inPlaceText(o.cmd, p); ok {
				g.write(v, p, text)
			}
			continue
		}
		if o.kind != opWrite && o.kind != opMoveTo || !g.readableTest(rel) {
			continue
		}
		known, text := o.known, o.text
		if !known && o.src != "" {
			if fi, err := os.Stat(o.src); err == nil && fi.Mode().IsRegular() && fi.Size() < 4<<20 {
				if data, err := os.ReadFile(o.src); err == nil {
					known, text = true, string(data)
				}
			}
		}
		switch {
		case known && o.append:
			if old, err := os.ReadFile(p); err == nil && len(old) < 4<<20 {
				g.write(v, p, string(old)+text)
			}
		case known && replaces:
			g.write(v, p, text)
		case replaces:
			unseen = append(unseen, p)
		}
	}
	for _, p := range copied {
		// A directory copied over the project: the tests it lands on.
		var known map[string]string
		var blind []string
		if o.archive != "" {
			known, blind = g.archivedTests(o.archive, p)
		} else {
			known, blind = g.copiedTests(o.src, p)
		}
		for q, t := range known {
			g.write(v, q, t)
		}
		unseen = append(unseen, blind...)
	}
	if len(unseen) > 0 {
		g.add(v, g.builtin("redirect-clobber", fmt.Sprintf("%s replaces test %s with output ralph cannot see, so it cannot check that no test is deleted or weakened. Use the Write or Edit tool to change a test file.", text, strings.Join(relAll(g, unseen), ", ")), text, unseen))
		return
	}
	if len(changes) == 0 {
		return
	}
	risky := false
	for _, f := range g.matchRules("Bash", "", changes) {
		g.add(v, f)
		if levelRank(f.Level) >= levelRank(Medium) {
			risky = true
		}
	}
	if o.clobber || o.overwrite || o.kind == opMoveTo || o.kind == opDiscard {
		g.add(v, g.fileDelete(text, changes))
		risky = true
	}
	if risky {
		v.Changes = append(v.Changes, changes...)
	}
}

// write records the full text a command gives file p, for the
// test-tamper check.
func (g *Guard) write(v *Verdict, p, text string) {
	if v.Writes == nil {
		v.Writes = map[string]string{}
	}
	v.Writes[p] = text
}

// testExt reports whether ext is the extension of test files the
// test-tamper check reads.
func testExt(ext string) bool {
	switch ext {
	case ".go", ".py", ".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".mts", ".cts", ".rs", ".java", ".rb":
		return true
	}
	return false
}

// readableTest reports whether rel is a test file in a language the
// test-tamper check reads.
func (g *Guard) readableTest(rel string) bool {
	return testExt(filepath.Ext(rel)) && g.IsTestPath(rel)
}

// regenerable reports whether p is a directory of build output or
// downloaded dependencies, which is neither checked for tests nor
// checkpointed.
func regenerable(p string) bool {
	if b := filepath.Base(p); !project.NotSource(b) || b == ".git" || b == ".aiwg" {
		return false
	}
	fi, err := os.Lstat(p)
	return err == nil && fi.IsDir()
}

// systemFile reports whether p is in a system directory (/etc, /usr, /bin,
// /boot, /lib, /sbin, /sys, /proc, /var outside /var/tmp).
func systemFile(p string) bool {
	for _, d := range []string{"/etc", "/usr", "/bin", "/boot", "/lib", "/lib64", "/sbin", "/sys", "/proc", "/var", "/System", "/Library"} {
		if within(p, d) && !within(p, "/var/tmp") && !within(p, "/var/folders") {
			return true
		}
	}
	return false
}

func isDevice(p string) bool {
	if !strings.HasPrefix(p, "/dev/") {
		return false
	}
	switch p {
	case "/dev/null", "/dev/zero", "/dev/stdout", "/dev/stderr", "/dev/stdin", "/dev/tty", "/dev/random", "/dev/urandom", "/dev/full":
		return false
	}
	return !strings.HasPrefix(p, "/dev/fd/") && !strings.HasPrefix(p, "/dev/shm/") && !strings.HasPrefix(p, "/dev/pts/")
}

// bareWildcard reports whether the last element of a glob matches
// (almost) every name: *, .*, *.*, ?*, **.
func bareWildcard(pattern string) bool {
	base := filepath.Base(pattern)
	return strings.Trim(base, "*?.") == "" && strings.ContainsAny(base, "*?")
}

func describeUnknown(o *op) string {
	if o.word.FromInput {
		if o.cmd.Input != nil {
			return "whatever `" + o.cmd.Input.Text() + "` lists"
		}
		return "whatever is piped in"
	}
	return o.word.Raw
}

func describePlace(g *Guard, p string) string {
	switch {
	case p == "/":
		return "the whole filesystem"
	case p == g.Root:
		return "the whole project"
	case within(g.Root, p):
		return p + ", which holds the project"
	case p == g.Home:
		return "the home directory"
	case g.Home != "" && within(g.Home, p):
		return p + ", which holds the home directory"
	}
	return "the system directory " + p
}

func listTests(tests []string) string { return listTestsOf(tests, len(tests)) }

// listTestsOf is listTests of n tests, of which tests are the first (at
// least shownTests of them, or all).
func listTestsOf(tests []string, n int) string {
	shown := firstN(tests, shownTests)
	s := strings.Join(shown, ", ")
	if n > len(shown) {
		s += fmt.Sprintf(" and %d more", n-len(shown))
	}
	if n == 1 {
		return "test " + s
	}
	return fmt.Sprintf("%d tests: %s", n, s)
}

// shownTests is how many tests listTests names.
const shownTests = 4

func firstN(list []string, n int) []string {
	if len(list) > n {
		return list[:n]
	}
	return list
}
