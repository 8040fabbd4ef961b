package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/ralph-hooks/ralph-hooks/internal/event"
	"github.com/ralph-hooks/ralph-hooks/internal/jsonerr"
	"github.com/ralph-hooks/ralph-hooks/internal/state"
)

// Agent is what ralph install knows of one agent's hook settings other
// than Claude Code's (install.go): where they live, their layout, the
// events ralph registers on, and the unit of their timeouts. Each agent is
// described in its own file (codex.go, gemini.go, copilot.go, cursor.go,
// opencode.go).
//
// The guarantees are Claude Code's: a second install changes nothing,
// uninstall puts a file nobody else edited back byte for byte and else
// takes out exactly what install recorded (ralph-hooks.json), paths are
// absolute, and the agent's cap on stop-hook loops is raised where it has
// one that can be set.
type Agent struct {
	Name, Title string
	Scopes      []string // the first is the default
	// Settings returns the hooks file of a scope.
	Settings func(scope, root, home string) (string, error)
	// Record returns the record file of a hooks file (default: beside it).
	Record func(settings string) string
	Hooks  []Hook // Event in the agent's spelling; Timeout in seconds, 0: the stop timeout
	// Flat: {"version":1,"hooks":{EVENT:[ENTRY]}} (Cursor, Copilot CLI);
	// else Claude Code's matcher groups {"hooks":{EVENT:[{"matcher","hooks":[ENTRY]}]}}.
	Flat bool
	// Entry returns one registration's JSON (keys in the order the
	// agent's documentation writes them).
	Entry func(h Hook, command string, timeout int) string
	// Command is the key of the command in an entry.
	Command string
	// Timeout is the key of the timeout in an entry, and Millis says it
	// counts milliseconds.
	Timeout string
	Millis  bool
	// Plugin: the hooks are not entries of a settings file but one plugin
	// file that ralph writes whole (OpenCode, opencode.go); Settings
	// returns its path.
	Plugin bool
	// Lost says what ralph cannot do with this agent, for ralph doctor and
	// the README.
	Lost []string
}

// Agents are the agents ralph install knows besides Claude Code, by name.
var Agents = map[string]*Agent{}

// AgentNames lists every agent ralph install knows, claude first.
func AgentNames() []string {
	names := []string{"claude"}
	var rest []string
	for n := range Agents {
		rest = append(rest, n)
	}
	sort.Strings(rest)
	return append(names, rest...)
}

// AgentCommand returns the command an agent runs for a binary: its absolute
// path and the dialect flag, so that the event is never mistaken for
// another agent's.
func AgentCommand(bin, name, agent string) string {
	return Command(bin, name) + " --agent " + agent
}

func (a *Agent) record(settings string) string {
	if a.Record != nil {
		return a.Record(settings)
	}
	return manifestPath(settings)
}

func (a *Agent) scope(s string) error {
	for _, v := range a.Scopes {
		if v == s {
			return nil
		}
	}
	return fmt.Errorf("--scope %q: %s has %s", s, a.Title, strings.Join(a.Scopes, " and "))
}

// SettingsOf returns the hooks file of an agent's scope.
func SettingsOf(agent, scope, root, home string) (string, error) {
	if agent == "claude" || agent == "" {
		return Settings(scope, root, home)
	}
	a := Agents[agent]
	if a == nil {
		return "", fmt.Errorf("--agent %q: want one of %s", agent, strings.Join(AgentNames(), ", "))
	}
	if err := a.scope(scope); err != nil {
		return "", err
	}
	return a.Settings(scope, root, home)
}

// loc is where one registration sits: hooks.EVENT.I, or, in a matcher
// group, hooks.EVENT.I.hooks.J.
type loc struct {
	path    string // sjson path of the entry
	group   string // of its matcher group ("" when flat)
	command string
}

// entries lists the registrations on event.
func (a *Agent) entries(d *doc, ev string) []loc {
	var ls []loc
	base := "hooks." + gjson.Escape(ev)
	gjson.Get(d.json, base).ForEach(func(i, e gjson.Result) bool {
		p := fmt.Sprintf("%s.%d", base, i.Int())
		if a.Flat {
			ls = append(ls, loc{path: p, command: e.Get(a.Command).String()})
			return true
		}
		e.Get("hooks").ForEach(func(j, h gjson.Result) bool {
			ls = append(ls, loc{path: fmt.Sprintf("%s.hooks.%d", p, j.Int()), group: p, command: h.Get(a.Command).String()})
			return true
		})
		return true
	})
	return ls
}

// remove deletes every registration of command on event, from the last,
// and a matcher group left empty.
func (a *Agent) remove(d *doc, ev, command string) (int, error) {
	ls := a.entries(d, ev)
	n := 0
	for i := len(ls) - 1; i >= 0; i-- {
		if ls[i].command != command {
			continue
		}
		p := ls[i].path
		if ls[i].group != "" && len(gjson.Get(d.json, ls[i].group+".hooks").Array()) <= 1 {
			p = ls[i].group
		}
		var err error
		if d.json, err = sjson.Delete(d.json, p); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// check refuses a file whose hooks are not in the agent's layout.
func (a *Agent) check(d *doc) error {
	for _, h := range a.Hooks {
		if v := gjson.Get(d.json, "hooks."+gjson.Escape(h.Event)); v.Exists() && !v.IsArray() {
			return fmt.Errorf("%s: \"hooks.%s\": want an array, got %s; nothing was changed", d.path, h.Event, event.Kind(v))
		}
		if err := entries(d.path, d.json, h.Event, false); err != nil {
			return err
		}
	}
	return nil
}

// InstallAgent registers the hooks in an agent's settings; see Agent.
func InstallAgent(a *Agent, o Options) (*Result, error) {
	if err := a.scope(o.Scope); err != nil {
		return nil, err
	}
	if a.Plugin {
		return installPlugin(a, o)
	}
	path, err := a.Settings(o.Scope, o.Root, o.Home)
	if err != nil {
		return nil, err
	}
	if err := CheckBin(o.Bin); err != nil {
		return nil, err
	}
	d, err := readDoc(path)
	if err != nil {
		return nil, err
	}
	if err := a.check(d); err != nil {
		return nil, err
	}
	recPath := a.record(path)
	m, err := readManifestAt(recPath)
	if err != nil {
		return nil, err
	}
	key := filepath.Base(path)
	old := m[key]
	rec := &Record{Bin: o.Bin, Hooks: map[string]string{}, Time: o.Now.UTC(), Settings: path}
	switch {
	case old != nil:
		rec.Created, rec.File, rec.After = old.Created, old.File, old.After
		if old.Exact && sum(string(d.orig)) == old.After {
			rec.Exact, rec.Before = true, old.Before
		}
	case d.missing:
		rec.File = "missing"
	case len(bytes.TrimSpace(d.orig)) == 0:
		rec.File = "empty"
	}
	if old == nil {
		rec.Exact, rec.After = true, sum(string(d.orig))
	}
	r := &Result{Settings: path}
	stop := StopTimeout(o.Config)
	if a.Flat && !gjson.Get(d.json, "version").Exists() {
		rec.Created = appendNew(rec.Created, "version")
		if d.json, err = sjson.Set(d.json, "version", 1); err != nil {
			return nil, err
		}
	}
	for _, h := range a.Hooks {
		cmd := AgentCommand(o.Bin, h.Binary, a.Name)
		timeout := h.Timeout
		if timeout == 0 {
			timeout = stop
		}
		if old != nil && old.Hooks[h.Event] != "" && old.Hooks[h.Event] != cmd {
			n, err := a.remove(d, h.Event, old.Hooks[h.Event])
			if err != nil {
				return nil, fmt.Errorf("%s: removing %s: %w", path, old.Hooks[h.Event], err)
			}
			if n > 0 {
				r.Changes = append(r.Changes, fmt.Sprintf("removed   %-18s %s (an earlier install)", h.Event, old.Hooks[h.Event]))
			}
		}
		var mine *loc
		for _, e := range a.entries(d, h.Event) {
			switch {
			case e.command == cmd && mine == nil:
				mine = &e
			case e.command == cmd:
				r.Notes = append(r.Notes, fmt.Sprintf("hooks.%s registers %s twice", h.Event, cmd))
			case isOurs(e.command, h.Binary):
				r.Notes = append(r.Notes, fmt.Sprintf("hooks.%s also registers %s, not added by ralph install: it runs too (see ralph doctor)", h.Event, e.command))
			}
		}
		want := int64(timeout)
		unit := "s"
		if a.Millis {
			want, unit = want*1000, "ms"
		}
		if mine != nil {
			if old == nil || old.Hooks[h.Event] != cmd {
				r.Notes = append(r.Notes, fmt.Sprintf("hooks.%s already registers %s (left as it is, and left by uninstall)", h.Event, cmd))
				continue
			}
			rec.Hooks[h.Event] = cmd
			p := mine.path + "." + a.Timeout
			if gjson.Get(d.json, p).Int() != want {
				if d.json, err = sjson.Set(d.json, p, want); err != nil {
					return nil, fmt.Errorf("%s: setting %s: %w", path, p, err)
				}
				r.Changes = append(r.Changes, fmt.Sprintf("timeout   %-18s %d %s", h.Event, want, unit))
			}
			continue
		}
		for _, c := range []string{"hooks", "hooks." + gjson.Escape(h.Event)} {
			if !gjson.Get(d.json, c).Exists() {
				rec.Created = appendNew(rec.Created, c)
			}
		}
		raw := a.Entry(h, cmd, int(want))
		if !a.Flat {
			matcher := ""
			if h.Matcher != "" {
				matcher = `"matcher":` + string(jsonQuote(h.Matcher)) + ","
			}
			raw = "{" + matcher + `"hooks":[` + raw + "]}"
		}
		if d.json, err = sjson.SetRaw(d.json, "hooks."+gjson.Escape(h.Event)+".-1", raw); err != nil {
			return nil, fmt.Errorf("%s: adding hooks.%s: %w", path, h.Event, err)
		}
		rec.Hooks[h.Event] = cmd
		r.Changes = append(r.Changes, fmt.Sprintf("added     %-18s %s (timeout %d %s)", h.Event, cmd, want, unit))
	}
	r.Changed = len(r.Changes) > 0
	if o.DryRun || !r.Changed {
		return r, nil
	}
	if err := os.MkdirAll(filepath.Dir(d.path), 0o755); err != nil {
		return nil, err
	}
	if data := d.bytes(); !bytes.Equal(data, d.orig) {
		if old == nil && !d.missing {
			if err := state.WriteFile(d.path+origSuffix, d.orig, d.perm()); err != nil {
				return nil, fmt.Errorf("keeping a copy of %s: %w", d.path, err)
			}
			rec.Before = sum(string(d.orig))
		}
		if r.Backup, err = d.write(data); err != nil {
			return nil, err
		}
		rec.After = sum(string(data))
	}
	m[key] = rec
	if err := m.writeAt(recPath); err != nil {
		if d.missing {
			os.Remove(d.path)
		} else if rerr := state.WriteFile(d.path, d.orig, d.perm()); rerr != nil {
			return nil, fmt.Errorf("%w; and putting %s back: %v (its copy: %s)", err, d.path, rerr, r.Backup)
		}
		return nil, fmt.Errorf("%w (the settings were left as they were)", err)
	}
	return r, nil
}

// recorded finds the settings (or plugin) file of o's scope, the record
// file beside it and what it records of that file's install.
func (a *Agent) recorded(o Options) (path, recPath string, m manifest, key string, rec *Record, err error) {
	if path, err = a.Settings(o.Scope, o.Root, o.Home); err != nil {
		return
	}
	recPath = a.record(path)
	if m, err = readManifestAt(recPath); err != nil {
		return
	}
	key = filepath.Base(path)
	if rec = m[key]; rec == nil {
		err = fmt.Errorf("no ralph install recorded for %s (in %s): nothing removed", path, recPath)
	}
	return
}

// UninstallAgent removes what InstallAgent recorded, and leaves the rest.
func UninstallAgent(a *Agent, o Options) (*Result, error) {
	if err := a.scope(o.Scope); err != nil {
		return nil, err
	}
	if a.Plugin {
		return uninstallPlugin(a, o)
	}
	path, recPath, m, key, rec, err := a.recorded(o)
	if err != nil {
		return nil, err
	}
	d, err := readDoc(path)
	if err != nil {
		return nil, err
	}
	r := &Result{Settings: path}
	for _, h := range a.Hooks {
		cmd := rec.Hooks[h.Event]
		if cmd == "" {
			continue
		}
		n, err := a.remove(d, h.Event, cmd)
		if err != nil {
			return nil, fmt.Errorf("%s: removing %s: %w", path, cmd, err)
		}
		if n == 0 {
			r.Notes = append(r.Notes, fmt.Sprintf("hooks.%s: %s was already gone", h.Event, cmd))
			continue
		}
		r.Changes = append(r.Changes, fmt.Sprintf("removed   %-18s %s", h.Event, cmd))
	}
	if err := d.dropEmpty(without(rec.Created, "version")); err != nil {
		return nil, err
	}
	if contains(rec.Created, "version") && gjson.Get(d.json, "version").Int() == 1 {
		if d.json, err = sjson.Delete(d.json, "version"); err != nil {
			return nil, err
		}
	}
	r.Changed = len(r.Changes) > 0
	if o.DryRun {
		return r, nil
	}
	data := d.bytes()
	exact := rec.Exact && sum(string(d.orig)) == rec.After
	orig := d.path + origSuffix
	if before, err := os.ReadFile(orig); exact && err == nil && sum(string(before)) == rec.Before {
		data = before
	} else if exact && rec.File != "missing" {
		exact = false
	}
	if !exact && len(gjson.Parse(d.json).Map()) == 0 && rec.File == "empty" {
		data = nil
	}
	switch {
	case d.missing:
		r.Notes = append(r.Notes, fmt.Sprintf("%s is gone: nothing to take out of it", path))
	case rec.File == "missing" && (exact || len(gjson.Parse(d.json).Map()) == 0):
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		r.Changes = append(r.Changes, fmt.Sprintf("removed   %s (install created it)", path))
	case !bytes.Equal(data, d.orig):
		if r.Backup, err = d.write(data); err != nil {
			return nil, err
		}
	}
	if err := os.Remove(orig); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	delete(m, key)
	return r, m.writeAt(recPath)
}

func without(list []string, s string) []string {
	var out []string
	for _, v := range list {
		if v != s {
			out = append(out, v)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func jsonQuote(s string) []byte { return gjson.AppendJSONString(nil, s) }

// readManifestAt reads a record file (an empty manifest when there is
// none).
func readManifestAt(p string) (manifest, error) {
	data, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return manifest{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", p, unwrapPath(err))
	}
	m := manifest{}
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s is corrupt (%s): move it aside; ralph uninstall then cannot tell what it added", p, jsonerr.Say(err))
	}
	return m, nil
}

// writeAt writes the record file, or removes it when m is empty.
func (m manifest) writeAt(p string) error {
	if len(m) == 0 {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	data = append(data, '\n')
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return state.WriteFile(p, data, 0o644)
}

// Find lists the hook commands of an agent's settings data that run a
// ralph-hooks binary, whoever registered them; Timeout is in seconds.
func (a *Agent) Find(data []byte) []Registered {
	if a.Plugin {
		return findPlugin(a, data)
	}
	d := &doc{json: string(data)}
	var rs []Registered
	gjson.GetBytes(data, "hooks").ForEach(func(ev, _ gjson.Result) bool {
		for _, e := range a.entries(d, ev.Str) {
			for _, b := range []string{"pre-tool-call", "post-tool-call", "stop", "post-iteration-reflect"} {
				if !isOurs(e.command, b) {
					continue
				}
				t := int(gjson.Get(d.json, e.path+"."+a.Timeout).Int())
				if a.Millis {
					t /= 1000
				}
				rs = append(rs, Registered{Event: ev.Str, Command: e.command, Binary: b, Timeout: t})
			}
		}
		return true
	})
	return rs
}
