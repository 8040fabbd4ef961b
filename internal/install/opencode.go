package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"

	"github.com/ralph-hooks/ralph-hooks/install/opencode"
	"github.com/ralph-hooks/ralph-hooks/internal/state"
)

// OpenCode has no command hooks: its plugins are TypeScript that it runs
// in-process. ralph install writes ralph's plugin (install/opencode) whole
// into the project's .opencode/plugins/ or the user's
// ~/.config/opencode/plugins/, where OpenCode loads it without
// configuration, with the absolute bin directory and the hooks' timeouts
// set in it; the record is one directory up. Uninstall removes the file
// unless it was edited since, and the directories install created.
var opencodeAgent = &Agent{
	Name: "opencode", Title: "OpenCode",
	Scopes: []string{"project", "user"},
	Settings: func(scope, root, home string) (string, error) {
		switch scope {
		case "project":
			return filepath.Join(root, ".opencode", "plugins", pluginName), nil
		case "user":
			if home == "" {
				return "", errors.New("--scope user: HOME is not set")
			}
			return filepath.Join(home, ".config", "opencode", "plugins", pluginName), nil
		}
		return "", fmt.Errorf("--scope %q: want project or user", scope)
	},
	Record: func(plugin string) string { return filepath.Join(filepath.Dir(filepath.Dir(plugin)), Manifest) },
	Hooks: []Hook{
		{Event: "tool.execute.before", Binary: "pre-tool-call", Timeout: 10},
		{Event: "tool.execute.after", Binary: "post-tool-call", Timeout: 30},
		{Event: "session.idle", Binary: "stop"},
	},
	Plugin: true,
	Lost: []string{
		"no ask: a call a rule wants the human to confirm is refused, saying so",
		"a tool call that fails is seen only when it is a shell command that exits non-zero: OpenCode calls no plugin after a tool that throws",
		"opencode run ends at the session's first idle: a loop goes on only in the TUI or under opencode serve (opencode run --attach)",
		"opencode --pure loads no plugin, so no hook runs",
	},
}

func init() { Agents["opencode"] = opencodeAgent }

// pluginName is the plugin's file name.
const pluginName = "ralph-hooks.ts"

// The lines of the plugin that install sets, and what it reads back.
var (
	binLine     = regexp.MustCompile(`(?m)^const BIN = (.*) // ralph-hooks: bin$`)
	timeoutLine = regexp.MustCompile(`(?m)^const TIMEOUT = \{ pre: (\d+), post: (\d+), stop: (\d+) \} // ralph-hooks: timeouts in seconds$`)
)

// pluginFile returns the plugin with its bin directory and timeouts set.
func pluginFile(bin string, timeouts map[string]int) ([]byte, error) {
	src := opencode.Plugin
	if len(binLine.FindAllIndex(src, -1)) != 1 || len(timeoutLine.FindAllIndex(src, -1)) != 1 {
		return nil, errors.New("the OpenCode plugin has lost its BIN or TIMEOUT line (a bug of this build)")
	}
	quoted, err := json.Marshal(bin)
	if err != nil {
		return nil, err
	}
	out := binLine.ReplaceAllLiteral(src, []byte("const BIN = "+string(quoted)+" // ralph-hooks: bin"))
	out = timeoutLine.ReplaceAllLiteral(out, fmt.Appendf(nil, "const TIMEOUT = { pre: %d, post: %d, stop: %d } // ralph-hooks: timeouts in seconds",
		timeouts["pre-tool-call"], timeouts["post-tool-call"], timeouts["stop"]))
	return out, nil
}

// findPlugin reads the hooks a plugin file runs: its bin directory (the
// shipped default, ~/.local/lib/ralph-hooks/bin, when it is not a string)
// and timeouts. A file that is not ralph's plugin runs none.
func findPlugin(a *Agent, data []byte) []Registered {
	m := binLine.FindSubmatch(data)
	if m == nil {
		return nil
	}
	command := func(binary string) string { // the shipped default, as the shell spells it
		return "$HOME/.local/lib/ralph-hooks/bin/" + binary + " --agent " + a.Name
	}
	var bin string
	if err := json.Unmarshal(m[1], &bin); err == nil && bin != "" {
		command = func(binary string) string { return AgentCommand(bin, binary, a.Name) }
	}
	timeouts := map[string]int{}
	if t := timeoutLine.FindSubmatch(data); t != nil {
		for i, b := range []string{"pre-tool-call", "post-tool-call", "stop"} {
			timeouts[b], _ = strconv.Atoi(string(t[i+1]))
		}
	}
	var rs []Registered
	for _, h := range a.Hooks {
		rs = append(rs, Registered{Event: h.Event, Command: command(h.Binary), Binary: h.Binary, Timeout: timeouts[h.Binary]})
	}
	return rs
}

// installPlugin writes an agent's plugin file; see opencodeAgent.
func installPlugin(a *Agent, o Options) (*Result, error) {
	path, err := a.Settings(o.Scope, o.Root, o.Home)
	if err != nil {
		return nil, err
	}
	if err := CheckBin(o.Bin); err != nil {
		return nil, err
	}
	timeouts := map[string]int{}
	for _, h := range a.Hooks {
		timeouts[h.Binary] = h.Timeout
		if h.Timeout == 0 {
			timeouts[h.Binary] = StopTimeout(o.Config)
		}
	}
	want, err := pluginFile(o.Bin, timeouts)
	if err != nil {
		return nil, err
	}
	recPath := a.record(path)
	m, err := readManifestAt(recPath)
	if err != nil {
		return nil, err
	}
	key := filepath.Base(path)
	old := m[key]
	cur, err := os.ReadFile(path)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("reading %s: %w", path, unwrapPath(err))
	}
	r := &Result{Settings: path}
	switch {
	case exists && old != nil && bytes.Equal(cur, want):
		return r, nil // installed, as it would be now
	case exists && old == nil:
		return nil, fmt.Errorf("%s exists and ralph install did not write it (no record in %s): move it aside first; nothing was changed", path, recPath)
	case exists && sum(string(cur)) != old.After:
		return nil, fmt.Errorf("%s was edited since ralph install wrote it: move it aside (or run ralph uninstall --agent %s, which leaves it) first; nothing was changed", path, a.Name)
	}
	rec := &Record{Bin: o.Bin, Hooks: map[string]string{}, Time: o.Now.UTC(), Settings: path, Exact: true, After: sum(string(want))}
	verb := "added  "
	if old != nil {
		rec.Created, rec.File = old.Created, old.File
		verb = "updated"
	} else {
		rec.File = "missing"
		for d := filepath.Dir(path); ; d = filepath.Dir(d) {
			if _, err := os.Stat(d); err == nil || d == filepath.Dir(d) {
				break
			}
			rec.Created = append(rec.Created, d)
		}
	}
	for _, h := range a.Hooks {
		cmd := AgentCommand(o.Bin, h.Binary, a.Name)
		rec.Hooks[h.Event] = cmd
		r.Changes = append(r.Changes, fmt.Sprintf("%s   %-19s %s (timeout %d s)", verb, h.Event, cmd, timeouts[h.Binary]))
	}
	r.Changed = true
	if o.DryRun {
		return r, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	if err := state.WriteFile(path, want, 0o644); err != nil {
		return nil, fmt.Errorf("writing %s: %w", path, err)
	}
	m[key] = rec
	if err := m.writeAt(recPath); err != nil {
		if exists {
			err = errors.Join(err, state.WriteFile(path, cur, 0o644))
		} else {
			os.Remove(path)
		}
		return nil, fmt.Errorf("%w (the plugin was left as it was)", err)
	}
	return r, nil
}

// uninstallPlugin removes the plugin file install wrote, unless it was
// edited since, and the directories install created, when empty.
func uninstallPlugin(a *Agent, o Options) (*Result, error) {
	path, recPath, m, key, rec, err := a.recorded(o)
	if err != nil {
		return nil, err
	}
	r := &Result{Settings: path}
	cur, err := os.ReadFile(path)
	remove := false
	switch {
	case errors.Is(err, fs.ErrNotExist):
		r.Notes = append(r.Notes, fmt.Sprintf("%s is gone: nothing to remove", path))
	case err != nil:
		return nil, fmt.Errorf("reading %s: %w", path, unwrapPath(err))
	case sum(string(cur)) != rec.After:
		r.Notes = append(r.Notes, fmt.Sprintf("%s was edited since ralph install wrote it: left as it is", path))
	default:
		remove = true
		events := make([]string, 0, len(rec.Hooks))
		for ev := range rec.Hooks {
			events = append(events, ev)
		}
		sort.Strings(events)
		for _, ev := range events {
			r.Changes = append(r.Changes, fmt.Sprintf("removed   %-19s %s", ev, rec.Hooks[ev]))
		}
		r.Changes = append(r.Changes, fmt.Sprintf("removed   %s (install wrote it)", path))
	}
	r.Changed = len(r.Changes) > 0
	if o.DryRun {
		return r, nil
	}
	if remove {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	delete(m, key)
	if err := m.writeAt(recPath); err != nil {
		return nil, err
	}
	for _, d := range rec.Created { // deepest first, as recorded
		if err := os.Remove(d); err != nil && !errors.Is(err, fs.ErrNotExist) {
			r.Notes = append(r.Notes, fmt.Sprintf("%s: left (install created it; it holds other files now)", d))
			break
		}
	}
	return r, nil
}
