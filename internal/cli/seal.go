package cli

import (
	"fmt"
	"os"
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

// sealInstall seals the agent's settings file as ralph install left it,
// and the install record: the hooks read them on every call.
func sealInstall(e *env, settings, record string) error {
	v, err := vault.Open(e.root(), e.getenv)
	if err != nil {
		return err
	}
	return v.SealInstall(settings, record)
}

// forgetInstall drops the seal of the settings file ralph uninstall took
// its registration out of; the install record, when other records remain
// in it, is sealed as it is now.
func forgetInstall(e *env, settings, record string) error {
	v, err := vault.Open(e.root(), e.getenv)
	if err != nil {
		return err
	}
	if err := v.Forget(settings, record); err != nil {
		return err
	}
	if _, err := os.Stat(record); err == nil {
		return v.SealOwn(record)
	}
	return nil
}
