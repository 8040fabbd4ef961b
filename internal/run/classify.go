package run

import (
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"strings"
	"sync"
)

// Kind is what a failure means for the task.
type Kind int

// Kinds of an agent run's outcome.
const (
	OK        Kind = iota // the run ended normally: its work is judged
	Failed                // the agent exited non-zero for no known reason: the work is judged (the iteration counts)
	Transient             // infrastructure: the step is tried again after a backoff
	Hard                  // the task cannot go on: rejected at once
)

func (k Kind) String() string {
	return [...]string{"ok", "failed", "transient", "hard"}[k]
}

// Class is the classification of one agent run.
type Class struct {
	Kind   Kind
	Reason string
}

// Exit codes of sysexits.h that say a try later may work, and those that
// say it will not.
var (
	transientExits = map[int]string{69: "service unavailable (exit 69)", 75: "temporary failure (exit 75)"}
	hardExits      = map[int]string{
		64: "usage error (exit 64)", 65: "data error (exit 65)", 66: "input not found (exit 66)",
		67: "user not found (exit 67)", 68: "host not found (exit 68)", 77: "permission denied (exit 77)",
		78:  "configuration error (exit 78)",
		126: "the agent command is not executable (exit 126)", 127: "the agent command was not found (exit 127)",
	}
)

// Patterns in the last lines of a failed run's output. Hard ones win over
// transient ones, and both only classify a run that already failed with a
// code that says nothing else: output never turns a hard failure into a
// transient one.
// (Compiled on first use: every ralph command would pay for them at start.)
var (
	hardOutput = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)invalid api key|authentication_error|permission_error|invalid_request_error|` +
			`credit balance is too low|please run /login|\b401 unauthorized|\b403 forbidden`)
	})
	transientOutput = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)rate[ _-]?limit|too many requests|\b429\b|overloaded|` +
			`api error: 5\d\d|\bstatus(?: code)?:? 5\d\d\b|\b50[234] (?:bad gateway|service unavailable|gateway timeout)|` +
			`service unavailable|temporarily unavailable|` +
			`\betimedout\b|\beconnreset\b|\beconnrefused\b|\beai_again\b|\benotfound\b|socket hang up|` +
			`connection (?:reset|refused|error|timed out)|network error|request timed out|timed out waiting`)
	})
)

// outputLines is how much of a failed run's output the patterns read.
const outputLines = 30

// Classify classifies one agent run, in the order of the table in
// README.md: what ralph knows first (the command could not start, ralph
// stopped it, a signal killed it, its exit code), the agent's output last.
func Classify(r Result) Class {
	switch {
	case r.StartErr != nil:
		if errors.Is(r.StartErr, fs.ErrNotExist) || errors.Is(r.StartErr, fs.ErrPermission) {
			return Class{Hard, "the agent command cannot start: " + r.StartErr.Error()}
		}
		return Class{Transient, "the agent command could not start: " + r.StartErr.Error()}
	case r.TimedOut:
		return Class{Transient, fmt.Sprintf("no iteration ended within persistence_loop.timeout.per_step (%v): ralph stopped the agent", r.PerStep)}
	case r.Signal != "":
		return Class{Transient, "the agent was killed by " + r.Signal}
	case r.Exit == 0:
		return Class{OK, "the agent exited 0"}
	}
	if why, ok := hardExits[r.Exit]; ok {
		return Class{Hard, why}
	}
	if why, ok := transientExits[r.Exit]; ok {
		return Class{Transient, why}
	}
	if r.Exit > 128 && r.Exit < 128+65 {
		// The shell reports a command killed by signal N as 128+N.
		return Class{Transient, fmt.Sprintf("the agent was killed by signal %d (exit %d)", r.Exit-128, r.Exit)}
	}
	out := lastLines(r.Output, outputLines)
	if loc := hardOutput().FindStringIndex(out); loc != nil {
		return Class{Hard, fmt.Sprintf("the agent exited %d: %q in its output", r.Exit, lineAt(out, loc[0]))}
	}
	if loc := transientOutput().FindStringIndex(out); loc != nil {
		return Class{Transient, fmt.Sprintf("the agent exited %d: %q in its output", r.Exit, lineAt(out, loc[0]))}
	}
	return Class{Failed, fmt.Sprintf("the agent exited %d", r.Exit)}
}

// lineAt returns the line of s around offset i, trimmed to 120 bytes.
func lineAt(s string, i int) string {
	start := strings.LastIndexByte(s[:i], '\n') + 1
	end := strings.IndexByte(s[i:], '\n')
	if end < 0 {
		end = len(s)
	} else {
		end += i
	}
	l := strings.TrimSpace(s[start:end])
	if len(l) > 120 {
		cut := 117
		for cut > 0 && l[cut]&0xC0 == 0x80 {
			cut--
		}
		l = l[:cut] + "…"
	}
	return l
}

// lastLines returns the last n lines of s.
func lastLines(s string, n int) string {
	s = strings.TrimRight(s, "\n")
	for i, k := len(s), 0; i > 0; i-- {
		if s[i-1] == '\n' {
			k++
			if k == n {
				return s[i:]
			}
		}
	}
	return s
}
