package cli

import (
	"fmt"
	"path/filepath"

	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/exit"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/vault"
)

const configUsage = `Usage: ralph config accept

While a loop runs, ralph holds aiwg.yml to the copy it loaded, kept
outside the project (the user's state directory; RALPH_STATE_HOME
overrides it): any change it did not make is undone by the next hook, the
rejected file kept there, and the loop goes to the human gate. To change
the configuration while a loop runs, edit aiwg.yml, then run

  ralph config accept   check aiwg.yml and make it the configuration
                        ralph holds the project to

from a terminal of your own: only the human runs it. Edits made while no
loop runs need nothing: ralph start takes aiwg.yml as it is.
`

func configCmd(e *env, args []string) error {
	fs := flags("config")
	if help, err := parse(e, fs, configUsage, args); help || err != nil {
		return err
	}
	if fs.NArg() != 1 || fs.Arg(0) != "accept" {
		return exit.Usagef("config: want the subcommand accept (ralph config --help)")
	}
	root := e.root()
	path := project.Layout{Root: root}.Config()
	if _, err := config.Load(path); err != nil {
		return fmt.Errorf("config accept: %w; fix it first", err)
	}
	v, err := vault.Open(root, e.getenv)
	if err != nil {
		return fmt.Errorf("config accept: %w", err)
	}
	if err := v.SealConfig(); err != nil {
		return fmt.Errorf("config accept: %w", err)
	}
	fmt.Fprintf(e.stdout, "Accepted %s: the hooks hold the project to it (copy in %s)\n", path, filepath.Dir(v.Dir))
	return nil
}

// sealConfig seals aiwg.yml as ralph start loaded it, before the loop is
// registered: from then on, a change ralph did not make is undone.
func sealConfig(e *env, root string) error {
	v, err := vault.Open(root, e.getenv)
	if err != nil {
		return err
	}
	return v.SealConfig()
}
