// Package install registers ralph-hooks in Claude Code's settings, and
// removes exactly what it registered.
//
// The settings file is edited in place with sjson, so every other setting
// keeps its bytes; a file in Claude Code's own layout (two-space indented)
// is re-indented the same way after the edit. What an install adds (hook
// commands, the containers it had to create, the env value and its previous
// value, the /ralph command file) is recorded in ralph-hooks.json beside the
// settings file: uninstall reads it and takes out that and nothing else.
package install

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/event"
	"github.com/ralph-hooks/ralph-hooks/internal/metrics"
	"github.com/ralph-hooks/ralph-hooks/internal/state"
)

// Hook is one registration: a hook binary on an agent event.
type Hook struct {
	Event   string // Claude Code event name
	Binary  string // file name in the bin directory
	Matcher string // "" for events without tools
	Timeout int    // seconds; 0: StopTimeout
}

// Hooks are the registrations of an install, in settings order.
var Hooks = []Hook{
	{Event: "PreToolUse", Binary: "pre-tool-call", Matcher: "*", Timeout: 10},
	{Event: "PostToolUse", Binary: "post-tool-call", Matcher: "*", Timeout: 30},
	{Event: "PostToolUseFailure", Binary: "post-tool-call", Matcher: "*", Timeout: 30},
	{Event: "Stop", Binary: "stop"},
}

// Binaries are the executables an install needs in its bin directory.
var Binaries = []string{"pre-tool-call", "post-tool-call", "stop", "ralph"}

// CapKey is the env setting of Claude Code's cap on consecutive Stop
// blocks; 0 turns the cap off, since ralph bounds the loop itself.
const CapKey = "CLAUDE_CODE_STOP_HOOK_BLOCK_CAP"

// Manifest is the record file's name, beside the settings file.
const Manifest = "ralph-hooks.json"

// Scopes are the settings files an install may edit.
var Scopes = []string{"project", "local", "user"}

// Options say where to install and what.
type Options struct {
	Scope  string // project, local or user
	Root   string // the project root (project and local scopes)
	Home   string // the user's home (user scope)
	Bin    string // absolute directory of the hook binaries and ralph
	Config *config.Config
	DryRun bool
	Now    time.Time

	StatusLine bool // register ralph statusline as the statusLine (statusline.go)
}

// Settings returns the settings file of a scope.
func Settings(scope, root, home string) (string, error) {
	switch scope {
	case "project":
		return filepath.Join(root, ".claude", "settings.json"), nil
	case "local":
		return filepath.Join(root, ".claude", "settings.local.json"), nil
	case "user":
		if home == "" {
			return "", errors.New("--scope user: HOME is not set")
		}
		return filepath.Join(home, ".claude", "settings.json"), nil
	}
	return "", fmt.Errorf("--scope %q: want project, local or user", scope)
}

// StopTimeout is the stop hook's timeout in seconds: the completion command's
// timeout, plus each metric's (they run one after the other), plus a minute
// for the hook's own work.
func StopTimeout(cfg *config.Config) int {
	d := cfg.Completion.Timeout + time.Minute
	for _, m := range cfg.Metrics {
		if m.Timeout > 0 {
			d += m.Timeout
		} else {
			d += metrics.DefaultTimeout
		}
	}
	return int((d + time.Second - 1) / time.Second)
}

// Record is what one install added to one settings file.
type Record struct {
	Bin      string            `json:"bin"`
	Hooks    map[string]string `json:"hooks"`             // event → command
	Created  []string          `json:"created,omitempty"` // sjson paths of containers it created
	File     string            `json:"file,omitempty"`    // "missing" or "empty": the settings file before
	Exact    bool              `json:"exact,omitempty"`   // nobody else edited the file since the first install
	Before   string            `json:"before,omitempty"`  // SHA-256 of the file before the first install (kept as FILE.ralph-hooks.orig)
	After    string            `json:"after,omitempty"`   // SHA-256 of the file as install left it
	Env      *EnvRecord        `json:"env,omitempty"`
	Command  string            `json:"command_file,omitempty"`
	Sum      string            `json:"command_sum,omitempty"` // of the command file it wrote
	Time     time.Time         `json:"installed_at"`
	Settings string            `json:"settings"`

	StatusLine *StatusLineRecord `json:"status_line,omitempty"`
}

// EnvRecord is the env value an install set, and the one it replaced.
type EnvRecord struct {
	Key      string  `json:"key"`
	Value    string  `json:"value"`
	Previous *string `json:"previous,omitempty"`
}

// Result says what Install or Uninstall did (or would do, in a dry run).
type Result struct {
	Settings string
	Changes  []string // one line each
	Notes    []string // things left alone, one line each
	Backup   string   // the copy of the settings file before the change
	Changed  bool
}

// Command returns the shell command Claude Code runs for a binary: its
// absolute path, quoted when it needs to be.
func Command(bin, name string) string { return quote(filepath.Join(bin, name)) }

var plain = regexp.MustCompile(`^[A-Za-z0-9_./@%+=:,-]+$`)

func quote(s string) string {
	if plain.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// CheckBin reports the first binary missing from, or not executable in,
// bin.
func CheckBin(bin string) error {
	for _, b := range Binaries {
		p := filepath.Join(bin, b)
		fi, err := os.Stat(p)
		switch {
		case err != nil:
			return fmt.Errorf("%s: %w (build the binaries with make install, or pass --bin DIR)", p, unwrapPath(err))
		case fi.IsDir() || fi.Mode()&0o111 == 0:
			return fmt.Errorf("%s: not an executable file", p)
		}
	}
	return nil
}

// unwrapPath drops the path a *fs.PathError repeats.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// doc is a settings file being edited.
type doc struct {
	path    string
	orig    []byte // as read; nil when missing
	missing bool
	json    string
}

func readDoc(path string) (*doc, error) {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real // a link (to dotfiles, say) stays a link: its target is edited
	}
	data, err := os.ReadFile(path)
	d := &doc{path: path, orig: data}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		d.missing = true
		d.json = "{}"
		return d, nil
	case err != nil:
		return nil, fmt.Errorf("reading %s: %w", path, unwrapPath(err))
	}
	if len(bytes.TrimSpace(data)) == 0 {
		d.json = "{}"
		return d, nil
	}
	if !json.Valid(data) {
		return nil, fmt.Errorf("%s: %s; fix it or move it aside, nothing was changed", path, syntaxError(data))
	}
	d.json = string(bytes.TrimSpace(data))
	if !gjson.Parse(d.json).IsObject() {
		return nil, fmt.Errorf("%s: not a JSON object; nothing was changed", path)
	}
	for _, k := range []string{"hooks", "env"} {
		if v := gjson.Get(d.json, k); v.Exists() && !v.IsObject() {
			return nil, fmt.Errorf("%s: %q: want an object, got %s; nothing was changed", path, k, event.Kind(v))
		}
	}
	for _, h := range Hooks {
		if v := gjson.Get(d.json, "hooks."+h.Event); v.Exists() && !v.IsArray() {
			return nil, fmt.Errorf("%s: \"hooks.%s\": want an array, got %s; nothing was changed", path, h.Event, event.Kind(v))
		}
		if err := entries(path, d.json, h.Event, true); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// entries refuses a hooks array whose entries are not objects (and, for
// Claude Code's layout, whose entries' hooks are not arrays): an agent
// that validates its settings may skip such a file whole, and with it the
// hooks install would add, while install said they were in.
func entries(path, doc, name string, nested bool) error {
	key := "hooks." + gjson.Escape(name)
	for i, e := range gjson.Get(doc, key).Array() {
		if !e.IsObject() {
			return fmt.Errorf("%s: \"hooks.%s[%d]\": want an object, got %s; fix it or move it aside, nothing was changed", path, name, i, event.Kind(e))
		}
		if hs := e.Get("hooks"); nested && hs.Exists() && !hs.IsArray() {
			return fmt.Errorf("%s: \"hooks.%s[%d].hooks\": want an array, got %s; fix it or move it aside, nothing was changed", path, name, i, event.Kind(hs))
		}
	}
	return nil
}

// syntaxError describes why data is not JSON, with the line.
func syntaxError(data []byte) string {
	var v any
	err := json.Unmarshal(data, &v)
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line := 1 + bytes.Count(data[:min(int(se.Offset), len(data))], []byte("\n"))
		return fmt.Sprintf("line %d: not valid JSON: %v", line, se)
	}
	return fmt.Sprintf("not valid JSON: %v", err)
}

// canonical reports whether data is laid out as Claude Code writes
// settings (two-space indent), so that an edit may re-indent the file.
func canonical(data []byte) bool {
	var b bytes.Buffer
	if json.Indent(&b, bytes.TrimSpace(data), "", "  ") != nil {
		return false
	}
	return bytes.Equal(b.Bytes(), bytes.TrimSpace(data))
}

// bytes returns the edited file's contents: re-indented when the file was
// missing, empty or in Claude Code's layout, else as edited in place; the
// white space around the JSON kept.
func (d *doc) bytes() []byte {
	if len(bytes.TrimSpace(d.orig)) == 0 {
		var b bytes.Buffer
		json.Indent(&b, []byte(d.json), "", "  ")
		return append(b.Bytes(), '\n')
	}
	core := []byte(d.json)
	if canonical(d.orig) {
		var b bytes.Buffer
		if json.Indent(&b, core, "", "  ") == nil {
			core = b.Bytes()
		}
	}
	lead := d.orig[:len(d.orig)-len(bytes.TrimLeft(d.orig, " \t\r\n"))]
	trail := d.orig[len(bytes.TrimRight(d.orig, " \t\r\n")):]
	return append(append(append([]byte(nil), lead...), core...), trail...)
}

// entry is one hook command registered on an event.
type entry struct {
	group, hook int // indices in hooks.EVENT and in its group's hooks
	command     string
}

// entries lists the command hooks registered on event.
func (d *doc) entries(event string) []entry {
	var es []entry
	gjson.Get(d.json, "hooks."+event).ForEach(func(gi, g gjson.Result) bool {
		g.Get("hooks").ForEach(func(hi, h gjson.Result) bool {
			es = append(es, entry{group: int(gi.Int()), hook: int(hi.Int()), command: h.Get("command").String()})
			return true
		})
		return true
	})
	return es
}

// remove deletes the hook at e, and its group when nothing else is in it.
func (d *doc) remove(event string, e entry) error {
	g := fmt.Sprintf("hooks.%s.%d", event, e.group)
	var err error
	if n := len(gjson.Get(d.json, g+".hooks").Array()); n > 1 {
		d.json, err = sjson.Delete(d.json, fmt.Sprintf("%s.hooks.%d", g, e.hook))
		return err
	}
	d.json, err = sjson.Delete(d.json, g)
	return err
}

// removeCommand deletes every registration of command on event, from the
// last, so that indices stay right.
func (d *doc) removeCommand(event, command string) (int, error) {
	es := d.entries(event)
	n := 0
	for i := len(es) - 1; i >= 0; i-- {
		if es[i].command == command {
			if err := d.remove(event, es[i]); err != nil {
				return n, err
			}
			n++
		}
	}
	return n, nil
}

// dropEmpty deletes the containers an install created, when empty.
func (d *doc) dropEmpty(created []string) error {
	for i := len(created) - 1; i >= 0; i-- {
		v := gjson.Get(d.json, created[i])
		if !v.Exists() || (v.IsArray() && len(v.Array()) > 0) || (v.IsObject() && len(v.Map()) > 0) {
			continue
		}
		var err error
		if d.json, err = sjson.Delete(d.json, created[i]); err != nil {
			return err
		}
	}
	return nil
}

// write replaces the file with data atomically, backing the old one up
// first.
func (d *doc) write(data []byte) (backup string, err error) {
	perm := d.perm()
	if !d.missing {
		backup = d.path + ".ralph-hooks.bak"
		if err := state.WriteFile(backup, d.orig, perm); err != nil {
			return "", fmt.Errorf("backing up %s: %w", d.path, err)
		}
	}
	return backup, state.WriteFile(d.path, data, perm)
}

// manifest is ralph-hooks.json: the records of a .claude directory, by
// settings file name.
type manifest map[string]*Record

func manifestPath(settings string) string { return filepath.Join(filepath.Dir(settings), Manifest) }

func readManifest(settings string) (manifest, error) { return readManifestAt(manifestPath(settings)) }

func (m manifest) write(settings string) error { return m.writeAt(manifestPath(settings)) }

// Install registers the hooks, the env value and the /ralph command in the
// scope's settings. A second run changes nothing.
func Install(o Options) (*Result, error) {
	j, err := openInstall(o)
	if err != nil {
		return nil, err
	}
	if err := j.addHooks(StopTimeout(o.Config)); err != nil {
		return nil, err
	}
	if err := j.setEnv(); err != nil {
		return nil, err
	}
	if err := j.d.installStatusLine(o, j.old, j.rec, j.r); err != nil {
		return nil, err
	}
	writeCmd, err := j.slashCommand()
	if err != nil {
		return nil, err
	}
	j.r.Changed = len(j.r.Changes) > 0
	if o.DryRun || !j.r.Changed {
		return j.r, nil
	}
	if err := j.commit(writeCmd); err != nil {
		return nil, err
	}
	return j.r, nil
}

// job is one install or uninstall of one settings file.
type job struct {
	o    Options
	path string   // the settings file
	key  string   // its record's key in the manifest
	m    manifest // the records of the settings files of the directory
	d    *doc     // the settings as read, then as changed
	old  *Record  // the record of an earlier install, or nil
	rec  *Record  // the record of this one
	r    *Result

	cmdText string // the /ralph command file install writes
}

// openInstall reads the scope's settings and the record of an earlier
// install, and starts the record of this one.
func openInstall(o Options) (*job, error) {
	path, err := Settings(o.Scope, o.Root, o.Home)
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
	m, err := readManifest(path)
	if err != nil {
		return nil, err
	}
	j := &job{o: o, path: path, key: filepath.Base(path), m: m, d: d, r: &Result{Settings: path}}
	j.old = m[j.key]
	rec := &Record{Bin: o.Bin, Hooks: map[string]string{}, Time: o.Now.UTC(), Settings: path}
	switch old := j.old; {
	case old != nil:
		rec.Created, rec.File, rec.Env, rec.After = old.Created, old.File, old.Env, old.After
		if old.Exact && sum(string(d.orig)) == old.After {
			rec.Exact, rec.Before = true, old.Before // edited by nobody since
		}
	case d.missing:
		rec.File = "missing"
	case len(bytes.TrimSpace(d.orig)) == 0:
		rec.File = "empty"
	}
	if j.old == nil {
		rec.Exact, rec.After = true, sum(string(d.orig))
	}
	j.rec = rec
	return j, nil
}

// addHooks registers each hook, with its timeout (the stop hook's is
// stopTimeout), unless the settings have it already.
func (j *job) addHooks(stopTimeout int) error {
	d, old, rec, r, path := j.d, j.old, j.rec, j.r, j.path
	var err error
	for _, h := range Hooks {
		cmd := Command(j.o.Bin, h.Binary)
		timeout := h.Timeout
		if timeout == 0 {
			timeout = stopTimeout
		}
		// An earlier install's registration from another bin directory is
		// ours to replace.
		if old != nil && old.Hooks[h.Event] != "" && old.Hooks[h.Event] != cmd {
			n, err := d.removeCommand(h.Event, old.Hooks[h.Event])
			if err != nil {
				return fmt.Errorf("%s: removing %s: %w", path, old.Hooks[h.Event], err)
			}
			if n > 0 {
				r.Changes = append(r.Changes, fmt.Sprintf("removed   %-18s %s (an earlier install)", h.Event, old.Hooks[h.Event]))
			}
		}
		var mine *entry
		for _, e := range d.entries(h.Event) {
			switch {
			case e.command == cmd && mine == nil:
				mine = &e
			case e.command == cmd:
				r.Notes = append(r.Notes, fmt.Sprintf("hooks.%s registers %s twice; Claude Code runs it once", h.Event, cmd))
			case isOurs(e.command, h.Binary):
				r.Notes = append(r.Notes, fmt.Sprintf("hooks.%s also registers %s, not added by ralph install: it runs too (see ralph doctor)", h.Event, e.command))
			}
		}
		if mine != nil {
			if old == nil || old.Hooks[h.Event] != cmd {
				r.Notes = append(r.Notes, fmt.Sprintf("hooks.%s already registers %s (left as it is, and left by uninstall)", h.Event, cmd))
				continue
			}
			rec.Hooks[h.Event] = cmd
			p := fmt.Sprintf("hooks.%s.%d.hooks.%d.timeout", h.Event, mine.group, mine.hook)
			if gjson.Get(d.json, p).Int() != int64(timeout) {
				if d.json, err = sjson.Set(d.json, p, timeout); err != nil {
					return fmt.Errorf("%s: setting %s: %w", path, p, err)
				}
				r.Changes = append(r.Changes, fmt.Sprintf("timeout   %-18s %d s", h.Event, timeout))
			}
			continue
		}
		for _, c := range []string{"hooks", "hooks." + h.Event} {
			if !gjson.Get(d.json, c).Exists() {
				rec.Created = appendNew(rec.Created, c)
			}
		}
		raw := group(h.Matcher, cmd, timeout)
		if d.json, err = sjson.SetRaw(d.json, "hooks."+h.Event+".-1", raw); err != nil {
			return fmt.Errorf("%s: adding hooks.%s: %w", path, h.Event, err)
		}
		rec.Hooks[h.Event] = cmd
		r.Changes = append(r.Changes, fmt.Sprintf("added     %-18s %s (timeout %d s)", h.Event, cmd, timeout))
	}
	return nil
}

// setEnv sets Claude Code's cap on Stop blocks off (ralph bounds the loop
// itself), unless the user set it to something else since.
func (j *job) setEnv() error {
	d, rec, r := j.d, j.rec, j.r
	envPath := "env." + CapKey
	switch v := gjson.Get(d.json, envPath); {
	case v.Exists() && v.String() == "0":
	case rec.Env != nil && v.Exists() && v.String() != rec.Env.Value:
		r.Notes = append(r.Notes, fmt.Sprintf("env.%s is %q, changed since ralph install set it to %q: left as it is", CapKey, v.String(), rec.Env.Value))
	default:
		if !gjson.Get(d.json, "env").Exists() {
			rec.Created = appendNew(rec.Created, "env")
		}
		env := &EnvRecord{Key: CapKey, Value: "0"}
		if v.Exists() {
			prev := v.String()
			env.Previous = &prev
		}
		var err error
		if d.json, err = sjson.Set(d.json, envPath, "0"); err != nil {
			return fmt.Errorf("%s: setting %s: %w", j.path, envPath, err)
		}
		rec.Env = env
		r.Changes = append(r.Changes, fmt.Sprintf("env       %s=0 (ralph bounds the loop itself, not Claude Code's cap of 8 blocks)", CapKey))
	}
	return nil
}

// slashCommand decides about the /ralph command file: write reports
// whether it is to be written (missing, or ralph's and out of date).
func (j *job) slashCommand() (write bool, err error) {
	rec, r := j.rec, j.r
	cmdFile, cmdText := commandFile(j.path), SlashCommand(quote(filepath.Join(j.o.Bin, "ralph")))
	rec.Command, rec.Sum, j.cmdText = cmdFile, sum(cmdText), cmdText
	switch cur, err := os.ReadFile(cmdFile); {
	case err == nil && string(cur) == cmdText:
	case err == nil && !j.m.wrote(cmdFile, sum(string(cur))):
		rec.Command, rec.Sum = "", ""
		why := "is not ralph's"
		if generated(cur) {
			why = "was edited since ralph install wrote it"
		}
		r.Notes = append(r.Notes, fmt.Sprintf("%s %s: left as it is", cmdFile, why))
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return false, fmt.Errorf("reading %s: %w", cmdFile, unwrapPath(err))
	default:
		r.Changes = append(r.Changes, fmt.Sprintf("command   /ralph             %s", cmdFile))
		return true, nil
	}
	return false, nil
}

// commit writes the settings first, then the record (else the settings go
// back), then the command file the record names.
func (j *job) commit(writeCmd bool) error {
	d, rec, r := j.d, j.rec, j.r
	if data := d.bytes(); !bytes.Equal(data, d.orig) {
		if j.old == nil && !d.missing {
			// The file as it was, for an uninstall that puts it back
			// byte for byte; beside it, with its mode, like the backup.
			if err := state.WriteFile(d.path+origSuffix, d.orig, d.perm()); err != nil {
				return fmt.Errorf("keeping a copy of %s: %w", d.path, err)
			}
			rec.Before = sum(string(d.orig))
		}
		var err error
		if r.Backup, err = d.write(data); err != nil {
			return err
		}
		rec.After = sum(string(data))
	}
	j.m[j.key] = rec
	if err := j.m.write(j.path); err != nil {
		if rerr := state.WriteFile(d.path, d.orig, d.perm()); rerr != nil && !d.missing {
			return fmt.Errorf("%w; and putting %s back: %v (its copy: %s)", err, d.path, rerr, r.Backup)
		}
		if d.missing {
			os.Remove(d.path)
		}
		return fmt.Errorf("%w (the settings were left as they were)", err)
	}
	if writeCmd {
		return state.WriteFile(rec.Command, []byte(j.cmdText), 0o644)
	}
	return nil
}

// origSuffix names the copy of a settings file from before the first
// install.
const origSuffix = ".ralph-hooks.orig"

// wrote reports whether a record of m names file with contents of sum:
// a command file an install wrote and nobody edited since.
func (m manifest) wrote(file, sum string) bool {
	for _, rec := range m {
		if rec.Command == file && rec.Sum == sum {
			return true
		}
	}
	return false
}

// perm returns the file's mode, 0644 when it has none yet.
func (d *doc) perm() fs.FileMode {
	if fi, err := os.Stat(d.path); err == nil {
		return fi.Mode().Perm()
	}
	return 0o644
}

// Uninstall removes what Install recorded, and leaves the rest.
func Uninstall(o Options) (*Result, error) {
	j, err := openUninstall(o)
	if err != nil {
		return nil, err
	}
	if err := j.removeHooks(); err != nil {
		return nil, err
	}
	if err := j.restoreEnv(); err != nil {
		return nil, err
	}
	if err := j.d.uninstallStatusLine(j.rec, j.r); err != nil {
		return nil, err
	}
	if err := j.d.dropEmpty(j.rec.Created); err != nil {
		return nil, err
	}
	if err := j.removeSlashCommand(); err != nil {
		return nil, err
	}
	j.r.Changed = len(j.r.Changes) > 0
	if o.DryRun {
		return j.r, nil
	}
	if err := j.putBack(); err != nil {
		return nil, err
	}
	delete(j.m, j.key)
	return j.r, j.m.write(j.path)
}

// openUninstall reads the record of the scope's install and its settings.
func openUninstall(o Options) (*job, error) {
	path, err := Settings(o.Scope, o.Root, o.Home)
	if err != nil {
		return nil, err
	}
	m, err := readManifest(path)
	if err != nil {
		return nil, err
	}
	key := filepath.Base(path)
	rec := m[key]
	if rec == nil {
		return nil, fmt.Errorf("no ralph install recorded for %s (in %s): nothing removed", path, manifestPath(path))
	}
	d, err := readDoc(path)
	if err != nil {
		return nil, err
	}
	return &job{o: o, path: path, key: key, m: m, d: d, rec: rec, r: &Result{Settings: path}}, nil
}

// removeHooks takes out the hooks the install registered.
func (j *job) removeHooks() error {
	for _, h := range Hooks {
		cmd := j.rec.Hooks[h.Event]
		if cmd == "" {
			continue
		}
		n, err := j.d.removeCommand(h.Event, cmd)
		if err != nil {
			return fmt.Errorf("%s: removing %s: %w", j.path, cmd, err)
		}
		if n == 0 {
			j.r.Notes = append(j.r.Notes, fmt.Sprintf("hooks.%s: %s was already gone", h.Event, cmd))
			continue
		}
		j.r.Changes = append(j.r.Changes, fmt.Sprintf("removed   %-18s %s", h.Event, cmd))
	}
	return nil
}

// restoreEnv puts the env value the install set back as it was, unless
// the user changed it since.
func (j *job) restoreEnv() error {
	e, d, r := j.rec.Env, j.d, j.r
	if e == nil {
		return nil
	}
	p := "env." + e.Key
	var err error
	switch v := gjson.Get(d.json, p); {
	case !v.Exists():
	case v.String() != e.Value:
		r.Notes = append(r.Notes, fmt.Sprintf("env.%s is %q, changed since install: left as it is", e.Key, v.String()))
	case e.Previous != nil:
		if d.json, err = sjson.Set(d.json, p, *e.Previous); err != nil {
			return err
		}
		r.Changes = append(r.Changes, fmt.Sprintf("env       %s=%s (as it was before install)", e.Key, *e.Previous))
	default:
		if d.json, err = sjson.Delete(d.json, p); err != nil {
			return err
		}
		r.Changes = append(r.Changes, fmt.Sprintf("env       %s removed", e.Key))
	}
	return nil
}

// removeSlashCommand removes the /ralph command file the install wrote,
// unless another scope's install shares it or it was changed since.
func (j *job) removeSlashCommand() error {
	rec, r := j.rec, j.r
	shared := false
	for k, other := range j.m {
		shared = shared || (k != j.key && other.Command == rec.Command)
	}
	if rec.Command == "" || shared {
		return nil
	}
	switch cur, err := os.ReadFile(rec.Command); {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return fmt.Errorf("reading %s: %w", rec.Command, unwrapPath(err))
	case sum(string(cur)) != rec.Sum:
		r.Notes = append(r.Notes, fmt.Sprintf("%s was changed since install: left as it is", rec.Command))
	default:
		r.Changes = append(r.Changes, fmt.Sprintf("command   /ralph             %s removed", rec.Command))
		if !j.o.DryRun {
			if err := os.Remove(rec.Command); err != nil {
				return err
			}
			os.Remove(filepath.Dir(rec.Command)) // only if empty
		}
	}
	return nil
}

// putBack writes the settings without what the install added: a file
// nobody else edited since goes back byte for byte, one the install
// created goes away.
func (j *job) putBack() error {
	d, rec, r, path := j.d, j.rec, j.r, j.path
	data := d.bytes()
	exact := rec.Exact && sum(string(d.orig)) == rec.After
	orig := d.path + origSuffix
	if before, err := os.ReadFile(orig); exact && err == nil && sum(string(before)) == rec.Before {
		data = before
	} else if exact && rec.File != "missing" {
		exact = false // its copy is gone: take out what install added
	}
	if !exact && len(gjson.Parse(d.json).Map()) == 0 && rec.File == "empty" {
		data = nil
	}
	switch {
	case d.missing:
		r.Notes = append(r.Notes, fmt.Sprintf("%s is gone: nothing to take out of it", path))
	case rec.File == "missing" && (exact || len(gjson.Parse(d.json).Map()) == 0):
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		r.Changes = append(r.Changes, fmt.Sprintf("removed   %s (install created it)", path))
	case !bytes.Equal(data, d.orig):
		var err error
		if r.Backup, err = d.write(data); err != nil {
			return err
		}
	}
	if err := os.Remove(orig); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// group returns a matcher group of one command hook, keys in the order
// Claude Code's documentation writes them.
func group(matcher, command string, timeout int) string {
	c, _ := json.Marshal(command)
	h := fmt.Sprintf(`{"type":"command","command":%s,"timeout":%d}`, c, timeout)
	if matcher == "" {
		return `{"hooks":[` + h + `]}`
	}
	m, _ := json.Marshal(matcher)
	return fmt.Sprintf(`{"matcher":%s,"hooks":[%s]}`, m, h)
}

// isOurs reports whether command runs a binary called name.
func isOurs(command, name string) bool {
	p := Path(command, "/", "/", "/")
	return p != "" && filepath.Base(p) == name
}

func appendNew(list []string, s string) []string {
	for _, v := range list {
		if v == s {
			return list
		}
	}
	return append(list, s)
}

// Registered reports what a settings file registers of ralph-hooks' binaries.
type Registered struct {
	Event, Command, Binary string
	Timeout                int // seconds; 0 when unset
}

// Find lists the hook commands of data that run a ralph-hooks binary,
// whoever registered them.
func Find(data []byte) []Registered {
	var rs []Registered
	gjson.GetBytes(data, "hooks").ForEach(func(ev, groups gjson.Result) bool {
		groups.ForEach(func(_, g gjson.Result) bool {
			g.Get("hooks").ForEach(func(_, h gjson.Result) bool {
				cmd := h.Get("command").String()
				for _, b := range []string{"pre-tool-call", "post-tool-call", "stop", "post-iteration-reflect"} {
					if isOurs(cmd, b) {
						rs = append(rs, Registered{Event: ev.String(), Command: cmd, Binary: b, Timeout: int(h.Get("timeout").Int())})
					}
				}
				return true
			})
			return true
		})
		return true
	})
	return rs
}

// Path returns the executable a registered command runs: its first word,
// parsed as the shell would, with ~, $HOME, $CLAUDE_PROJECT_DIR and
// $CLAUDE_PLUGIN_ROOT expanded (plugin: "" leaves it unset) and a relative
// path taken from root; "" when it cannot tell.
func Path(command, home, root, plugin string) string {
	f, err := syntax.NewParser().Parse(strings.NewReader(command), "")
	if err != nil || len(f.Stmts) == 0 {
		return ""
	}
	call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) == 0 {
		return ""
	}
	env := []string{"HOME=" + home, "CLAUDE_PROJECT_DIR=" + root}
	if plugin != "" {
		env = append(env, "CLAUDE_PLUGIN_ROOT="+plugin)
	}
	p, err := expand.Literal(&expand.Config{Env: expand.ListEnviron(env...)}, call.Args[0])
	if err != nil || p == "" {
		return ""
	}
	if p == "~" || strings.HasPrefix(p, "~/") {
		p = home + p[1:]
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, p)
	}
	return p
}

func sum(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}
