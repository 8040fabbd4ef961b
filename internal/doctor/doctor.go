// Package doctor checks an installation of ralph-hooks: the binaries, their
// registration in Claude Code's settings, the project's configuration and
// loop state, and how long each hook takes. Every finding is one line that
// says what is wrong and what to run.
package doctor

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/install"
	"github.com/ralph-hooks/ralph-hooks/internal/loop"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/registry"
	"github.com/ralph-hooks/ralph-hooks/internal/state"
	"github.com/ralph-hooks/ralph-hooks/internal/vault"
)

// Levels of a finding.
const (
	OK   = "ok"
	Warn = "warn"
	Fail = "FAIL"
)

// Finding is one line of the report.
type Finding struct {
	Level string `json:"level"`
	Check string `json:"check"` // binaries, settings, config, state, budget, latency
	Text  string `json:"text"`
}

func (f Finding) String() string { return fmt.Sprintf("%-4s  %-8s  %s", f.Level, f.Check, f.Text) }

// Options say what to check.
type Options struct {
	Root   string // the project
	Home   string // the user's home ("" : no user settings)
	Bin    string // ralph's own directory
	Runs   int    // hook calls timed per hook; 0: no timing
	Plugin string // a Claude Code plugin directory whose hooks/hooks.json counts too
	Env    func(string) string
}

// report collects findings.
type report []Finding

func (r *report) add(level, check, format string, args ...any) {
	*r = append(*r, Finding{Level: level, Check: check, Text: fmt.Sprintf(format, args...)})
}

// Check runs every check and returns the findings, worst last within each
// check's lines as they come.
func Check(ctx context.Context, o Options) []Finding {
	var r report
	cfg := checkConfig(&r, o)
	var others report
	agents := checkAgents(&others, o, cfg)
	regs := checkSettings(&r, o, cfg, agents)
	r = append(r, others...)
	checkBinaries(&r, o.Bin)
	checkState(&r, o.Root, o.Env)
	checkPersistence(&r, o.Root, cfg)
	if o.Runs > 0 {
		checkLatency(ctx, &r, o, regs)
	}
	return r
}

// Failed counts the findings at level Fail.
func Failed(fs []Finding) int {
	n := 0
	for _, f := range fs {
		if f.Level == Fail {
			n++
		}
	}
	return n
}

func checkBinaries(r *report, bin string) {
	names := append(slices.Clone(install.Binaries), "post-iteration-reflect")
	var missing []string
	for _, b := range names {
		if err := executable(filepath.Join(bin, b)); err != nil {
			missing = append(missing, err.Error())
		}
	}
	if len(missing) > 0 {
		for _, m := range missing {
			r.add(Fail, "binaries", "%s: rebuild with make install", m)
		}
		return
	}
	r.add(OK, "binaries", "%s holds ralph and the four hooks", bin)
}

// executable reports why path is not an executable file.
func executable(path string) error {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s does not exist", path)
	case err != nil:
		return err
	case fi.IsDir() || fi.Mode()&0o111 == 0:
		return fmt.Errorf("%s is not executable", path)
	}
	return nil
}

func checkConfig(r *report, o Options) *config.Config {
	path := project.Layout{Root: o.Root}.Config()
	cfg, err := config.Load(path)
	if err != nil {
		r.add(Fail, "config", "%v; until it is fixed every hook keeps the built-in defaults (built-in rules, tamper protection, fail_closed on) and the running loops their completion commands and bounds", err)
		return config.Fallback(path)
	}
	if _, err := os.Stat(path); err == nil {
		r.add(OK, "config", "%s is valid", path)
	} else {
		r.add(OK, "config", "no aiwg.yml in %s: the defaults apply", o.Root)
	}
	return cfg
}

// registration is a hook command found in a settings file.
type registration struct {
	install.Registered
	File, Path string
}

// settingsFiles lists the Claude Code settings files that apply here, in
// the order Claude Code merges them.
func settingsFiles(o Options) []string {
	var files []string
	if o.Home != "" {
		files = append(files, filepath.Join(o.Home, ".claude", "settings.json"))
	}
	files = append(files,
		filepath.Join(o.Root, ".claude", "settings.json"),
		filepath.Join(o.Root, ".claude", "settings.local.json"))
	if o.Plugin != "" {
		files = append(files, filepath.Join(o.Plugin, "hooks", "hooks.json"))
	}
	return files
}

func checkSettings(r *report, o Options, cfg *config.Config, agents int) []registration {
	var regs []registration
	capped := o.Env != nil && o.Env(install.CapKey) == "0"
	for _, file := range settingsFiles(o) {
		data, err := os.ReadFile(file)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			r.add(Fail, "settings", "%s: %v", file, err)
			continue
		}
		if len(bytes.TrimSpace(data)) == 0 {
			continue
		}
		if !json.Valid(data) {
			r.add(Fail, "settings", "%s is not valid JSON, so Claude Code ignores it; fix it, or restore %s.ralph-hooks.bak", file, file)
			continue
		}
		if gjson.GetBytes(data, "disableAllHooks").Bool() {
			r.add(Fail, "settings", "%s sets disableAllHooks: no hook runs; remove it", file)
		}
		if gjson.GetBytes(data, "env."+install.CapKey).String() == "0" {
			capped = true
		}
		for _, reg := range install.Find(data) {
			plugin := ""
			if o.Plugin != "" && file == filepath.Join(o.Plugin, "hooks", "hooks.json") {
				plugin = o.Plugin
			}
			p := install.Path(reg.Command, o.Home, o.Root, plugin)
			regs = append(regs, registration{Registered: reg, File: file, Path: p})
			if err := executable(p); err != nil {
				r.add(Fail, "settings", "%s: hooks.%s runs %s: %v; run ralph install again", file, reg.Event, reg.Command, err)
			}
		}
		if _, err := os.Stat(filepath.Join(filepath.Dir(file), install.Manifest)); err == nil {
			m, err := os.ReadFile(filepath.Join(filepath.Dir(file), install.Manifest))
			if err == nil && !json.Valid(m) {
				r.add(Fail, "settings", "%s is corrupt: move it aside (mv %[1]s %[1]s.corrupt); ralph uninstall then cannot tell what install added", filepath.Join(filepath.Dir(file), install.Manifest))
			}
		}
	}
	if len(regs) == 0 && agents > 0 {
		r.add(OK, "settings", "not registered for Claude Code (%s), only for the agents below", strings.Join(settingsFiles(o), ", "))
		return nil
	}
	if len(regs) == 0 {
		r.add(Fail, "settings", "ralph-hooks is not registered in any Claude Code settings (%s): run ralph install (or, for the plugin, ralph doctor --plugin DIR)", strings.Join(settingsFiles(o), ", "))
		return nil
	}
	for _, h := range install.Hooks {
		var on []registration
		cmds := map[string]bool{}
		for _, reg := range regs {
			if reg.Event == h.Event && reg.Binary == h.Binary && !cmds[reg.Command] {
				cmds[reg.Command] = true // Claude Code runs one command string once
				on = append(on, reg)
			}
		}
		switch {
		case len(on) == 0:
			r.add(Fail, "settings", "no %s hook on %s: %s; run ralph install", h.Binary, h.Event, missingWhy(h))
		case len(on) > 1:
			var where []string
			for _, reg := range on {
				where = append(where, reg.Command+" in "+reg.File)
			}
			r.add(Fail, "settings", "%s is registered %d times on %s (%s): every call runs it %d times; keep one (ralph uninstall --scope …, or edit the file)", h.Binary, len(on), h.Event, strings.Join(where, "; "), len(on))
		default:
			reg := on[0]
			if h.Event == "Stop" {
				want := install.StopTimeout(cfg)
				t := reg.Timeout
				if t == 0 {
					t = 600 // Claude Code's default
				}
				if t < want {
					r.add(Warn, "settings", "%s: the Stop hook's timeout is %d s, under the %d s the completion command and metrics may take (plus a minute): run ralph install again", reg.File, t, want)
					continue
				}
			}
			r.add(OK, "settings", "%s on %s: %s (%s)", h.Binary, h.Event, reg.Command, reg.File)
		}
	}
	if !capped {
		r.add(Warn, "settings", "%s=0 is not set: Claude Code ends a turn after 8 Stop blocks in a row; run ralph install (it sets it in env)", install.CapKey)
	}
	return regs
}

func missingWhy(h install.Hook) string {
	switch h.Event {
	case "PreToolUse":
		return "no tool call is guarded"
	case "Stop":
		return "no iteration is judged and a loop never goes on"
	}
	return "nothing is checked after a tool call"
}

func checkState(r *report, root string, getenv func(string) string) {
	l := project.Layout{Root: root}
	if _, err := os.Stat(l.Ralph()); errors.Is(err, fs.ErrNotExist) {
		r.add(OK, "state", "no .aiwg/ralph in %s yet", root)
		return
	}
	bad := 0
	reg, err := registry.Read(root)
	if err != nil {
		bad++
		r.add(Fail, "state", "%v; recover: mv %s %s.corrupt (the loops' own state stays; ralph list then shows none active)", err, l.Registry(), l.Registry())
	}
	sc, _ := project.NewScope(root, "")
	if err := validJSON(sc.State()); err != nil {
		bad++
		r.add(Fail, "state", "%s is corrupt (%v); recover: mv %[1]s %[1]s.corrupt (only ralph rollback --last forgets; ralph rollback --list still has every checkpoint)", sc.State(), err)
	}
	n := 0
	if reg != nil {
		for _, e := range reg.ActiveLoops {
			n++
			var st loop.State
			sc, err := project.NewScope(root, e.LoopID)
			if err != nil {
				bad++
				r.add(Fail, "state", "the registry names a bad loop id %q; recover: mv %s %s.corrupt", e.LoopID, l.Registry(), l.Registry())
				continue
			}
			err = state.ReadJSON(sc.State(), &st)
			switch {
			case errors.Is(err, fs.ErrNotExist):
				err = fmt.Errorf("the registry lists it, but %s is missing", sc.State())
			case err == nil && st.LoopID != e.LoopID:
				err = fmt.Errorf("%s holds loop %q, not this one", sc.State(), st.LoopID)
			case err == nil:
				err = st.Check(sc.State())
			}
			if err != nil {
				bad++
				r.add(Fail, "state", "loop %s: %v; recover: ralph abort %s --force (ends it; its iterations and snapshots stay)", e.LoopID, err, e.LoopID)
			}
		}
	}
	checkSeals(r, root, getenv)
	if orphans, err := loop.Orphans(root); err == nil && len(orphans) > 0 {
		ids := make([]string, len(orphans))
		for i, o := range orphans {
			ids[i] = o.ID
		}
		r.add(Warn, "state", "%d loop director%s with no readable state, left by a ralph start that did not finish (%s): ralph list --all skips them; clear them all with: %s",
			len(orphans), map[bool]string{true: "y", false: "ies"}[len(orphans) == 1], strings.Join(ids, ", "), loop.ClearCommand(root, orphans))
	}
	if bad == 0 {
		r.add(OK, "state", "registry and loop state are readable (%d active loops)", n)
	}
}

// validJSON reports why the file at path is not JSON; nothing when it is
// missing.
func validJSON(path string) error {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	return nil
}

// probe is a hook call doctor times, and its budget (DESIGN.md).
type probe struct {
	binary, what, event string
	budget              time.Duration
}

var probes = []probe{
	{"pre-tool-call", "a Read", `{"session_id":"doctor","cwd":"DIR","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"DIR/README.md"}}`, 4 * time.Millisecond},
	{"pre-tool-call", "a Bash command", `{"session_id":"doctor","cwd":"DIR","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"go test ./... && git status"}}`, 5 * time.Millisecond},
	{"post-tool-call", "an Edit", `{"session_id":"doctor","cwd":"DIR","hook_event_name":"PostToolUse","tool_name":"Edit","tool_input":{"file_path":"DIR/README.md","old_string":"a","new_string":"b"},"tool_response":{"success":true}}`, 10 * time.Millisecond},
	{"stop", "a Stop outside a loop", `{"session_id":"doctor","cwd":"DIR","hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"Done."}`, 25 * time.Millisecond},
}

// checkLatency times each registered hook (or ralph's own, when none is
// registered) on sample calls in a scratch project, one process per call
// as the agent runs them.
func checkLatency(ctx context.Context, r *report, o Options, regs []registration) {
	paths := map[string]string{} // binary → path
	for _, reg := range regs {
		if _, ok := paths[reg.Binary]; !ok && executable(reg.Path) == nil {
			paths[reg.Binary] = reg.Path
		}
	}
	for _, b := range []string{"pre-tool-call", "post-tool-call", "stop"} {
		if _, ok := paths[b]; !ok && executable(filepath.Join(o.Bin, b)) == nil {
			paths[b] = filepath.Join(o.Bin, b)
		}
	}
	dir, err := os.MkdirTemp("", "ralph-doctor-")
	if err != nil {
		r.add(Fail, "latency", "creating a scratch project: %v", err)
		return
	}
	defer os.RemoveAll(dir)
	// Its own aiwg.yml and CLAUDE_PROJECT_DIR make it a project of its own,
	// wherever the temp directory is: a probe must never reach the user's.
	for name, data := range map[string]string{"README.md": "a\n", "aiwg.yml": "# ralph doctor's scratch project\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			r.add(Fail, "latency", "creating a scratch project: %v", err)
			return
		}
	}
	env := append(scrubbed(), "CLAUDE_PROJECT_DIR="+dir)
	for _, p := range probes {
		path, ok := paths[p.binary]
		if !ok {
			continue
		}
		ev := strings.ReplaceAll(p.event, "DIR", dir)
		var times []time.Duration
		for range o.Runs {
			d, err := call(ctx, path, dir, ev, env)
			if err != nil {
				r.add(Fail, "latency", "%s on %s: %v", path, p.what, err)
				times = nil
				break
			}
			times = append(times, d)
		}
		if len(times) == 0 {
			continue
		}
		sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
		p50 := times[len(times)/2]
		level := OK
		if p50 > p.budget {
			level = Warn
		}
		r.add(level, "latency", "%s on %s: p50 %.1f ms over %d calls (p95 budget %d ms)", p.binary, p.what, float64(p50.Microseconds())/1000, len(times), p.budget.Milliseconds())
	}
}

// call runs one hook call and checks its answer.
func call(ctx context.Context, path, dir, ev string, env []string) (time.Duration, error) {
	cmd := exec.CommandContext(ctx, path)
	cmd.Dir, cmd.Env = dir, env
	cmd.Stdin = strings.NewReader(ev)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	if err != nil {
		return 0, fmt.Errorf("%v: %s", err, strings.TrimSpace(errb.String()))
	}
	if o := bytes.TrimSpace(out.Bytes()); len(o) > 0 && !json.Valid(o) {
		return 0, fmt.Errorf("answered something that is not JSON: %.80q", o)
	}
	return d, nil
}

// scrubbed is the environment without what ties a call to the user's
// project or loop.
func scrubbed() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k != "CLAUDE_PROJECT_DIR" && k != "RALPH_LOOP_ID" {
			env = append(env, kv)
		}
	}
	return env
}

// checkSeals names the files of ralph's state that differ from the copy
// ralph sealed outside the project: changed by something other than ralph
// (a hand edit, or the agent) since ralph last wrote them. doctor changes
// nothing; the way out is the human's step.
func checkSeals(r *report, root string, getenv func(string) string) {
	if getenv == nil {
		getenv = os.Getenv
	}
	v, err := vault.Open(root, getenv)
	if err != nil {
		return
	}
	changed, err := v.Changed()
	if err != nil {
		r.add(Warn, "state", "ralph's sealed copy of this project's state cannot be read: %v", err)
		return
	}
	for _, rel := range changed {
		r.add(Warn, "state", "%s is not as ralph sealed it: changed outside ralph since ralph wrote it; the next hook, or ralph command that writes it, puts ralph's copy back and sends its loop to the gate; ralph doctor --fix does it now", filepath.Join(root, rel))
	}
}
