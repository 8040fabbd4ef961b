package risk

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/shell"
	"github.com/ralph-hooks/ralph-hooks/internal/startup"
)

// What runs later, outside any tool call the guard sees: a job a scheduler
// runs (cron, at, systemd timers and units, launchd, anacron) or a process
// detached from the call (nohup, setsid, tmux new -d, …). Where package
// shell reads what is scheduled or detached, it is judged as if it ran now
// (an rm -rf tests queued with at is test-delete). What it cannot read asks
// (rule detached-job): a detached command whose program is computed, a
// scheduler whose payload is an editor's output or a unit file
// (crontab -e, systemctl start, launchctl load), daemon launchers whose
// command ralph does not walk, and writing the schedulers' own files
// (crontab spools, systemd user units, launchd agents, autostart entries).
// A process still running at the Stop is the stop hook's (package
// procscan).

// detachVia are the wrappers that detach or schedule what they run.
var detachVia = []string{"nohup", "setsid", "at", "batch", "crontab", "systemd-run", "tmux", "screen", "dtach", "abduco", "disown", "watch"}

// schedulerVerb reports whether verb of systemctl or launchctl (prog)
// starts a unit or job, or changes what the ones started later run. (A
// switch, not a map: pre-tool-call's start-up allocates nothing for it.)
func schedulerVerb(prog, verb string) bool {
	switch prog {
	case "systemctl":
		switch verb {
		case "start", "restart", "try-restart", "reload-or-restart", "try-reload-or-restart", "enable", "reenable",
			"link", "edit", "preset", "preset-all", "isolate", "set-environment", "import-environment", "revert",
			"add-wants", "add-requires":
			return true
		}
	case "launchctl":
		switch verb {
		case "load", "bootstrap", "submit", "enable", "kickstart", "start", "setenv", "asuser", "bsexec":
			return true
		}
	}
	return false
}

// serviceVerbs are the verbs of service, rc-service, initctl and sv that
// start a service.
var serviceVerbs = []string{"start", "restart", "reload", "force-reload", "try-restart", "condrestart", "emit", "up", "once"}

// daemonLauncher reports whether name starts a program as a daemon, whose
// command ralph does not walk, and the options and verbs of it that only
// list, show or stop (not asked). Schedulers' daemons run the tables of a
// directory they are given (crond -c DIR) or of the system's spools.
func daemonLauncher(name string) (benign []string, ok bool) {
	switch name {
	case "daemonize":
		return nil, true
	case "start-stop-daemon":
		return []string{"-K", "--stop", "-T", "--status", "-H", "--help", "-V", "--version"}, true
	case "pm2":
		return []string{"list", "ls", "status", "stop", "delete", "kill", "logs", "show", "describe", "monit", "--version", "-v", "help"}, true
	case "forever":
		return []string{"list", "stop", "stopall", "logs", "--help", "-h"}, true
	case "anacron":
		return []string{"-T", "-V", "-h"}, true
	case "crond", "cron", "atd":
		return []string{"-h", "--help"}, true
	case "supercronic":
		return []string{"-h", "--help", "-version"}, true
	}
	return nil, false
}

// bareDaemons start a daemon with no argument at all.
var bareDaemons = []string{"anacron", "crond", "cron", "atd"}

// detachedRules judges one command for the detached-job rule.
func (g *Guard) detachedRules(c *shell.Cmd) []Finding {
	if c.Remote != "" {
		return nil
	}
	text := quoted(c)
	ask := func(why string) []Finding {
		return []Finding{g.builtin("detached-job", why+" It runs later, outside any tool call, where ralph cannot judge it first. Run the command in the foreground, or ask the human to schedule it.", text, nil)}
	}
	if c.Name == "" && c.NameWord.Dynamic && (c.Background || slices.ContainsFunc(c.Via, detached)) {
		how := "run in the background (&)"
		if len(c.Via) > 0 {
			how = "detached or scheduled (through " + strings.Join(c.Via, " → ") + ")"
		}
		return ask(fmt.Sprintf("%s is %s and the program it runs, `%s`, is computed at run time.", text, how, c.NameWord.Raw))
	}
	args := make([]string, len(c.Args))
	for i, a := range c.Args {
		args[i] = a.Lit()
	}
	switch c.Name {
	case "crontab":
		for _, a := range args {
			if len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a[1:], 'e') {
				return ask(text + " installs whatever the editor ($VISUAL, $EDITOR) leaves in the table: commands cron runs later.")
			}
		}
	case "service", "rc-service", "initctl", "sv":
		// service NAME start, rc-service NAME start, initctl start NAME,
		// sv up NAME: a system service started, whose commands ralph does
		// not read.
		for _, a := range args {
			if slices.Contains(serviceVerbs, a) {
				return ask(fmt.Sprintf("%s %ss a service whose commands ralph does not read.", text, a))
			}
		}
	case "systemctl", "launchctl":
		for _, a := range args {
			if strings.HasPrefix(a, "-") {
				continue
			}
			if schedulerVerb(c.Name, a) {
				return ask(fmt.Sprintf("%s %ss a unit or job whose commands ralph does not read (its unit file or property list).", text, a))
			}
			break
		}
	default:
		benign, ok := daemonLauncher(c.Name)
		if !ok {
			return nil
		}
		if len(args) > 0 && (slices.Contains(benign, args[0]) || c.Name == "start-stop-daemon" && slices.ContainsFunc(args, func(a string) bool { return slices.Contains(benign, a) })) {
			return nil
		}
		if len(args) == 0 && !slices.Contains(bareDaemons, c.Name) {
			return nil
		}
		return ask(text + " starts a daemon whose command ralph does not read.")
	}
	return nil
}

// detached reports whether a Via element detaches or schedules.
func detached(v string) bool {
	name, _, _ := strings.Cut(v, " ")
	return slices.Contains(detachVia, name)
}

// schedulerPaths are the files and directories of the schedulers: what
// they hold runs later, on its own. The user's are package startup's
// (Schedulers), which post-tool-call watches too; the system's spools are
// written by crontab and at, which the guard reads.
func schedulerPaths(home string, getenv func(string) string) []string {
	return append([]string{
		"/etc/crontab", "/etc/cron.d", "/etc/cron.hourly", "/etc/cron.daily", "/etc/cron.weekly", "/etc/cron.monthly",
		"/etc/anacrontab", "/var/spool/cron", "/var/spool/anacron", "/var/spool/at", "/var/spool/atjobs",
		"/etc/systemd", "/usr/lib/cron/tabs", "/var/at", "/var/cron/tabs",
		"/Library/LaunchAgents", "/Library/LaunchDaemons", "/etc/xdg/autostart",
	}, startup.Schedulers(home, getenv)...)
}

// agentSchedules are the files from which Claude Code runs prompts later
// on its own (startup.AgentSchedules): .claude/scheduled_tasks.json holds
// CronCreate's durable jobs, which every later session of the project
// loads and fires, unasked, whether or not a loop still runs (its own
// sandbox refuses writes to it); .claude/loop.md is the prompt /loop
// repeats when given none, the project's or the user's. The prompts come
// back as turns whose tool calls the hooks judge, but the work they start
// is work no human asked for, after the loop's Stop judged it done.
// post-tool-call watches them for a route the guard could not read.
func agentSchedules(root, home string) []string { return startup.AgentSchedules(root, home) }

// detachedFinding is the finding for a write (what) that reaches one of
// the schedulers' files at p.
func (g *Guard) detachedFinding(what, p string) Finding {
	if startup.TaskFile(p) || filepath.Base(p) == "loop.md" && filepath.Base(filepath.Dir(p)) == ".claude" {
		return g.builtin("detached-job", fmt.Sprintf("%s would change %s, whose prompts Claude Code runs later on its own (scheduled tasks that every later session fires unasked, the prompt /loop repeats), after this loop has ended. Ask the human to schedule prompts.", what, g.rel(p)), what, nil)
	}
	if by := startup.HumanRunFile(p); by != "" {
		return g.builtin("detached-job", fmt.Sprintf("%s would change %s, whose commands run later on their own: %s, after this loop has ended, where ralph cannot read them first. Run the command now instead, or ask the human to change it.", what, g.rel(p), by), what, nil)
	}
	if startup.EditorTaskFile(p) {
		return g.builtin("detached-job", fmt.Sprintf("%s would change %s, whose tasks VS Code runs on its own when the folder is next opened (runOptions.runOn \"folderOpen\"), after this loop has ended, where ralph cannot judge them first. Run the command now instead, or ask the human to change the editor's tasks.", what, g.rel(p)), what, nil)
	}
	return g.builtin("detached-job", fmt.Sprintf("%s would change %s, whose commands a scheduler (cron, at, systemd, launchd, a session's autostart) runs later on its own, where ralph cannot read them first. Ask the human to schedule jobs or install services.", what, g.rel(p)), what, nil)
}
