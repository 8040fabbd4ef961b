// Package treeview is ralph's incremental view of a project's tree: every
// directory's listing as last read, kept in the loop's cache directory
// outside the project (vault.CacheDir) and refreshed from what changed,
// so that the hooks that need the project's files (the test inventory,
// the public surface, the completion's inputs) need not read every
// directory of a large tree on every call.
//
// # What a refresh trusts
//
// A directory's listing changes only when an entry is created, deleted or
// renamed in it, and each of these sets the directory's modification and
// status change times (mtime, ctime). A refresh stats every directory it
// knows (one lstat each) and reads again only those whose stamp (inode,
// mtime, ctime) differs from the one recorded before their listing was
// read. An agent can set an mtime back (touch -d) but not a ctime: any
// change of an inode's data or metadata, touch -d included, sets its
// ctime to the clock's now, and only the clock's owner can move that.
//
// The content of a file changes without its directory: consumers compare
// a file's [Stamp] (size, mtime, ctime, inode, type) with the one they
// recorded when they last read it ([View.Stat]). A stamp is trusted only
// when its ctime is older than the moment it was taken by more than
// [Margin]: a file system's clock advances by ticks (and some file
// systems keep whole seconds), so a change in the same tick as the stat
// that recorded a stamp would leave the stamp unchanged. A directory's
// stamp too recent to trust is recorded with a zero ctime
// ([Stamp.Settled]), which no directory has, so that the next refresh
// reads it again; consumers apply the same rule to the files they read.
//
// Directories that hold no project source ([project.NotSource]: .git,
// node_modules, ralph's own .aiwg…) are listed as entries of their parent
// but never read, as the walks this view replaces never went there.
package treeview

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/state"
)

// Margin is how much older than the moment of its stat a ctime must be
// for the stamp to be trusted: more than a clock tick, and than the two
// seconds of the coarsest file systems' timestamps.
const Margin = 2 * time.Second

// Name is the view's file in a loop's cache directory (vault.CacheDir).
const Name = "tree-view.bin"

// Stamp identifies one version of a file or directory as lstat sees it.
type Stamp struct {
	Size  int64
	MTime int64 // ns
	CTime int64 // ns; 0: too recent to trust, never equal to a stat's
	Ino   uint64
	Mode  fs.FileMode // the type bits only
}

// StampOf returns info's stamp.
func StampOf(info fs.FileInfo) Stamp {
	s := Stamp{Size: info.Size(), MTime: info.ModTime().UnixNano(), Mode: info.Mode().Type()}
	s.CTime, s.Ino = sysStamp(info)
	return s
}

// Settled returns s with its ctime zeroed when s was taken at now less
// than Margin after it: such a stamp may not see a change made in the
// same tick, and must not be trusted later.
func (s Stamp) Settled(now time.Time) Stamp {
	if s.CTime > now.Add(-Margin).UnixNano() {
		s.CTime = 0
	}
	return s
}

// Same reports whether a recorded stamp still describes the file that now
// has stamp b: equal, and a settled ctime.
func (s Stamp) Same(b Stamp) bool { return s.CTime != 0 && s == b }

// Kinds of entries.
const (
	File  = 'f' // a regular file
	Dir   = 'd' // a directory
	Other = 'o' // a symbolic link, socket, device…
)

// Entry is one name in a directory's listing.
type Entry struct {
	Name string
	Kind byte // File, Dir or Other
}

// dir is one directory as last read.
type dir struct {
	stamp   Stamp
	entries []Entry // sorted by name, as os.ReadDir returns them
	seen    bool    // reached by the current refresh
	// stats are the lstats this process took of the entries, by entry
	// (nil: none yet): a Stop stats every file of the tree, and a slice a
	// directory costs neither a path made nor a map's hashing per file.
	stats []stat
}

// View is the tree under a root as last seen.
type View struct {
	root string
	path string          // the view's file; "" : kept in memory only
	dirs map[string]*dir // by slash-separated path relative to root ("" the root)
	// stats are the files stat'ed by this process that are not an entry of
	// a directory of the view (see [View.slot]); the others' are the
	// directory's.
	stats map[string]stat
	// cur is the entry slot last found: callers stat a directory's files
	// in a row, and the next is found without the map or a search.
	cur struct {
		rel string
		d   *dir
		k   int
	}
	dirty bool
	now   func() time.Time // the clock stamps are settled by (tests move it)
	// Read counts the directories read (not just stat'ed) by the last
	// refresh: what tests use to show that a refresh is incremental.
	Read int
}

type stat struct {
	s      Stamp
	ok     bool
	done   bool // taken (a directory's slot: see [View.slot])
	queued bool // in StatAll's batch
}

// Open returns the view of the tree under root kept at path (in a loop's
// state directory), refreshed: every directory it knows is stat'ed, and
// read again if it changed. A missing or unreadable view file starts an
// empty view, read whole. path "" keeps the view in memory only.
func Open(root, path string) *View { return open(root, path, time.Now) }

func open(root, path string, now func() time.Time) *View {
	v, _ := load(root, path, now, true)
	return v
}

// Load is Open of a view saved before: it returns nil, having read
// nothing of the tree, when there is no view file at path (or it is not
// one, or is of another root). A caller that would rather walk a bounded
// part of the tree than read all of it (a first view reads every
// directory) then walks.
func Load(root, path string) *View {
	if v, ok := load(root, path, time.Now, false); ok {
		return v
	}
	return nil
}

// load returns the view at path, refreshed, and whether the file was a
// view of root; when it was not, the view is read whole, or (whole false)
// not at all, and load returns nil.
func load(root, path string, now func() time.Time, whole bool) (*View, bool) {
	v := &View{root: filepath.Clean(root), path: path, dirs: map[string]*dir{}, stats: map[string]stat{}, now: now}
	saved := false
	if path != "" {
		if data, err := state.ReadCache(path); err == nil {
			if dirs, ok := decode(data, v.root); ok {
				v.dirs, saved = dirs, true
			}
		}
	}
	if !saved && !whole {
		return nil, false
	}
	v.Refresh()
	return v, saved
}

// Root returns the root the view is of.
func (v *View) Root() string { return v.root }

// Refresh brings the view up to date with the tree: it stats each known
// directory and reads again those whose stamp changed, and the new
// directories under them. It forgets what the process stat'ed.
func (v *View) Refresh() {
	clear(v.stats)
	v.cur.d = nil
	v.Read = 0
	for _, d := range v.dirs {
		d.seen = false
		d.stats = nil
	}
	v.refresh("", v.now())
	for rel, d := range v.dirs {
		if !d.seen {
			delete(v.dirs, rel) // gone, or no longer reached
			v.dirty = true
		}
	}
}

// refresh brings the directory rel and those under it up to date.
func (v *View) refresh(rel string, now time.Time) {
	abs := v.abs(rel)
	info, err := os.Lstat(abs)
	if err != nil || !info.IsDir() {
		return // gone, or unreadable: not listed
	}
	st := StampOf(info).Settled(now)
	d := v.dirs[rel]
	if d == nil || !d.stamp.Same(st) {
		// Stat'ed before it is read: a change while it is read leaves a
		// stamp that the next refresh finds different.
		des, err := os.ReadDir(abs)
		if err != nil && len(des) == 0 {
			return // unreadable: not listed, as a walk would skip it
		}
		d = &dir{stamp: st, entries: make([]Entry, 0, len(des))}
		for _, de := range des {
			k := byte(Other)
			switch {
			case de.Type().IsRegular():
				k = File
			case de.IsDir():
				k = Dir
			}
			d.entries = append(d.entries, Entry{de.Name(), k})
		}
		if old := v.dirs[rel]; old == nil || !sameEntries(old.entries, d.entries) || old.stamp != d.stamp {
			v.dirty = true
		}
		v.dirs[rel] = d
		v.Read++
	}
	d.seen = true
	for _, e := range d.entries {
		if e.Kind == Dir && !project.NotSource(e.Name) {
			v.refresh(join(rel, e.Name), now)
		}
	}
}

func sameEntries(a, b []Entry) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Save writes the view to its file when the refresh changed it. The file
// is replaced atomically; of processes that save at once the last wins,
// which is safe: every saved listing is paired with a stamp taken before
// it was read, so a stale one is found changed and read again.
func (v *View) Save() error {
	if v.path == "" || !v.dirty {
		return nil
	}
	// A cache (state.WriteCache): a file a crash left torn is not read, and
	// the view is read again from the tree.
	if err := state.WriteCache(v.path, encode(v.root, v.dirs), 0o644); err != nil {
		return err
	}
	v.dirty = false
	return nil
}

// Files returns the regular files under the root whose name
// (the last element) passes name and whose path passes keep (nil: all),
// with the paths (slash-separated, relative to the root) and in the order
// filepath.WalkDir gives; directories that hold no project source are
// not entered. name is a cheap first sieve: most of a large tree's
// files fail it without their path being made.
func (v *View) Files(name, keep func(string) bool) []string {
	var out []string
	v.files("", name, keep, &out)
	return out
}

func (v *View) files(rel string, name, keep func(string) bool, out *[]string) {
	d := v.dirs[rel]
	if d == nil {
		return
	}
	for _, e := range d.entries {
		switch {
		case e.Kind == File && (name == nil || name(e.Name)):
			if p := join(rel, e.Name); keep == nil || keep(p) {
				*out = append(*out, p)
			}
		case e.Kind == Dir && !project.NotSource(e.Name):
			v.files(join(rel, e.Name), name, keep, out)
		}
	}
}

// List returns the listing of the directory rel (slash-separated,
// relative to the root; "" the root) as the view holds it, sorted by
// name. ok is false when the view does not hold it: not a directory
// reached from the root through directories, one that holds no project
// source ([project.NotSource], listed in its parent but not read), or
// unreadable. The slice is the view's own: the caller must not change it.
func (v *View) List(rel string) (entries []Entry, ok bool) {
	d := v.dirs[rel]
	if d == nil {
		return nil, false
	}
	return d.entries, true
}

// Stat returns the stamp of the file rel as it is now (lstat, once per
// process and refresh: the hooks that share a view share their stats),
// its ctime unsettled: the caller compares it with what it recorded, and
// trusts a recorded stamp only when settled before it was recorded
// ([Stamp.Settled]). ok is false when there is no such file.
func (v *View) Stat(rel string) (Stamp, bool) {
	if sl := v.slot(rel); sl != nil {
		if !sl.done {
			*sl = v.lstat(rel)
		}
		return sl.s, sl.ok
	}
	if s, done := v.stats[rel]; done {
		return s.s, s.ok
	}
	s := v.lstat(rel)
	v.stats[rel] = s
	return s.s, s.ok
}

// lstat is the stat of rel taken now.
func (v *View) lstat(rel string) stat {
	if info, err := os.Lstat(v.abs(rel)); err == nil {
		return stat{s: StampOf(info), ok: true, done: true}
	}
	return stat{done: true}
}

// slot returns where the stat of rel is kept when rel names an entry of a
// directory of the view: rel cut at its last slash is the directory's path
// and the entry's name, so that one slot is one path (the file stat'ed is
// the path rel names whatever the entry's kind: a slot is never a
// stand-in for another path). nil for any other path ("", "a/", a path
// the view does not list), whose stat the map keeps.
func (v *View) slot(rel string) *stat {
	dirRel, name := "", rel
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		dirRel, name = rel[:i], rel[i+1:]
	}
	if name == "" {
		return nil
	}
	d, k := v.cur.d, v.cur.k+1
	if d == nil || dirRel != v.cur.rel {
		if d = v.dirs[dirRel]; d == nil {
			return nil
		}
		k = 0
	}
	// the last entry again, the next, or one a few on (a caller's
	// sieve skips some), else a search
	switch {
	case k > 0 && d.entries[k-1].Name == name:
		k--
	case k < len(d.entries) && d.entries[k].Name == name:
	default:
		found := false
		for end := min(k+4, len(d.entries)); k+1 < end && !found; {
			k++
			found = d.entries[k].Name == name
		}
		if !found {
			if k, found = entryOf(d.entries, name); !found {
				return nil // not listed
			}
		}
	}
	v.cur.rel, v.cur.d, v.cur.k = dirRel, d, k
	return d.slot(k)
}

// entryOf returns the index of name in a listing sorted by name.
func entryOf(es []Entry, name string) (int, bool) {
	return slices.BinarySearchFunc(es, name, func(e Entry, n string) int { return strings.Compare(e.Name, n) })
}

// slot returns the stat slot of entry k.
func (d *dir) slot(k int) *stat {
	if d.stats == nil {
		d.stats = make([]stat, len(d.entries))
	}
	return &d.stats[k]
}

// Path returns the absolute path of rel.
func (v *View) Path(rel string) string { return v.abs(rel) }

func (v *View) abs(rel string) string {
	if rel == "" {
		return v.root
	}
	return v.root + string(filepath.Separator) + filepath.FromSlash(rel)
}

func join(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}
