package cli

import (
	"fmt"
	"io"

	"github.com/ralph-hooks/ralph-hooks/internal/exit"
	"github.com/ralph-hooks/ralph-hooks/internal/statusline"
)

const statuslineUsage = `Usage: ralph statusline [--chain COMMAND]

statusline prints the one line Claude Code shows under its prompt, for
its statusLine setting (ralph install --statusline registers it). It reads
Claude Code's status JSON on stdin and names the session's loop: the
iteration in progress of its bound, the reinforcement level, the last
iteration's quality and the best one, and "⚑ waiting for you at gate-NNN"
when the loop stopped for your decision. With no loop it prints nothing.

  ralph fix-the-calc · iteration 4/12 STANDARD · quality 46.7 · best 80.0 (#2)

Flags:
  --chain COMMAND   run your own status line command first (sh -c, the same
                    input), and put ralph's line after its first line
`

// maxStatusInput bounds what statusline reads of stdin.
const maxStatusInput = 1 << 20

func statuslineCmd(e *env, args []string) error {
	fs := flags("statusline")
	chain := fs.String("chain", "", "")
	if help, err := parse(e, fs, statuslineUsage, args); help || err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return exit.Usagef("statusline: unexpected argument %q", fs.Arg(0))
	}
	input, err := io.ReadAll(io.LimitReader(e.stdin, maxStatusInput))
	if err != nil {
		return fmt.Errorf("statusline: reading stdin: %w", err)
	}
	ours, err := statusline.Line(input, e.getenv)
	if *chain == "" {
		if err != nil {
			return fmt.Errorf("statusline: %w", err)
		}
		if ours != "" {
			fmt.Fprintln(e.stdout, ours)
		}
		return nil
	}
	// Chained: the user's line is shown whatever befalls ralph's.
	if err != nil {
		fmt.Fprintf(e.stderr, "ralph: warning: statusline: %v\n", err)
	}
	theirs, cerr := statusline.Chain(*chain, input)
	if cerr != nil {
		fmt.Fprintf(e.stderr, "ralph: warning: statusline: %v\n", cerr)
	}
	if line := statusline.Join(theirs, ours); line != "" {
		fmt.Fprintln(e.stdout, line)
	}
	return nil
}
