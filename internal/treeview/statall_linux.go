package treeview

import (
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// statAllMin is the fewest files worth workers and directory descriptors.
const statAllMin = 256

// StatAll stats the files rels ahead of their Stat calls, as Stat would:
// a directory at a time, each file by name through the directory's
// descriptor (no walk of its whole path), and the directories shared among
// the CPUs. A caller about to Stat thousands of files (the surface of a
// large project, at every Stop) calls it first. Files it cannot settle as
// os.Lstat would (not a regular file, an error other than not found) are
// left to Stat, and so are paths that are not an entry of a directory of
// the view ([View.slot]).
func (v *View) StatAll(rels []string) {
	var b statBatch
	// A rel's directory and name are cut at its last slash (as the
	// view's own paths are made: no path.Dir, whose Clean was 2 % of a
	// 50,000-file stop): "a/b" is b in a, "b" b in the root. A walk gives
	// a directory's files in a row: its directory is looked up once.
	var d *dir
	dirRel := "\x00" // no directory's path
	k := -1          // the entry last found in d
	for _, rel := range rels {
		dr, name := "", rel
		if i := strings.LastIndexByte(rel, '/'); i >= 0 {
			dr, name = rel[:i], rel[i+1:]
		}
		if dr != dirRel {
			dirRel, d, k = dr, v.dirs[dr], -1
			b.cut(d, dr)
		}
		if d == nil || name == "" {
			continue // left to Stat
		}
		found := k+1 < len(d.entries) && d.entries[k+1].Name == name // the next, as a walk gives them
		if found {
			k++
		} else {
			var at int
			if at, found = entryOf(d.entries, name); found {
				k = at
			}
		}
		if found {
			b.add(d, k)
		} else if _, done := v.stats[rel]; !done {
			b.addLoose(rel, name) // not listed (created since, or never there): the map's
		}
	}
	b.run(v)
}

// statTree stats every entry of the view's directories that is not a
// directory, as StatAll of them all.
func (v *View) statTree() {
	var b statBatch
	for rel, d := range v.dirs {
		b.cut(d, rel)
		for k, e := range d.entries {
			if e.Kind != Dir {
				b.add(d, k)
			}
		}
	}
	b.run(v)
}

// statBatch is the slots StatAll stats, in runs of one directory's, and
// the paths in those directories that are no entry of theirs.
type statBatch struct {
	ks    []int32 // entries, by run
	runs  []statRun
	loose []looseStat
}

type statRun struct {
	d          *dir
	rel        string
	start, end int // of ks
	loose      [2]int
}

// looseStat is a file StatAll stats for the map: one its directory's
// listing does not hold.
type looseStat struct {
	rel, name string
	s         stat
}

// cut starts a run of d's entries.
func (b *statBatch) cut(d *dir, rel string) {
	if d != nil {
		b.runs = append(b.runs, statRun{d, rel, len(b.ks), len(b.ks), [2]int{len(b.loose), len(b.loose)}})
	}
}

// addLoose puts rel, name in the current run's directory, in the batch.
func (b *statBatch) addLoose(rel, name string) {
	b.loose = append(b.loose, looseStat{rel: rel, name: name})
	b.runs[len(b.runs)-1].loose[1] = len(b.loose)
}

// add puts entry k of d, the current run's directory, in the batch, unless
// stat'ed already or put in before: each slot is written by one worker.
func (b *statBatch) add(d *dir, k int) {
	sl := d.slot(k)
	if sl.done || sl.queued {
		return
	}
	sl.queued = true
	b.ks = append(b.ks, int32(k))
	b.runs[len(b.runs)-1].end = len(b.ks)
}

// run stats the batch's slots, the runs shared among the CPUs, each slot
// written by the worker of its run (a slot left not done is Stat's).
func (b *statBatch) run(v *View) {
	defer func() {
		for _, r := range b.runs {
			for _, k := range b.ks[r.start:r.end] {
				r.d.stats[k].queued = false
			}
		}
	}()
	if len(b.ks)+len(b.loose) < statAllMin {
		return // Stat is as fast
	}
	defer func() {
		for _, l := range b.loose {
			if l.s.done {
				v.stats[l.rel] = stat{s: l.s.s, ok: l.s.ok}
			}
		}
	}()
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), 4) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []byte
			var st unix.Stat_t
			for {
				i := int(next.Add(1)) - 1
				if i >= len(b.runs) {
					return
				}
				r := b.runs[i]
				if r.start == r.end && r.loose[0] == r.loose[1] {
					continue
				}
				fd, err := unix.Open(v.abs(r.rel), unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC|unix.O_PATH, 0)
				if err != nil {
					continue // left to Stat
				}
				// as os.Lstat would: no such file, or a regular file's
				// stamp (done false: left to Stat)
				statOf := func(name string) stat {
					err := fstatatName(fd, name, &buf, &st)
					switch {
					case err == unix.ENOENT || err == unix.ENOTDIR:
						return stat{done: true}
					case err == nil && st.Mode&unix.S_IFMT == unix.S_IFREG:
						return stat{s: Stamp{
							Size:  st.Size,
							MTime: st.Mtim.Sec*1e9 + st.Mtim.Nsec,
							CTime: st.Ctim.Sec*1e9 + st.Ctim.Nsec,
							Ino:   uint64(st.Ino),
						}, ok: true, done: true}
					}
					return stat{}
				}
				for _, k := range b.ks[r.start:r.end] {
					if s := statOf(r.d.entries[k].Name); s.done {
						r.d.stats[k] = s
					}
				}
				for j := r.loose[0]; j < r.loose[1]; j++ {
					b.loose[j].s = statOf(b.loose[j].name)
				}
				unix.Close(fd)
			}
		}()
	}
	wg.Wait()
}
