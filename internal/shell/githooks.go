package shell

import (
	"path/filepath"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"
)

// git runs its hooks on commit, merge, push, checkout, rebase and am: the
// programs in .git/hooks, or in the directory core.hooksPath names. The
// hook files themselves are git's (writing them asks, rule git-exec), but
// what they run is often a project file the agent writes freely: husky's
// .husky/pre-commit, lefthook.yml's commands, the local hooks of
// .pre-commit-config.yaml. A git command is judged with the hooks it
// runs, and lefthook run and pre-commit run with their configuration.

// gitHookNames returns the hooks the git command sub runs (--no-verify takes the
// ones noVerify names away).
func gitHookNames(sub string) []string {
	switch sub {
	case "commit":
		return []string{"pre-commit", "prepare-commit-msg", "commit-msg", "post-commit"}
	case "merge":
		return []string{"pre-merge-commit", "prepare-commit-msg", "commit-msg", "post-merge"}
	case "pull":
		return []string{"pre-merge-commit", "prepare-commit-msg", "commit-msg", "post-merge", "post-rewrite"}
	case "push":
		return []string{"pre-push"}
	case "checkout":
		return []string{"post-checkout"}
	case "switch":
		return []string{"post-checkout"}
	case "rebase":
		return []string{"pre-rebase", "post-rewrite", "post-checkout"}
	case "am":
		return []string{"applypatch-msg", "pre-applypatch", "post-applypatch", "post-rewrite"}
	case "cherry-pick":
		return []string{"prepare-commit-msg", "post-commit"}
	case "revert":
		return []string{"prepare-commit-msg", "post-commit"}
	case "gc":
		return []string{"pre-auto-gc"}
	}
	return nil
}

// noVerify reports whether git --no-verify skips the hook s.
func noVerify(s string) bool {
	switch s {
	case "pre-commit", "commit-msg", "pre-merge-commit", "pre-push", "applypatch-msg", "pre-applypatch":
		return true
	}
	return false
}

// gitHooks walks the hooks the git command sub (with cfg, its -c
// settings) runs in the repository at the scope's directory.
func (w *walker) gitHooks(c *ctx, cfg map[string]string, sub string, rest []Word, sc *scope) {
	hooks := gitHookNames(sub)
	if len(hooks) == 0 || w.a.ReadFile == nil || sc.cwd == "" {
		return
	}
	skip := false
	for _, a := range rest {
		if s := a.Lit(); s == "--no-verify" || s == "-n" && (sub == "commit" || sub == "merge") {
			skip = true
		}
	}
	top := w.gitTop(sc.cwd)
	if top == "" {
		return
	}
	_, gitDir := w.gitDirs(top) // a worktree's: the repository's (commondir)
	dir := filepath.Join(gitDir, "hooks")
	hp, set := cfg["core.hookspath"]
	if !set {
		if text, ok := w.readText(filepath.Join(gitDir, "config")); ok {
			hp, set = gitHooksPath(text)
		}
	}
	if set {
		if hp == "" {
			return
		}
		if strings.HasPrefix(hp, "~/") {
			return // the user's: writing it asks (startup-config)
		}
		dir = hp
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(top, dir)
		}
	}
	gc := c.with("git " + sub)
	nsc := sc.child()
	nsc.setCwd(top) // git runs its hooks at the top of the work tree
	for _, h := range hooks {
		if skip && noVerify(h) {
			continue
		}
		// husky: core.hooksPath .husky/_ (v9), whose hooks run
		// .husky/NAME; .husky itself (v4–8) holds them.
		if filepath.Base(dir) == "_" && filepath.Base(filepath.Dir(dir)) == ".husky" {
			p := filepath.Join(filepath.Dir(dir), h)
			if text, ok := w.readText(p); ok {
				w.inFile(gc, p, "hook "+h, text, top, nsc)
			}
			// The wrapper husky writes in .husky/_ (a file of the
			// project too), without its line that runs _/h.
			p = filepath.Join(dir, h)
			if text, ok := w.readText(p); ok {
				w.inFile(gc, p, "hook "+h, huskyWrap().ReplaceAllString(text, ""), top, nsc)
			}
			continue
		}
		p := filepath.Join(dir, h)
		text, ok := w.readText(p)
		if !ok {
			continue
		}
		if filepath.Base(dir) == ".husky" {
			// husky 4–8: each hook first sources husky's own
			// _/husky.sh, by a path computed from $0.
			text = huskyInit().ReplaceAllString(text, "")
		}
		line, _, _ := strings.Cut(text, "\n")
		switch lang := shebangLang(line); lang {
		case "sh":
			w.inFile(gc, p, "hook "+h, text, top, nsc)
		case "":
			if !strings.HasPrefix(line, "#!") {
				w.inFile(gc, p, "hook "+h, text, top, nsc) // git runs it with sh
			}
		default:
			w.readCode(gc.with("hook "+h), lang, p, nsc)
		}
	}
}

// shebangLang returns the language of a #! line: "sh" for the shells, an
// interpreter's language, or "".
func shebangLang(line string) string {
	f := strings.Fields(strings.TrimPrefix(line, "#!"))
	if !strings.HasPrefix(line, "#!") || len(f) == 0 {
		return ""
	}
	prog := filepath.Base(f[0])
	if prog == "env" {
		for _, a := range f[1:] {
			if !strings.HasPrefix(a, "-") {
				prog = filepath.Base(a)
				break
			}
		}
	}
	if shells[prog] {
		return "sh"
	}
	return interpreter(prog)
}

// gitHooksPath reads core.hooksPath from git configuration text.
func gitHooksPath(text string) (string, bool) {
	core := false
	hp, set := "", false
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			core = strings.EqualFold(strings.Trim(line, "[] \t"), "core")
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if core && ok && strings.EqualFold(strings.TrimSpace(k), "hookspath") {
			hp, set = strings.Trim(strings.TrimSpace(v), `"`), true
		}
	}
	return hp, set
}

// lefthook walks lefthook run HOOK: the commands (run) and scripts of
// HOOK in lefthook.yml.
func (w *walker) lefthook(c *ctx, args []Word, sc *scope) {
	if len(args) < 2 || args[0].Lit() != "run" {
		return
	}
	hook, ok := args[1].Value()
	if !ok {
		w.opaque("lefthook run of a hook computed at run time")
		return
	}
	for _, f := range []string{"lefthook.yml", ".lefthook.yml", "lefthook.yaml", ".lefthook.yaml", "lefthook-local.yml", ".lefthook-local.yml"} {
		p, text, ok := w.nearest(sc.cwd, "", f)
		if !ok {
			continue
		}
		var doc map[string]struct {
			Commands map[string]struct {
				Run  string `yaml:"run"`
				Root string `yaml:"root"`
			} `yaml:"commands"`
			Scripts map[string]struct {
				Runner string `yaml:"runner"`
			} `yaml:"scripts"`
		}
		if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
			w.opaque("lefthook with a " + f + " ralph cannot read")
			continue
		}
		h := doc[hook]
		root := filepath.Dir(p)
		for name, cmd := range h.Commands {
			if cmd.Run != "" {
				w.inFile(c.with("lefthook "+hook), p, "command "+name, cmd.Run, filepath.Join(root, cmd.Root), sc)
			}
		}
		for name, s := range h.Scripts {
			sp := filepath.Join(root, ".lefthook", hook, name)
			if text, ok := w.readText(sp); ok {
				if lang := interpreter(filepath.Base(strings.Fields(s.Runner + " x")[0])); lang != "" {
					w.readCode(c.with("lefthook "+hook), lang, sp, sc)
				} else {
					w.inFile(c.with("lefthook "+hook), sp, "script "+name, text, root, sc)
				}
			}
		}
	}
}

// preCommit walks pre-commit run (and the hook-impl its git hook calls):
// the local hooks of .pre-commit-config.yaml whose entry is a command of
// the project (language system or script), with their args.
func (w *walker) preCommit(c *ctx, args []Word, sc *scope) {
	if len(args) == 0 {
		return
	}
	if sub, ok := args[0].Value(); ok && sub != "run" && sub != "hook-impl" {
		return // a computed one ("${ARGS[@]}" in its git hook) may be either
	}
	p, text, ok := w.nearest(sc.cwd, optValue1(args, "-c", "--config"), ".pre-commit-config.yaml", ".pre-commit-config.yml")
	if !ok {
		return
	}
	var doc struct {
		Repos []struct {
			Repo  string `yaml:"repo"`
			Hooks []struct {
				ID       string   `yaml:"id"`
				Entry    string   `yaml:"entry"`
				Language string   `yaml:"language"`
				Args     []string `yaml:"args"`
			} `yaml:"hooks"`
		} `yaml:"repos"`
	}
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		w.opaque("pre-commit with a configuration ralph cannot read")
		return
	}
	root := filepath.Dir(p)
	for _, r := range doc.Repos {
		if r.Repo != "local" {
			continue // a hook repository's code, installed by pre-commit
		}
		for _, h := range r.Hooks {
			switch h.Language {
			case "system", "script", "unsupported", "unsupported_script":
			default:
				continue
			}
			line := h.Entry
			if len(h.Args) > 0 {
				line += " " + shellQuote(h.Args)
			}
			id := h.ID
			if strings.TrimSpace(id) == "" {
				id = "(no id)"
			}
			w.inFile(c.with("pre-commit"), p, "hook "+id, line, root, sc)
		}
	}
}

// huskyInit matches the line with which husky 4–8 starts each hook.
var huskyInit = func() *regexp.Regexp { return huskyInitLazy.get() }
var huskyInitLazy = lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^\.\s+"\$\(dirname (?:-- )?"\$0"\)/_/husky\.sh"[ \t]*$`)
}}

// huskyWrap matches the line of husky 9's hooks in .husky/_ that runs
// its _/h, which runs .husky/NAME (read above).
var huskyWrap = func() *regexp.Regexp { return huskyWrapLazy.get() }
var huskyWrapLazy = lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^\.\s+"\$\(dirname (?:-- )?"\$0"\)/h"[ \t]*$`)
}}
