package risk

import (
	"fmt"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/shell"
)

// judgeInert judges the commands a line reads as but does not run
// (shell.Analysis.Inert: command -v git reset --hard, 1A=2 git reset
// --hard, node -e "rm -rf /", …): when ralph would refuse the command it
// reads as, it asks (rule malformed), as no task needs such a form and
// whoever wrote it may mean the command it reads as. Nothing of it is
// checkpointed.
func (g *Guard) judgeInert(v *Verdict, a *shell.Analysis) {
	for _, c := range a.Inert {
		for _, f := range g.inertFinding(c) {
			g.add(v, f)
		}
	}
	if a.Recursive != "" {
		g.add(v, g.builtin("malformed", fmt.Sprintf("the function %s calls itself: Bash sets no limit on that, so it can run until the shell runs out of memory. Write the loop out.", a.Recursive), a.Source, nil))
	}
}

// inertFinding judges c, which does not run as written (c.Inert says
// why), by what it reads as: a malformed finding when ralph would refuse
// that.
func (g *Guard) inertFinding(c *shell.Cmd) []Finding {
	sub := &Verdict{}
	g.judgeCmd(sub, c)
	g.decide(sub)
	if sub.Decision != answer.Deny && sub.Decision != answer.Ask {
		return nil
	}
	text := quoted(c)
	return []Finding{g.builtin("malformed", fmt.Sprintf("the line reads as %s, which ralph refuses (rule %s), though as written it does not do that: %s. No task needs this form: write the command you mean, and if it is that one, ask the human.", text, sub.Top.Rule, c.Inert), text, nil)}
}

// gitMalformed judges a git command that git refuses or reads otherwise
// than it looks, by the command it looks like: --help taken as an
// option's value (git restore --source --help file.txt: git cannot
// resolve --help), checkout --track or --detach with paths (git refuses
// them), a
// refspec with + after the colon (a:+b pushes to a ref named +b). When
// that reading is refused, ralph asks (rule malformed).
func (g *Guard) gitMalformed(c *shell.Cmd) []Finding {
	gc := parseGit(c)
	if gc == nil {
		return nil
	}
	args := gc.args
	var reading []shell.Word
	why := ""
	lit := func(s string) shell.Word { return shell.Word{Raw: s, Values: []string{s}} }
	for i, a := range args {
		s := a.Lit()
		if s == "--" {
			break
		}
		if (s == "--help" || s == "-h") && i > 0 && valueOpt(args[i-1].Lit()) {
			reading = append(append(reading, args[:i-1]...), args[i+1:]...)
			why = "git takes " + s + " as the value of " + args[i-1].Lit() + " and stops, as it cannot resolve it"
			break
		}
	}
	if why == "" && gc.sub == "checkout" {
		track, detach, branch, operands, paths := -1, -1, false, 0, false
		for i, a := range args {
			s := a.Lit()
			switch {
			case s == "--":
				operands += len(args) - i - 1
				paths = i+1 < len(args)
			case s == "--track" || s == "-t" || strings.HasPrefix(s, "--track="):
				track = i
				continue
			case len(s) > 3 && strings.HasPrefix("--detach", s):
				detach = i
				continue
			case s == "-b" || s == "-B" || s == "--orphan" || strings.HasPrefix(s, "-b") || strings.HasPrefix(s, "-B"):
				branch = true
				continue
			case !strings.HasPrefix(s, "-"):
				operands++
				continue
			default:
				continue
			}
			break
		}
		if track >= 0 && !branch && operands >= 2 {
			reading = append(append(reading, args[:track]...), args[track+1:]...)
			why = "git refuses " + args[track].Lit() + " with paths"
		}
		if why == "" && detach >= 0 && !branch && (operands >= 2 || paths) {
			// git checkout --detach HEAD -- file: "--detach does not
			// take a path argument" (git 2.39).
			reading = append(append(reading, args[:detach]...), args[detach+1:]...)
			why = "git refuses " + args[detach].Lit() + " with paths"
		}
	}
	if why == "" && gc.sub == "push" {
		for i, a := range args {
			s, ok := a.Value()
			if !ok || strings.HasPrefix(s, "-") {
				continue
			}
			if src, dst, found := strings.Cut(s, ":"); found && strings.HasPrefix(dst, "+") && !strings.HasPrefix(src, "+") {
				reading = append(append(append(reading, args[:i]...), lit("+"+src+":"+dst[1:])), args[i+1:]...)
				why = "+ forces a push only at the start of a refspec: git reads " + s + " as a push to a ref named " + dst
				break
			}
		}
	}
	if why == "" {
		return nil
	}
	cc := *c
	cc.Args = append(append([]shell.Word(nil), c.Args[:len(c.Args)-len(args)]...), reading...)
	cc.Inert = why
	return g.inertFinding(&cc)
}

// valueOpt reports whether s is a git option that take the next argument as their value,
// whatever it is (--help too).
func valueOpt(s string) bool {
	switch s {
	case "--source", "-s", "--conflict", "--orphan", "-b", "-B", "-c", "-C", "--pathspec-from-file", "-o", "--push-option",
		"--exec", "--receive-pack", "--repo", "-m", "-F", "--message", "--file":
		return true
	}
	return false
}
