package treeview

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestStatAll: what StatAll records is what Stat would have: regular
// files, missing ones, a symbolic link, a directory, a file under a file.
func TestStatAll(t *testing.T) {
	root := t.TempDir()
	var rels []string
	for i := range 2 * statAllMin {
		d := fmt.Sprintf("d%d", i%7)
		os.MkdirAll(filepath.Join(root, d), 0o755)
		rel := fmt.Sprintf("%s/f%03d.go", d, i)
		if i%50 != 3 { // some are missing
			os.WriteFile(filepath.Join(root, rel), []byte(fmt.Sprint(i)), 0o644)
		}
		rels = append(rels, rel)
	}
	os.WriteFile(filepath.Join(root, "top.go"), []byte("x"), 0o644)
	os.Symlink("top.go", filepath.Join(root, "d1", "link.go"))
	os.Mkdir(filepath.Join(root, "d2", "sub.go"), 0o755)
	rels = append(rels, "top.go", "d1/link.go", "d2/sub.go", "top.go/x.go", "nodir/a.go", "d3/f000.go",
		// paths no view makes, cut at their last slash all the same
		"d2/sub.go/", "top.go/", "./top.go", "d1//f001.go", "d1/./f001.go", "d1/../top.go")
	v := Open(root, "")
	v.StatAll(rels)
	w := Open(root, "")
	filled := 0
	for _, rel := range rels {
		_, inMap := v.stats[rel]
		switch sl := v.slot(rel); {
		case sl != nil && inMap:
			t.Errorf("%s: a listed file's stat in the map", rel)
		case sl != nil && sl.done, sl == nil && inMap:
			filled++
		}
		got, gok := v.Stat(rel)
		want, wok := w.Stat(rel)
		if got != want || gok != wok {
			t.Errorf("%s: StatAll %+v %v, Stat %+v %v", rel, got, gok, want, wok)
		}
	}
	if runtime.GOOS == "linux" && filled < 2*statAllMin {
		t.Errorf("StatAll settled %d of %d files", filled, len(rels))
	}
}

// BenchmarkStatAll stats 5,000 files of a view ahead of their Stat calls,
// as a Stop's stat pass does, each op with none stat'ed yet.
func BenchmarkStatAll(b *testing.B) {
	root := b.TempDir()
	for i := range 5000 {
		p := filepath.Join(root, fmt.Sprintf("pkg/p%03d/file_%04d.go", i%100, i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("package x\n"), 0o644)
	}
	v := Open(root, "")
	var rels []string
	v.walkFiles("", &rels)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for _, d := range v.dirs {
			d.stats = nil
		}
		v.StatAll(rels)
	}
}

// TestStatAllSeesChanges: the stats a view keeps by directory entry are
// forgotten at each refresh, and each is of its own path: after every
// change below, made with the mtimes set back and the sizes kept, a view
// refreshed and stat'ed in bulk (StatAll, then Digest's stat pass) gives
// what a view opened afresh gives, file by file, and the digest moves.
func TestStatAllSeesChanges(t *testing.T) {
	old := time.Now().Add(-time.Hour)
	for name, change := range map[string]func(t *testing.T, root string){
		"edited in place, same size, mtime back": func(t *testing.T, root string) {
			p := filepath.Join(root, "d1", "f001.go")
			must(t, os.WriteFile(p, []byte("package x // 000X"), 0o644))
			must(t, os.Chtimes(p, old, old))
		},
		"two files swapped by rename": func(t *testing.T, root string) {
			a, b := filepath.Join(root, "d1", "f001.go"), filepath.Join(root, "d1", "f004.go")
			must(t, os.Rename(a, a+".tmp"))
			must(t, os.Rename(b, a))
			must(t, os.Rename(a+".tmp", b))
		},
		"a file replaced by a symlink to its twin": func(t *testing.T, root string) {
			p := filepath.Join(root, "d2", "f002.go")
			must(t, os.Remove(p))
			must(t, os.Symlink("f005.go", p))
		},
		"a directory replaced by a copy, mtimes back": func(t *testing.T, root string) {
			d := filepath.Join(root, "d0")
			must(t, os.Rename(d, d+".old"))
			must(t, os.Mkdir(d, 0o755))
			des, _ := os.ReadDir(d + ".old")
			for _, de := range des {
				data, _ := os.ReadFile(filepath.Join(d+".old", de.Name()))
				must(t, os.WriteFile(filepath.Join(d, de.Name()), data, 0o644))
				must(t, os.Chtimes(filepath.Join(d, de.Name()), old, old))
			}
			must(t, os.Chtimes(d, old, old))
			must(t, os.RemoveAll(d+".old"))
		},
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			var rels []string
			for i := range 3 * statAllMin {
				rel := fmt.Sprintf("d%d/f%03d.go", i%3, i)
				write(t, root, map[string]string{rel: fmt.Sprintf("package x // %04d", i)})
				must(t, os.Chtimes(filepath.Join(root, rel), old, old))
				rels = append(rels, rel)
			}
			v := open(root, "", later)
			v.StatAll(rels)
			before, ok := v.Digest(later())
			if !ok {
				t.Fatal("digest not settled")
			}
			tick(t, root)
			change(t, root)
			v.Refresh()
			v.StatAll(rels)
			after, _ := v.Digest(later())
			fresh, _ := open(root, "", later).Digest(later())
			if after == before || after != fresh {
				t.Errorf("digest after the change %.12s, before %.12s, of a fresh view %.12s", after, before, fresh)
			}
			w := open(root, "", later)
			for _, rel := range rels {
				got, gok := v.Stat(rel)
				want, wok := w.Stat(rel)
				if got != want || gok != wok {
					t.Errorf("%s: kept %+v %v, fresh %+v %v", rel, got, gok, want, wok)
				}
			}
		})
	}
}

// TestSlotIsItsPath: whatever order paths are asked in (a walk's, one
// sieved, the same twice, shuffled, with names not listed and paths no
// view makes), each listed path has its own entry's slot and no other.
func TestSlotIsItsPath(t *testing.T) {
	root := t.TempDir()
	var rels []string
	for i := range 40 {
		rel := fmt.Sprintf("d%d/f%02d.go", i%2, i)
		write(t, root, map[string]string{rel: ""})
		rels = append(rels, rel)
	}
	write(t, root, map[string]string{"top.go": ""})
	v := open(root, "", later)
	want := func(rel string) *stat {
		dr, name := dirOf(rel), rel[strings.LastIndexByte(rel, '/')+1:]
		if d := v.dirs[dr]; d != nil && name != "" {
			for k, e := range d.entries {
				if e.Name == name {
					return d.slot(k)
				}
			}
		}
		return nil
	}
	orders := [][]string{rels, append([]string{"top.go"}, rels...)}
	var sieved, twice []string
	for i, rel := range rels {
		if i%5 != 0 {
			sieved = append(sieved, rel)
		}
		twice = append(twice, rel, rel, "d0/nope.go", "d1/", "d1//f01.go", "./top.go", "top.go", "d2/f00.go")
	}
	shuffled := slices.Clone(rels)
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	backward := slices.Clone(rels)
	slices.Reverse(backward)
	orders = append(orders, sieved, twice, shuffled, backward)
	for n, order := range orders {
		for _, rel := range order {
			if got, w := v.slot(rel), want(rel); got != w {
				t.Fatalf("order %d: %q: slot %p, its entry's %p", n, rel, got, w)
			}
		}
	}
}
