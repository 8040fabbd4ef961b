// The ralph command manages ralph-hooks: it starts, controls and reports
// on Ralph loops (start, status, list, pause, resume, abort, report, gate,
// rollback, restore), runs task files through them unattended (run),
// explains and replays the guard's decisions (explain, log, replay),
// writes a project's aiwg.yml (init) and accepts a human's edit of it
// while a loop runs (config accept), registers the hooks with each agent
// and checks the setup (install, uninstall, doctor), shows a running loop
// to the human (statusline, ui), and shows and measures the hooks (demo,
// bench). The verbs that end, weaken or decide a loop refuse to act when
// a coding agent runs them, whatever this binary is called. Run it with
// --help.
package main

import (
	"os"

	"github.com/ralph-hooks/ralph-hooks/internal/cli"
)

func main() { os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
