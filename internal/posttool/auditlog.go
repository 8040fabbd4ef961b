package posttool

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/ralph-hooks/ralph-hooks/internal/filestamp"
	"github.com/ralph-hooks/ralph-hooks/internal/later"
)

// ralph's audit log only grows: every hook appends one line to it and
// nothing of ralph's rewrites it. A program the guard could not read before
// the call (a compiled one, run by path) can still truncate, replace or
// rewrite it, and with it the human's record of what the agent did; and
// post-tool-call reads back the guard's answer from it. After each call
// that is not a read, post-tool-call compares the log with how it left it
// the last time: a log that is gone or shorter, that is no longer a regular
// file or the same file, or whose bytes before that end changed, is
// reported as a bypass of the loop.

// logSeen is the audit log as the last post-tool-call left it, kept in
// the loop's audit-log.seen (not in the cache, which is rewritten only
// when what it holds changes: the log grows at every call).
type logSeen struct {
	Size int64
	Ino  uint64
	Tail uint64 // FNV-1a of the tailLen bytes before Size
}

// tailLen is how many bytes before the end the check reads back: the end
// of the last line or two, where a rewrite of the log that keeps its
// length would show.
const tailLen = 256

// seeLog returns the log at path as it is now, and why it is not the one
// was describes ("" when it is, or when was is nil).
func seeLog(path string, was *logSeen) (*logSeen, string) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		if was != nil && was.Size > 0 {
			return &logSeen{}, "deleted it"
		}
		return &logSeen{}, ""
	}
	if err != nil {
		return was, "" // unreadable now: judged at the next call
	}
	if !fi.Mode().IsRegular() {
		return &logSeen{}, "put a " + kind(fi.Mode()) + " in its place"
	}
	now := &logSeen{Size: fi.Size(), Ino: filestamp.Of(fi).Ino}
	f, err := os.Open(path)
	if err != nil {
		return was, ""
	}
	defer f.Close()
	now.Tail = tailSum(f, now.Size)
	switch {
	case was == nil:
		return now, ""
	case now.Size < was.Size:
		return now, fmt.Sprintf("cut it from %d to %d bytes", was.Size, now.Size)
	case was.Size == 0:
		// Nothing was in it to lose.
	case was.Ino != 0 && now.Ino != 0 && was.Ino != now.Ino:
		return now, "replaced it with another file"
	case tailSum(f, was.Size) != was.Tail:
		return now, "rewrote its last lines"
	}
	return now, ""
}

// tailSum hashes the tailLen bytes of f before offset end.
func tailSum(f *os.File, end int64) uint64 {
	start := max(end-tailLen, 0)
	buf := make([]byte, end-start)
	n, _ := f.ReadAt(buf, start)
	h := fnv.New64a()
	h.Write(buf[:n])
	return h.Sum64()
}

// kind names a file mode that is not a regular file's.
func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "directory"
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	}
	return "special file"
}

// seenName is the file, kept outside the project (later.CachePath: a
// record rewritten with the log would hide the rewrite), holding the logSeen of
// the last call, as three little-endian uint64 (size, inode, tail): a
// record of a fixed size, written over in place — a truncating rewrite
// cost post-tool-call a tenth of a millisecond. A missing or short one
// starts afresh.
const seenName = "audit-log.seen"

// logAfterBash checks the loop's audit log against the record the last
// call left, reports a rewrite, and records the log as it is now. It runs
// under the cache's lock, which orders parallel calls.
func (r *run) logAfterBash() {
	path := r.c.Scope.Log()
	var was *logSeen
	var rec [24]byte
	var f *os.File
	if !r.c.DryRun {
		var err error
		if f, err = openSeen(later.CachePath(r.sc, seenName, r.getenv())); err != nil {
			fmt.Fprintf(r.c.Stderr, "ralph: warning: recording the audit log: %v\n", err)
		} else {
			defer f.Close()
			if n, _ := f.ReadAt(rec[:], 0); n == len(rec) {
				was = &logSeen{Size: int64(binary.LittleEndian.Uint64(rec[:])), Ino: binary.LittleEndian.Uint64(rec[8:]), Tail: binary.LittleEndian.Uint64(rec[16:])}
			}
		}
	}
	now, why := seeLog(path, was)
	if f != nil && now != nil && (was == nil || *now != *was) {
		binary.LittleEndian.PutUint64(rec[:], uint64(now.Size))
		binary.LittleEndian.PutUint64(rec[8:], now.Ino)
		binary.LittleEndian.PutUint64(rec[16:], now.Tail)
		if _, err := f.WriteAt(rec[:], 0); err != nil {
			fmt.Fprintf(r.c.Stderr, "ralph: warning: recording the audit log: %v\n", err)
		}
	}
	if why == "" {
		return
	}
	rel, err := filepath.Rel(r.c.Scope.Root, path)
	if err != nil {
		rel = path
	}
	r.unseen++
	r.bypasses = append(r.bypasses, r.what()+" "+why+": "+rel+", ralph's audit log of this loop's calls, by a route the guard could not read before the call; the record it held is lost. Only the human can tell what it held")
}

// openSeen opens the record at path for reading and writing, creating it
// (and its directory).
func openSeen(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, err
		}
		f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	}
	return f, err
}
