package hook

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/rawfile"
	"github.com/ralph-hooks/ralph-hooks/internal/state"
	"github.com/ralph-hooks/ralph-hooks/internal/vault"
)

// ProblemFile is the record, under .aiwg/ralph, of the last configuration
// problem the hooks reported: which version of aiwg.yml it was about, so
// that each broken version is told once, not on every call.
const ProblemFile = "config-problem.json"

// Problem is that record.
type Problem struct {
	File   string `json:"file"`
	Digest string `json:"digest"` // config.Digest of the files reported on
	Error  string `json:"error"`
}

// Config returns the project's configuration. When aiwg.yml cannot be read
// or is invalid it returns config.Fallback (the built-in rules, tamper
// protection and a running loop stay on) and keeps the problem, which Main
// then reports once per version of the file. It loads once per call.
func (c *Call) Config() *config.Config {
	if c.cfg == nil {
		var data []byte
		var absent bool
		if h := c.heldConfig; h != nil {
			data, absent = h.Data, h.Absent
			if !absent && data == nil {
				data = []byte{}
			}
		}
		cfg, err := config.LoadCached(c.Scope.Config(), data, absent, c.configCache())
		if err != nil {
			cfg = config.Fallback(c.Scope.Config())
		}
		c.cfg, c.problem = cfg, err
		c.cfgLoaded = true
	}
	return c.cfg
}

// ConfigCacheName is the name of hook's cache of the decoded configuration
// (config.Cache) in the project's cache directory (vault.CacheDir): outside
// the project, where nothing the agent runs unseen can write it without
// being able to rewrite the vault itself. One per hook: each is another
// executable, so another key, and pre-tool-call and post-tool-call take
// turns on every tool call: one file would be rewritten by each.
func ConfigCacheName(hook string) string {
	if hook == "" || strings.ContainsAny(hook, `/\`) || strings.HasPrefix(hook, ".") {
		hook = "hook"
	}
	return "config-" + hook + ".bin"
}

// configCache is the call's config.Cache: none where the project has no
// cache directory; read only in a dry run.
func (c *Call) configCache() config.Cache {
	dir := vault.CacheDir(c.Scope.Root, "", c.Getenv)
	if dir == "" {
		return config.Cache{}
	}
	// Read as aiwg.yml is (the cache ends with its own SHA-256).
	cc := config.Cache{Path: filepath.Join(dir, ConfigCacheName(c.Hook)), Read: rawfile.ReadFile}
	if !c.DryRun {
		cc.Write = func(path string, data []byte) error { return state.WriteBare(path, data, 0o644) }
	}
	return cc
}

// ConfigInvalid makes the call go on with config.Fallback, err being what
// is wrong with the configuration it loaded: for a fault found only when the
// configuration is used (a risk rule that would change a protected one).
func (c *Call) ConfigInvalid(err error) *config.Config {
	c.cfg, c.problem, c.cfgLoaded = config.Fallback(c.Scope.Config()), err, true
	return c.cfg
}

// ConfigProblem is what is wrong with the configuration Config loaded,
// nil when nothing is (or it has not been loaded).
func (c *Call) ConfigProblem() error { return c.problem }

// ProblemText says what is wrong and what ralph does about it, in one
// paragraph for the agent and the human.
func ProblemText(err error) string {
	return fmt.Sprintf("ralph-hooks: the configuration is invalid (%v). Until a human fixes it, ralph keeps protecting with its built-in defaults: the built-in risk rules, tamper protection and fail_closed stay on, and a running loop keeps its completion command and bounds. The agent cannot fix aiwg.yml itself: stop and ask the human to fix it (ralph doctor names the problem).", err)
}

// noteConfig reports the call's configuration problem on stderr and to
// the agent (and the human: systemMessage), once per version of the file;
// a call that loaded a valid configuration clears the record, so a file
// broken again is told again. Nothing is recorded in a dry run.
func noteConfig(c *Call, res *Result) {
	if !c.cfgLoaded {
		return
	}
	path := filepath.Join(c.Scope.Ralph(), ProblemFile)
	if c.problem == nil {
		if !c.DryRun {
			if err := removeRecord(path); err != nil && !errors.Is(err, os.ErrNotExist) {
				fmt.Fprintf(c.Stderr, "ralph: warning: %v\n", err)
			}
		}
		return
	}
	p := Problem{File: c.Scope.Config(), Digest: config.Digest(c.Scope.Config()), Error: c.problem.Error()}
	if old, err := ReadProblem(c.Scope.Layout); err == nil && old != nil && old.Digest == p.Digest && old.Error == p.Error {
		return // told already
	}
	fmt.Fprintf(c.Stderr, "ralph: warning: %v; going on with the built-in defaults (fail_closed on)\n", c.problem)
	text := ProblemText(c.problem)
	res.Answer.System = join(res.Answer.System, text)
	res.Answer.Context = join(res.Answer.Context, text)
	if c.DryRun { // a replay, or a root that is no project (see Main)
		return
	}
	data, _ := json.Marshal(p)
	if err := state.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		fmt.Fprintf(c.Stderr, "ralph: warning: recording the configuration problem: %v\n", err)
	}
}

// removeRecord removes the file or empty directory at path as os.Remove
// does, in one system call where there is nothing to remove: every Edit
// and Bash call removes the problem record, which is nearly always absent,
// and os.Remove tries rmdir after the unlink has failed.
func removeRecord(path string) error {
	if err := syscall.Unlink(path); err == nil || errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return os.Remove(path) // a directory, or an error worth its words
}

// ReadProblem reads the project's record of the last configuration problem
// reported; nil when there is none.
func ReadProblem(l project.Layout) (*Problem, error) {
	data, err := os.ReadFile(filepath.Join(l.Ralph(), ProblemFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var p Problem
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(l.Ralph(), ProblemFile), err)
	}
	return &p, nil
}

func join(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n\n" + b
}
