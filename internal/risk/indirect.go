package risk

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/shell"
)

// gitConfig reads one key of git's configuration as git run in dir sees
// it (includes, worktree and user configuration): for an alias the agent
// set earlier (git config alias.zap '!rm -rf .aiwg', then git zap). It is
// asked only for a git subcommand that is not one of git's own.
func gitConfig(dir, key string) (string, bool) {
	if dir == "" {
		return "", false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "config", "--get", key)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return "", false
	}
	return strings.TrimRight(string(out), "\n"), true
}

// indirectRules judges what a command does to ralph's files without
// naming them: git stash of untracked (or ignored) files takes .aiwg away,
// git clean of ignored files deletes it.
func (g *Guard) indirectRules(c *shell.Cmd) []Finding {
	if c.Name != "git" || c.Remote != "" {
		return nil
	}
	gc := parseGit(c)
	if gc == nil || helpOnly(gc.args) {
		return nil
	}
	state := filepath.Join(g.Root, ".aiwg", "ralph")
	if _, ok := g.inProject(gc.cmd.Cwd); !ok || gc.cmd.Cwd == "" {
		return nil // another repository, or one ralph cannot place
	}
	text := quoted(c)
	switch gc.sub {
	case "stash":
		fl, operands := splitFlags(gc.args, "m")
		if len(operands) > 0 {
			switch operands[0].Lit() {
			case "push", "save":
			default:
				return nil // list, show, pop, apply, drop …: judged elsewhere
			}
		}
		all := fl.has("a", "all")
		untracked := fl.has("u", "include-untracked") || fl.abbrev("include-untracked")
		if !all && !untracked || !exists(state) {
			return nil
		}
		if all || !g.aiwgIgnored() {
			return []Finding{g.builtin("tamper", fmt.Sprintf("%s takes untracked%s files into the stash, ralph's state in .aiwg with them, which would end the loop. Stash without -u/--all, or commit the files you need to keep.", text, map[bool]string{true: " and ignored", false: ""}[all]), text, nil)}
		}
		if q := g.untrackedProtected(); q != "" {
			return []Finding{g.builtin("tamper", fmt.Sprintf("%s takes untracked files into the stash, %s with them (it is not committed), which belongs to ralph-hooks. Stash without -u.", text, q), text, nil)}
		}
	case "clean":
		fl, _ := splitFlags(gc.args, "e")
		if fl.has("n", "dry-run", "f", "force") || fl.abbrev("dry-run") || fl.abbrev("force") || !exists(state) || gc.cmd.Cwd != g.Root {
			return nil // forced, it is git-clean-force's; elsewhere, it cleans below the directory only
		}
		ignored := fl.has("x", "X")
		if ignored || fl.has("d") && !g.aiwgIgnored() || g.untrackedProtected() != "" {
			return []Finding{g.builtin("tamper", text+" deletes ralph's state in .aiwg (untracked and ignored files go with -x/-X). Use `git clean -n` to see what it would delete, then remove files by name.", text, nil)}
		}
	}
	return nil
}

// aiwgIgnored reports whether git ignores .aiwg in the project: a line
// for it in the repository's info/exclude (which ralph start adds) or the
// root .gitignore.
func (g *Guard) aiwgIgnored() bool {
	ex := project.GitExclude(g.Root)
	return ex != "" && project.Excludes(ex) || project.Excludes(filepath.Join(g.Root, ".gitignore"))
}

// codeUnknown judges a deletion or write that interpreter code on the
// command line (python -c, node -e, perl -e) makes to a path it computes
// (os.path.join('.ai'+'wg')): ralph cannot see where it lands, so the
// human confirms, unless it is known to be in a temp directory.
func (g *Guard) codeUnknown(v *Verdict, o *op, text string) bool {
	if !o.cmd.Code || o.cmd.File != "" || o.cmd.Remote != "" || !o.unknown || o.find != nil {
		return false
	}
	if o.under != "" && g.isTemp(o.under) {
		return false
	}
	verb := "writes"
	switch o.kind {
	case opDelete:
		verb = "deletes"
	case opMoveFrom, opMoveTo:
		verb = "moves"
	case opLink:
		verb = "links"
	}
	g.add(v, g.builtin("rm-unknown", fmt.Sprintf("%s: interpreter code %s %s, a path computed at run time, so ralph cannot check it is not ralph's own or a test. Name the path literally.", text, verb, describeUnknown(o)), text, nil))
	return true
}

// matchNew applies the path rules of the configuration to files a Bash
// command creates: a new go.work, conftest.py or vitest config changes
// what completion means as much as an edit of an existing one. Rules on
// test files (test_files) are left out: adding tests is the work.
func (g *Guard) matchNew(v *Verdict, created []string) {
	for _, p := range created {
		g.matchNewTool(v, "Bash", p)
	}
}

// matchNewTool applies the path rules to a file tool creates.
func (g *Guard) matchNewTool(v *Verdict, tool, p string) {
	if g.mode() == "off" {
		return
	}
	rel, ok := g.inProject(p)
	if !ok || rel == "." {
		return
	}
	for _, r := range g.rules {
		if len(r.tools) > 0 && !r.tools[tool] && !r.tools["*"] || len(r.Paths) == 0 || r.Existing {
			continue
		}
		if anyMatch(r.Paths, rel) {
			g.add(v, g.finding(r, r.msg(tool, rel, ""), "", nil))
		}
	}
}

// untrackedProtected returns the first of ralph's files in the project
// that git does not track and does not ignore (aiwg.yml never committed,
// .claude/settings.json): git stash -u and git clean take it away. It asks
// git, read-only and with none of the programs the repository's
// configuration names (gitOutput: a core.fsmonitor the agent planted
// would otherwise run inside the guard), so it runs only for those
// commands. When git gives no answer, it says so instead of a file: what
// ralph cannot list, it does not let go.
func (g *Guard) untrackedProtected() string {
	var rels []string
	for _, q := range g.Protected {
		if rel, ok := g.inProject(q); ok && rel != "." && !strings.HasPrefix(rel, ".aiwg/") && !strings.HasPrefix(rel, ".git/") && exists(q) {
			rels = append(rels, rel)
		}
	}
	if len(rels) == 0 {
		return ""
	}
	out, ok := g.git(g.Root, append([]string{"status", "--porcelain", "--untracked-files=all", "--"}, rels...)...)
	if !ok {
		return "any of ralph's files git could not list (git status gave no answer)"
	}
	for _, line := range strings.Split(string(out), "\n") {
		if rel, ok := strings.CutPrefix(line, "?? "); ok {
			return strings.Trim(rel, `"`)
		}
	}
	return ""
}
