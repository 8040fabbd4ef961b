// Package project finds the project a hook call belongs to and names the
// files ralph keeps in it (.aiwg/ralph/…, aiwg.yml).
//
// All paths ralph writes are built here, from a root and a validated loop id,
// so no id from outside can reach the filesystem unchecked.
package project

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ConfigFile is the project's configuration file, at its root.
const ConfigFile = "aiwg.yml"

// RalphDir is ralph's state directory, relative to the root.
const RalphDir = ".aiwg/ralph"

// ValidLoopID reports whether id is a well-formed loop id,
// ralph-<slug>-<8 hex digits> with a slug of [a-z0-9-].
func ValidLoopID(id string) bool {
	const prefix = "ralph-"
	if len(id) > 128 || len(id) < len(prefix)+1+1+8 || id[:len(prefix)] != prefix || id[len(id)-9] != '-' {
		return false
	}
	for i := len(prefix); i < len(id); i++ {
		c := id[i]
		hex := i >= len(id)-8
		switch {
		case c >= '0' && c <= '9', c >= 'a' && c <= 'f':
		case !hex && (c >= 'g' && c <= 'z' || c == '-'):
		default:
			return false
		}
	}
	return true
}

// CheckLoopID returns an error naming id when it is not a well-formed loop id.
func CheckLoopID(id string) error {
	if !ValidLoopID(id) {
		return fmt.Errorf("invalid loop id %q: want ralph-<slug>-<8 hex digits>", id)
	}
	return nil
}

// FindRoot returns the project root for a hook running in cwd: the agent's
// project dir (CLAUDE_PROJECT_DIR) when set, else the nearest ancestor of cwd
// holding aiwg.yml or .aiwg, else the nearest holding .git, else cwd itself.
//
// A marker where no project can be does not count: neither / nor the home
// directory itself is ever a root, and a .aiwg directory above the nearest
// .git (a stray one, left by a hook run from there) does not capture the
// repository below it. aiwg.yml, which a human writes, still does.
func FindRoot(cwd string, getenv func(string) string) string {
	if d := getenv("CLAUDE_PROJECT_DIR"); d != "" && filepath.IsAbs(d) {
		return filepath.Clean(d)
	}
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	if abs, err := filepath.Abs(cwd); err == nil {
		cwd = abs // a relative cwd is taken from the process's
	}
	cwd = filepath.Clean(cwd)
	home := Home(getenv)
	git := up(cwd, home, ".git")
	for dir := cwd; ; {
		if dir != home && dir != filepath.Dir(dir) {
			if exists(filepath.Join(dir, ConfigFile)) {
				return dir
			}
			if (git == "" || within(dir, git)) && exists(filepath.Join(dir, ".aiwg")) {
				return dir
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	if git != "" {
		return git
	}
	return cwd
}

// up returns the nearest ancestor of dir (dir included) holding one of
// names, skipping / and home; "" when there is none.
func up(dir, home string, names ...string) string {
	for {
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		if dir != home {
			for _, n := range names {
				if exists(filepath.Join(dir, n)) {
					return dir
				}
			}
		}
		dir = parent
	}
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// within reports whether dir is root or below it.
func within(dir, root string) bool {
	rel, err := filepath.Rel(root, dir)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}

// Home returns the user's home directory, cleaned, or "" when unknown.
func Home(getenv func(string) string) string {
	h := getenv("HOME")
	if h == "" || !filepath.IsAbs(h) {
		return ""
	}
	return filepath.Clean(h)
}

// CheckRoot returns an error when root is no place for ralph's .aiwg: the
// filesystem root, the home directory itself, or a directory that does not
// exist. Hooks then guard but record nothing, and no loop runs there.
func CheckRoot(root string, getenv func(string) string) error {
	root = filepath.Clean(root)
	switch {
	case !filepath.IsAbs(root):
		return fmt.Errorf("%s: not an absolute path, so not a project", root)
	case filepath.Dir(root) == root:
		return fmt.Errorf("%s is the filesystem root, not a project", root)
	case root == Home(getenv):
		return fmt.Errorf("%s is the home directory itself, not a project", root)
	}
	st, err := os.Stat(root)
	switch {
	case err != nil:
		return fmt.Errorf("project directory %s does not exist", root)
	case !st.IsDir():
		return fmt.Errorf("project directory %s is not a directory", root)
	}
	return nil
}

// Markers are the files and directories that make a directory a project
// that ralph may snapshot whole: version control, ralph's config, or a
// language's manifest. A .aiwg alone is no marker (a hook may have left it).
var Markers = []string{
	".git", ".hg", ".svn", ".jj", ConfigFile, ".specify",
	"go.mod", "package.json", "pyproject.toml", "setup.py", "setup.cfg", "requirements.txt",
	"Cargo.toml", "pom.xml", "build.gradle", "build.gradle.kts", "Gemfile", "composer.json",
	"Makefile", "CMakeLists.txt", "mix.exs", "deno.json", "Package.swift", "pubspec.yaml",
}

// CheckSnapshotRoot returns an error when ralph must not snapshot the whole
// tree under root: CheckRoot's faults, or no project marker in it.
func CheckSnapshotRoot(root string, getenv func(string) string) error {
	if err := CheckRoot(root, getenv); err != nil {
		return err
	}
	for _, m := range Markers {
		if exists(filepath.Join(root, m)) {
			return nil
		}
	}
	return fmt.Errorf("%s holds no project marker (%s, …): ralph snapshots only a project's tree; run it in the project's directory, or git init it", root, strings.Join(Markers[:6], ", "))
}

// Layout names ralph's files in one project.
type Layout struct{ Root string }

// Ralph returns .aiwg/ralph.
func (l Layout) Ralph() string { return filepath.Join(l.Root, RalphDir) }

// Config returns aiwg.yml.
func (l Layout) Config() string { return filepath.Join(l.Root, ConfigFile) }

// Registry returns .aiwg/ralph/registry.json.
func (l Layout) Registry() string { return filepath.Join(l.Ralph(), "registry.json") }

// Loops returns .aiwg/ralph/loops.
func (l Layout) Loops() string { return filepath.Join(l.Ralph(), "loops") }

// Archive returns .aiwg/ralph/archive, where finished loops are moved.
func (l Layout) Archive() string { return filepath.Join(l.Ralph(), "archive") }

// Scope is where one hook call keeps its audit line, checkpoints and
// last-risky-action record: a loop's directory when the call belongs to a
// loop, else the project's ralph directory.
type Scope struct {
	Layout
	Loop     string // validated loop id, or "" for project scope
	Archived bool   // the loop has finished: its directory is under archive/
}

// NewScope returns the scope for loop (may be "").
func NewScope(root, loop string) (Scope, error) {
	if loop != "" {
		if err := CheckLoopID(loop); err != nil {
			return Scope{}, err
		}
	}
	return Scope{Layout: Layout{Root: root}, Loop: loop}, nil
}

// Dir is the scope's directory.
func (s Scope) Dir() string {
	switch {
	case s.Loop == "":
		return s.Ralph()
	case s.Archived:
		return filepath.Join(s.Archive(), s.Loop)
	}
	return filepath.Join(s.Loops(), s.Loop)
}

// Log returns the scope's hook-log.jsonl.
func (s Scope) Log() string { return filepath.Join(s.Dir(), "hook-log.jsonl") }

// Checkpoints returns the scope's checkpoints directory.
func (s Scope) Checkpoints() string { return filepath.Join(s.Dir(), "checkpoints") }

// State returns the scope's state file: the loop's state.json, or the
// project's guard.json outside any loop.
func (s Scope) State() string {
	if s.Loop == "" {
		return filepath.Join(s.Dir(), "guard.json")
	}
	return filepath.Join(s.Dir(), "state.json")
}

// Iterations returns the loop's iterations/ directory (iteration-NNN.json).
func (s Scope) Iterations() string { return filepath.Join(s.Dir(), "iterations") }

// History returns the loop's iterations.jsonl, one line per iteration.
func (s Scope) History() string { return filepath.Join(s.Dir(), "iterations.jsonl") }

// Analytics returns the loop's analytics/ directory.
func (s Scope) Analytics() string { return filepath.Join(s.Dir(), "analytics") }

// notSource reports whether s is one of the directory names that hold no
// project source: version control, ralph's own state, dependencies and
// caches that tools rebuild.
func notSource(s string) bool {
	switch s {
	case ".git", ".hg", ".svn", ".aiwg", "node_modules", ".venv", "venv", "__pycache__",
		".pytest_cache", ".mypy_cache", ".tox", ".next", ".cache", ".gradle":
		return true
	}
	return false
}

// NotSource reports whether a directory with this name holds no project
// source, so walks for tests and measurements skip it.
func NotSource(name string) bool { return notSource(name) }
