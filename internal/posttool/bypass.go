package posttool

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/ralph-hooks/ralph-hooks/internal/clip"
	"github.com/ralph-hooks/ralph-hooks/internal/shell"
)

// Bypass is one way a Bash command skipped the project's own checks.
type Bypass struct {
	Command string // the command, as written
	What    string // what it skipped, and how
}

// maxBypassDepth bounds the nesting of bash -c and eval that
// envBypasses looks into.
const maxBypassDepth = 4

// Bypasses returns the validation bypasses of a Bash command: git commit
// --no-verify (or -n), git push / merge / rebase / am --no-verify, git -c
// core.hooksPath=…, and git commits run with SKIP=…, HUSKY=0,
// HUSKY_SKIP_HOOKS=1, LEFTHOOK=0 or OVERCOMMIT_DISABLE=1 in their
// environment (a prefix, env, or an earlier export). cwd is where the
// command starts.
func Bypasses(command, cwd string) []Bypass {
	var out []Bypass
	add := func(b Bypass) {
		for _, o := range out {
			if o == b {
				return
			}
		}
		out = append(out, b)
	}
	a := (&shell.Analyzer{}).Analyze(command, cwd)
	for _, c := range a.Cmds {
		if c.Name != "git" {
			continue
		}
		args := make([]string, len(c.Args))
		for i, w := range c.Args {
			args[i] = w.Lit()
		}
		for _, what := range gitFlagBypasses(args) {
			add(Bypass{Command: clip.String(c.Text(), 200), What: what})
		}
	}
	for _, b := range envBypasses(command, nil, 0) {
		add(b)
	}
	return out
}

// gitSub splits git's arguments into its global options and subcommand
// (-C dir, -c k=v, --git-dir=…, --no-pager, …).
func gitSub(args []string) (configs []string, sub string, rest []string) {
	for len(args) > 0 {
		s := args[0]
		switch {
		case s == "-c" && len(args) > 1:
			configs = append(configs, args[1])
			args = args[2:]
		case (s == "-C" || s == "--git-dir" || s == "--work-tree" || s == "--namespace" || s == "--config-env" || s == "--super-prefix") && len(args) > 1:
			args = args[2:]
		case strings.HasPrefix(s, "-"):
			args = args[1:]
		default:
			return configs, s, args[1:]
		}
	}
	return configs, "", nil
}

// hookSub returns, for a git subcommand that runs hooks a project
// validates with, what --no-verify skips in it.
func hookSub(sub string) string {
	switch sub {
	case "commit":
		return "the pre-commit and commit-msg hooks"
	case "push":
		return "the pre-push hook"
	case "merge":
		return "the pre-merge-commit and commit-msg hooks"
	case "rebase":
		return "the pre-rebase hook"
	case "am":
		return "the applypatch-msg and pre-applypatch hooks"
	}
	return ""
}

// gitFlagBypasses returns what the flags of one git command skip.
func gitFlagBypasses(args []string) []string {
	configs, sub, rest := gitSub(args)
	hooks := hookSub(sub)
	if hooks == "" {
		return nil
	}
	var out []string
	for _, kv := range configs {
		if k, _, _ := strings.Cut(kv, "="); strings.EqualFold(k, "core.hooksPath") {
			out = append(out, "runs git "+sub+" with its hooks redirected (-c "+kv+"), which skips "+hooks)
		}
	}
	if noVerify(sub, rest) {
		out = append(out, "skips "+hooks+" (--no-verify)")
	}
	return out
}

// commitArgOpt reports whether a long option of git commit takes the next
// word as its value when written without "=".
func commitArgOpt(opt string) bool {
	switch opt {
	case "--message", "--file", "--reuse-message", "--reedit-message", "--fixup", "--squash",
		"--author", "--date", "--template", "--cleanup", "--trailer", "--pathspec-from-file":
		return true
	}
	return false
}

// noVerify reports whether the arguments of git sub hold --no-verify (any
// unambiguous abbreviation of it), or, for commit, -n in a cluster of
// short flags before one that takes a value (-anm "msg").
func noVerify(sub string, args []string) bool {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return false
		case strings.HasPrefix(a, "--no-veri") && strings.HasPrefix("--no-verify", a):
			return true
		case strings.HasPrefix(a, "--"):
			if sub == "commit" && commitArgOpt(a) {
				i++
			}
		case sub == "commit" && len(a) > 1 && a[0] == '-':
			for j := 1; j < len(a); j++ {
				switch a[j] {
				case 'n':
					return true
				case 'm', 'F', 'C', 'c', 't':
					if j == len(a)-1 {
						i++ // the value is the next word
					}
					j = len(a)
				case 'S', 'u': // an optional value, attached
					j = len(a)
				}
			}
		}
	}
	return false
}

// envBypasses finds git commands run with a hook-skipping variable in
// their environment. It sees VAR=x prefixes, env VAR=x, export VAR=x
// earlier on the line, wrappers (sudo, command, exec, nohup, time, nice),
// and literal bash -c / sh -c / eval strings.
func envBypasses(src string, exported map[string]string, depth int) []Bypass {
	if depth > maxBypassDepth {
		return nil
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return nil
	}
	env := map[string]string{}
	for k, v := range exported {
		env[k] = v
	}
	var out []Bypass
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.DeclClause:
			if n.Variant != nil && n.Variant.Value == "export" {
				for _, as := range n.Args {
					if as.Name != nil && !as.Naked {
						env[as.Name.Value] = wordValue(as.Value)
					}
				}
			}
		case *syntax.CallExpr:
			out = append(out, callBypasses(src, n, env, depth)...)
		}
		return true
	})
	return out
}

// callBypasses judges one simple command of envBypasses.
func callBypasses(src string, ce *syntax.CallExpr, exported map[string]string, depth int) []Bypass {
	if len(ce.Args) == 0 {
		return nil
	}
	env := map[string]string{}
	for k, v := range exported {
		env[k] = v
	}
	for _, as := range ce.Assigns {
		if as.Name != nil && !as.Naked {
			env[as.Name.Value] = wordValue(as.Value)
		}
	}
	words := make([]string, len(ce.Args))
	for i, w := range ce.Args {
		words[i] = wordValue(w)
	}
	words = unwrap(words, env)
	if len(words) == 0 {
		return nil
	}
	text := src
	if s, e := int(ce.Pos().Offset()), int(ce.End().Offset()); s >= 0 && s <= e && e <= len(src) {
		text = src[s:e]
	}
	switch path.Base(words[0]) {
	case "bash", "sh", "zsh", "dash", "ksh":
		for i := 1; i+1 < len(words); i++ {
			if strings.HasPrefix(words[i], "-") && strings.Contains(words[i], "c") && !strings.HasPrefix(words[i], "--") {
				return envBypasses(words[i+1], env, depth+1)
			}
		}
		return nil
	case "eval":
		return envBypasses(strings.Join(words[1:], " "), env, depth+1)
	case "git":
		_, sub, _ := gitSub(words[1:])
		if hookSub(sub) == "" {
			return nil
		}
	case "pre-commit":
		if len(words) < 2 || words[1] != "run" {
			return nil
		}
	default:
		return nil
	}
	var out []Bypass
	for _, what := range envSkips(env) {
		out = append(out, Bypass{Command: clip.String(strings.TrimSpace(text), 200), What: what})
	}
	return out
}

// unwrap drops the wrappers in front of a command, moving env's VAR=x
// words into env.
func unwrap(words []string, env map[string]string) []string {
	for len(words) > 0 {
		switch path.Base(words[0]) {
		case "env":
			words = words[1:]
			for len(words) > 0 {
				w := words[0]
				if k, v, ok := strings.Cut(w, "="); ok && k != "" && !strings.HasPrefix(k, "-") {
					env[k] = v
					words = words[1:]
					continue
				}
				if (w == "-u" || w == "--unset" || w == "-C" || w == "--chdir") && len(words) > 1 {
					words = words[2:]
					continue
				}
				if strings.HasPrefix(w, "-") {
					words = words[1:]
					continue
				}
				break
			}
		case "sudo", "doas":
			words = words[1:]
			for len(words) > 0 && strings.HasPrefix(words[0], "-") {
				if (words[0] == "-u" || words[0] == "-g" || words[0] == "-C") && len(words) > 1 {
					words = words[1:]
				}
				words = words[1:]
			}
		case "command", "exec", "nohup", "time", "nice":
			words = words[1:]
			for len(words) > 0 && strings.HasPrefix(words[0], "-") {
				if words[0] == "-n" && len(words) > 1 { // nice -n 10
					words = words[1:]
				}
				words = words[1:]
			}
		default:
			return words
		}
	}
	return words
}

// envSkips names the hook-skipping variables set in env.
func envSkips(env map[string]string) []string {
	var out []string
	if v, ok := env["SKIP"]; ok && v != "" {
		out = append(out, "skips the pre-commit hooks "+clip.String(v, 60)+" (SKIP="+clip.String(v, 60)+")")
	}
	if v, ok := env["HUSKY"]; ok && (v == "0" || v == "false") {
		out = append(out, "turns husky's git hooks off (HUSKY="+v+")")
	}
	if v, ok := env["HUSKY_SKIP_HOOKS"]; ok && v != "" && v != "0" && v != "false" {
		out = append(out, "turns husky's git hooks off (HUSKY_SKIP_HOOKS="+clip.String(v, 20)+")")
	}
	if v, ok := env["LEFTHOOK"]; ok && (v == "0" || v == "false") {
		out = append(out, "turns lefthook's git hooks off (LEFTHOOK="+v+")")
	}
	if v, ok := env["OVERCOMMIT_DISABLE"]; ok && v != "" && v != "0" {
		out = append(out, "turns overcommit's git hooks off (OVERCOMMIT_DISABLE="+clip.String(v, 20)+")")
	}
	return out
}

// wordValue returns a shell word's value when it is literal (quotes
// removed), else its text as written, which is never empty: a value that
// is only known at run time is treated as set.
func wordValue(w *syntax.Word) string {
	if w == nil {
		return ""
	}
	var b strings.Builder
	if lit(&b, w.Parts) {
		return b.String()
	}
	var raw strings.Builder
	syntax.NewPrinter().Print(&raw, w)
	if raw.Len() == 0 {
		return "$?"
	}
	return raw.String()
}

func lit(b *strings.Builder, parts []syntax.WordPart) bool {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(shell.Unescape(p.Value))
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if !lit(b, p.Parts) {
				return false
			}
		default:
			return false
		}
	}
	return true
}
