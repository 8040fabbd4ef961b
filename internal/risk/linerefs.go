package risk

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/shell"
)

// gitRefOps asks git, before the call, what a merge, checkout, reset
// --keep, read-tree -u, cherry-pick, revert, rebase or stash brings into
// the working tree. Git can only say it of refs as they are now. A ref
// the same command line makes or moves first is not (git 2.39 here:
// `git branch tmp off && git merge tmp`, `git fetch . off:tmp && git
// checkout tmp`, `git update-ref refs/heads/x off && git reset --keep x`
// brought in a branch's deleted tests and hooks-off .claude/settings.json,
// each allowed), nor a revision computed at run time (`git merge $(git
// rev-parse off)`, `git checkout $(git commit-tree …)`), nor the HEAD a
// git stash goes back to after `git reset --soft off` on the same line.
// Such a command is asked about (what it writes cannot be listed), not
// let through to post-tool-call. g.refs holds what the line writes
// before (reset by Command).

// lineRefs records what the command line writes before the command being
// judged: the names of the refs it makes or moves (git branch tmp, git
// fetch . off:tmp), and any, the first command that may move refs ralph
// cannot name (HEAD by git reset, a remote, an upstream, a ref file
// written by cp).
type lineRefs struct {
	names map[string]bool
	any   string
	index bool // a plumbing command of the line set the index (read-tree, update-index)
	// staged: a command of the line put files in the index (git add,
	// stage, mv): git read-tree -m -u of one tree takes out of the
	// working tree what the index holds and the tree lacks (gitrefs.go).
	staged bool
}

// noteRefs records in g.refs what c makes or moves, for the git commands
// after it on the line.
func (g *Guard) noteRefs(c *shell.Cmd) {
	if g.refs.any != "" {
		return
	}
	if c.Name != "git" {
		if namesGitDir(c.Args) || namesGitDir(redirTargets(c)) {
			g.refs.any = quoted(c)
		}
		return
	}
	if namesGitDir(redirTargets(c)) {
		g.refs.any = quoted(c)
		return
	}
	gc := parseGit(c)
	if gc == nil || helpOnly(gc.args) {
		return
	}
	switch gc.sub {
	case "add", "stage", "mv", "apply", "update-index", "read-tree", "checkout-index", "restore", "reset", "rm":
		g.refs.staged = true
	}
	names, any := g.refWrites(gc)
	if any {
		g.refs.any = quoted(c)
		return
	}
	for _, n := range names {
		if g.refs.names == nil {
			g.refs.names = map[string]bool{}
		}
		g.refs.names[refName(n)] = true
	}
}

// refWrites returns the refs gc makes or moves, by name, or any when it
// may move one ralph cannot name (HEAD, an upstream, a remote, a name
// computed at run time).
func (g *Guard) refWrites(gc *gitCall) (names []string, any bool) {
	fl, operands := splitFlags(gc.args, "mFuSebBcCt")
	lits := func(ws []shell.Word) ([]string, bool) {
		var out []string
		for _, w := range ws {
			v, ok := w.Value()
			if !ok {
				return nil, true
			}
			out = append(out, v)
		}
		return out, false
	}
	first := ""
	if len(operands) > 0 {
		first = operands[0].Lit()
	}
	switch gc.sub {
	case "branch":
		if fl.has("u", "set-upstream-to", "track", "set-upstream", "t") || fl.abbrev("set-upstream-to") {
			return nil, true // what git pull and git merge with no branch take
		}
		if len(operands) == 0 || fl.has("d", "D", "delete", "l", "list", "contains", "no-contains",
			"merged", "no-merged", "points-at", "show-current", "edit-description", "unset-upstream", "r", "remotes", "a", "all", "v", "vv") {
			return nil, false
		}
		if fl.has("m", "M", "c", "C", "move", "copy") {
			return lits(operands)
		}
		if len(operands) == 1 {
			return nil, false // at HEAD: what it holds was judged
		}
		return lits(operands[:1])
	case "tag":
		if len(operands) == 0 || fl.has("l", "list", "d", "delete", "v", "verify", "contains", "no-contains",
			"points-at", "merged", "no-merged", "n") {
			return nil, false
		}
		return lits(operands[:1])
	case "update-ref":
		// Any ref: the branch HEAD is on moves HEAD (git update-ref
		// refs/heads/main off && git stash).
		return nil, len(operands) > 0 || fl.has("stdin")
	case "symbolic-ref", "replace", "config", "remote", "reset", "commit", "am", "filter-branch", "notes":
		switch gc.sub {
		case "symbolic-ref":
			return nil, len(operands) > 1
		case "replace":
			return nil, !fl.has("l", "list", "d", "delete")
		case "config":
			// remote.NAME.url, branch.NAME.merge: what pull and merge take.
			for _, w := range gc.args {
				if s := strings.ToLower(w.Lit()); strings.HasPrefix(s, "remote.") || strings.HasPrefix(s, "branch.") {
					return nil, true
				}
			}
			return nil, false
		case "remote":
			switch first {
			case "add", "rename", "set-url", "set-branches", "update":
				return nil, true
			}
			return nil, false
		case "reset":
			return nil, g.resetMoves(gc, fl, operands)
		case "commit", "am":
			// A commit of an index the line set by plumbing (git read-tree
			// off, git update-index --cacheinfo) holds what no file showed
			// (git rm --cached only takes files out: git stash -u judges
			// them, stashuntracked.go).
			return nil, g.refs.index
		}
		return nil, true
	case "read-tree", "update-index", "apply", "mktree", "hash-object":
		if gc.sub != "hash-object" && gc.sub != "mktree" {
			g.refs.index = true
		}
		return nil, false
	case "fetch":
		// A fetch from this repository writes refs from its own commits; a
		// remote's content is not known before it fetches either way.
		if len(operands) == 0 || !operands[0].Dynamic && !g.thisRepo(gc.cmd.Cwd, operands[0]) && !g.otherLocalRepo(gc.cmd.Cwd, operands[0]) {
			return nil, false
		}
		specs, dyn := lits(operands[1:])
		if dyn || operands[0].Dynamic || len(specs) == 0 {
			return nil, true
		}
		names = []string{"FETCH_HEAD"}
		for _, s := range specs {
			if _, dst, ok := strings.Cut(s, ":"); ok && dst != "" {
				names = append(names, dst)
			}
		}
		return names, false
	case "checkout", "switch":
		if fl.has("t", "track") || fl.abbrev("track") {
			return nil, true
		}
		for _, f := range []string{"b", "B", "c", "C", "orphan"} {
			if v, ok := fl.values[f]; ok && len(operands) > 0 {
				return []string{v}, false // at a start point (none: at HEAD)
			}
		}
	case "worktree":
		if first != "add" {
			return nil, false
		}
		for _, f := range []string{"b", "B"} {
			if v, ok := fl.values[f]; ok {
				return []string{v}, false
			}
		}
		return nil, true // a branch named after the path, or the one given
	case "stash":
		if first == "store" {
			return []string{"stash"}, false
		}
	}
	return nil, false
}

// resetMoves reports whether git reset moves HEAD: a mode, or a revision
// (git reset PATH does not).
func (g *Guard) resetMoves(gc *gitCall, fl flags, operands []shell.Word) bool {
	if fl.has("soft", "mixed", "hard", "keep", "merge") {
		return true
	}
	if len(operands) != 1 {
		return false
	}
	v, ok := operands[0].Value()
	if !ok {
		return true
	}
	if !filepath.IsAbs(v) && gc.cmd.Cwd != "" {
		v = filepath.Join(gc.cmd.Cwd, v)
	}
	_, err := os.Lstat(v)
	return err != nil
}

// refName is the short name of a ref or revision: refs/heads/tmp and
// tmp~1 are tmp; stash@{0} is stash.
func refName(s string) string {
	for _, p := range []string{"refs/heads/", "refs/tags/", "refs/remotes/", "refs/"} {
		if strings.HasPrefix(s, p) {
			s = s[len(p):]
			break
		}
	}
	if i := strings.IndexAny(s, "~^:"); i >= 0 {
		s = s[:i]
	}
	if i := strings.Index(s, "@{"); i > 0 {
		s = s[:i]
	}
	return s
}

// redirTargets returns the files c's redirections name.
func redirTargets(c *shell.Cmd) []shell.Word {
	var out []shell.Word
	for _, r := range c.Redirs {
		out = append(out, r.Target)
	}
	return out
}

// namesGitDir reports whether a word names a path in a .git directory
// (refs, HEAD, packed-refs): cp .git/refs/heads/off .git/refs/heads/tmp
// or git rev-parse off > .git/refs/heads/tmp makes a ref as git branch
// does.
func namesGitDir(words []shell.Word) bool {
	for _, w := range words {
		vals := w.Values
		if w.Dynamic {
			vals = []string{w.Prefix}
		}
		for _, v := range vals {
			v = filepath.ToSlash(v)
			if v == ".git" || strings.HasPrefix(v, ".git/") || strings.Contains(v, "/.git/") || strings.HasSuffix(v, "/.git") {
				return true
			}
		}
	}
	return false
}

// refsUnknown returns an ask when gc brings a commit's tree into the
// working tree and git cannot say which before the line runs: a revision
// computed at run time, or a line that makes or moves refs first.
func (g *Guard) refsUnknown(gc *gitCall) []op {
	refs, brings := refOperands(gc)
	if !brings {
		return nil
	}
	for _, w := range refs {
		if w.Dynamic || w.FromInput || w.Glob {
			return []op{g.unlisted(gc.cmd, "what the revision "+w.Raw+" holds (git cannot list it before the line runs; name the commit literally)")}
		}
	}
	if g.refs.any != "" {
		return []op{g.unlisted(gc.cmd, "what "+g.refs.any+", earlier in the line, makes of HEAD or the refs (git cannot list it before the line runs; run the two as separate calls)")}
	}
	for _, w := range refs {
		if v, _ := w.Value(); g.refs.names[refName(v)] {
			return []op{g.unlisted(gc.cmd, "what "+v+" holds, a ref made or moved earlier in the line (git cannot list it before the line runs; run the two as separate calls)")}
		}
	}
	return nil
}

// refOperands returns the revisions gc takes a tree from, and whether it
// brings a tree into the working tree at all.
func refOperands(gc *gitCall) ([]shell.Word, bool) {
	args := gc.args
	for i, a := range args {
		if a.Lit() == "--" && (gc.sub == "checkout" || gc.sub == "switch" || gc.sub == "reset") {
			if i+1 < len(args) {
				return nil, false // paths: discarded's (git.go)
			}
			args = args[:i]
			break
		}
	}
	switch gc.sub {
	case "checkout", "switch":
		fl, operands := splitFlags(args, "bBcC")
		if fl.has("orphan") || len(operands) > 1 {
			return nil, false
		}
		return operands, len(operands) == 1
	case "merge", "pull":
		fl, operands := splitFlags(args, "mFsX")
		if stopping(fl) {
			return nil, false
		}
		return operands, true
	case "cherry-pick", "revert":
		fl, operands := splitFlags(args, "mSX")
		if stopping(fl) {
			return nil, false
		}
		return operands, len(operands) > 0
	case "rebase":
		fl, operands := splitFlags(args, "sXx")
		if stopping(fl) || fl.has("edit-todo", "show-current-patch") {
			return nil, false
		}
		if w, ok := fl.values["onto"]; ok {
			operands = append(operands, shell.Word{Raw: w, Values: []string{w}})
		}
		return operands, true
	case "reset":
		fl, operands := splitFlags(args, "")
		return operands, fl.has("keep")
	case "read-tree":
		fl, operands := splitFlags(args, "")
		return operands, fl.has("m") && fl.has("u")
	case "stash":
		_, operands := splitFlags(args, "m")
		if len(operands) == 0 {
			return nil, true
		}
		switch operands[0].Lit() {
		case "apply", "pop", "branch":
			if len(operands) == 1 || operands[0].Lit() == "branch" && len(operands) == 2 {
				return []shell.Word{{Raw: "stash@{0}", Values: []string{"stash@{0}"}}}, true
			}
			w := operands[len(operands)-1]
			if v, ok := w.Value(); ok && isDigits(v) {
				w = shell.Word{Raw: v, Values: []string{"stash@{" + v + "}"}}
			}
			return []shell.Word{w}, true
		case "push", "save":
			return nil, true
		}
	}
	return nil, false
}

// upstreamHere returns the ref git pull takes with no branch named when
// the current branch's upstream is in this repository (branch.B.remote
// "." or a remote whose URL is this repository): git branch -u off, then
// git pull, merged off (git 2.39 here), allowed.
func (g *Guard) upstreamHere(dir string) string {
	cur := strings.TrimSpace(string(g.gitOutput(dir, "symbolic-ref", "-q", "--short", "HEAD")))
	if cur == "" {
		return ""
	}
	remote := strings.TrimSpace(string(g.gitOutput(dir, "config", "--get", "branch."+cur+".remote")))
	merge := strings.TrimSpace(string(g.gitOutput(dir, "config", "--get", "branch."+cur+".merge")))
	if merge == "" || remote == "" || !g.thisRepo(dir, shell.Word{Raw: remote, Values: []string{remote}}) {
		return ""
	}
	return merge
}

// upstreamOther reports whether the current branch's upstream is another
// repository on this machine (git pull with no repository named).
func (g *Guard) upstreamOther(dir string) bool {
	cur := strings.TrimSpace(string(g.gitOutput(dir, "symbolic-ref", "-q", "--short", "HEAD")))
	if cur == "" {
		return false
	}
	remote := strings.TrimSpace(string(g.gitOutput(dir, "config", "--get", "branch."+cur+".remote")))
	return remote != "" && g.otherLocalRepo(dir, shell.Word{Raw: remote, Values: []string{remote}})
}

// stashPushed returns what git stash (push, save) takes out of the
// working tree: it goes back to HEAD, so a file the index holds and HEAD
// lacks goes, and a changed one takes HEAD's text. After git reset --soft
// off (HEAD moved, the files left), git stash deleted the tests off
// lacked and put off's hooks-off .claude/settings.json in place (git 2.39
// here), allowed. The tests HEAD holds are left out of the texts (they
// go back to the committed text, as an agent stashing its edits to run
// the tests on the last commit expects); the protected files are judged.
func (g *Guard) stashPushed(gc *gitCall, dir string) ([]string, []gitText) {
	fl, operands := splitFlags(gc.args, "m")
	paths := true // git stash push [--] PATH…, git stash -- PATH…
	if len(operands) > 0 && operands[0].Lit() != "" && (len(gc.args) == 0 || gc.args[0].Lit() != "--") {
		switch operands[0].Lit() {
		case "push":
		case "save":
			paths = false // its words are the message
		default:
			return nil, nil
		}
		operands = operands[1:]
	}
	if fl.has("k", "keep-index", "p", "patch") || fl.abbrev("keep-index") {
		return nil, nil // the index stays: what HEAD lacks and the index holds stays too
	}
	var spec []string
	if paths && len(operands) > 0 {
		spec = append(spec, "--")
		for _, w := range operands {
			v, ok := w.Value()
			if !ok {
				spec = nil // computed: every path
				break
			}
			spec = append(spec, v)
		}
	}
	names := g.gitNames(dir, append([]string{"diff", "--cached", "--diff-filter=A", "HEAD"}, spec...)...)
	var texts []gitText
	for _, t := range g.gitTexts(dir, "HEAD", append([]string{"-R", "HEAD"}, spec...)...) {
		if !g.readableTest(filepath.ToSlash(t.name)) {
			texts = append(texts, t)
		}
	}
	return names, texts
}

// rebaseTodo returns an ask for git rebase -i (--interactive), whose
// todo list the sequence editor rewrites: with GIT_SEQUENCE_EDITOR="sed
// -i 1s/pick/drop/" git 2.39 dropped the commit that added a test, and
// the test went (allowed: the commits were judged as replayed as they
// are). Asked when the commits it replays touch a test or a protected
// file.
func (g *Guard) rebaseTodo(gc *gitCall, dir string) []op {
	fl, operands := splitFlags(gc.args, "sXx")
	if !fl.has("i", "interactive") && !fl.abbrev("interactive") || stopping(fl) || fl.has("edit-todo", "show-current-patch") {
		return nil
	}
	upstream := "@{upstream}"
	if fl.has("root") {
		upstream = ""
	} else if len(operands) > 0 {
		ref, ok := revision(operands[0])
		if !ok {
			return nil // computed: refsUnknown's
		}
		upstream = ref
	}
	rng := "HEAD"
	if upstream != "" {
		rng = upstream + "..HEAD"
	}
	top := g.repoTop(dir)
	if top == "" {
		return nil
	}
	for _, n := range g.gitNames(dir, "log", "--format=", rng) {
		p := filepath.Join(top, filepath.FromSlash(n))
		if rel, ok := g.inProject(p); ok && (g.IsTestPath(rel) || g.protectedWrite(p)) {
			return []op{g.unlisted(gc.cmd, "what the commits it replays hold ("+rel+" among them): its todo list is the editor's to change (drop, edit, squash), which ralph cannot see")}
		}
	}
	return nil
}

// bisectOps returns an ask for a git bisect step that checks out a commit
// git picks (start with a bad and a good commit, good, bad, new, old,
// skip, next, run, replay, reset to a commit): what that commit lacks
// cannot be listed before git picks it (git bisect start BAD GOOD checked
// out a commit without the test, allowed). --no-checkout moves no file.
func (g *Guard) bisectOps(gc *gitCall) []op {
	fl, operands := splitFlags(gc.args, "")
	if len(operands) == 0 || fl.has("no-checkout") {
		return nil
	}
	switch operands[0].Lit() {
	case "start":
		revs := 0
		for _, a := range gc.args[1:] {
			if a.Lit() == "--" {
				break
			}
			if !strings.HasPrefix(a.Lit(), "-") {
				revs++
			}
		}
		if revs < 2 {
			return nil
		}
	case "good", "bad", "new", "old", "skip", "next", "run", "replay":
	case "reset":
		if len(operands) < 2 {
			return nil // back to where the bisect started
		}
	default:
		return nil // log, view, visualize, terms, help
	}
	return []op{g.unlisted(gc.cmd, "the files of the commits git bisect checks out, which git picks as it goes")}
}

// otherLocalRepo reports whether w, the repository of git pull or fetch,
// is another repository on this machine: a path, a file:// URL, or a
// remote whose URL is one. A clone the agent made and committed a
// test's deletion in (git clone . /tmp/e; git -C /tmp/e rm …; commit)
// then pulled from brought the deletion in, allowed: such a pull asks, as
// ralph does not read the other repository's commits.
func (g *Guard) otherLocalRepo(dir string, w shell.Word) bool {
	v, ok := w.Value()
	if !ok || v == "" || v == "." || g.thisRepo(dir, w) {
		return false
	}
	p := v
	if !strings.ContainsAny(v, "/\\") && !strings.HasPrefix(v, ".") {
		p = strings.TrimSpace(string(g.gitOutput(dir, "config", "--get", "remote."+v+".url")))
	}
	if strings.HasPrefix(p, "file://") {
		p = strings.TrimPrefix(p, "file://")
	} else if p == "" || strings.Contains(p, ":") {
		return false // another machine's, or no such remote: git fails
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	_, err := os.Stat(p)
	return err == nil
}
