package risk

import (
	"fmt"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/event"
	"github.com/ralph-hooks/ralph-hooks/internal/shell"
)

// The guard judges each call alone. Where the agent's shell outlives the
// call (event.ShellPersistent), or the call types into a running process
// (event.ShellTyped), or text typed later into what the call leaves
// running reaches no hook (event.Event.Unseen: Codex's write_stdin), what
// one call leaves behind changes what the next one does. bashCall judges
// such calls so that nothing left behind can fool the guard:
//   - an unfinished line (an open quote, here-document, bracket, a
//     trailing \ or &&) waits for the next call's text: it asks;
//   - a definition that outlives the call (alias, function, trap,
//     PROMPT_COMMAND, PATH, exec, set/shopt, source, eval) asks;
//   - a command named by a variable asks, since its value may come from
//     an earlier call;
//   - a program left reading the terminal (a shell, an interpreter, an
//     editor) asks: what is typed into it next is not read as shell;
//   - typed text is judged as shell and as the code of every interpreter
//     ralph reads, in a directory it does not know; text that does not
//     parse as shell asks.

// bashCall judges a Bash call of ev in cwd.
func (g *Guard) bashCall(ev *event.Event, cmd, cwd string) *Verdict {
	if ev.DirUnknown || ev.Shell == event.ShellTyped {
		cwd = "" // relative paths name nothing ralph can know
	}
	if ev.Shell == event.ShellTyped {
		return g.typed(ev, cmd)
	}
	v := g.Command(cmd, cwd)
	// A quote left open at the end stays open through the wrapper's last
	// lines (they hold no quote): bash refuses all of its subshell, and
	// the command's own verdict holds.
	if len(ev.Runs) > 0 && (ev.Rewritten || v.Analysis.ParseErr != nil) {
		v = g.rewritten(ev, cmd, cwd)
	}
	if ev.DirUnknown {
		for i := range v.Findings {
			if v.Findings[i].Rule == "rm-unknown" {
				v.Findings[i].Reason += " (" + where(ev) + ", and a cd of an earlier call took it where ralph could not follow: it does not know the directory relative paths are in.)"
			}
		}
	}
	if ev.Outlives() || ev.Unseen {
		g.lasting(v, ev, cmd)
	}
	return v
}

// where says, for a reason, what shell the call runs in.
func where(ev *event.Event) string {
	agent := map[string]string{"claude": "Claude Code", "codex": "Codex CLI", "copilot": "Copilot CLI",
		"cursor": "Cursor", "gemini": "Gemini CLI", "opencode": "OpenCode"}[ev.Agent]
	if agent == "" {
		agent = "the agent"
	}
	switch {
	case ev.Shell == event.ShellTyped:
		return "this is text typed into a process already running (" + agent + "'s " + ev.NativeTool + "), whose reader ralph does not know"
	case ev.Shell == event.ShellPersistent && ev.Agent == "cursor":
		return "Cursor's shell is treated as one that outlives the call (Cursor runs its agent's commands in a terminal, and its documentation does not say what carries over between them)"
	case ev.Shell == event.ShellPersistent:
		return agent + "'s " + ev.NativeTool + " runs in a shell session that outlives the call"
	}
	tool := ev.NativeTool
	if ev.Agent == "codex" {
		tool = "exec_command"
	}
	return agent + "'s " + tool + " leaves what it starts running, and " + agent + " types into it later (write_stdin) without any hook seeing the text"
}

// ShellNote says, for ralph explain, how the call's shell outlives it and
// where the guard followed it (dirs; nil when it could not); "" for a
// shell that does not outlive the call.
func ShellNote(ev *event.Event, dirs []string) string {
	if !ev.Outlives() && !ev.Unseen {
		return ""
	}
	note := where(ev) + "; what it defines, leaves unfinished or leaves running is judged for the calls that follow"
	switch {
	case ev.Shell != event.ShellPersistent:
	case ev.DirUnknown:
		note += "; its directory is unknown (a cd ralph could not follow): relative paths are unknown"
	case len(dirs) > 0:
		note += "; judged in " + strings.Join(dirs, " and in ") + " (where the guard followed the shell, and the event's cwd)"
	}
	return note + "."
}

// lasting adds the findings of what cmd leaves behind for later calls.
func (g *Guard) lasting(v *Verdict, ev *event.Event, cmd string) {
	a := v.Analysis
	why := where(ev)
	l := shell.Outlasting(cmd)
	if ev.Outlives() {
		switch {
		case a != nil && (a.ParseErr != nil || a.Refused != nil):
			err := a.ParseErr
			if err == nil {
				err = a.Refused
			}
			g.add(v, g.builtin("unparsed", fmt.Sprintf("the command line does not parse as a complete shell command (%v): %s, where an unfinished line is not refused but waits for the next call's text to complete it, and text that is no shell may be read by something else; ralph judges each call alone and cannot tell what runs. Finish the command in one call.", err, why), cmd, nil))
		case continued(cmd):
			g.add(v, g.builtin("unparsed", "the command line ends with a backslash: "+why+", where the next call's text continues this line; ralph judges each call alone and cannot see what the two make together. Finish the command in one call.", cmd, nil))
		}
		if len(l.Defs) > 0 {
			g.add(v, g.builtin("shell-state", fmt.Sprintf("%s, so what this call defines (%s) stays for the calls that follow, and ralph judges each of them alone: it cannot tell what they will run. Define and use it in the same call, or write the commands out.", why, strings.Join(uniq(l.Defs), "; ")), cmd, nil))
		}
		if a != nil {
			for _, c := range a.Cmds {
				if c.Name == "" && c.NameWord.Dynamic && !c.NameWord.FromInput && !c.Code {
					g.add(v, g.builtin("shell-state", fmt.Sprintf("the program `%s` in %s is a variable: %s, so its value may have been set by an earlier call, which ralph does not see. Name the program literally.", c.NameWord.Raw, quoted(c), why), cmd, nil))
				}
			}
		}
	}
	if r := l.Readers; len(r) > 0 {
		g.add(v, g.builtin("shell-state", fmt.Sprintf("it leaves %s reading what is typed next: %s, so the text that follows is read by it, not judged as the shell command it would be. Give it its input in the same call (a script, -c CODE, a here-document).", strings.Join(uniq(r), ", "), why), cmd, nil))
	}
	g.decide(v)
	if v.Decision == answer.Deny {
		v.Changes = nil
	}
}

// continued reports whether cmd ends with a backslash that escapes the
// newline after it: a line the shell continues with what comes next.
func continued(cmd string) bool {
	s := strings.TrimRight(cmd, "\n")
	n := len(s) - len(strings.TrimRight(s, `\`))
	return n%2 == 1
}

// readers are the interpreters typed text is judged as, besides shell:
// ralph reads their one-liners (package shell, code.go).
var readers = []string{"python3 -c", "node -e", "ruby -e", "perl -e"}

// typed judges text typed into a running process whose reader ralph does
// not know: as shell and as the code of each interpreter ralph reads,
// in a directory it does not know; the worst verdict stands. Text that
// does not parse as shell asks: ralph cannot tell what reads it.
func (g *Guard) typed(ev *event.Event, text string) *Verdict {
	v := g.Command(text, "")
	for i := range v.Findings {
		if v.Findings[i].Rule == "rm-unknown" {
			v.Findings[i].Reason += " (" + where(ev) + ": it does not know the directory relative paths are in.)"
		}
	}
	g.lasting(v, ev, text)
	for _, r := range readers {
		rv := g.Command(r+" "+quote(text), "")
		if rv.Decision.Worse(v.Decision) {
			rv.Target, rv.Analysis = text, v.Analysis
			for i := range rv.Findings {
				rv.Findings[i].Reason = "read as " + strings.Fields(r)[0] + " code: " + rv.Findings[i].Reason
			}
			rv.Findings = append(rv.Findings, v.Findings...)
			v = rv
		}
	}
	g.decide(v)
	if v.Decision == answer.Deny {
		v.Changes = nil
	}
	return v
}

// rewritten judges a command the agent rewrites before its shell runs it
// (event.Event.Runs: Gemini CLI strips a bash -c wrapper and wraps the
// rest in a subshell of its own) as the scripts it runs; the worst verdict
// stands.
func (g *Guard) rewritten(ev *event.Event, cmd, cwd string) *Verdict {
	var worst *Verdict
	for _, run := range ev.Runs {
		v := g.Command(run, cwd)
		if worst == nil || v.Decision.Worse(worst.Decision) {
			worst = v
		}
	}
	worst.Target = cmd
	how := "as Gemini CLI runs it (its bash -c wrapper stripped, the rest inside a subshell of its own, which a command can close): "
	for i := range worst.Findings {
		worst.Findings[i].Reason = how + worst.Findings[i].Reason
	}
	return worst
}

// quote quotes s as one shell word.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
