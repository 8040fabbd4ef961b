package treeview

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
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
		if _, ok := v.stats[rel]; ok {
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
		clear(v.stats)
		v.StatAll(rels)
	}
}
