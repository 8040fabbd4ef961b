package proc

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// agents are the coding agents' executables (and npm packages' path
// elements) that mark a process as run by an agent.
var agents = map[string]bool{
	"claude": true, "claude-code": true, "codex": true, "gemini": true, "gemini-cli": true,
	"copilot": true, "cursor-agent": true, "opencode": true,
}

// interpreters run an agent's script: their arguments name the agent.
var interpreters = map[string]bool{
	"node": true, "nodejs": true, "bun": true, "deno": true, "npx": true, "npm": true,
	"pnpm": true, "yarn": true, "tsx": true, "ts-node": true,
}

// launchers are started by a command only to run another one: a process
// whose ancestry up to init holds nothing else was detached from whoever
// started it (a double fork, setsid, nohup).
var launchers = map[string]bool{
	"script": true, "setsid": true, "nohup": true, "timeout": true, "env": true, "stdbuf": true,
	"nice": true, "ionice": true, "xargs": true, "flock": true, "daemonize": true, "unbuffer": true,
	"expect": true, "python": true, "python3": true, "perl": true, "ruby": true, "node": true,
	"socat": true, "at": true, "atd": true, "disown": true, "watch": true, "make": true,
	"cron": true, "crond": true, "anacron": true, "systemd-run": true, "runuser": true, "su": true,
}

// initProc reports whether s is a process orphans are handed to.
func initProc(s string) bool {
	switch s {
	case "systemd", "init", "tini", "dumb-init", "launchd":
		return true
	}
	return false
}

// agentEnv are variables the agents set for the commands they run.
var agentEnv = []string{
	"CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT", "CLAUDE_CODE_SESSION_ID", "GEMINI_CLI",
	"CODEX_SANDBOX", "CODEX_SANDBOX_NETWORK_DISABLED", "OPENCODE", "CURSOR_AGENT",
}

// Agent says why this process counts as run by a coding agent, "" when it
// does not: an ancestor is an agent (claude, codex, gemini, copilot,
// cursor-agent, opencode, or an interpreter running one of them), or the
// environment holds an agent session's variables, or its ancestry was cut
// (only launchers between it and init: a double fork). The ancestry is read
// up to init, or up to the process top (exclusive) when top > 1: tests
// stand in for a human's terminal with their own process, and a process
// under them that reaches init without passing it was cut off.
func Agent(getenv func(string) string, top int) string {
	for _, k := range agentEnv {
		if getenv(k) != "" {
			return k + " is set: this runs in an agent's session"
		}
	}
	pid := os.Getppid()
	only := true // only launchers and shells so far
	for range 64 {
		if pid <= 1 || pid == top {
			break
		}
		name, ppid, ok := stat(pid)
		if !ok {
			return ""
		}
		if a := agentOf(name, cmdline(pid)); a != "" {
			return a + " (pid " + strconv.Itoa(pid) + ") runs it"
		}
		if initProc(name) {
			pid = 1
			break
		}
		only = only && (shells[name] || launchers[name])
		pid = ppid
	}
	// Init reached: the ancestry was cut (a double fork, setsid) when only
	// launchers stand between, or when top, an ancestor of everything
	// tests run, was never met.
	if pid == 1 && (only || top > 1) {
		if _, _, ok := stat(os.Getppid()); ok {
			return "it was detached from whoever started it (its ancestry ends at init)"
		}
	}
	return ""
}

// agentOf names the agent a process is, "" for none.
func agentOf(name string, argv []string) string {
	if agents[name] {
		return name
	}
	if strings.HasPrefix(name, "codex-") { // codex's native binary, codex-<target triple>
		return "codex"
	}
	if len(argv) == 0 {
		return ""
	}
	if b := filepath.Base(argv[0]); agents[b] {
		return b
	}
	if !interpreters[name] && !interpreters[filepath.Base(argv[0])] {
		return ""
	}
	for _, a := range argv[1:min(len(argv), 4)] {
		for _, part := range strings.Split(filepath.ToSlash(a), "/") {
			part = strings.TrimSuffix(strings.TrimSuffix(part, ".js"), ".mjs")
			if agents[part] {
				return part
			}
		}
	}
	return ""
}

// cmdline reads the arguments of pid from /proc (Linux), nil elsewhere.
func cmdline(pid int) []string {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil || len(data) == 0 {
		return nil
	}
	return strings.Split(strings.TrimRight(string(data), "\x00"), "\x00")
}
