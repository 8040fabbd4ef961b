package treeview

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDigestGathered: the digest gathers its input before hashing it
// (digestBuf); the sum must be the one of each stamp hashed as it comes,
// as the marks that Stops recorded before were, for a tree whose input
// crosses the gathering's bound many times (long names, a thousand
// files), an empty tree, and an unsettled one.
func TestDigestGathered(t *testing.T) {
	big := t.TempDir()
	for i := range 1000 {
		p := filepath.Join(big, fmt.Sprintf("d%02d", i%17), fmt.Sprintf("%s-%04d.go", strings.Repeat("n", i%90), i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("package x\n"), 0o644)
	}
	os.Symlink("d00", filepath.Join(big, "link"))
	empty := t.TempDir()
	for _, tc := range []struct {
		name string
		root string
		now  func() time.Time
	}{
		{"a thousand files, settled", big, later},
		{"a thousand files, just written", big, time.Now},
		{"an empty tree", empty, later},
	} {
		t.Run(tc.name, func(t *testing.T) {
			extra := filepath.Join(tc.root, "no-such-exclude")
			got, gotOK := OpenAt(tc.root, "", tc.now).Digest(tc.now(), extra)
			want, wantOK := oneByOne(OpenAt(tc.root, "", tc.now), tc.now(), extra)
			if got != want || gotOK != wantOK {
				t.Fatalf("Digest = %s, %v; hashed one stamp at a time = %s, %v", got, gotOK, want, wantOK)
			}
		})
	}
}

// oneByOne is Digest as it was before it gathered its input: each number
// and string written to the hash as it comes.
func oneByOne(v *View, now time.Time, extra ...string) (string, bool) {
	var rels []string
	v.walkFiles("", &rels)
	v.StatAll(rels)
	h := sha256.New()
	limit, ok := now.Add(-Margin).UnixNano(), true
	num := func(h hash.Hash, n int64) {
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], uint64(n))
		h.Write(b[:])
	}
	str := func(s string) { num(h, int64(len(s))); h.Write([]byte(s)) }
	stamp := func(s Stamp, found bool) {
		if !found {
			num(h, -1)
			return
		}
		if s.CTime >= limit {
			ok = false
		}
		for _, n := range []int64{s.Size, s.MTime, s.CTime, int64(s.Ino), int64(s.Mode)} {
			num(h, n)
		}
	}
	var dirOf func(rel string)
	dirOf = func(rel string) {
		dr := v.dirs[rel]
		if dr == nil {
			ok = false
			return
		}
		str(rel)
		if dr.stamp.CTime == 0 {
			ok = false
		}
		stamp(dr.stamp, true)
		num(h, int64(len(dr.entries)))
		for _, e := range dr.entries {
			str(e.Name)
			h.Write([]byte{e.Kind})
			p := join(rel, e.Name)
			switch {
			case e.Kind == Dir && rel == "" && (e.Name == ".git" || e.Name == ".aiwg"):
			case e.Kind == Dir:
				dirOf(p)
			default:
				s, found := v.Stat(p)
				stamp(s, found)
			}
		}
	}
	dirOf("")
	for _, p := range extra {
		str(p)
		s, found := lstatStamp(p)
		stamp(s, found)
	}
	return hex.EncodeToString(h.Sum(nil)), ok
}

// BenchmarkDigest digests a view of 5,000 files already stat'ed, as a Stop
// does after its stat pass: the hashing and the walk, not the lstats.
func BenchmarkDigest(b *testing.B) {
	root := b.TempDir()
	for i := range 5000 {
		p := filepath.Join(root, fmt.Sprintf("pkg/p%03d/file_%04d.go", i%100, i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("package x\n"), 0o644)
	}
	v := OpenAt(root, "", later)
	v.Digest(later())
	b.ResetTimer()
	for range b.N {
		v.Digest(later())
	}
}
