package statusline

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/ralph-hooks/ralph-hooks/internal/exit"
)

// Usage is the help of ralph statusline and of ralph-statusline.
const Usage = `Usage: ralph statusline [--chain COMMAND]
       ralph-statusline [--chain COMMAND]

statusline prints the one line Claude Code shows under its prompt, for
its statusLine setting (ralph install --statusline registers it). It reads
Claude Code's status JSON on stdin and names the session's loop: the
iteration in progress of its bound, the reinforcement level, the last
iteration's quality and the best one, and "⚑ waiting for you at gate-NNN"
when the loop stopped for your decision. With no loop it prints nothing.

  ralph fix-the-calc · iteration 4/12 STANDARD · quality 46.7 · best 80.0 (#2)

ralph-statusline is the same command as a binary of its own, which
starts in a fraction of ralph's time (Claude Code runs it at every
message); ralph install --statusline registers it when it is there.

Flags:
  --chain COMMAND   run your own status line command first (sh -c, the same
                    input), and put ralph's line after its first line
`

// maxInput bounds what statusline reads of stdin.
const maxInput = 1 << 20

// Main runs the status line command with args (no program name), stdin
// and stdout, diagnostics on stderr, and returns the exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return exit.Report(stderr, Run(args, stdin, stdout, stderr, os.Getenv))
}

// Run is Main with the environment given and an error returned.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) error {
	fs := flag.NewFlagSet("statusline", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	chain := fs.String("chain", "", "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, Usage)
			return nil
		}
		return exit.Usagef("statusline: %v", err)
	}
	if fs.NArg() > 0 {
		return exit.Usagef("statusline: unexpected argument %q", fs.Arg(0))
	}
	input, err := io.ReadAll(io.LimitReader(stdin, maxInput))
	if err != nil {
		return fmt.Errorf("statusline: reading stdin: %w", err)
	}
	ours, err := Line(input, getenv)
	if *chain == "" {
		if err != nil {
			return fmt.Errorf("statusline: %w", err)
		}
		if ours != "" {
			fmt.Fprintln(stdout, ours)
		}
		return nil
	}
	// Chained: the user's line is shown whatever befalls ralph's.
	if err != nil {
		fmt.Fprintf(stderr, "ralph: warning: statusline: %v\n", err)
	}
	theirs, cerr := Chain(*chain, input)
	if cerr != nil {
		fmt.Fprintf(stderr, "ralph: warning: statusline: %v\n", cerr)
	}
	if line := Join(theirs, ours); line != "" {
		fmt.Fprintln(stdout, line)
	}
	return nil
}
