package cli

import "github.com/ralph-hooks/ralph-hooks/internal/statusline"

// statuslineCmd is ralph statusline: the same command as the
// ralph-statusline binary (package statusline).
func statuslineCmd(e *env, args []string) error {
	return statusline.Run(args, e.stdin, e.stdout, e.stderr, e.getenv)
}
