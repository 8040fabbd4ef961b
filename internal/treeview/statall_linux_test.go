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
	rels = append(rels, "top.go", "d1/link.go", "d2/sub.go", "top.go/x.go", "nodir/a.go", "d3/f000.go")
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
