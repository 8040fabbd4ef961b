// Package filestamp identifies one version of a file by what lstat says of
// it — size, modification time, status change time and inode — so that a
// file can be known unchanged without reading it. The status change time
// (ctime) is what makes that sound: no one but the kernel sets it, and any
// write, rename onto, or touch of the file moves it; a stamp is trusted only
// once its ctime is older than Margin, so that a change in the same clock
// tick as the stamp cannot hide behind it.
package filestamp

import (
	"io/fs"
	"os"
	"time"
)

// Margin is how much older than the moment of its stat a ctime must be for
// the stamp to be trusted: more than a clock tick, and than the two seconds
// of the coarsest file systems' timestamps.
const Margin = 2 * time.Second

// Stamp identifies one version of a file as lstat sees it.
type Stamp struct {
	Size  int64  `json:"size"`
	MTime int64  `json:"mtime_ns"`
	CTime int64  `json:"ctime_ns"` // 0: unknown or too recent to trust, never equal to a stat's
	Ino   uint64 `json:"ino"`
	Dev   uint64 `json:"dev"`
}

// Of returns info's stamp; its CTime is 0 where the platform gives none.
func Of(info fs.FileInfo) Stamp {
	s := Stamp{Size: info.Size(), MTime: info.ModTime().UnixNano()}
	s.CTime, s.Ino, s.Dev = sys(info)
	return s
}

// Lstat returns the stamp of the file at path, not following a last link.
func Lstat(path string) (Stamp, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return Stamp{}, err
	}
	return Of(fi), nil
}

// Settled returns s with its ctime zeroed when s was taken at now less than
// Margin after it: such a stamp may miss a change made in the same tick,
// and must not be trusted later.
func (s Stamp) Settled(now time.Time) Stamp {
	if s.CTime > now.Add(-Margin).UnixNano() {
		s.CTime = 0
	}
	return s
}

// Same reports whether a recorded stamp s still describes the file that now
// has stamp b: equal, with a settled (non-zero) ctime.
func (s Stamp) Same(b Stamp) bool { return s.CTime != 0 && s == b }
