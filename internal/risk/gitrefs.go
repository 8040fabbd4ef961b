package risk

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/shell"
)

// A git command that brings another commit's tree into the working tree
// deletes the files that tree lacks: git checkout or switch to a branch
// without the tests, a merge, pull, cherry-pick or rebase of commits that
// delete them, a revert of the commit that added them, read-tree -u -m,
// a stash popped that holds their deletion. It also rewrites the tests
// that tree holds otherwise: a test weakened and committed by plumbing
// alone (hash-object, update-index, commit), then checked out or merged.
// None of that is in the command's words, but git can say it before the
// command runs: gitRefOps asks git (read-only: trees and the index, never
// the working tree's filters or fsmonitor) which tests and files of
// ralph's the command takes out, judged as rm's deletion, and which tests
// it rewrites, whose new text goes to the test-tamper check as a Write's
// (not for a rebase, whose texts are left to post-tool-call). A ref git
// cannot resolve (a typo, a name computed at run time) is left to git,
// which refuses it, and to post-tool-call, which sees what went.

// gitRefOps returns the deletions of tests and of ralph's files that gc
// makes by bringing another commit's tree into the working tree.
func (g *Guard) gitRefOps(gc *gitCall) []op {
	dir := gc.cmd.Cwd
	if _, ok := g.inProject(dir); !ok || dir == "" || gc.cmd.Remote != "" {
		return nil
	}
	g.gitSlow = false
	if ops := g.refsUnknown(gc); ops != nil { // linerefs.go
		return ops
	}
	var names, staged []string // staged: in the index alone (read-tree)
	var texts []gitText        // test files the command rewrites, and from where
	to := ""                   // the commit a switch goes to
	switch gc.sub {
	case "checkout", "switch":
		var ref string
		names, ref, to = g.switched(gc, dir)
		texts = g.gitTexts(dir, ref, "HEAD", ref)
	case "merge", "pull":
		fl, operands := splitFlags(gc.args, "mFsX")
		if stopping(fl) || fl.values["s"] == "ours" || fl.values["strategy"] == "ours" {
			return nil
		}
		if gc.sub == "pull" && (len(operands) > 0 && g.otherLocalRepo(dir, operands[0]) || len(operands) == 0 && g.upstreamOther(dir)) { // linerefs.go
			return []op{g.unlisted(gc.cmd, "what the commits of the repository "+operands[0].Raw+" on this machine hold (ralph does not read another repository)")}
		}
		switch {
		case gc.sub == "pull" && (len(operands) == 0 || len(operands) == 1 && g.thisRepo(dir, operands[0])):
			// No branch named: the upstream's, known when it is in this
			// repository (linerefs.go).
			up := g.upstreamHere(dir)
			if up == "" {
				return nil
			}
			operands = []shell.Word{{Raw: up, Values: []string{up}}}
		case gc.sub == "pull":
			// Only a pull from this repository is known before it fetches:
			// ".", its path, or a remote whose URL is it.
			if !g.thisRepo(dir, operands[0]) {
				return nil
			}
			operands = operands[1:]
		case len(operands) == 0:
			// git merge with no commit merges the upstream
			// (merge.defaultToUpstream).
			operands = []shell.Word{{Raw: "@{upstream}", Values: []string{"@{upstream}"}}}
		}
		for _, w := range operands {
			if ref, ok := revision(w); ok {
				names = append(names, g.gitNames(dir, "diff", "--diff-filter=D", "HEAD..."+ref)...)
				texts = append(texts, g.gitTexts(dir, ref, "HEAD..."+ref)...)
			}
		}
	case "cherry-pick", "revert":
		fl, operands := splitFlags(gc.args, "mSX")
		if stopping(fl) || len(operands) == 0 {
			return nil
		}
		filter := map[string]string{"cherry-pick": "--diff-filter=D", "revert": "--diff-filter=A"}[gc.sub]
		args := []string{"log", "--format=", filter}
		walk := false
		for _, w := range operands {
			ref, ok := revision(w)
			if !ok {
				return nil
			}
			walk = walk || strings.Contains(ref, "..") || strings.HasPrefix(ref, "^")
			args = append(args, ref)
		}
		if !walk {
			for _, c := range args[3:] {
				from := map[string]string{"cherry-pick": c, "revert": c + "^"}[gc.sub]
				texts = append(texts, g.gitTexts(dir, from, c+"^", c)...)
			}
			args = append(args, "--no-walk=unsorted")
		}
		names = g.gitNames(dir, args...)
	case "bisect":
		return g.bisectOps(gc) // linerefs.go
	case "rebase":
		if ops := g.rebaseTodo(gc, dir); ops != nil { // linerefs.go
			return ops
		}
		var onto string
		names, onto = g.rebased(gc, dir)
		if onto != "" {
			// The new base's changes come in; its tests' texts are left
			// to post-tool-call (the branch's commits go on top), its
			// protected files are judged (gitWrites).
			for _, t := range g.gitTexts(dir, onto, "HEAD..."+onto) {
				if !g.readableTest(filepath.ToSlash(t.name)) {
					texts = append(texts, t)
				}
			}
		}
	case "reset":
		// --keep moves the branch and the working tree to the commit,
		// keeping local changes (--hard and --merge are git-reset-hard's;
		// --soft and --mixed leave the working tree alone).
		fl, operands := splitFlags(gc.args, "")
		if !fl.has("keep") || len(operands) != 1 {
			return nil
		}
		if ref, ok := revision(operands[0]); ok {
			names, to = g.gitNames(dir, "diff", "--diff-filter=D", "HEAD", ref), ref
			texts = g.gitTexts(dir, ref, "HEAD", ref)
		}
	case "read-tree":
		// One tree: HEAD to it. Two (-m -u H M) move from H to M, three
		// (-m -u BASE OURS THEIRS) bring in what THEIRS changed since
		// BASE: from the first tree to the last (--reset is
		// git-reset-hard's).
		fl, operands := splitFlags(gc.args, "")
		if !fl.has("u") || !fl.has("m") || len(operands) == 0 || len(operands) > 3 {
			return nil
		}
		from := "HEAD"
		if len(operands) > 1 {
			f, ok := revision(operands[0])
			if !ok {
				return nil
			}
			from = f
		}
		if ref, ok := revision(operands[len(operands)-1]); ok {
			names, to = g.gitNames(dir, "diff", "--diff-filter=D", from, ref), ref
			texts = g.gitTexts(dir, ref, from, ref)
			if len(operands) == 1 {
				// One tree is merged with the index, not HEAD: what the
				// index holds and the tree lacks leaves the working tree
				// too (git 2.39: a staged new test, or every file after
				// `git update-ref` moved the branch to an empty commit,
				// deleted by `git read-tree -m -u HEAD`, allowed).
				if g.refs.staged {
					return []op{g.unlisted(gc.cmd, "the files the line put in the index before it, which the tree may lack")}
				}
				// Those HEAD lacks are in no commit: denied, not asked.
				for _, n := range g.gitNames(dir, "diff", "--cached", "--diff-filter=A", ref) {
					if !slices.Contains(names, n) {
						staged = append(staged, n)
					}
				}
			}
		}
	case "stash":
		var s string
		names, s = g.stashed(gc, dir)
		if s != "" {
			texts = g.gitTexts(dir, s, s+"^1", s)
		} else {
			names, texts = g.stashPushed(gc, dir) // linerefs.go
		}
	}
	ops := g.gitDeletions(gc.cmd, dir, names)
	for i := range ops {
		ops[i].switched = to
	}
	ops = append(ops, g.gitDeletions(gc.cmd, dir, staged)...)
	ops = append(ops, g.gitWrites(gc.cmd, dir, texts)...)
	if g.gitSlow {
		// What git did not list may hold tests: asked, not let through.
		ops = append(ops, g.unlisted(gc.cmd, "the files git could not list in time"))
	}
	return ops
}

// switched returns what git checkout or switch to another commit takes
// out (discarded has judged the forms that overwrite paths), and that
// commit.
func (g *Guard) switched(gc *gitCall, dir string) (names []string, ref, name string) {
	fl, operands := splitFlags(gc.args, "bBcC")
	if fl.has("orphan") || fl.abbrev("orphan") || len(operands) != 1 {
		return nil, "", "" // an orphan is gittree.go's; more operands are paths
	}
	ref, ok := revision(operands[0])
	if !ok {
		return nil, "", ""
	}
	name = ref
	if ref == "-" {
		ref, name = "@{-1}", "the branch checked out before"
	}
	return g.gitNames(dir, "diff", "--diff-filter=D", "HEAD", ref), ref, name
}

// rebased returns what git rebase takes out: the result is the new base
// with the branch's own changes since its upstream on top, so a file of
// HEAD goes when the new base lacks it and the branch did not change it.
// It returns the new base too ("" when the command is none ralph reads).
func (g *Guard) rebased(gc *gitCall, dir string) ([]string, string) {
	fl, operands := splitFlags(gc.args, "sXx")
	if stopping(fl) || fl.has("root") || fl.has("edit-todo", "show-current-patch") {
		return nil, ""
	}
	upstream, branch := "@{upstream}", "HEAD"
	if len(operands) > 0 {
		ref, ok := revision(operands[0])
		if !ok {
			return nil, ""
		}
		upstream = ref
	}
	if len(operands) > 1 {
		ref, ok := revision(operands[1])
		if !ok {
			return nil, ""
		}
		branch = ref
	}
	onto := upstream
	if w := fl.value("onto"); !empty(w) {
		ref, ok := revision(w)
		if !ok {
			return nil, ""
		}
		onto = ref
	}
	gone := g.gitNames(dir, "diff", "--diff-filter=D", "HEAD", onto)
	if len(gone) == 0 {
		return nil, onto
	}
	kept := map[string]bool{}
	for _, n := range g.gitNames(dir, "diff", upstream+"..."+branch) {
		kept[n] = true
	}
	var out []string
	for _, n := range gone {
		if !kept[n] {
			out = append(out, n)
		}
	}
	return out, onto
}

// stashed returns what git stash pop or apply takes out: the deletions
// the stash recorded. (git stash -u takes untracked files into the stash,
// where pop brings them back: stashing to run the tests on the last
// commit is what agents do; .aiwg's files are indirect.go's.)
func (g *Guard) stashed(gc *gitCall, dir string) ([]string, string) {
	_, operands := splitFlags(gc.args, "m")
	if len(operands) == 0 {
		return nil, ""
	}
	switch operands[0].Lit() {
	case "pop", "apply":
	default:
		return nil, ""
	}
	s := "stash@{0}"
	if len(operands) > 1 {
		ref, ok := revision(operands[1])
		if !ok {
			return nil, ""
		}
		s = ref
		if isDigits(s) {
			s = "stash@{" + s + "}"
		}
	}
	return g.gitNames(dir, "diff", "--diff-filter=D", s+"^1", s), s
}

// unlisted is a deletion, by c, of files across the repository that
// ralph could not list (what), judged as an rm -rf of a computed path:
// asked about.
func (g *Guard) unlisted(c *shell.Cmd, what string) op {
	o := g.target(c, opDelete, shell.Word{Raw: what, Dynamic: true, Many: true}, nil)
	o.recursive, o.force, o.under = true, true, ""
	return o
}

// gitDeletions turns the names git gave (relative to the top of the
// repository holding dir) into deletions of the tests and ralph's files
// among them.
func (g *Guard) gitDeletions(c *shell.Cmd, dir string, names []string) []op {
	if len(names) == 0 {
		return nil
	}
	top := g.repoTop(dir)
	if top == "" {
		return nil
	}
	var ws []shell.Word
	for _, n := range names {
		p := filepath.Join(top, filepath.FromSlash(n))
		rel, ok := g.inProject(p)
		if !ok || !g.IsTestPath(rel) && !g.protectedDelete(p) {
			continue
		}
		ws = append(ws, shell.Word{Raw: n, Values: []string{p}})
	}
	if len(ws) == 0 {
		return nil
	}
	return g.targets(c, opDelete, ws, func(o *op) { o.force = true })
}

// gitText is a file git rewrites: its name (relative to the top of the
// repository) and the revision whose text it takes.
type gitText struct{ name, rev string }

// maxGitTexts bounds the test files read from git for one command.
const maxGitTexts = 32

// gitTexts lists the files the diff of git diff args adds or modifies,
// each to take its text from rev.
func (g *Guard) gitTexts(dir, rev string, args ...string) []gitText {
	if rev == "" {
		return nil
	}
	var out []gitText
	for _, n := range g.gitNames(dir, append([]string{"diff", "--diff-filter=AMT"}, args...)...) {
		out = append(out, gitText{n, rev})
	}
	return out
}

// gitWrites turns the test files git rewrites into writes of the text
// the revision holds, which the test-tamper check judges as a Write's (a
// weakened assertion committed by plumbing, then merged or checked out,
// is tampering all the same). A test file git cannot give the text of
// is a write ralph cannot see. The protected files it adds or rewrites
// are writes of them (tamper, agent-config, git-exec…): a worktree's
// branch (Claude Code's EnterWorktree, a subagent's isolation
// "worktree") merged back could turn the hooks off in
// .claude/settings.json.
func (g *Guard) gitWrites(c *shell.Cmd, dir string, texts []gitText) []op {
	if len(texts) == 0 {
		return nil
	}
	top := g.repoTop(dir)
	if top == "" {
		return nil
	}
	var out []op
	n := 0
	for _, t := range texts {
		p := filepath.Join(top, filepath.FromSlash(t.name))
		rel, ok := g.inProject(p)
		if !ok {
			continue
		}
		w := shell.Word{Raw: t.name, Values: []string{p}}
		if !g.readableTest(rel) || !exists(p) { // a test git adds is new: not a rewrite
			if g.protectedWrite(p) {
				out = append(out, g.target(c, opWrite, w, func(o *op) { o.overwrite = true }))
			}
			continue
		}
		text, known := "", false
		if n++; n <= maxGitTexts {
			if b := g.gitOutput(dir, "cat-file", "blob", t.rev+":"+t.name); b != nil {
				text, known = string(b), true
			}
		}
		out = append(out, g.target(c, opWrite, w, func(o *op) { o.overwrite, o.known, o.text = true, known, text }))
	}
	return out
}

// repoTop returns the top of the working tree that holds dir: the nearest
// directory with a .git at or above it, inside the project, else git's
// answer.
func (g *Guard) repoTop(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if d == g.Root || d == filepath.Dir(d) {
			break
		}
	}
	out := g.gitOutput(dir, "rev-parse", "--show-toplevel")
	return strings.TrimSpace(string(out))
}

// thisRepo reports whether w, git pull's repository, is the one at dir:
// ".", its working tree's or .git's path, or a remote whose URL is one.
func (g *Guard) thisRepo(dir string, w shell.Word) bool {
	v, ok := w.Value()
	if !ok || v == "" {
		return false
	}
	if v == "." {
		return true
	}
	top := g.repoTop(dir)
	if top == "" {
		return false
	}
	same := func(p string) bool {
		p = filepath.Clean(strings.TrimPrefix(p, "file://"))
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		for _, q := range []string{top, filepath.Join(top, ".git")} {
			if p == q {
				return true
			}
			a, err1 := filepath.EvalSymlinks(p)
			b, err2 := filepath.EvalSymlinks(q)
			if err1 == nil && err2 == nil && a == b {
				return true
			}
		}
		return false
	}
	if strings.ContainsAny(v, "/\\") || strings.HasPrefix(v, ".") {
		return same(v)
	}
	url := strings.TrimSpace(string(g.gitOutput(dir, "config", "--get", "remote."+v+".url")))
	if url == "" || strings.Contains(url, ":") && !strings.HasPrefix(url, "file://") {
		return false // another machine's
	}
	return same(url)
}

// revision returns the literal revision a word names, if it is one.
func revision(w shell.Word) (string, bool) {
	v, ok := w.Value()
	if !ok || v == "" || strings.HasPrefix(v, "-") && v != "-" {
		return "", false
	}
	return v, true
}

// stopping reports whether a sequencer command only ends or goes on with
// one already under way.
func stopping(fl flags) bool {
	return fl.has("abort", "quit", "continue", "skip")
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// gitNames runs a git command that lists file names (diff, log,
// …) in dir, NUL-separated and without renames, and returns them;
// nil when git fails (an unknown ref, no repository).
func (g *Guard) gitNames(dir string, args ...string) []string {
	switch args[0] {
	case "diff":
		args = append([]string{"diff", "--no-ext-diff", "--no-textconv", "--name-only", "-z", "--no-renames"}, args[1:]...)
	case "log":
		args = append([]string{"log", "--no-ext-diff", "--no-textconv", "--name-only", "-z", "--no-renames"}, args[1:]...)
	}
	out := g.gitOutput(dir, args...)
	var names []string
	for _, n := range bytes.Split(out, []byte{0}) {
		if s := strings.TrimSpace(string(n)); s != "" {
			names = append(names, s)
		}
	}
	return names
}

// gitTimeout bounds each git the guard runs (a variable for the tests).
var gitTimeout = 3 * time.Second

// gitOutput runs git read-only in dir: no fsmonitor, untracked cache or
// signature check (programs and writes the repository's configuration
// could name: core.fsmonitor, gpg.program), no
// optional locks, no prompt, no pager; three seconds at most. It returns nil on
// any failure, and notes in g.gitSlow that git did not answer in time.
func (g *Guard) gitOutput(dir string, args ...string) []byte {
	out, _ := g.git(dir, args...)
	return out
}

// git is gitOutput that also says whether git answered: its output may
// be empty either way.
func (g *Guard) git(dir string, args ...string) ([]byte, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	full := append([]string{"-c", "core.fsmonitor=false", "-c", "core.untrackedCache=false", "-c", "log.showSignature=false", "--no-pager"}, args...)
	cmd := exec.CommandContext(ctx, "git", full...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0")
	out, err := cmd.Output()
	if err != nil {
		g.gitSlow = g.gitSlow || ctx.Err() != nil
		return nil, false
	}
	return out, true
}
