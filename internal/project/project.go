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
func FindRoot(cwd string, getenv func(string) string) string {
	if d := getenv("CLAUDE_PROJECT_DIR"); d != "" && filepath.IsAbs(d) {
		return filepath.Clean(d)
	}
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	cwd = filepath.Clean(cwd)
	if r := up(cwd, ConfigFile, ".aiwg"); r != "" {
		return r
	}
	if r := up(cwd, ".git"); r != "" {
		return r
	}
	return cwd
}

func up(dir string, names ...string) string {
	for {
		for _, n := range names {
			if _, err := os.Lstat(filepath.Join(dir, n)); err == nil {
				return dir
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
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

// notSource are directory names that hold no project source: version
// control, ralph's own state, dependencies and caches that tools rebuild.
var notSource = map[string]bool{
	".git": true, ".hg": true, ".svn": true, ".aiwg": true, "node_modules": true,
	".venv": true, "venv": true, "__pycache__": true, ".pytest_cache": true,
	".mypy_cache": true, ".tox": true, ".next": true, ".cache": true, ".gradle": true,
}

// NotSource reports whether a directory with this name holds no project
// source, so walks for tests and measurements skip it.
func NotSource(name string) bool { return notSource[name] }
