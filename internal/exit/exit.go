// Package exit maps errors to process exit codes, in one place, for every
// ralph-hooks binary.
//
// The codes follow the agents' hook contract and the Go commands' habits:
// 0 is success (whatever the decision), 1 is a failure of ralph itself (bad
// input, unreadable config, corrupt state: the agent treats it as a
// non-blocking error), 2 is a usage error of the ralph CLI. Hooks never use
// exit code 2 to block: a block is always an answer on stdout.
package exit

import (
	"errors"
	"fmt"
	"io"
	"strings"
)

// Exit codes.
const (
	OK      = 0 // success; for a hook, the answer (if any) is on stdout
	Failure = 1 // ralph could not do its job; details on stderr
	Usage   = 2 // the command line was wrong (ralph CLI only)
)

// UsageError reports a bad command line.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// Usagef returns a *UsageError with a formatted message.
func Usagef(format string, args ...any) error {
	return &UsageError{Msg: fmt.Sprintf(format, args...)}
}

// Code returns the exit code for err.
func Code(err error) int {
	var ue *UsageError
	switch {
	case err == nil:
		return OK
	case errors.As(err, &ue):
		return Usage
	default:
		return Failure
	}
}

// Hook returns the exit code a hook binary uses for err. It is never Usage:
// agents read exit code 2 from a hook as "block", and a hook must never
// block by accident.
func Hook(err error) int {
	if Code(err) != OK {
		return Failure
	}
	return OK
}

// Report prints err to stderr as one line, "ralph: error: …", and returns
// its exit code. Newlines inside the message are flattened so the agent's
// hook runner, which often shows only the first line, sees all of it.
func Report(stderr io.Writer, err error) int {
	if err == nil {
		return OK
	}
	msg := strings.ReplaceAll(strings.TrimSpace(err.Error()), "\n", "; ")
	fmt.Fprintf(stderr, "ralph: error: %s\n", msg)
	var ue *UsageError
	if errors.As(err, &ue) {
		fmt.Fprintf(stderr, "ralph: hint: run with --help for usage\n")
	}
	return Code(err)
}
