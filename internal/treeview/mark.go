package treeview

import (
	"encoding/binary"
	"os"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/project"
)

// A mark is a record of the tree as a view saw it: the stamp of every
// directory the view holds and of every file the process stat'ed through
// it ([View.Stat]), with a key of the caller's (what else its answer
// depended on). [Unchanged] tells from a mark alone, with one stat per
// directory and per file and without reading the view or any directory,
// that none of them changed: every directory lists what it listed, so
// the files the view would list are the same, and each file is the
// version it was. It is what lets a hook that found nothing changed
// answer the same again without decoding its index of the tree.
//
// Only settled stamps count ([Stamp.Settled]): a mark with a directory
// or file too recently changed to trust is never unchanged. An in-place
// change of a file's content (>>, truncate, dd conv=notrunc) leaves its
// directory alone but sets the file's own ctime, which no one but the
// clock's owner can set back: that is why each file is stat'ed.
//
// The mark's file: the header, the root and the key, each ended by a NUL;
// then, little-endian, the number of directories and for each (the root
// first, sorted by path) its path, its stamp, the number of its files and
// for each its name and stamp. A path or name is its length (4 bytes)
// and its bytes; a stamp five 8-byte numbers (size, mtime, ctime, inode,
// type bits). Files are kept under their directory, so that a check
// stats each by name through its directory's descriptor (no walk of the
// whole path), the directories shared among the CPUs, and reads the mark
// with no parsing of numbers and no copy of its names.

const markHeader = "ralph-tree-mark 2"

// stampLen is the size of an encoded stamp.
const stampLen = 40

// Mark returns the mark of the view now, under key; nil when there is
// nothing to trust: a file stat'ed through the view that is missing or
// not a regular file, or that is not in one of the view's directories,
// or a stamp not yet settled.
func (v *View) Mark(key string) []byte { return v.mark(key, true) }

// DirMark is Mark of the view's directories alone: [Holds] of it tells
// that every directory lists what it listed, whatever its files hold.
func (v *View) DirMark(key string) []byte { return v.mark(key, false) }

func (v *View) mark(key string, withFiles bool) []byte {
	now := v.now()
	rels := make([]string, 0, len(v.dirs))
	for rel, d := range v.dirs {
		if d.stamp.CTime == 0 {
			return nil
		}
		rels = append(rels, rel)
	}
	sort.Strings(rels)
	files := make(map[string][]markFile, len(v.dirs)) // by directory
	size := 64 + len(key) + len(v.root) + len(rels)*(8+stampLen)
	// The files stat'ed: each directory's entries', then the others'.
	add := func(dir, name string, s stat) bool {
		if !s.ok || !s.s.Mode.IsRegular() || s.s.Settled(now).CTime == 0 {
			return false
		}
		if v.dirs[dir] == nil || name == "" {
			return false
		}
		files[dir] = append(files[dir], markFile{name, s.s})
		size += len(name) + 4 + stampLen
		return true
	}
	for rel, d := range v.dirs {
		if !withFiles {
			break
		}
		for k, s := range d.stats {
			if s.done && !add(rel, d.entries[k].Name, s) {
				return nil
			}
		}
	}
	for rel, s := range v.stats {
		if !withFiles {
			break
		}
		if !add(dirOf(rel), rel[strings.LastIndexByte(rel, '/')+1:], s) {
			return nil
		}
	}
	b := make([]byte, 0, size)
	for _, f := range []string{markHeader, v.root, key} {
		b = append(append(b, f...), 0)
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(len(rels)))
	for _, rel := range rels {
		b = appendString(b, rel)
		b = appendStampBinary(b, v.dirs[rel].stamp)
		fs := files[rel]
		slices.SortFunc(fs, func(a, b markFile) int { return strings.Compare(a.name, b.name) })
		b = binary.LittleEndian.AppendUint32(b, uint32(len(fs)))
		for _, f := range fs {
			b = appendString(b, f.name)
			b = appendStampBinary(b, f.stamp)
		}
	}
	return b
}

func appendString(b []byte, s string) []byte {
	return append(binary.LittleEndian.AppendUint32(b, uint32(len(s))), s...)
}

func appendStampBinary(b []byte, s Stamp) []byte {
	b = binary.LittleEndian.AppendUint64(b, uint64(s.Size))
	b = binary.LittleEndian.AppendUint64(b, uint64(s.MTime))
	b = binary.LittleEndian.AppendUint64(b, uint64(s.CTime))
	b = binary.LittleEndian.AppendUint64(b, s.Ino)
	return binary.LittleEndian.AppendUint64(b, uint64(s.Mode))
}

// markDir is one directory of a mark, and its files: the mark's own
// bytes of them (decodeMark checked them), read in order by each, so that
// a check of 5,000 test files makes no struct or string of its own for
// each.
type markDir struct {
	rel   string
	stamp Stamp
	files string // n times: a name (its length, 4 bytes, and its bytes) and a stamp
	n     int
}

type markFile struct {
	name  string
	stamp Stamp
}

// each calls fn for the files of d in the mark's order while fn returns
// true, and reports whether it saw them all.
func (d *markDir) each(fn func(name string, st Stamp) bool) bool {
	s := d.files
	for range d.n {
		n := int(binary.LittleEndian.Uint32([]byte(s[:4])))
		name := s[4 : 4+n]
		s = s[4+n:]
		if !fn(name, stampAt(s)) {
			return false
		}
		s = s[stampLen:]
	}
	return true
}

// stampAt is the stamp encoded at the start of s (stampLen bytes at least).
func stampAt(s string) Stamp {
	var p [5]uint64
	for i := range p {
		p[i] = binary.LittleEndian.Uint64([]byte(s[8*i : 8*i+8]))
	}
	return Stamp{Size: int64(p[0]), MTime: int64(p[1]), CTime: int64(p[2]), Ino: p[3], Mode: os.FileMode(p[4])}
}

// decodeMark reads a mark of root under key; ok is false when it is not
// one, or records a stamp not settled or a name no directory can hold.
// The names are slices of one copy of the mark.
func decodeMark(root, key string, mark []byte) (dirs []markDir, nfiles int, ok bool) {
	s := string(mark)
	for _, want := range []string{markHeader, root, key} {
		i := strings.IndexByte(s, 0)
		if i < 0 || s[:i] != want {
			return nil, 0, false
		}
		s = s[i+1:]
	}
	bad := false
	u32 := func() int {
		if len(s) < 4 {
			bad = true
			return 0
		}
		n := binary.LittleEndian.Uint32([]byte(s[:4]))
		s = s[4:]
		if int64(n) > int64(len(s)) {
			bad = true // more than the rest of the mark can hold
			return 0
		}
		return int(n)
	}
	str := func() string {
		n := u32()
		if bad {
			return ""
		}
		f := s[:n]
		s = s[n:]
		return f
	}
	stamp := func() Stamp {
		if len(s) < stampLen {
			bad = true
			return Stamp{}
		}
		st := stampAt(s)
		if st.CTime == 0 || uint64(st.Mode) != binary.LittleEndian.Uint64([]byte(s[32:40])) {
			bad = true
		}
		s = s[stampLen:]
		return st
	}
	n := u32()
	if bad || n == 0 {
		return nil, 0, false
	}
	dirs = make([]markDir, n)
	for i := range dirs {
		d := &dirs[i]
		d.rel = str()
		d.stamp = stamp()
		if bad || i == 0 && d.rel != "" || i > 0 && !cleanRel(d.rel) {
			return nil, 0, false
		}
		m := u32()
		if bad {
			return nil, 0, false
		}
		from := s
		for range m {
			name := str()
			stamp()
			if bad || !cleanRel(name) || strings.IndexByte(name, '/') >= 0 {
				return nil, 0, false
			}
		}
		d.files, d.n = from[:len(from)-len(s)], m
		nfiles += m
	}
	if s != "" {
		return nil, 0, false
	}
	return dirs, nfiles, true
}

// cleanRel reports whether rel is a clean relative path below a root:
// no empty, "." or ".." element, no NUL.
func cleanRel(rel string) bool {
	if rel == "" || strings.IndexByte(rel, 0) >= 0 {
		return false
	}
	for e := range strings.SplitSeq(rel, "/") {
		if e == "" || e == "." || e == ".." {
			return false
		}
	}
	return true
}

// markCheckMin is the fewest entries worth workers.
const markCheckMin = 256

// Unchanged reports whether mark (from [View.Mark]) is of the tree under
// root with key, and the files it records are the ones the view would
// list now with counts (the caller's test of a file's path, as it chose
// the files it stat'ed), each with the stamp it recorded. A directory
// whose stamp is the mark's lists what it listed; one that changed (a
// build wrote into it) is read again, with any directory new under it:
// it must hold the same counted files and no other. Any doubt (a mark
// that is not one, a stamp not settled, a counted file gone, new or
// changed) is false: the caller then looks at the tree.
func Unchanged(root, key string, mark []byte, counts func(rel string) bool) bool {
	unchanged, _ := Check(root, key, mark, counts)
	return unchanged
}

// Check is Unchanged, and reports too whether the mark is stale:
// unchanged, but only once directories whose stamps changed were read
// again, every one of them now with a stamp settled enough to be marked
// — a new mark would spare the reads at every later check.
func Check(root, key string, mark []byte, counts func(rel string) bool) (unchanged, stale bool) {
	return check(root, key, mark, counts, time.Now)
}

func check(root, key string, mark []byte, counts func(rel string) bool, now func() time.Time) (unchanged, stale bool) {
	dirs, nfiles, ok := decodeMark(root, key, mark)
	if !ok {
		return false, false
	}
	changed, ok := checkMark(root, dirs, nfiles)
	if !ok {
		return false, false
	}
	var changedDirs []*markDir
	for i := range dirs {
		if changed[i] {
			changedDirs = append(changedDirs, &dirs[i])
		}
	}
	if len(changedDirs) == 0 {
		return true, false
	}
	settled := true
	same := sameCounted(root, dirs, nfiles, changedDirs, counts, func(info os.FileInfo) {
		settled = settled && StampOf(info).Settled(now()).CTime != 0
	})
	return same, same && settled
}

// Holds reports whether mark (from [View.DirMark] or [View.Mark]) is of
// the tree under root with key, and every directory and file it records
// has the stamp it recorded: no directory lists anything it did not.
func Holds(root, key string, mark []byte) bool {
	dirs, nfiles, ok := decodeMark(root, key, mark)
	if !ok {
		return false
	}
	changed, ok := checkMark(root, dirs, nfiles)
	return ok && !slices.Contains(changed, true)
}

// checkMark stats every directory and file of a mark, the directories
// shared among the CPUs: changed says which directories' stamps changed
// (or are gone); ok is false as soon as a file is not the mark's.
func checkMark(root string, dirs []markDir, nfiles int) (changed []bool, ok bool) {
	changed = make([]bool, len(dirs)) // the directory's stamp changed, or it is gone
	base := openMarkRoot(root)
	defer base.close()
	var failed atomic.Bool
	var next atomic.Int64
	check := func() {
		for !failed.Load() {
			i := int(next.Add(1)) - 1
			if i >= len(dirs) {
				return
			}
			d := &dirs[i]
			same, filesOK := base.checkDir(d)
			if !filesOK {
				failed.Store(true)
				return
			}
			changed[i] = !same
		}
	}
	workers := 1
	if len(dirs)+nfiles >= markCheckMin {
		workers = min(runtime.GOMAXPROCS(0), 4)
	}
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			check()
		}()
	}
	check()
	wg.Wait()
	return changed, !failed.Load()
}

// absOf is the absolute path of rel under root.
func absOf(root, rel string) string {
	if rel == "" {
		return root
	}
	return root + "/" + rel
}

// sameCounted reports whether the changed directories of a mark, read
// again with any directory new under them, list the same counted files.
// Each directory read is passed to read first.
func sameCounted(root string, dirs []markDir, nfiles int, changedDirs []*markDir, counts func(rel string) bool, read func(os.FileInfo)) bool {
	abs := func(rel string) string { return absOf(root, rel) }
	known := make(map[string]bool, len(dirs))
	marked := make(map[string]bool, nfiles)
	for _, d := range dirs {
		known[d.rel] = true
		d.each(func(name string, _ Stamp) bool {
			marked[join(d.rel, name)] = true
			return true
		})
	}
	seen := map[string]bool{} // the marked files listed again
	var list func(rel string) bool
	list = func(rel string) bool {
		info, err := os.Lstat(abs(rel))
		if err != nil || !info.IsDir() {
			return true // gone: the marked files in it are gone too, and failed their stat
		}
		read(info)
		des, err := os.ReadDir(abs(rel))
		if err != nil {
			return false
		}
		for _, de := range des {
			p := join(rel, de.Name())
			switch {
			case de.Type().IsRegular():
				if counts(p) {
					if !marked[p] {
						return false // a new counted file
					}
					seen[p] = true
				}
			case de.IsDir() && !project.NotSource(de.Name()):
				if !known[p] && !list(p) {
					return false // a new directory, read whole
				}
			}
		}
		return true
	}
	for _, d := range changedDirs {
		if !list(d.rel) {
			return false
		}
	}
	// A marked file in a changed directory not listed there again is no
	// longer a counted regular file (its stat passed: a race).
	for _, d := range changedDirs {
		if !d.each(func(name string, _ Stamp) bool { return seen[join(d.rel, name)] }) {
			return false
		}
	}
	return true
}

// dirOf returns the directory of a slash-separated relative path ("" the
// root).
func dirOf(rel string) string {
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		return rel[:i]
	}
	return ""
}
