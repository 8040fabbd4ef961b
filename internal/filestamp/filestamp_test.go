package filestamp

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestSettledSame(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, []byte("a"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	if s.CTime == 0 || s.Ino == 0 {
		t.Skip("this platform gives no ctime or inode: every stamp is untrusted")
	}
	if fresh := s.Settled(time.Now()); fresh.CTime != 0 || fresh.Same(s) {
		t.Errorf("a stamp taken at its ctime is trusted: %+v", fresh)
	}
	later := s.Settled(time.Now().Add(time.Hour))
	if !later.Same(s) {
		t.Errorf("a settled stamp is not the same as itself")
	}
	// Rewritten with the same size and mtime: the ctime moves.
	fi, _ := os.Stat(p)
	if err := os.WriteFile(p, []byte("b"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	now, _ := Lstat(p)
	if now.Size != s.Size || now.MTime != s.MTime {
		t.Fatalf("the rewrite did not keep size and mtime: %+v, %+v", s, now)
	}
	if later.Same(now) {
		t.Errorf("a same-size rewrite with its mtime set back keeps the stamp: %+v", now)
	}
	// Replaced by another file: another inode.
	q := p + ".new"
	if err := os.WriteFile(q, []byte("a"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(q, p); err != nil {
		t.Fatal(err)
	}
	if r, _ := Lstat(p); later.Same(r) {
		t.Errorf("a file renamed over it keeps the stamp")
	}
}
