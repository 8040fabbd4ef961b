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
// left to Stat.
func (v *View) StatAll(rels []string) {
	todo := make([]string, 0, len(rels))
	for _, rel := range rels {
		if _, done := v.stats[rel]; !done && rel != "" {
			todo = append(todo, rel)
		}
	}
	if len(todo) < statAllMin {
		return // Stat is as fast
	}
	// Runs of files of one directory (a walk gives them in a row).
	type run struct{ start, end int }
	var runs []run
	// A rel's directory and name are cut at its last slash (as the
	// view's own paths are made: no path.Dir, whose Clean was 2 % of a
	// 50,000-file stop): "a/b" is b in a, "b" b in the root.
	for i, rel := range todo {
		if i == 0 || dirOf(rel) != dirOf(todo[i-1]) {
			runs = append(runs, run{i, i})
		}
		runs[len(runs)-1].end = i + 1
	}
	res := make([]stat, len(todo))
	got := make([]bool, len(todo))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), 4) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				k := int(next.Add(1)) - 1
				if k >= len(runs) {
					return
				}
				r := runs[k]
				dir := dirOf(todo[r.start])
				fd, err := unix.Open(v.abs(dir), unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC|unix.O_PATH, 0)
				if err != nil {
					continue // left to Stat
				}
				for i := r.start; i < r.end; i++ {
					var st unix.Stat_t
					name := todo[i][strings.LastIndexByte(todo[i], '/')+1:]
					if name == "" {
						continue // "a/": left to Stat
					}
					err := unix.Fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
					switch {
					case err == unix.ENOENT || err == unix.ENOTDIR:
						got[i] = true // as os.Lstat: no such file
					case err == nil && st.Mode&unix.S_IFMT == unix.S_IFREG:
						res[i] = stat{Stamp{
							Size:  st.Size,
							MTime: st.Mtim.Sec*1e9 + st.Mtim.Nsec,
							CTime: st.Ctim.Sec*1e9 + st.Ctim.Nsec,
							Ino:   uint64(st.Ino),
						}, true}
						got[i] = true
					}
				}
				unix.Close(fd)
			}
		}()
	}
	wg.Wait()
	for i, rel := range todo {
		if got[i] {
			v.stats[rel] = res[i]
		}
	}
}
