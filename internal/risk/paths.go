package risk

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/ralph-hooks/ralph-hooks/internal/vault"
)

// tempDirs returns the directories whose contents are scratch space: the
// temp directories and the user's caches. A TMPDIR that is /, a system
// directory or holds the home directory is not scratch space.
func tempDirs(getenv func(string) string) []string {
	dirs := []string{"/tmp", "/var/tmp", "/dev/shm", "/private/tmp", "/private/var/folders"}
	h := getenv("HOME")
	if filepath.IsAbs(h) {
		dirs = append(dirs, filepath.Join(h, ".cache"), filepath.Join(h, "Library", "Caches"))
	}
	for _, k := range []string{"TMPDIR", "TMP", "TEMP"} {
		d := getenv(k)
		if d == "" || !filepath.IsAbs(d) {
			continue
		}
		d = filepath.Clean(d)
		if systemDir(d) && !slices.Contains(dirs, d) || filepath.IsAbs(h) && within(filepath.Clean(h), d) {
			continue
		}
		dirs = append(dirs, d)
	}
	return dirs
}

// homeCaches are the package managers' caches under the home directory:
// everything in them (and they themselves) can be fetched again.
var homeCaches = []string{
	".npm/_cacache", ".npm/_npx", ".npm/_logs", ".yarn/cache", ".yarn/berry/cache", ".pnpm-store",
	".local/share/pnpm/store", ".cargo/registry/cache", ".cargo/registry/src", ".cargo/git/checkouts",
	".gradle/caches", ".gradle/wrapper/dists", ".m2/repository", ".ivy2/cache", ".sbt/boot", ".nuget/packages",
	".pub-cache", ".composer/cache", ".bun/install/cache", ".pyenv/cache", ".npm-global/_cacache",
	".node-gyp", ".electron", ".cache",
}

// cacheDirs returns homeCaches under home.
func cacheDirs(home string) []string {
	if !filepath.IsAbs(home) {
		return nil
	}
	out := make([]string, len(homeCaches))
	for i, c := range homeCaches {
		out[i] = filepath.Join(home, filepath.FromSlash(c))
	}
	return out
}

// HookBinaries are the names of ralph-hooks' executables.
var HookBinaries = []string{"pre-tool-call", "post-tool-call", "post-iteration-reflect", "stop", "ralph", "ralph-statusline"}

// protected lists what the agent may not change: ralph's state and config,
// the agents' hook settings and the hook binaries.
func protected(root, home string, getenv func(string) string) []string {
	p := []string{
		filepath.Join(root, ".aiwg", "ralph"),
		filepath.Join(root, "aiwg.yml"),
		filepath.Join(root, ".specify", "config", "persistence.yaml"), // persistence_loop, read under aiwg.yml
		filepath.Join(root, ".claude", "settings.json"),
		filepath.Join(root, ".claude", "settings.local.json"),
		filepath.Join(root, ".claude", "ralph-hooks.json"),
		filepath.Join(root, ".claude", "commands", "ralph.md"),
		filepath.Join(root, ".gemini", "settings.json"),
		filepath.Join(root, ".cursor", "hooks.json"),
		filepath.Join(root, ".codex", "hooks.json"),
		filepath.Join(root, ".github", "hooks"),
		// Copilot CLI reads inline hooks and disableAllHooks from these.
		filepath.Join(root, ".github", "copilot", "settings.json"),
		filepath.Join(root, ".github", "copilot", "settings.local.json"),
		filepath.Join(root, ".opencode", "plugins", "ralph-hooks.ts"), // ralph install --agent opencode
		"/etc/claude-code/managed-settings.json",
	}
	// ralph install's records of what it installed (package install:
	// Manifest beside the settings, Copilot's and OpenCode's one
	// directory up), which uninstall trusts.
	for _, d := range []string{".claude", ".gemini", ".cursor", ".codex", ".github", ".opencode"} {
		p = append(p, filepath.Join(root, d, "ralph-hooks.json"))
	}
	if home != "" {
		p = append(p,
			filepath.Join(home, ".claude", "settings.json"),
			filepath.Join(home, ".claude", "settings.local.json"),
			filepath.Join(home, ".claude", "commands", "ralph.md"),
			filepath.Join(home, ".gemini", "settings.json"),
			filepath.Join(home, ".cursor", "hooks.json"),
			filepath.Join(home, ".codex", "hooks.json"),
			filepath.Join(home, ".codex", "config.toml"),
			filepath.Join(home, ".copilot", "hooks"),
			filepath.Join(home, ".copilot", "settings.json"),
			filepath.Join(home, ".config", "opencode", "plugins", "ralph-hooks.ts"),
			filepath.Join(home, ".local", "lib", "ralph-hooks"),
			filepath.Join(home, ".local", "bin", "ralph"),
		)
		for _, d := range []string{".claude", ".gemini", ".cursor", ".codex", ".copilot", filepath.Join(".config", "opencode")} {
			p = append(p, filepath.Join(home, d, "ralph-hooks.json"))
		}
	}

	// The agents' own homes, where their users move them.
	for _, k := range []string{"CODEX_HOME", "COPILOT_HOME", "CLAUDE_CONFIG_DIR"} {
		if d := getenv(k); d != "" && filepath.IsAbs(d) {
			p = append(p, filepath.Join(d, "hooks"), filepath.Join(d, "hooks.json"), filepath.Join(d, "config.toml"),
				filepath.Join(d, "settings.json"), filepath.Join(d, "settings.local.json"), filepath.Join(d, "ralph-hooks.json"))
		}
	}
	if d := getenv("XDG_CONFIG_HOME"); d != "" && filepath.IsAbs(d) {
		p = append(p, filepath.Join(d, "opencode", "plugins", "ralph-hooks.ts"), filepath.Join(d, "opencode", "ralph-hooks.json"))
	}
	if d := getenv("CLAUDE_PLUGIN_ROOT"); d != "" && filepath.IsAbs(d) {
		p = append(p, filepath.Clean(d))
	}
	if d, err := vault.Home(getenv); err == nil { // the sealed copy of ralph's state
		p = append(p, d)
	}
	// The running hook's siblings, wherever they are installed.
	if exe, err := os.Executable(); err == nil && slices.Contains(HookBinaries, filepath.Base(exe)) {
		dir := filepath.Dir(exe)
		for _, b := range HookBinaries {
			p = append(p, filepath.Join(dir, b))
		}
	}
	return p
}

// protectedWrite reports whether writing p changes something protected.
// It sees through links (see protectedAt).
func (g *Guard) protectedWrite(p string) bool {
	_, ok := g.protectedAt(p, false, true)
	return ok
}

// protectedDelete reports whether deleting or moving p (recursively)
// removes something protected: p is protected or holds something that is.
// A link on the way is followed; the last element is not (rm of a link
// removes the link).
func (g *Guard) protectedDelete(p string) bool {
	_, ok := g.protectedAt(p, true, false)
	return ok
}

// tamper builds the tamper finding for what (e.g. "rm -rf .aiwg").
func (g *Guard) tamper(what, p string) Finding { return g.tamperAt(what, p, true) }

// tamperAt is tamper for a write of p alone (whole false) or of p and all
// it holds (see gitExecOnlyAt).
func (g *Guard) tamperAt(what, p string, whole bool) Finding {
	if g.gitExecOnlyAt(p, whole) {
		return g.gitExecFinding(what, p)
	}
	return g.builtin("tamper", what+" would change "+g.rel(p)+", which belongs to ralph-hooks (loop state, configuration, hook settings or hook binaries). The agent may not change it; ask the human if it needs to change.", what, nil)
}

// place is where a path is, as far as deleting it goes.
type place int

const (
	inProject   place = iota // strictly inside the project
	projectRoot              // the project itself or one of its parents
	home                     // the home directory or one of its parents
	system                   // / or a top-level system directory
	inTemp                   // strictly inside a temp directory
	outside                  // anywhere else
)

// systemDir reports whether p is / or a top-level system directory.
func systemDir(p string) bool {
	switch p {
	case "/", "/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib32", "/lib64", "/libx32", "/media", "/mnt", "/opt", "/proc",
		"/root", "/run", "/sbin", "/snap", "/srv", "/sys", "/usr", "/var", "/tmp", "/Users", "/System", "/Library", "/Applications",
		"/Volumes", "/private", "/usr/bin", "/usr/lib", "/usr/local", "/usr/share", "/var/lib", "/var/log", "/etc/ssh":
		return true
	}
	return false
}

// where classifies p.
func (g *Guard) where(p string) place {
	switch {
	case systemDir(p):
		return system
	case within(g.Root, p):
		return projectRoot
	case g.Home != "" && within(g.Home, p):
		return home
	}
	if _, ok := g.inProject(p); ok {
		return inProject
	}
	for _, t := range g.Temp {
		if p != t && within(p, t) {
			return inTemp
		}
	}
	for _, c := range g.Caches {
		if within(p, c) {
			return inTemp
		}
	}
	return outside
}

// isTemp reports whether p is a temp directory or inside one.
func (g *Guard) isTemp(p string) bool {
	for _, t := range g.Temp {
		if p == t {
			return true
		}
	}
	return g.where(p) == inTemp
}

// pathStrings returns the string values of an MCP tool's input whose keys
// name a path.
func pathStrings(input json.RawMessage) []string {
	var out []string
	gjson.ParseBytes(input).ForEach(func(k, v gjson.Result) bool {
		key := strings.ToLower(k.Str)
		if !strings.Contains(key, "path") && !strings.Contains(key, "file") && !strings.Contains(key, "dir") &&
			key != "source" && key != "destination" && key != "target" && key != "dest" && key != "src" {
			return true
		}
		if v.Type == gjson.String && v.Str != "" {
			out = append(out, v.Str)
		}
		if v.IsArray() {
			for _, e := range v.Array() {
				if e.Type == gjson.String && e.Str != "" {
					out = append(out, e.Str)
				}
			}
		}
		return true
	})
	return out
}
