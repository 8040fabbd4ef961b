package posttool

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/clip"
	"github.com/ralph-hooks/ralph-hooks/internal/filestamp"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/startup"
)

// Shells and tools run what some files of the home directory hold, later
// and on their own (package startup): the shell startup files, ssh's and
// other tools' configuration, and the user's git configuration, whose
// command settings git runs in every repository. The guard asks before a
// call writes them (rules startup-config and git-exec) by a route it can
// read; a compiled program, or a script that computes the path, shows only
// after the call. So post-tool-call keeps, in its cache, each of those
// files as the last Bash call left it — by its lstat stamp, and a digest
// of its mode and content read only when the stamp moved — and a change
// the guard did not put to the human is a validation bypass of the loop,
// as for git's own files (githooks.go).

// laterSeen is one of those files as last seen. It is kept in the cache as
// one line of text (MarshalText), which post-tool-call decodes after every
// Bash call: a tenth of the time of a JSON object.
type laterSeen struct {
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
func (s laterSeen) MarshalText() ([]byte, error) {
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
func (s *laterSeen) UnmarshalText(b []byte) error {
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
	laterDepth = 4
	laterFiles = 2048
	laterRead  = 4 << 20 // bytes of a file digested; a longer one adds its size and mtime
)

// laterPaths returns the files to watch: the startup files, and the
// user's git configuration (true in the map).
func (r *run) laterPaths() ([]string, map[string]bool) {
	getenv := r.getenv()
	home := project.Home(getenv)
	git := map[string]bool{}
	paths := append(startup.Paths(home, getenv), startup.AgentConfigs(r.c.Scope.Root, home, getenv)...)
	for _, p := range startup.GitConfigs(home, getenv) {
		git[p] = true
		if !slices.Contains(paths, p) {
			paths = append(paths, p)
		}
	}
	return paths, git
}

// seeLater returns those files as they are now, each file of a watched
// directory by its own path; an absent file has no entry. A file whose
// stamp still matches its entry in was is not read again.
func (r *run) seeLater(was map[string]laterSeen, paths []string, git map[string]bool) map[string]laterSeen {
	now := map[string]laterSeen{}
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
			if s, ok := seeFile(was, p, fi, git[p], r.now); ok {
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
				if n >= laterFiles {
					return
				}
				f := filepath.Join(dir, e.Name())
				if e.IsDir() {
					if depth < laterDepth {
						walk(f, depth+1)
					}
					continue
				}
				n++
				fi, err := os.Lstat(f)
				if err != nil {
					continue
				}
				if s, ok := seeFile(was, f, fi, false, r.now); ok {
					now[f] = s
				}
				if depth < laterDepth && dirLink(f, fi) {
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
func seeFile(was map[string]laterSeen, p string, fi fs.FileInfo, git bool, at time.Time) (laterSeen, bool) {
	s := laterSeen{Stamp: filestamp.Of(fi)}
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
	b, err := readSmall(p, laterRead)
	switch {
	case err == nil:
	case os.IsNotExist(err) && !link:
		return laterSeen{}, false // gone since the lstat
	case os.IsNotExist(err): // a link that leads nowhere: its target is all
	default:
		h.Write([]byte("\x00unreadable"))
	}
	h.Write(b)
	if size := max(s.Stamp.Size, s.Target.Size); size > laterRead {
		h.Write([]byte("\x00" + strconv.FormatInt(size, 10) + " " + strconv.FormatInt(max(s.Stamp.MTime, s.Target.MTime), 10)))
	}
	s.Sum = hex.EncodeToString(h.Sum(nil)[:12])
	if git {
		s.Git = commandSettings(b)
	}
	s.Stamp, s.Target = s.Stamp.Settled(at), s.Target.Settled(at)
	return s, true
}

// laterChanges compares the files as they were with how they are: the
// startup files changed (by path), and the command settings of the user's
// git configuration files (git) changed ("global config KEY in PATH").
func laterChanges(was, now map[string]laterSeen, git map[string]bool, home string, getenv func(string) string) (files, settings []string) {
	for _, p := range slices.Sorted(maps.Keys(joinKeys(was, now))) {
		if !git[p] {
			continue
		}
		a, b := was[p], now[p]
		for _, k := range slices.Sorted(maps.Keys(joinKeys(a.Git, b.Git))) {
			va, inA := a.Git[k]
			vb, inB := b.Git[k]
			if inA != inB || va != vb {
				settings = append(settings, "global config "+k+" in "+tilde(p, home))
			}
		}
	}
	for _, p := range changedFiles(was, now, git, home, getenv) {
		files = append(files, tilde(p, home))
	}
	return files, settings
}

// changedFiles returns the files of was and now, by absolute path, that
// changed, came or went, leaving out the user's git configuration (git)
// and Claude Code's own changes (startup.Own).
func changedFiles(was, now map[string]laterSeen, git map[string]bool, home string, getenv func(string) string) []string {
	var files []string
	for _, p := range slices.Sorted(maps.Keys(joinKeys(was, now))) {
		a, hadA := was[p]
		b, hasB := now[p]
		if git[p] || startup.Own(p, hadA != hasB, home, getenv) {
			continue // Claude Code's own: a session started or was cleaned up, or its cwd moved
		}
		if hadA != hasB || a.Sum != b.Sum {
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

// tilde writes p under home as ~/….
func tilde(p, home string) string {
	if home != "" {
		if rel, err := filepath.Rel(home, p); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
			return "~/" + filepath.ToSlash(rel)
		}
	}
	return p
}

// laterAfterBash compares the files later programs run with what the cache
// holds, and reports the changes the guard did not put to the human
// before the call; it returns the changed command settings of the user's
// git configuration, which gitAfterBash reports with the repository's.
func (r *run) laterAfterBash(cc *cache) (git []string) {
	paths, gits := r.laterPaths()
	now := r.seeLater(cc.Later, paths, gits)
	home := project.Home(r.getenv())
	files, git := laterChanges(cc.Later, now, gits, home, r.getenv())
	asked := r.askedBy()
	approved := asked == "startup-config" || asked == "agent-config"
	noteUnapproved(cc, now, changedFiles(cc.Later, now, gits, home, r.getenv()), approved)
	cc.Later = now
	if len(files) > 0 && !approved {
		r.unseen++
		r.bypasses = append(r.bypasses, r.what()+" changed files that later shells and tools run or obey on their own ("+
			strings.Join(clip.List(files, 5), ", ")+") by a route the guard could not read before the call: the next session's shell or the completion command would run what they now hold")
	}
	return git
}

// what names the call in a bypass: its command, or the tool.
func (r *run) what() string {
	if cmd, _ := r.c.Event.Str("command"); r.c.Event.Tool == "Bash" && cmd != "" {
		return "`" + clip.String(cmd, 200) + "`"
	}
	return "the " + r.c.Event.Tool + " call"
}

// getenv is the call's environment.
func (r *run) getenv() func(string) string {
	if r.c.Getenv != nil {
		return r.c.Getenv
	}
	return os.Getenv
}

// abs returns a file tool's path p absolute and clean (a relative one is
// the call's working directory's).
func (r *run) abs(p string) string {
	if p == "" {
		return ""
	}
	if !filepath.IsAbs(p) {
		base := r.c.Event.Cwd
		if base == "" {
			base = r.c.Scope.Root
		}
		p = filepath.Join(base, p)
	}
	return filepath.Clean(p)
}

// laterPath reports whether the absolute path p is one of the watched
// files, or in a watched directory.
func (r *run) laterPath(p string) bool {
	if p == "" {
		return false
	}
	paths, _ := r.laterPaths()
	for _, q := range paths {
		if p == q || strings.HasPrefix(p, q+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// laterFile takes again, after a file tool's write to the watched file p
// that the guard put to the human, p's entry: only p's, so that a change
// to another one still shows at the next Bash call.
func (r *run) laterFile(cc *cache, p string) {
	if !r.laterPath(p) {
		return
	}
	paths, git := r.laterPaths()
	now := r.seeLater(cc.Later, paths, git)
	if s, ok := now[p]; ok {
		cc.Later[p] = s
	} else {
		delete(cc.Later, p)
	}
	noteUnapproved(cc, cc.Later, []string{p}, true)
}
