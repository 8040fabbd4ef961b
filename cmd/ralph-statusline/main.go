// The ralph-statusline command is `ralph statusline` as a binary of its
// own, for Claude Code's statusLine setting, which runs it at every
// message: it links only the status line's packages, so it starts in a
// fraction of ralph's time. Run it with --help.
package main

import (
	"os"

	"github.com/ralph-hooks/ralph-hooks/internal/statusline"
)

func main() { os.Exit(statusline.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
