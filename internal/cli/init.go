package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/ralph-hooks/ralph-hooks/internal/exit"
	"github.com/ralph-hooks/ralph-hooks/internal/initcfg"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/state"
)

const initUsage = `Usage: ralph init [--dry-run] [--force]

init writes the project's aiwg.yml from what the project is: go.mod,
package.json (jest, vitest, mocha or its test script), pyproject.toml and
the other Python files (pytest, pytest-cov), Cargo.toml, pom.xml or
build.gradle, a Gemfile (RSpec or minitest), else a Makefile's test target.
It sets the completion command a loop is judged by, the globs of the test
files, and a coverage metric where the runner gives one, each with a
comment. Only files at the project's root are read; nothing is run.

Flags:
  --dry-run   print the file instead of writing it
  --force     replace an existing aiwg.yml (the old one is kept as
              aiwg.yml.bak)
`

func initCmd(e *env, args []string) error {
	fl := flags("init")
	dry := fl.Bool("dry-run", false, "")
	force := fl.Bool("force", false, "")
	if help, err := parse(e, fl, initUsage, args); help || err != nil {
		return err
	}
	if fl.NArg() > 0 {
		return exit.Usagef("init: unexpected argument %q", fl.Arg(0))
	}
	root := e.root()
	runners := initcfg.Detect(root)
	data := initcfg.Generate(runners)
	if _, err := initcfg.Check(data); err != nil {
		return fmt.Errorf("init: the aiwg.yml it made does not load (a bug of ralph init): %w", err)
	}
	if *dry {
		_, err := e.stdout.Write(data)
		return err
	}
	path := project.Layout{Root: root}.Config()
	old, err := os.ReadFile(path)
	switch {
	case err == nil && !*force:
		return fmt.Errorf("init: %s exists; ralph init --dry-run shows what it would write, --force replaces it", path)
	case err == nil:
		if err := state.WriteFile(path+".bak", old, 0o644); err != nil {
			return fmt.Errorf("init: keeping %s: %w", path, err)
		}
	case !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("init: %w", err)
	}
	if err := state.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("init: %w", err)
	}
	fmt.Fprintf(e.stdout, "Wrote %s\n", path)
	if len(runners) == 0 {
		fmt.Fprintln(e.stdout, "  no test runner found: set completion.command in it, or pass ralph start --completion")
	}
	for _, s := range initcfg.Summary(runners) {
		fmt.Fprintf(e.stdout, "  %s\n", s)
	}
	if old != nil {
		fmt.Fprintf(e.stdout, "The old one is %s.bak\n", path)
	}
	fmt.Fprintf(e.stdout, "\nNext: ralph install, then start a loop: ralph start \"TASK\" (its completion command is in aiwg.yml)\n")
	return nil
}
