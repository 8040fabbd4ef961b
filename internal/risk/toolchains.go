package risk

import "path/filepath"

// Version managers choose the program that runs for a name on PATH, for
// every later call and for the completion command, from files of the
// home directory: pyenv's shims source every hook of $PYENV_ROOT/pyenv.d
// (and of its plugins' etc/pyenv.d) before they run python, and run the
// python of the version that .python-version, $PYENV_ROOT/version or
// PYENV_VERSION names under $PYENV_ROOT/versions (pyenv 2 here: a hook in
// pyenv.d/exec, and a versions/evil/bin/python3 named by .python-version,
// each deleted tests/ at `python3 -c 1`). rbenv and nodenv work the same
// way (from their documentation). rustup runs the toolchain its
// settings.toml names as the default or a directory's override, and a
// toolchain of toolchains/ may be a link to any directory (rustup 1.29
// here: a toolchain linked to a directory of scripts ran its cargo for
// `cargo --version`). Writing there is writing code later calls run: it
// asks (startup-config), by every route that reaches ralph's own files.
// post-tool-call does not watch these directories (an installed Python
// alone holds thousands of files): a write by a route the guard cannot
// read is seen only by the Stop's test run.

// toolchainPaths returns the files and directories of the version
// managers that choose what a program's name runs.
func toolchainPaths(home string, getenv func(string) string) []string {
	var out []string
	for _, m := range []struct{ env, dir, hooks string }{
		{"PYENV_ROOT", ".pyenv", "pyenv.d"},
		{"RBENV_ROOT", ".rbenv", "rbenv.d"},
		{"NODENV_ROOT", ".nodenv", "nodenv.d"},
	} {
		root := getenv(m.env)
		if !filepath.IsAbs(root) {
			if !filepath.IsAbs(home) {
				continue
			}
			root = filepath.Join(home, m.dir)
		}
		for _, n := range []string{m.hooks, "plugins", "versions", "version"} {
			out = append(out, filepath.Join(root, n))
		}
	}
	rustup := getenv("RUSTUP_HOME")
	if !filepath.IsAbs(rustup) && filepath.IsAbs(home) {
		rustup = filepath.Join(home, ".rustup")
	}
	if filepath.IsAbs(rustup) {
		out = append(out, filepath.Join(rustup, "settings.toml"), filepath.Join(rustup, "toolchains"))
	}
	return out
}
