package treeview

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"time"
)

// Digest returns a digest of the tree as the view sees it now: every
// directory's stamp and listing, the stamp of every entry in them that is
// not a directory (regular files, symbolic links, others: each stat'ed
// now, through the view, so the consumers that follow share the stats),
// and the stamps of extra, absolute paths of files outside the view that
// decide what the tree holds (a git exclude file). Two equal digests mean
// no entry of the tree was created, removed, renamed, written, truncated,
// re-linked or had its mode or times changed in between, provided the
// earlier one was settled: ok says it is, and that the view vouches for
// the whole tree.
//
// ok is false when the view reads less than the whole tree (a directory
// that holds no project source, other than the root's .git and .aiwg; an
// unreadable directory), or when a stamp is not settled at now (taken
// before any stat): a change in the same clock tick as a stat could leave
// its stamp as it was, so such a digest must not stand for the tree later.
func (v *View) Digest(now time.Time, extra ...string) (sum string, ok bool) {
	v.statTree()
	d := digester{v: v, h: sha256.New(), buf: make([]byte, 0, digestBuf), limit: now.Add(-Margin).UnixNano(), ok: true}
	d.dir("")
	for _, p := range extra {
		d.str(p)
		s, found := lstatStamp(p)
		d.stamp(s, found)
	}
	d.h.Write(d.buf)
	return hex.EncodeToString(d.h.Sum(nil)), d.ok
}

// walkFiles appends the paths of the entries of rel and below that are
// not directories, in the view's order.
func (v *View) walkFiles(rel string, out *[]string) {
	d := v.dirs[rel]
	if d == nil {
		return
	}
	for _, e := range d.entries {
		if e.Kind == Dir {
			v.walkFiles(join(rel, e.Name), out)
		} else {
			*out = append(*out, join(rel, e.Name))
		}
	}
}

// digestBuf is how much of the digest's input is gathered before it is
// hashed: a tree's stamps come 8 bytes at a time, and each Write to the
// hash costs more than the copy.
const digestBuf = 32 << 10

type digester struct {
	v     *View
	h     hash.Hash
	buf   []byte // input not yet hashed
	limit int64  // a ctime at or after it is not settled
	ok    bool
}

func (d *digester) dir(rel string) {
	dr := d.v.dirs[rel]
	if dr == nil {
		d.ok = false // unreadable, or not read
		return
	}
	d.str(rel)
	if dr.stamp.CTime == 0 {
		d.ok = false // changed while the view read it
	}
	d.stamp(dr.stamp, true)
	d.num(int64(len(dr.entries)))
	for k, e := range dr.entries {
		d.str(e.Name)
		d.buf = append(d.buf, e.Kind)
		switch {
		case e.Kind == Dir && rel == "" && (e.Name == ".git" || e.Name == ".aiwg"):
			// the project's git directory and ralph's state: no
			// snapshot holds them.
		case e.Kind == Dir:
			d.dir(join(rel, e.Name)) // one the view does not read (node_modules…) fails
		default:
			// The entry's own slot: what Stat of its path returns.
			sl := dr.slot(k)
			if !sl.done {
				*sl = d.v.lstat(join(rel, e.Name))
			}
			d.stamp(sl.s, sl.ok)
		}
	}
}

func (d *digester) stamp(s Stamp, found bool) {
	if !found {
		d.num(-1)
		return
	}
	if s.CTime >= d.limit {
		d.ok = false
	}
	d.num(s.Size)
	d.num(s.MTime)
	d.num(s.CTime)
	d.num(int64(s.Ino))
	d.num(int64(s.Mode))
}

func (d *digester) num(n int64) {
	d.buf = binary.LittleEndian.AppendUint64(d.buf, uint64(n))
	d.flush()
}

func (d *digester) str(s string) {
	d.num(int64(len(s)))
	d.buf = append(d.buf, s...)
	d.flush()
}

// flush hashes the input gathered once there is enough of it.
func (d *digester) flush() {
	if len(d.buf) >= digestBuf {
		d.h.Write(d.buf)
		d.buf = d.buf[:0]
	}
}

// OpenAt is Open with the clock the view settles its stamps by: tests of
// what trusts a settled stamp (a snapshot's mark) move it forward.
func OpenAt(root, path string, now func() time.Time) *View { return open(root, path, now) }
