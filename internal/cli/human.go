package cli

import (
	"errors"
	"os"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/proc"
)

// humanVerbs end or weaken a loop, or decide for it: only the human runs
// them. The value says which flags make a run harmless (it only prints).
var humanVerbs = map[string][]string{
	"pause": nil, "resume": nil, "abort": nil, "gate": nil, "ui": nil, "config": nil,
	"install": {"dry-run"}, "uninstall": {"dry-run"}, "init": {"dry-run"},
	"run": {"!stop"}, // only run --stop: asks a run to stop
}

// errAgent is the refusal of a human-only verb run by the agent.
var errAgent = errors.New("only the human runs this")

// checkHuman refuses a human-only verb when the agent runs it, whatever the
// binary is called or wherever it was copied: who runs it is read from the
// process's ancestry and environment (package proc), not from its name.
func checkHuman(e *env, verb string, args []string) error {
	harmless, ok := humanVerbs[verb]
	if !ok || e.agent == nil {
		return nil
	}
	for _, a := range args {
		f := strings.TrimLeft(a, "-")
		if a != f && (f == "h" || f == "help") {
			return nil
		}
	}
	only := harmless
	if len(only) == 1 && strings.HasPrefix(only[0], "!") { // refused only with this flag
		if !hasFlag(args, only[0][1:]) {
			return nil
		}
		only = nil
	}
	for _, f := range only {
		if hasFlag(args, f) {
			return nil
		}
	}
	why := e.agent()
	if why == "" {
		return nil
	}
	return &agentError{verb: verb, why: why}
}

func hasFlag(args []string, name string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		f, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "-") && f == name {
			return true
		}
	}
	return false
}

// agentError says that an agent ran a human-only verb.
type agentError struct{ verb, why string }

func (e *agentError) Error() string {
	return "ralph " + e.verb + " is the human's: " + e.why + "; ask the human to run it in a terminal of their own"
}

func (e *agentError) Unwrap() error { return errAgent }

// agentOf is how ralph tells who runs it: proc.Agent up to init, or up to
// the process top when top > 1.
func agentOf(top int) func() string {
	return func() string { return proc.Agent(os.Getenv, top) }
}
