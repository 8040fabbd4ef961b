package risk

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/shell"
)

// gitCall is a git command line split into its parts.
type gitCall struct {
	cmd  *shell.Cmd // with Cwd moved by -C
	sub  string
	args []shell.Word
}

// parseGit skips git's global options (-C dir, -c k=v, --git-dir=…, …).
// It is nil for a program that is not git: `foo stash -u` is no git
// stash, and was judged as one (stashRules, noteUntracked).
func parseGit(c *shell.Cmd) *gitCall {
	if c == nil || c.Name != "git" {
		return nil
	}
	cc := *c
	args := c.Args
	for len(args) > 0 {
		s := args[0].Lit()
		switch {
		case s == "-C" && len(args) > 1:
			d, ok := args[1].Value()
			switch {
			case ok && filepath.IsAbs(d):
				cc.Cwd = filepath.Clean(d)
			case ok && cc.Cwd != "":
				cc.Cwd = filepath.Join(cc.Cwd, d)
			default:
				cc.Cwd = ""
			}
			args = args[2:]
		case (s == "-c" || s == "--git-dir" || s == "--work-tree" || s == "--namespace" || s == "--config-env") && len(args) > 1:
			args = args[2:]
		case strings.HasPrefix(s, "-"):
			args = args[1:]
		default:
			// git RESET runs reset on a case-insensitive filesystem.
			return &gitCall{cmd: &cc, sub: strings.ToLower(s), args: args[1:]}
		}
	}
	return nil
}

// gitOps lists the files a git command deletes, moves or overwrites.
func (g *Guard) gitOps(c *shell.Cmd) []op {
	gc := parseGit(c)
	if gc == nil || helpOnly(gc.args) {
		return nil
	}
	switch gc.sub {
	case "rm":
		args, list, listed := pathspecFromFile(gc.args)
		fl, paths := splitFlags(args, "")
		if fl.has("cached", "n", "dry-run") {
			return nil
		}
		var out []op
		if listed {
			more, ok := g.pathspecList(gc.cmd, list, fl.has("pathspec-file-nul"))
			if !ok {
				u := shell.Word{Raw: "the paths listed in " + list.Raw + ", which ralph cannot read", Dynamic: true}
				return []op{g.target(gc.cmd, opDelete, u, func(o *op) { o.recursive, o.force = fl.has("r"), fl.has("f", "force") })}
			}
			paths = append(paths, more...)
		}
		for _, p := range paths {
			if m, ok := g.magicPathspec(gc.cmd, p, false); ok {
				p = m // :/, :(top)x, :!x (pathmagic.go)
			}
			o := g.target(gc.cmd, opDelete, pathspec(p), func(o *op) { o.recursive, o.force = fl.has("r"), fl.has("f", "force") })
			if o.pattern != "" {
				o.paths = g.pathspecMatches(o.pattern)
			}
			out = append(out, o)
		}
		return out
	case "mv":
		return g.move(gc.cmd, gc.args, "")
	case "merge-file":
		// git merge-file CURRENT BASE OTHER writes the merge into CURRENT
		// (-p prints it instead).
		fl, paths := splitFlags(gc.args, "L")
		if fl.has("p", "stdout") || len(paths) != 3 {
			return nil
		}
		return []op{g.target(gc.cmd, opWrite, paths[0], func(o *op) { o.overwrite = true })}
	case "checkout", "restore":
		if paths := g.discarded(gc); paths != nil {
			return g.targets(gc.cmd, opDiscard, paths, nil)
		}
	}
	return append(append(g.gitTreeOps(gc), g.sparseOps(gc)...), g.gitRefOps(gc)...) // gitsparse.go
}

// pathspecFromFile takes --pathspec-from-file FILE (=FILE, or a prefix
// git takes for it: --pathspec-fr…) out of args: git rm reads the paths
// it deletes from FILE ("-": standard input). Before, FILE was read as
// the path deleted and the paths in it not at all (git 2.39: `git rm -r
// --pathspec-from-file=list` with tests in list deleted tests/, allowed).
func pathspecFromFile(args []shell.Word) (rest []shell.Word, file shell.Word, ok bool) {
	for i := 0; i < len(args); i++ {
		s := args[i].Lit()
		if s == "--" {
			return append(rest, args[i:]...), file, ok
		}
		name, val, glued := strings.Cut(strings.TrimPrefix(s, "--"), "=")
		if !strings.HasPrefix(s, "--") || len(name) < len("pathspec-fr") || !strings.HasPrefix("pathspec-from-file", name) {
			rest = append(rest, args[i])
			continue
		}
		ok = true
		switch {
		case glued:
			file = shell.Word{Raw: val, Values: []string{val}}
			if args[i].Dynamic {
				file = shell.Word{Raw: val, Dynamic: true}
			}
		case i+1 < len(args):
			i++
			file = args[i]
		default:
			file = shell.Word{Raw: "(none)", Dynamic: true}
		}
	}
	return rest, file, ok
}

// maxPathspecList bounds the paths read from a --pathspec-from-file.
const maxPathspecList = 4096

// pathspecList returns the pathspecs file lists (one a line, or NUL
// separated), or false when ralph cannot read them: a name computed at
// run time, standard input it does not know, a file the line writes with
// text it cannot read, one it cannot open.
func (g *Guard) pathspecList(c *shell.Cmd, file shell.Word, nul bool) ([]shell.Word, bool) {
	var text string
	if v, ok := file.Value(); ok && v == "-" {
		t, ok := c.StdinText()
		if !ok {
			return nil, false
		}
		text = t
	} else {
		if g.unreadFile(c, file) {
			return nil, false
		}
		t, ok := g.patchText(c, file) // patches.go: the line's text, or the disk's
		if !ok {
			return nil, false
		}
		text = t
	}
	sep := "\n"
	if nul {
		sep = "\x00"
	}
	var out []shell.Word
	for _, l := range strings.Split(text, sep) {
		if l = strings.TrimSuffix(l, "\r"); l == "" {
			continue
		}
		if len(out) >= maxPathspecList {
			return nil, false
		}
		out = append(out, shell.Word{Raw: l, Values: []string{l}})
	}
	return out, true
}

// pathspec turns a quoted git pathspec with wildcards ('*_test.go') into a
// glob word, since git expands it even when the shell does not.
func pathspec(w shell.Word) shell.Word {
	if v, ok := w.Value(); ok && strings.ContainsAny(v, "*?[") {
		w.Glob = true
	}
	return w
}

// pathspecMatches returns the files under the pattern's directory that a
// git pathspec matches (* crosses directories in a pathspec).
func (g *Guard) pathspecMatches(pattern string) []string {
	dir := filepath.Dir(pattern)
	for strings.ContainsAny(dir, "*?[") {
		dir = filepath.Dir(dir)
	}
	var out []string
	g.walk(dir, func(p string, isDir bool) bool {
		if !isDir && globMatch(pattern, p) {
			out = append(out, p)
		}
		return true
	})
	return out
}

// globMatch matches like a git pathspec or find -path: * and ? also match
// "/".
func globMatch(pattern, name string) bool {
	for len(pattern) > 0 {
		switch pattern[0] {
		case '*':
			for len(pattern) > 0 && pattern[0] == '*' {
				pattern = pattern[1:]
			}
			if pattern == "" {
				return true
			}
			for i := 0; i <= len(name); i++ {
				if globMatch(pattern, name[i:]) {
					return true
				}
			}
			return false
		case '?':
			if name == "" {
				return false
			}
			pattern, name = pattern[1:], name[1:]
		case '[':
			end := strings.IndexByte(pattern, ']')
			if end < 0 || name == "" {
				return false
			}
			if ok, _ := filepath.Match(pattern[:end+1], name[:1]); !ok {
				return false
			}
			pattern, name = pattern[end+1:], name[1:]
		default:
			if name == "" || name[0] != pattern[0] {
				return false
			}
			pattern, name = pattern[1:], name[1:]
		}
	}
	return name == ""
}

// discarded returns the paths git checkout/restore would overwrite with
// the index or a commit ("." for all of them: -p, --pathspec-from-file),
// or nil when it only switches or creates branches, or restores the index
// alone.
func (g *Guard) discarded(gc *gitCall) []shell.Word {
	var paths, operands []shell.Word
	dashdash := false
	staged, worktree := -1, -1 // -1: not given
	fromFile, patch, branch, force := false, false, false, false
	valueShort := map[string]string{"checkout": "bB", "switch": "cC", "restore": "s"}[gc.sub]
	long := func(name, full string) bool { return name != "" && strings.HasPrefix(full, name) }
	for i := 0; i < len(gc.args); i++ {
		a := gc.args[i]
		s := a.Lit()
		switch {
		case dashdash:
			if m, ok := g.magicPathspec(gc.cmd, a, false); ok {
				a = m
			}
			paths = append(paths, a)
		case s == "--":
			dashdash = true
		case strings.HasPrefix(s, "--") && !a.Dynamic:
			name, _, hasVal := strings.Cut(s[2:], "=")
			switch {
			case name == "no-staged":
				staged = 0
			case name == "no-worktree":
				worktree = 0
			case name == "no-patch":
				patch = false
			case long(name, "staged"):
				staged = 1
			case long(name, "worktree"):
				worktree = 1
			case long(name, "patch"):
				patch = true
			case long(name, "pathspec-from-file"):
				fromFile = true
				if !hasVal {
					i++
				}
			case name == "track" || name == "no-track":
				branch = true // creates a branch (--track=MODE glued)
			case long(name, "detach"):
				// git checkout --detach takes no paths ("--detach does
				// not take a path argument", git 2.39): as with a new
				// branch, git refuses them.
				branch = true
			case long(name, "orphan"), long(name, "create"), long(name, "force-create"):
				branch = true
				if !hasVal {
					i++
				}
			case long(name, "source"), long(name, "conflict"), long(name, "unified"), long(name, "inter-hunk-context"):
				if !hasVal {
					i++ // git takes the next argument as the value
				}
			case long(name, "force"):
				force = true
			}
		case len(s) > 1 && s[0] == '-' && !a.Dynamic:
			for j := 1; j < len(s); j++ {
				l := s[j]
				switch l {
				case 'S':
					staged = 1
				case 'W':
					worktree = 1
				case 'p':
					patch = true
				case 'f':
					force = true
				case 't':
					branch = branch || gc.sub == "checkout"
				}
				if strings.IndexByte(valueShort, l) >= 0 {
					branch = branch || l != 's'
					if j == len(s)-1 {
						i++ // the value is the next argument
					}
					break
				}
			}
		default:
			operands = append(operands, a)
		}
	}
	all := shell.Word{Raw: ".", Values: []string{"."}}
	switch gc.sub {
	case "switch":
		return nil
	case "restore":
		if worktree == 0 || worktree == -1 && staged != -1 {
			return nil // the index only (git refuses --no-staged alone)
		}
		for i, o := range operands {
			if m, ok := g.magicPathspec(gc.cmd, o, false); ok {
				operands[i] = m
			}
		}
		if all := append(operands, paths...); len(all) > 0 {
			return all
		}
		if fromFile || patch {
			return []shell.Word{all}
		}
		return nil
	}
	// checkout
	if branch && !force {
		return nil // a new branch; git refuses paths with it
	}
	if fromFile || patch {
		return []shell.Word{all}
	}
	// Before --, an operand is a path when it names an existing file or
	// a pattern: a missing one git refuses, or brings back from the
	// commit, which loses nothing.
	for i, o := range operands {
		if m, ok := g.magicPathspec(gc.cmd, o, i == 0); ok {
			paths = append(paths, m) // :/, :(top), :!x (pathmagic.go)
		} else if o.Glob || g.existsFor(gc.cmd, o) || i > 0 && gc.cmd.Cwd == "" {
			// (in a directory ralph does not know, the operands after
			// the first may be files)
			paths = append(paths, o)
		} else if v, ok := o.Value(); ok && strings.ContainsAny(v, "*?[") {
			paths = append(paths, pathspec(o))
		}
	}
	if len(paths) == 0 {
		return nil
	}
	return paths
}

// existsFor reports whether w names an existing path (or is ".").
func (g *Guard) existsFor(c *shell.Cmd, w shell.Word) bool {
	v, ok := w.Value()
	if !ok {
		return false
	}
	if v == "." || v == "./" {
		return true
	}
	p, ok := g.resolve(c, v)
	return ok && exists(p)
}

// gitArgFlags returns the short options that take a value in git's
// subcommand sub.
func gitArgFlags(sub string) string {
	switch sub {
	case "clean":
		return "e"
	case "push":
		return "o"
	case "commit":
		return "mFCct"
	case "branch":
		return "tu"
	case "checkout":
		return "bB"
	case "switch":
		return "cC"
	case "restore":
		return "s"
	case "tag":
		return "muF"
	}
	return ""
}

// helpOnly reports whether a git command only asks for its help (-h or
// --help before --), or gives --version, which a subcommand refuses: it
// runs nothing.
func helpOnly(args []shell.Word) bool {
	for _, a := range args {
		switch a.Lit() {
		case "--":
			return false
		case "-h", "--help", "--version":
			return true // help, or an option git refuses there
		}
	}
	return false
}

// gitRules applies the git rules to c.
func (g *Guard) gitRules(c *shell.Cmd) []Finding {
	gc := parseGit(c)
	if gc == nil {
		return nil
	}
	text := quoted(c)
	if helpOnly(gc.args) {
		return nil
	}
	fl, operands := splitFlags(gc.args, gitArgFlags(gc.sub))
	one := func(rule, why string) []Finding {
		return []Finding{g.builtin(rule, fmt.Sprintf("%s %s", text, why), text, nil)}
	}
	// Long options may be abbreviated (git reset --ha): abbrev matches
	// any prefix; a prefix git finds ambiguous only fails.
	opt := func(short string, longs ...string) bool {
		return short != "" && fl.set[short] || fl.has(longs...) || fl.abbrev(longs...)
	}
	switch gc.sub {
	case "reset":
		if opt("", "hard", "merge") {
			return one("git-reset-hard", "throws away uncommitted changes, with no way back. Commit or stash them first, or use `git reset --soft` / `git restore --staged`.")
		}
	case "read-tree":
		// -u writes the tree into the working tree; with --reset (or -m
		// over a dirty one, which git refuses) it overwrites what is there.
		if opt("u", "") && opt("", "reset") {
			return one("git-reset-hard", "writes the tree over the working tree, throwing away uncommitted changes like git reset --hard. Commit or stash them first.")
		}
	case "checkout-index":
		if opt("f", "force") {
			return one("git-checkout-discard", "overwrites files with the index's version, throwing away their uncommitted changes. Commit or stash them first.")
		}
	case "merge", "rebase", "cherry-pick", "revert", "am":
		if opt("", "abort") {
			return one("git-reset-hard", "throws away the "+gc.sub+" in progress and the conflict resolutions made so far, like git reset --merge. Finish it, or ask the human.")
		}
	case "clean":
		if opt("f", "force") && !opt("n", "dry-run") {
			return one("git-clean-force", "deletes untracked files for good. Use `git clean -n` to see what it would delete, then remove files one by one.")
		}
	case "push":
		force := opt("f", "force", "mirror")
		for l := range fl.long {
			// --force-with-lease and --force-if-includes keep the check;
			// any other --force… git refuses, or forces.
			if strings.HasPrefix(l, "force") && l != "force-with-lease" && l != "force-if-includes" {
				force = true
			}
		}
		del := opt("d", "delete", "prune")
		for _, o := range operands {
			s := o.Lit()
			if strings.HasPrefix(s, "+") {
				force = true
			}
			if strings.HasPrefix(s, ":") && len(s) > 1 {
				del = true
			}
		}
		if force {
			return one("git-push-force", "overwrites the remote branch and can destroy others' work. Use --force-with-lease if you must.")
		}
		if del {
			return one("git-push-delete", "deletes branches on the remote.")
		}
	case "branch":
		if fl.set["D"] || opt("d", "delete") && opt("f", "force") {
			return one("git-branch-force-delete", "deletes a branch even if its work is not merged. Use `git branch -d`, which refuses to lose work.")
		}
	case "tag":
		if opt("d", "delete") {
			return one("git-history-destroy", "deletes a tag; tags have no reflog to bring them back.")
		}
	case "stash":
		if len(operands) > 0 {
			if s := operands[0].Lit(); s == "drop" || s == "clear" {
				return one("git-stash-drop", "throws away stashed work for good.")
			}
		}
	case "checkout", "switch":
		if opt("f", "force") || gc.sub == "switch" && opt("", "discard-changes") || gc.sub == "checkout" && g.discarded(gc) != nil {
			return one("git-checkout-discard", "overwrites uncommitted changes in the working tree. Commit or stash them first.")
		}
	case "restore":
		if g.discarded(gc) != nil {
			return one("git-restore-worktree", "throws away uncommitted changes in the working tree. Commit or stash them first.")
		}
	case "reflog":
		if len(operands) > 0 && (operands[0].Lit() == "expire" || operands[0].Lit() == "delete") {
			return one("git-history-destroy", "deletes the reflog, the safety net for lost commits.")
		}
	case "gc":
		if p := abbrevValue(fl, "prune"); p == "now" || p == "all" {
			return one("git-history-destroy", "prunes unreachable commits at once, so lost work cannot be recovered.")
		}
	case "filter-branch", "filter-repo":
		return one("git-history-destroy", "rewrites the repository's history.")
	case "replace":
		// Listing (-l, --list, no operand) and deleting a replacement
		// (-d: what git shows is the history again) change nothing.
		if len(operands) > 0 && !opt("l", "list") && !opt("d", "delete") || opt("", "edit") || opt("", "graft") || opt("", "convert-graft-file") {
			return one("git-history-destroy", "makes every git command show another object in place of a commit, tree or file (refs/replace): the history, and what checkout, reset and diff take from it, is rewritten in place.")
		}
	case "update-ref":
		if fl.has("d") {
			return one("git-history-destroy", "deletes a ref directly.")
		}
	case "worktree":
		if len(operands) > 0 && operands[0].Lit() == "remove" && opt("f", "force") {
			return one("git-history-destroy", "removes a worktree with its uncommitted changes.")
		}
	}
	return nil
}

// commandRules applies the rules about what a command is, as opposed to
// which files it touches.
func (g *Guard) commandRules(c *shell.Cmd) []Finding {
	text := quoted(c)
	one := func(rule, why string) []Finding {
		return []Finding{g.builtin(rule, fmt.Sprintf("%s %s", text, why), text, nil)}
	}
	name := c.Name
	switch {
	case name == "git":
		return append(append(g.gitRules(c), g.gitMalformed(c)...), g.gitInitRules(c)...) // gitinit.go
	case isPowerShell(name):
		return g.pwshRules(c)
	case name == "hg" || name == "sl" || name == "svn" || name == "jj" || name == "fossil":
		return g.vcsRules(c)
	case strings.HasPrefix(name, "mkfs") || name == "mke2fs" || name == "mkswap" || name == "wipefs" || name == "mkdosfs" || name == "newfs" || name == "blkdiscard":
		if onDevice(c) {
			return one("mkfs", "formats or wipes a disk or partition.")
		}
	case wipesDisk(c) != "":
		return one("mkfs", wipesDisk(c))
	case name == "shred" || name == "srm" || name == "wipe":
		if _, files := splitFlags(c.Args, "ns"); len(files) > 0 {
			return one("shred", "destroys file contents beyond recovery. Use rm if the file must go.")
		}
	case name == "chmod" || name == "chown" || name == "chgrp":
		return g.chmodRules(c, text)
	case name == "ralph":
		if len(c.Args) > 0 {
			switch c.Args[0].Lit() {
			case "gate", "abort", "pause", "resume", "install", "uninstall", "ui":
				// ralph ui prints the key to the gate's buttons.
				return one("ralph-self", "would let the agent decide for the loop that supervises it. Only the human runs this.")
			case "init":
				if hasFlag(c, "dry-run") {
					return nil // only prints
				}
				return one("ralph-self", "would write aiwg.yml, the configuration that guards the agent. Only the human runs this.")
			case "config":
				if hasFlag(c, "help") || hasFlag(c, "h") {
					return nil // only prints
				}
				// config accept makes aiwg.yml, as it is now, what the
				// hooks hold the project to: an edit the guard undid
				// would stand.
				return one("ralph-self", "would make aiwg.yml as it is now the configuration that guards the agent. Only the human runs this.")
			case "run":
				if hasFlag(c, "status") || hasFlag(c, "help") || hasFlag(c, "h") {
					return nil // only prints
				}
				// ralph run starts coding agents on the task queue, or
				// (--stop) stops the run the agent is in.
				return one("ralph-self", "would start or stop ralph run, which drives the task queue and its agents. Only the human runs this.")
			case "replay":
				if hasFlag(c, "live") {
					return one("ralph-self", "would run a hook on an event of the agent's choosing, for real. Only the human runs this.")
				}
			}
		}
	case name == "dropdb" || name == "dropuser":
		return one("sql-drop", "drops a database or role.")
	case name == "shutdown" || name == "reboot" || name == "halt" || name == "poweroff":
		return one("system-power", "stops or restarts the machine.")
	case name == "init" || name == "telinit":
		if len(c.Args) > 0 && (c.Args[0].Lit() == "0" || c.Args[0].Lit() == "6") {
			return one("system-power", "stops or restarts the machine.")
		}
	case name == "systemctl":
		for _, a := range c.Args {
			switch a.Lit() {
			case "poweroff", "reboot", "halt", "kexec", "suspend", "hibernate":
				return one("system-power", "stops or restarts the machine.")
			}
		}
	case name == "kill" || name == "pkill" || name == "killall":
		for _, a := range c.Args {
			if a.Lit() == "-1" && name == "kill" {
				return one("system-power", "kills every process the user can signal.")
			}
		}
	case name == "userdel" || name == "deluser":
		// userdel -r (--remove), deluser --remove-home or
		// --remove-all-files: the account's files go with it.
		if fl, _ := splitFlags(c.Args, "RP"); name == "userdel" && (fl.has("r", "remove") || fl.abbrev("remove")) ||
			name == "deluser" && (fl.has("remove-home", "remove-all-files") || fl.abbrev("remove-home", "remove-all-files")) {
			return one("rm-critical", "deletes the user's home directory (and mail spool) with the account, past any checkpoint. Ask the human.")
		}
	case name == "crontab":
		if hasOpt(c, "-r") {
			return one("system-power", "deletes every cron job of the user.")
		}
	case name == "mount" || name == "umount" || name == "bindfs":
		// mount --bind DIR tests hides the tests from the runner and
		// the census; mount with no operand only lists.
		if _, ops := splitFlags(c.Args, "tLoOUNTX"); len(ops) > 0 || name == "umount" && len(c.Args) > 0 {
			return one("system-power", "changes what the file system shows (a mount hides what is below it). Ask the human.")
		}
	}
	if why := dataResets(c); why != "" {
		return one("data-reset", why)
	}
	if why := infraDestroys(c); why != "" {
		return one("infra-destroy", why)
	}
	if why := g.sqlDestroys(c); why != "" {
		return one("sql-drop", why)
	}
	return nil
}

// chmodRules catches permission or owner changes of whole trees.
func (g *Guard) chmodRules(c *shell.Cmd, text string) []Finding {
	rec, paths := permArgs(c)
	for _, o := range g.targets(c, opMeta, paths, nil) {
		if f := o.find; f != nil && !f.unknown && !f.injected {
			// find … -exec chmod {} or find … | xargs chown: every file the
			// walk meets, the system's whatever the tests, and a whole
			// tree elsewhere when no name narrows it.
			for _, r := range f.roots {
				if w := g.where(r); w == system || len(f.names) == 0 && (w == home || w == outside || w == projectRoot) {
					return []Finding{g.builtin("chmod-recursive", fmt.Sprintf("%s changes permissions or owners of the files find walks under %s.", text, describePlace(g, r)), text, nil)}
				}
			}
		}
		for _, p := range o.paths {
			w := g.where(p)
			if w == system || rec && (w == projectRoot || w == home || w == outside) {
				return []Finding{g.builtin("chmod-recursive", fmt.Sprintf("%s changes permissions or owners of %s at once.", text, describePlace(g, p)), text, nil)}
			}
		}
	}
	return nil
}

// hasOpt reports whether c has the argument opt.
func hasOpt(c *shell.Cmd, opt string) bool {
	for _, a := range c.Args {
		if a.Lit() == opt {
			return true
		}
	}
	return false
}

// infraDestroys returns why c destroys infrastructure or remote data, or "".
func infraDestroys(c *shell.Cmd) string {
	var args []string
	for _, a := range c.Args {
		args = append(args, a.Lit())
	}
	has := func(words ...string) bool {
		i := 0
		for _, a := range args {
			if i < len(words) && a == words[i] {
				i++
			}
		}
		return i == len(words)
	}
	switch c.Name {
	case "terraform", "tofu", "terragrunt":
		if has("destroy") || has("apply", "-destroy") {
			return "destroys the infrastructure it manages."
		}
	case "pulumi":
		if has("destroy") {
			return "destroys the stack's resources."
		}
	case "kubectl", "oc":
		if has("delete") && (has("namespace") || has("ns") || has("--all") || has("-A") || has("--all-namespaces") || has("pv") || has("pvc")) {
			return "deletes Kubernetes resources wholesale."
		}
	case "helm":
		if has("uninstall") || has("delete") {
			return "removes a release and its resources."
		}
	case "docker", "podman":
		if has("system", "prune") || has("volume", "rm") || has("volume", "prune") || has("image", "prune", "-a") {
			return "deletes containers, images or volumes with their data."
		}
		if (has("rm") || has("container", "rm") || has("kill")) && everyContainer(c) {
			return "removes every container, whatever it runs."
		}
	case "aws":
		if has("s3", "rm", "--recursive") || has("s3", "rb") || has("s3api", "delete-bucket") ||
			has("rds", "delete-db-instance") || has("dynamodb", "delete-table") || has("ec2", "terminate-instances") ||
			has("cloudformation", "delete-stack") || has("rds", "delete-db-cluster") || has("eks", "delete-cluster") {
			return "deletes cloud resources or data."
		}
	case "gsutil":
		if has("rm", "-r") || has("rb") || has("-m", "rm", "-r") {
			return "deletes cloud storage."
		}
	case "gcloud", "az":
		if has("delete") && (has("projects") || has("group") || has("instances") || has("sql") || has("storage")) {
			return "deletes cloud resources."
		}
	case "gh":
		if has("repo", "delete") || has("release", "delete") {
			return "deletes a GitHub repository or release."
		}
	case "npm":
		if has("unpublish") {
			return "unpublishes a package from the registry."
		}
	}
	return ""
}

// everyContainer reports whether a docker rm or kill acts on the list of
// all containers: $(docker ps -aq) or -a given to rm.
func everyContainer(c *shell.Cmd) bool {
	for _, a := range c.Args {
		if a.Dynamic && a.Many && strings.Contains(a.Raw, "ps") && strings.Contains(a.Raw, "-") && strings.Contains(a.Raw, "q") {
			return true
		}
	}
	return false
}

// onDevice reports whether a formatting command targets a device (or
// something ralph cannot see), rather than an image file.
func onDevice(c *shell.Cmd) bool {
	_, operands := splitFlags(c.Args, "bCdeEfgGiIJlLmMNoOrtTUz")
	if len(operands) == 0 {
		return true
	}
	for _, o := range operands {
		v, ok := o.Value()
		if !ok || strings.HasPrefix(v, "/dev/") {
			return true
		}
	}
	return false
}

// hasFlag reports whether c sets the boolean flag --name (or -name, as
// Go's flag package takes it) to true: alone, or as --name=VALUE with a
// true VALUE. ralph's commands take flags after their operands too.
func hasFlag(c *shell.Cmd, name string) (set bool) {
	for _, a := range c.Args {
		s := a.Lit()
		if s == "--" {
			break
		}
		t := strings.TrimPrefix(strings.TrimPrefix(s, "-"), "-")
		if len(t) == len(s) {
			continue
		}
		if t == name {
			set = true
		} else if v, ok := strings.CutPrefix(t, name+"="); ok {
			b, err := strconv.ParseBool(v)
			set = err == nil && b
		}
	}
	return set // the last one counts
}
