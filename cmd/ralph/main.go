// The ralph command manages ralph-hooks: explain decisions, read the audit
// log, roll back checkpoints. Run it with --help.
package main

import (
	"os"

	"github.com/ralph-hooks/ralph-hooks/internal/cli"
)

func main() { os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
