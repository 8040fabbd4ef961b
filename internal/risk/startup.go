package risk

import (
	"fmt"
	"path/filepath"
)

// Shells and tools run what some files of the home directory hold, later
// and on their own: the shell startup files (Claude Code reads them into
// the shell of every later session, so an alias written in one iteration
// runs in the next where the guard sees only the alias's name), ssh's
// configuration (ProxyCommand, rc), and tool configuration that names a
// program or changes how a test runner runs (npm's script-shell, yarn's
// yarnPath, GOFLAGS in the go env file, a cargo runner, a docker
// credential helper). Writing them asks (rule startup-config), by every
// route that reaches ralph's own files, as git's hooks do (gitexec.go).

// startupNames are those files, relative to the home directory.
var startupNames = []string{
	".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".bash_aliases", ".profile",
	".zshrc", ".zshenv", ".zprofile", ".zlogin", ".zlogout", ".kshrc", ".mkshrc", ".cshrc", ".tcshrc", ".login",
	".config/fish", ".ssh/config", ".ssh/rc", ".npmrc", ".yarnrc", ".yarnrc.yml", ".config/go/env",
	".cargo/config", ".cargo/config.toml", ".pip/pip.conf", ".config/pip/pip.conf", ".docker/config.json",
	".config/direnv", ".direnvrc",
}

// startupPaths returns those files for home, and the ones the environment
// names (BASH_ENV and ENV, read by every non-interactive bash and sh;
// ZDOTDIR's zsh files; GOENV).
func startupPaths(home string, getenv func(string) string) []string {
	var out []string
	if filepath.IsAbs(home) {
		for _, n := range startupNames {
			out = append(out, filepath.Join(home, filepath.FromSlash(n)))
		}
	}
	for _, k := range []string{"BASH_ENV", "ENV", "GOENV"} {
		if v := getenv(k); filepath.IsAbs(v) {
			out = append(out, filepath.Clean(v))
		}
	}
	if z := getenv("ZDOTDIR"); filepath.IsAbs(z) {
		for _, n := range []string{".zshrc", ".zshenv", ".zprofile", ".zlogin"} {
			out = append(out, filepath.Join(z, n))
		}
	}
	return out
}

// startupFinding is the finding for a write (what) that reaches one of
// those files at p.
func (g *Guard) startupFinding(what, p string) Finding {
	return g.builtin("startup-config", fmt.Sprintf("%s would change %s, which later shells or tools run or obey on their own (the next session's shell, the completion command) where ralph cannot read it first. Ask the human to change shell startup files and tool configuration.", what, g.rel(p)), what, nil)
}
