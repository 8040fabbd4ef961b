package risk

import (
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/event"
	"github.com/ralph-hooks/ralph-hooks/internal/pwsh"
	"github.com/ralph-hooks/ralph-hooks/internal/shell"
)

// PowerShell judges a PowerShell command line run in cwd (Claude Code's
// PowerShell tool, Copilot CLI's powershell, Codex's powershell.exe
// -Command): package pwsh maps what it reads onto the shell commands the
// guard judges, with the same rules, checkpoints and test checks, and
// what it could not read asks.
func (g *Guard) PowerShell(cmdline, cwd string) *Verdict {
	return g.powerShell(cmdline, pwsh.Translate(cmdline), cwd)
}

// PowerShellRead returns how package pwsh reads a PowerShell command
// line: the shell commands it amounts to (for ralph explain).
func PowerShellRead(cmdline string) string { return pwsh.Translate(cmdline).Bash }

func (g *Guard) powerShell(cmdline string, r pwsh.Result, cwd string) *Verdict {
	v := g.Command(r.Bash, cwd)
	v.Target = cmdline
	for i := range v.Findings {
		if v.Findings[i].Action != answer.Allow {
			v.Findings[i].Reason += " (read from the PowerShell command `" + short(cmdline) + "`)"
		}
	}
	for _, p := range r.Problems {
		g.add(v, g.builtin(p.Rule, p.Reason, cmdline, nil))
	}
	g.decide(v)
	if v.Decision == answer.Deny {
		v.Changes = nil
	}
	return v
}

// short cuts a command line for a reason.
func short(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 100 {
		return string(r[:97]) + "…"
	}
	return s
}

// pwshRules judges powershell or pwsh run from a shell command line
// (pwsh -c '…', powershell -EncodedCommand …): the PowerShell it runs.
func (g *Guard) pwshRules(c *shell.Cmd) []Finding {
	args := make([]string, len(c.Args))
	for i, a := range c.Args {
		v, ok := a.Value()
		if !ok {
			return nil // computed: the shell's reader asks (rule opaque)
		}
		args[i] = v
	}
	r := pwsh.PowerShellArgs(c.Name, args)
	v := g.powerShell(strings.Join(append([]string{c.Name}, args...), " "), r, c.Cwd)
	var out []Finding
	for _, f := range v.Findings {
		if f.Action != answer.Allow {
			out = append(out, f)
		}
	}
	return out
}

// isPowerShell reports whether a program is powershell or pwsh.
func isPowerShell(name string) bool { return pwsh.IsPowerShell(name) }

// bashAsPowerShell judges a Bash command that reads as PowerShell (a
// cmdlet, a .NET call: Copilot CLI's PascalCase hooks report its
// powershell tool as Bash) as PowerShell too; the worse verdict stands.
func (g *Guard) bashAsPowerShell(ev *event.Event, v *Verdict, cmd, cwd string) *Verdict {
	if !pwsh.Looks(cmd) {
		return v
	}
	if ev.DirUnknown || ev.Shell == event.ShellTyped {
		cwd = "" // as bashCall: relative paths name nothing ralph knows
	}
	pv := g.PowerShell(cmd, cwd)
	if !pv.Decision.Worse(v.Decision) {
		return v
	}
	return pv
}
