// The ralph command manages ralph-hooks: it starts, controls and reports
// on Ralph loops (start, status, list, pause, resume, abort, report, gate,
// rollback, restore), runs task files through them unattended (run),
// explains and replays the guard's decisions (explain, log, replay),
// writes a project's aiwg.yml (init), registers the hooks with each agent
// and checks the setup (install, uninstall, doctor), shows a running loop
// to the human (statusline, ui), and shows and measures the hooks (demo,
// bench). Run it with --help.
package main

import (
	"os"

	"github.com/ralph-hooks/ralph-hooks/internal/cli"
)

func main() { os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
