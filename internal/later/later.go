// Package later watches the files that shells, tools and the coding agents
// run or obey later, on their own, outside any tool call a hook sees: the
// shell startup files, ssh's and other tools' configuration, the user's git
// configuration (whose command settings git runs in every repository), and
// the agents' skills, commands, subagents, MCP servers and plugins
// (package startup lists them). post-tool-call keeps them, in its cache,
// as the last Bash call left them — by their lstat stamp, and a digest of
// mode and content read only when the stamp moved — to report a change
// the guard did not put to the human; pre-tool-call, the stop hook and
// ralph run read what the human did not approve (Unapproved). It links
// nothing of the loop's, so that pre-tool-call's start-up stays small.
package later

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/filestamp"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/shell"
	"github.com/ralph-hooks/ralph-hooks/internal/startup"
	"github.com/ralph-hooks/ralph-hooks/internal/vault"
)

// CacheFile is the name of post-tool-call's cache (CachePath), which
// holds the files as last seen ("later") and those changed unseen
// ("unapproved").
const CacheFile = "posttool.json"

// CachePath is where post-tool-call keeps the cache name of the loop of
// sc: outside the project, beside the sealed copy of ralph's state
// (vault.CacheDir), since what it holds is the before of every
// comparison post-tool-call makes, and the only record of a change the
// human did not approve: rewritten or deleted by what the agent runs,
// it would hide the change. In the loop's directory only when there is
// no state directory (then there is no vault either).
func CachePath(sc project.Scope, name string, getenv func(string) string) string {
	if p := vault.CachePath(sc.Root, sc.Loop, name, getenv); p != "" {
		return p
	}
	return filepath.Join(sc.Dir(), name)
}

// Seen is one of those files as last seen. It is kept in a cache as
// one line of text (MarshalText), which post-tool-call decodes after every
// Bash call: a tenth of the time of a JSON object.
type Seen struct {
	Stamp filestamp.Stamp
	// Target is, for a symlink, the stamp of the file it leads to: a
	// write through the link changes that file, not the link.
	Target filestamp.Stamp
	// Sum digests the mode and content (a symlink: its target, and what
	// the file it leads to holds).
	Sum string
	// Git is, for a git configuration file, its command settings
	// (commandSettings): only they are compared.
	Git map[string]string
}

// MarshalText writes s as the ten numbers of its stamps, its digest, and
// each Git setting as a quoted key = quoted value, separated by spaces.
func (s Seen) MarshalText() ([]byte, error) {
	b := make([]byte, 0, 160)
	for _, st := range []filestamp.Stamp{s.Stamp, s.Target} {
		b = strconv.AppendInt(b, st.Size, 10)
		b = append(b, ' ')
		b = strconv.AppendInt(b, st.MTime, 10)
		b = append(b, ' ')
		b = strconv.AppendInt(b, st.CTime, 10)
		b = append(b, ' ')
		b = strconv.AppendUint(b, st.Ino, 10)
		b = append(b, ' ')
		b = strconv.AppendUint(b, st.Dev, 10)
		b = append(b, ' ')
	}
	b = append(b, s.Sum...)
	for _, k := range slices.Sorted(maps.Keys(s.Git)) {
		b = append(b, ' ')
		b = strconv.AppendQuote(b, k)
		b = append(b, '=')
		b = strconv.AppendQuote(b, s.Git[k])
	}
	return b, nil
}

// UnmarshalText reads what MarshalText wrote.
func (s *Seen) UnmarshalText(b []byte) error {
	bad := func() error { return fmt.Errorf("bad file entry %.40q", b) }
	t := string(b)
	var n [10]uint64
	for i := range n {
		f, rest, ok := strings.Cut(t, " ")
		var err error
		if i%5 < 3 { // size and times; then inode and device
			var v int64
			v, err = strconv.ParseInt(f, 10, 64)
			n[i] = uint64(v)
		} else {
			n[i], err = strconv.ParseUint(f, 10, 64)
		}
		if !ok || err != nil {
			return bad()
		}
		t = rest
	}
	s.Stamp = filestamp.Stamp{Size: int64(n[0]), MTime: int64(n[1]), CTime: int64(n[2]), Ino: n[3], Dev: n[4]}
	s.Target = filestamp.Stamp{Size: int64(n[5]), MTime: int64(n[6]), CTime: int64(n[7]), Ino: n[8], Dev: n[9]}
	s.Sum, t, _ = strings.Cut(t, " ")
	s.Git = nil
	for t != "" {
		k, err := strconv.QuotedPrefix(t)
		if err != nil || len(t) == len(k) || t[len(k)] != '=' {
			return bad()
		}
		v, err := strconv.QuotedPrefix(t[len(k)+1:])
		if err != nil {
			return bad()
		}
		t = strings.TrimPrefix(t[len(k)+1+len(v):], " ")
		if s.Git == nil {
			s.Git = map[string]string{}
		}
		k, _ = strconv.Unquote(k)
		s.Git[k], _ = strconv.Unquote(v)
	}
	return nil
}

// Bounds of a watched directory (fish's and direnv's configuration).
const (
	maxDepth = 4
	maxFiles = 2048
	maxRead  = 4 << 20 // bytes of a file digested; a longer one adds its size and mtime
)

// Paths returns the files to watch for the project at root: the startup
// files, the agents' own files, the schedulers' user directories, Claude
// Code's schedule (tasks.go), and the user's git configuration (true in
// the map).
func Paths(root string, getenv func(string) string) ([]string, map[string]bool) {
	home := project.Home(getenv)
	git := map[string]bool{}
	paths := append(startup.Paths(home, getenv), startup.AgentConfigs(root, home, getenv)...)
	paths = append(paths, startup.Schedulers(home, getenv)...)
	for _, p := range slices.Concat(startup.AgentSchedules(root, home), startup.EditorTasks(root), startup.HumanRuns(root, home, getenv, false)) {
		if !slices.Contains(paths, p) {
			paths = append(paths, p)
		}
	}
	for _, p := range startup.GitConfigs(home, getenv) {
		git[p] = true
		if !slices.Contains(paths, p) {
			paths = append(paths, p)
		}
	}
	return paths, git
}

// See returns the files of paths as they are now, each file of a watched
// directory by its own path; an absent file has no entry. A file whose
// stamp still matches its entry in was is not read again; at is now, for
// the stamps' settling.
func See(was map[string]Seen, paths []string, git map[string]bool, at time.Time) map[string]Seen {
	now := map[string]Seen{}
	gone := map[string]bool{} // directories that hold none of the paths: not there
	for _, p := range paths {
		d := filepath.Dir(p)
		missing, seen := gone[d]
		if !seen {
			// Most watched paths share a parent most machines lack
			// (~/.gemini, .opencode): one stat for them all.
			_, err := os.Stat(d)
			missing = errors.Is(err, fs.ErrNotExist)
			gone[d] = missing
		}
		if missing {
			continue
		}
		fi, err := os.Lstat(p)
		if err != nil {
			continue
		}
		if !fi.IsDir() {
			if s, ok := seeFile(was, p, fi, git[p], at); ok {
				now[p] = s
			}
			if !dirLink(p, fi) {
				continue
			}
			// A symlink to a directory (.claude/skills made a link to
			// a directory filled later): what it leads to is watched too.
		}
		n := 0
		var walk func(dir string, depth int)
		walk = func(dir string, depth int) {
			ents, _ := os.ReadDir(dir)
			for _, e := range ents {
				if n >= maxFiles {
					return
				}
				f := filepath.Join(dir, e.Name())
				if e.IsDir() {
					if depth < maxDepth {
						walk(f, depth+1)
					}
					continue
				}
				n++
				fi, err := os.Lstat(f)
				if err != nil {
					continue
				}
				if s, ok := seeFile(was, f, fi, false, at); ok {
					now[f] = s
				}
				if depth < maxDepth && dirLink(f, fi) {
					walk(f, depth+1)
				}
			}
		}
		walk(p, 1)
	}
	return now
}

// dirLink reports whether p, of lstat info fi, is a symlink to a directory.
func dirLink(p string, fi fs.FileInfo) bool {
	if fi.Mode()&fs.ModeSymlink == 0 {
		return false
	}
	ti, err := os.Stat(p)
	return err == nil && ti.IsDir()
}

// seeFile returns file p, of lstat info fi, as it is now: its entry in
// was while its stamps still match, else read again.
func seeFile(was map[string]Seen, p string, fi fs.FileInfo, git bool, at time.Time) (Seen, bool) {
	s := Seen{Stamp: filestamp.Of(fi)}
	link := fi.Mode()&fs.ModeSymlink != 0
	if link {
		if ti, err := os.Stat(p); err == nil {
			s.Target = filestamp.Of(ti)
		}
	}
	if old, ok := was[p]; ok && old.Stamp.Same(s.Stamp) && (!link || old.Target.Same(s.Target)) {
		return old, true
	}
	h := sha256.New()
	h.Write([]byte(fi.Mode().String()))
	if link {
		t, _ := os.Readlink(p)
		h.Write([]byte("\x00" + t + "\x00"))
	}
	b, err := readSmall(p, maxRead)
	switch {
	case err == nil:
		if inert(p, b) {
			return Seen{}, false // runs nothing: as good as absent
		}
		if startup.TaskFile(p) && int64(len(b)) < maxRead {
			// Claude Code's durable tasks, by what each one runs
			// (tasks.go): the file itself changes as they fire.
			sum, ok := taskSum(b)
			if !ok {
				return Seen{}, false // no task: as good as absent
			}
			s.Sum = sum
			s.Stamp, s.Target = s.Stamp.Settled(at), s.Target.Settled(at)
			return s, true
		}
	case os.IsNotExist(err) && !link:
		return Seen{}, false // gone since the lstat
	case os.IsNotExist(err): // a link that leads nowhere: its target is all
	default:
		h.Write([]byte("\x00unreadable"))
	}
	h.Write(b)
	if size := max(s.Stamp.Size, s.Target.Size); size > maxRead {
		h.Write([]byte("\x00" + strconv.FormatInt(size, 10) + " " + strconv.FormatInt(max(s.Stamp.MTime, s.Target.MTime), 10)))
	}
	s.Sum = hex.EncodeToString(h.Sum(nil)[:12])
	if git {
		s.Git = CommandSettings(b)
	}
	s.Stamp, s.Target = s.Stamp.Settled(at), s.Target.Settled(at)
	return s, true
}

// Changes compares the files as they were with how they are: the
// startup files changed (by path), and the command settings of the user's
// git configuration files (git) changed ("global config KEY in PATH").
func Changes(was, now map[string]Seen, git map[string]bool, home string, getenv func(string) string) (files, settings []string) {
	for _, p := range slices.Sorted(maps.Keys(joinKeys(was, now))) {
		if !git[p] {
			continue
		}
		a, b := was[p], now[p]
		for _, k := range slices.Sorted(maps.Keys(joinKeys(a.Git, b.Git))) {
			va, inA := a.Git[k]
			vb, inB := b.Git[k]
			if inA != inB || va != vb {
				settings = append(settings, "global config "+k+" in "+Tilde(p, home))
			}
		}
	}
	for _, p := range Changed(was, now, git, home, getenv) {
		files = append(files, Tilde(p, home))
	}
	return files, settings
}

// Changed returns the files of was and now, by absolute path, that
// changed, came or went, leaving out the user's git configuration (git)
// and Claude Code's own changes (startup.Own).
func Changed(was, now map[string]Seen, git map[string]bool, home string, getenv func(string) string) []string {
	var files []string
	for _, p := range slices.Sorted(maps.Keys(joinKeys(was, now))) {
		a, hadA := was[p]
		b, hasB := now[p]
		if git[p] || startup.Own(p, hadA != hasB, home, getenv) {
			continue // Claude Code's own: a session started or was cleaned up, or its cwd moved
		}
		if hadA != hasB && !startup.TaskFile(p) || Adds(a.Sum, b.Sum) {
			files = append(files, p)
		}
	}
	return files
}

// joinKeys returns the union of the keys of a and b.
func joinKeys[V any](a, b map[string]V) map[string]bool {
	out := make(map[string]bool, len(a)+len(b))
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

// Tilde writes p under home as ~/….
func Tilde(p, home string) string {
	if home != "" {
		if rel, err := filepath.Rel(home, p); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
			return "~/" + filepath.ToSlash(rel)
		}
	}
	return p
}

// CommandSettings returns the settings of git configuration text b whose
// value git runs as a command line (and core.hooksPath), keyed
// section.subsection.name as git config --list prints them (section and
// name lower-cased): shell.GitSettings.
func CommandSettings(b []byte) map[string]string {
	return shell.GitSettings(b, func(key string) bool { return shell.GitCommandKey(key) || key == "core.hookspath" })
}

// Unapproved returns, by absolute path, the watched files that, by the
// cache at path (post-tool-call's, of a loop of the project at root),
// hold what the human did not approve: those post-tool-call recorded so,
// unless put back since, and those changed or added since the last call
// it saw (a process the agent left running, a write after the last Bash
// call). The
// cache is only read. A loop whose cache is not there yet (no call seen,
// no Seed) has nothing to compare with: nil.
func Unapproved(path, root string, getenv func(string) string, now time.Time) ([]string, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	var cc struct {
		Later      map[string]Seen   `json:"later"`
		Unapproved map[string]string `json:"unapproved"`
	}
	if err := json.Unmarshal(data, &cc); err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if cc.Later == nil && cc.Unapproved == nil {
		return nil, nil
	}
	paths, git := Paths(root, getenv)
	seen := See(cc.Later, paths, git, now)
	out := map[string]bool{}
	for p, before := range cc.Unapproved {
		out[p] = Adds(before, seen[p].Sum)
	}
	if cc.Later != nil {
		for _, p := range Changed(cc.Later, seen, git, project.Home(getenv), getenv) {
			if _, ok := cc.Unapproved[p]; !ok {
				_, out[p] = seen[p] // a file taken away runs nothing
			}
		}
	}
	var files []string
	for _, p := range slices.Sorted(maps.Keys(out)) {
		if out[p] && !RalphsOwn(p) {
			files = append(files, p)
		}
	}
	return files, nil
}

// Names writes files (from Unapproved) as the human reads them: under
// the project's root relative to it, under home as ~/….
func Names(files []string, root, home string) []string {
	out := make([]string, 0, len(files))
	for _, p := range files {
		out = append(out, relOrTilde(p, root, home))
	}
	return out
}

// relOrTilde writes p relative to root when under it, else as tilde does.
func relOrTilde(p, root, home string) string {
	if root != "" {
		if rel, err := filepath.Rel(root, p); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	return Tilde(p, home)
}

// RalphsOwn reports whether p is one of ralph's own files among the
// watched ones (its OpenCode plugin, its /ralph command, an install
// record): the agent may not write them by any tool (rule tamper), ralph
// install and the human do, and ralph doctor checks them.
func RalphsOwn(p string) bool {
	switch filepath.Base(p) {
	case "ralph-hooks.ts", "ralph-hooks.json":
		return true
	case "ralph.md":
		return filepath.Base(filepath.Dir(p)) == "commands"
	}
	return false
}

// readSmall reads at most max bytes of the file at path.
func readSmall(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, max))
}

// inert reports whether the file p, holding b, configures nothing that
// runs: an OpenCode configuration with no key but $schema, which OpenCode
// writes itself at its first start (opencode.json in the project,
// ~/.config/opencode/opencode.jsonc), and which the agent's model did not.
func inert(p string, b []byte) bool {
	if base := filepath.Base(p); base != "opencode.json" && base != "opencode.jsonc" {
		return false
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(bytes.TrimSpace(b), &m); err != nil {
		return false
	}
	for k := range m {
		if k != "$schema" {
			return false
		}
	}
	return true
}
