package pretool

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/event"
	"github.com/ralph-hooks/ralph-hooks/internal/hook"
	"github.com/ralph-hooks/ralph-hooks/internal/shell"
	"github.com/ralph-hooks/ralph-hooks/internal/state"
	"github.com/ralph-hooks/ralph-hooks/internal/vault"
)

// A shell that outlives the call (event.ShellPersistent) stays in the
// directory a cd left it in, and the agent's event need not say so: its
// cwd may be where the session began. The guard follows the directory
// itself, by session, in the scope's shell-dirs.json (under the state
// lock): the directories the shell may be in, or that it cannot know
// (after cd "$X", cd -, pushd, a function or eval that may cd). The next
// call is judged in each directory the shell may be in (the worst verdict
// stands, every change is checkpointed), or, when none is known, with
// relative paths unknown, so that no relative deletion is judged or
// checkpointed in the wrong directory.

// shellDirs is one session's record.
type shellDirs struct {
	Dirs    []string  `json:"dirs,omitempty"`
	Unknown bool      `json:"unknown,omitempty"`
	Time    time.Time `json:"time"`
}

// maxSessions bounds the sessions shell-dirs.json keeps (the newest).
const maxSessions = 32

// dirsFile is kept outside the project (vault.CacheDir): rewritten there
// to say the shell is elsewhere, it would have a relative deletion judged
// in the wrong directory. In the scope's directory only when there is no
// state directory.
func dirsFile(c *hook.Call) string {
	if p := vault.CachePath(c.Scope.Root, c.Scope.Loop, "shell-dirs.json", c.Getenv); p != "" {
		return p
	}
	return filepath.Join(c.Scope.Dir(), "shell-dirs.json")
}

// follows reports whether the guard follows the directory of ev's shell.
func follows(ev *event.Event) bool {
	return ev.Tool == "Bash" && ev.Shell == event.ShellPersistent && len(ev.Parts) == 0
}

// readDirs returns the record of ev's session, or nil when there is none
// (or the file cannot be read: the event's cwd then stands, as for a
// session that never moved).
func readDirs(c *hook.Call) *shellDirs {
	data, err := os.ReadFile(dirsFile(c))
	if err != nil {
		return nil
	}
	all := map[string]*shellDirs{}
	if err := json.Unmarshal(data, &all); err != nil {
		fmt.Fprintf(c.Stderr, "ralph: warning: %s is corrupt (%v); shell directories are followed from the events\n", dirsFile(c), err)
		return nil
	}
	return all[c.Event.SessionID]
}

// Place sets where a call of a shell that outlives it runs, from its
// session's record (see placeDirs), and returns the directories it starts
// in (nil when unknown); for any other call it does nothing and returns
// nil. ralph explain judges an event as the hook would.
func Place(c *hook.Call) []string {
	if !follows(c.Event) {
		return nil
	}
	return placeDirs(c)
}

// placeDirs sets where ev runs from its session's record: each directory
// the shell may be in, and the event's cwd, becomes a part of the call,
// judged alone; a shell whose directory is unknown marks the event so. It returns the
// directories the call starts in.
func placeDirs(c *hook.Call) []string {
	ev := c.Event
	rec := readDirs(c)
	switch {
	case rec == nil:
		return []string{ev.Cwd}
	case rec.Unknown:
		ev.DirUnknown = true
		return nil
	}
	// The event's own cwd too: were the shell not to outlive the call
	// after all (Cursor's is assumed to), the call runs there, and a
	// relative path judged only where the shell was followed to could be
	// scratch space there and the project here.
	dirs := append(slices.Clone(rec.Dirs), ev.Cwd)
	sort.Strings(dirs)
	dirs = slices.Compact(dirs)
	if len(dirs) == 1 {
		ev.Cwd = dirs[0]
		return dirs
	}
	for _, d := range dirs {
		p := *ev
		p.Cwd, p.Parts = d, nil
		ev.Parts = append(ev.Parts, &p)
	}
	return dirs
}

// moveDirs records where the session's shell may be after the call, which
// started in before (nil: unknown). A call the human is asked about may
// or may not run: the shell may stay where it was too.
func moveDirs(c *hook.Call, before []string, decision answer.Decision) error {
	cmd, err := c.Event.Str("command")
	if err != nil || decision == answer.Deny || c.DryRun {
		return err
	}
	rec := shellDirs{Unknown: true}
	found := before == nil
	if before == nil {
		// Lost: only a cd to an absolute path finds the shell again.
		after, known := shell.Dirs(cmd, []string{lost}, isDir)
		if !known || !absolute(after) || decision == answer.Ask {
			return nil
		}
		before = after
	}
	{
		after, known := shell.Dirs(cmd, before, isDir)
		if known && decision == answer.Ask {
			after = append(after, before...)
			sort.Strings(after)
			after = slices.Compact(after)
		}
		if known && len(after) <= 4 {
			rec = shellDirs{Dirs: after}
		}
		if known && !found && slices.Equal(sorted(after), sorted(before)) {
			return nil // nothing moved: no write
		}
	}
	rec.Time = c.Now().UTC()
	return state.Update(dirsFile(c), func(old []byte) ([]byte, error) {
		all := map[string]*shellDirs{}
		if len(old) > 0 && json.Unmarshal(old, &all) != nil {
			all = map[string]*shellDirs{} // corrupt: started again
		}
		all[c.Event.SessionID] = &rec
		for len(all) > maxSessions {
			oldest := ""
			for id, r := range all {
				if oldest == "" || r.Time.Before(all[oldest].Time) {
					oldest = id
				}
			}
			delete(all, oldest)
		}
		return json.MarshalIndent(all, "", "  ")
	})
}

// lost stands for the directory of a shell the guard lost: no path
// relative to it is absolute.
const lost = "\x00lost"

// absolute reports whether every directory of dirs is an absolute path:
// none is relative to the directory the guard lost.
func absolute(dirs []string) bool {
	for _, d := range dirs {
		if !filepath.IsAbs(d) || strings.Contains(d, lost) {
			return false
		}
	}
	return len(dirs) > 0
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

func sorted(list []string) []string {
	out := slices.Clone(list)
	sort.Strings(out)
	return out
}
