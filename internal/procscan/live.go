package procscan

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/clip"
	"github.com/ralph-hooks/ralph-hooks/internal/proc"
)

// ErrUnsupported is Live's error where there is no /proc to read.
var ErrUnsupported = errors.New("no /proc on " + runtime.GOOS + ": the processes the agent left running are not listed")

// Supported reports whether Live can list processes here (Linux).
func Supported() bool { return runtime.GOOS == "linux" }

// Options say whose processes Live lists.
type Options struct {
	Proc string // the proc file system's directory: /proc
	Root string // the project's root: a process working in it is the agent's
	Loop string // the loop's id: RALPH_LOOP_ID=Loop in a process's environment marks it
	// Session is the agent's session id: CLAUDE_CODE_SESSION_ID=Session
	// (Claude Code sets it for what it runs) marks a process too, as
	// CLAUDE_PID=<the agent's pid> does.
	Session string
	Since   time.Time // when the loop began: processes started before are not the loop's
	Self    int       // this process: it and its ancestors are ralph's or the agent
	// Own is the directory of ralph's executables: a process running one
	// of them is ralph's own.
	Own string
	// MaxRead bounds how many processes started since the loop began
	// are looked into (their working directory and environment read);
	// 0 is 4096.
	MaxRead int
}

// Live returns the processes the loop's agent left running (see the
// package comment), with their working directory and command line.
func Live(o Options) ([]Proc, error) {
	if !Supported() && o.Proc == "/proc" {
		return nil, ErrUnsupported
	}
	fs, err := openProc(o.Proc)
	if err != nil {
		return nil, err
	}
	defer fs.close()
	b, err := fs.readFile("stat")
	if err != nil {
		return nil, err
	}
	boot, err := ParseBootTime(b)
	if err != nil {
		return nil, err
	}
	procs, err := readTable(fs)
	if err != nil {
		return nil, err
	}
	if r, err := filepath.EvalSymlinks(o.Root); err == nil {
		o.Root = r // /proc names the directory a process works in resolved
	}
	return pick(fs, procs, o, boot), nil
}

// pick selects the agent's processes from the table procs.
func pick(fs *procFS, procs []Proc, o Options, boot time.Time) []Proc {
	by := make(map[int]*Proc, len(procs))
	children := map[int][]*Proc{}
	for i := range procs {
		p := &procs[i]
		by[p.PID] = p
		children[p.PPID] = append(children[p.PPID], p)
	}
	skip := map[int]bool{}
	// This process and its ancestors: ralph's hook, the shell that ran
	// it, the agent (and whatever ran the agent).
	var chain []*Proc
	for pid, n := o.Self, 0; pid > 0 && n < 64; n++ {
		p := by[pid]
		if p == nil || skip[pid] {
			break
		}
		skip[pid] = true
		chain = append(chain, p)
		pid = p.PPID
	}
	// The agent is the nearest ancestor that is a coding agent. What it
	// runs for itself is kept: the subtree of each child of it that is
	// not a shell (its MCP servers, language servers), and of each child
	// started with this hook's (the other hooks of the same event, which
	// the agent runs together).
	keep := map[int]bool{}
	agent := 0
	for i, p := range chain {
		if i == 0 || !proc.IsAgent(p.Comm, args(fs, p.PID)) {
			continue
		}
		agent = p.PID
		hook := chain[i-1]
		for _, c := range children[p.PID] {
			if !proc.IsShell(c.Comm) || c.Start+ticks >= hook.Start {
				keep[c.PID] = true
			}
		}
		break
	}
	// No agent among the ancestors (one ralph does not know, a human's
	// terminal, a script): the shell that runs this hook runs nothing else
	// of the agent's, but what its command line pipes this hook into.
	if agent == 0 && len(chain) > 1 && proc.IsShell(chain[1].Comm) {
		keep[chain[1].PID] = true
	}
	kept := func(p *Proc) bool {
		for n := 0; p != nil && n < 64; n++ {
			if keep[p.PID] {
				return true
			}
			if p.PPID == p.PID {
				break
			}
			p = by[p.PPID]
		}
		return false
	}
	// A stat's start time counts from boot, which btime gives to the
	// second: a process started in the loop's first second is in.
	var since uint64
	if d := o.Since.Sub(boot) - time.Second; d > 0 {
		since = uint64(d / (time.Second / ticks))
	}
	limit := o.MaxRead
	if limit <= 0 {
		limit = 4096
	}
	// The environment entries that mark a process as the agent's, wherever
	// it works.
	var marks []string
	if o.Loop != "" {
		marks = append(marks, "RALPH_LOOP_ID="+o.Loop)
	}
	if o.Session != "" {
		marks = append(marks, "CLAUDE_CODE_SESSION_ID="+o.Session)
	}
	if agent > 0 {
		marks = append(marks, "CLAUDE_PID="+strconv.Itoa(agent))
	}
	own := func(pid int) bool {
		exe, err := fs.readlink(strconv.Itoa(pid) + "/exe")
		return err == nil && o.Own != "" && filepath.Dir(strings.TrimSuffix(exe, " (deleted)")) == o.Own
	}
	var out []Proc
	for i := range procs {
		p := &procs[i]
		if p.Start < since || skip[p.PID] || p.PID <= 2 || p.PPID == 2 || p.State == 'Z' || p.State == 'X' || kept(p) {
			continue
		}
		if limit--; limit < 0 {
			break
		}
		dir := strconv.Itoa(p.PID) + "/"
		cwd, _ := fs.readlink(dir + "cwd")
		mine := inside(cwd, o.Root)
		if !mine && len(marks) > 0 {
			env, _ := fs.readFile(dir + "environ")
			mine = slices.ContainsFunc(marks, func(m string) bool { return hasEnv(env, m) })
		}
		if !mine || own(p.PID) {
			continue
		}
		// A shell of the agent's that only waits for ralph's own program
		// (the status line's command, a hook's) is ralph's.
		if agent > 0 && p.PPID == agent && proc.IsShell(p.Comm) && len(children[p.PID]) > 0 &&
			!slices.ContainsFunc(children[p.PID], func(c *Proc) bool { return !own(c.PID) }) {
			continue
		}
		q := *p
		q.Cwd = cwd
		b, _ := fs.readFile(dir + "cmdline")
		q.Cmdline = ParseCmdline(b)
		if q.Cmdline == "" {
			if _, err := fs.readlink(dir + "exe"); err != nil {
				// No command line and no program: its memory is gone, it
				// is exiting (a hook of ralph's own, run beside this one,
				// between its last write and its exit) and runs nothing.
				continue
			}
			q.Cmdline = "[" + p.Comm + "]"
		}
		out = append(out, q)
	}
	return out
}

// args reads the arguments of process pid.
func args(fs *procFS, pid int) []string {
	b, err := fs.readFile(strconv.Itoa(pid) + "/cmdline")
	if err != nil {
		return nil
	}
	return strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
}

// MaxBlocks is how many judgements of a loop in a row (Stops, or ralph
// run's own) are refused for processes left running before the loop
// fails: an agent that cannot or will not stop them ends the loop with
// the reason, instead of being sent back for ever.
const MaxBlocks = 5

// Names lists processes as "pid N: command line (in DIR)", at most 8.
func Names(ps []Proc) string {
	var out []string
	for _, p := range ps {
		out = append(out, fmt.Sprintf("pid %d: %s (in %s)", p.PID, clip.Line(p.Cmdline, 120), p.Cwd))
	}
	return strings.Join(clip.List(out, 8), "; ")
}
