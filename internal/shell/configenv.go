package shell

import (
	"path/filepath"
	"strings"
)

// Tools read code and the commands they run from a directory or file an
// environment variable can point elsewhere, to one the agent writes
// freely (a temp directory): git copies the hooks of $GIT_TEMPLATE_DIR
// into the repository git init or git clone makes, and clone runs its
// post-checkout at once; git runs its helpers and non-builtin commands
// from $GIT_EXEC_PATH (and --exec-path=DIR); go reads GOFLAGS (-exec,
// -toolexec) and CC from the file $GOENV names; cargo its runners,
// rustc wrappers and aliases from $CARGO_HOME/config.toml; npm its
// script-shell and node-options from $npm_config_userconfig (and the
// global one); Python runs the usercustomize module and .pth files of
// $PYTHONUSERBASE's site-packages at start; sudo -A runs the program
// $SUDO_ASKPASS names. The hook's own environment's are the user's (the
// startup-config files). One the line sets, to a place that holds what
// the tool would read, asks: ralph does not read those formats there
// (SUDO_ASKPASS's program is walked as run).

// configEnv judges the variables of the line that point program name at
// another configuration or code.
func (w *walker) configEnv(c *ctx, name string, args []Word, sc *scope) {
	set := func(k string) (string, bool) {
		v, ok := sc.vars[k]
		if !ok {
			return "", false
		}
		outside := ""
		if w.a.Env != nil {
			outside = w.a.Env(k)
		}
		if v.dynamic || len(v.vals) != 1 {
			return "\x00", true
		}
		if v.vals[0] == outside || v.vals[0] == "" {
			return "", false
		}
		return dirOf(v.vals[0], sc), true
	}
	ask := func(k, v, what string) {
		if v == "\x00" {
			w.opaque(name + " with $" + k + " computed at run time: " + what)
			return
		}
		w.opaque(name + " with $" + k + "=" + v + ": " + what + ", which ralph does not read there")
	}
	exists := func(p string) bool {
		if p == "\x00" {
			return true
		}
		if w.a.ReadFile == nil {
			return true // nothing can be read: what is there is not known
		}
		if _, ok := w.readText(p); ok {
			return true
		}
		if w.a.ReadDir != nil {
			if _, err := w.a.ReadDir(p); err == nil {
				return true
			}
		}
		return false
	}
	switch name {
	case "git":
		_, sub, _ := gitConfig(args, sc)
		if v, ok := set("GIT_TEMPLATE_DIR"); ok && (sub == "init" || sub == "clone") && exists(filepath.Join(v, "hooks")) {
			ask("GIT_TEMPLATE_DIR", v, "the hooks git copies from the template directory, run by git clone's checkout and later git commands")
		}
		if v, ok := set("GIT_EXEC_PATH"); ok {
			ask("GIT_EXEC_PATH", v, "the directory git runs its helpers and non-builtin commands from")
		}
		for i, a := range args {
			s := a.Lit()
			if strings.ToLower(s) == sub {
				break
			}
			if d, ok := strings.CutPrefix(s, "--exec-path="); ok && d != "" {
				w.opaque("git --exec-path=" + d + ": the directory git runs its helpers and non-builtin commands from, which ralph does not read")
			} else if s == "--exec-path" && i+1 < len(args) && !strings.HasPrefix(args[i+1].Lit(), "-") {
				w.opaque("git --exec-path " + args[i+1].Raw + ": the directory git runs its helpers and non-builtin commands from, which ralph does not read")
			}
		}
	case "go":
		if v, ok := set("GOENV"); ok && filepath.Base(v) != "off" && exists(v) {
			ask("GOENV", v, "the go env file, whose GOFLAGS (-exec, -toolexec) and CC go runs")
		}
	case "cargo", "rustc", "rustup", "cargo-nextest":
		if v, ok := set("CARGO_HOME"); ok && (exists(filepath.Join(v, "config.toml")) || exists(filepath.Join(v, "config"))) {
			ask("CARGO_HOME", v, "cargo's configuration there, whose runners, rustc wrappers and aliases cargo runs")
		}
	case "npm", "npx", "pnpm", "yarn":
		for _, k := range []string{"npm_config_userconfig", "NPM_CONFIG_USERCONFIG", "npm_config_globalconfig", "NPM_CONFIG_GLOBALCONFIG"} {
			if v, ok := set(k); ok && exists(v) {
				ask(k, v, "an npmrc whose script-shell and node-options npm runs")
			}
		}
	case "sudo":
		if v, ok := set("SUDO_ASKPASS"); ok && (hasFlag(args, "A") || sudoLong(args, "--askpass")) {
			if v == "\x00" {
				ask("SUDO_ASKPASS", v, "the program sudo -A runs for the password")
			} else {
				w.exec(c.with("SUDO_ASKPASS"), []Word{{Raw: v, Values: []string{v}}}, sc, nil, nil)
			}
		}
	default:
		if interpreter(name) == "python" {
			if v, ok := set("PYTHONUSERBASE"); ok && exists(filepath.Join(v, "lib")) {
				ask("PYTHONUSERBASE", v, "the user site-packages, whose usercustomize and .pth files Python runs at start")
			}
		}
	}
}

// sudoLong reports whether args holds the long option s among the
// options before the command sudo runs.
func sudoLong(args []Word, s string) bool {
	for _, a := range args {
		l := a.Lit()
		if l == s {
			return true
		}
		if !strings.HasPrefix(l, "-") {
			return false
		}
	}
	return false
}
