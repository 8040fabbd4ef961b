// The ralph command manages ralph-hooks: it starts, controls and reports
// on Ralph loops (start, status, list, pause, resume, abort, report, gate,
// rollback, restore), explains and replays the guard's decisions (explain,
// log, replay), registers the hooks with the agent and checks the setup
// (install, uninstall, doctor), and shows and measures them (demo, bench).
// Run it with --help.
package main

import (
	"os"

	"github.com/ralph-hooks/ralph-hooks/internal/cli"
)

func main() { os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
