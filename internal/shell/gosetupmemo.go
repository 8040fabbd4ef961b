package shell

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/filestamp"
)

// GoSetupMemo keeps what go test's reading found in each Go file — the
// bodies of its TestMain and init functions, most often none (goSetup) —
// under the file's stamp (package filestamp: size, mtime, ctime, inode,
// device), so that go test ./... judged again reads only the files that
// changed: one lstat each instead of an open and a read (about 21 ms for
// ralph's own 700 Go files, 40 at 4,000).
//
// Sound against a change: an entry stands only for a regular file whose
// stamp is the one taken before the file was read, and only once that
// stamp's ctime is settled (older than filestamp.Margin when taken): a
// file rewritten in the same clock tick, or written back with its mtime
// and size, has another ctime or inode and is read again. A memo written
// by another ralph (its executable's stamp is the memo's key) or torn
// (Read reports it) is not used, and is rebuilt.
//
// Not sound against its writer: an entry is not otherwise tied to the
// file's content (a digest would cost the read the memo spares). What a
// forged entry could hide is code of a _test.go file's TestMain; the
// bodies of its tests, which go test runs as well, are not read at all.
// So the memo is kept outside the project, beside ralph's sealed state
// (vault.CacheDir, as the tree view and the find memo): the guard denies
// every write it sees there, and what the agent runs unseen in the
// project (a compiled program, a test) cannot reach it by the project's
// paths.
type GoSetupMemo struct {
	Path string
	// Read reads the memo's file (state.ReadCache: a torn file is an
	// error); Write replaces it (state.WriteCache), nil in a dry run.
	Read  func(path string) ([]byte, error)
	Write func(path string, data []byte) error
	Now   func() time.Time // nil: time.Now

	key     string // the executable's stamp; "" when it has none settled: no memo
	entries map[string]setupEntry
	loaded  bool
	dirty   bool
}

// setupEntry is what goSetup found in one file at one stamp.
type setupEntry struct {
	st   filestamp.Stamp
	size int // the bytes read (go test's reading is bounded by their sum)
	body string
}

const goSetupHeader = "ralph-go-setup 1\n"

// load reads the memo once; a memo of another executable, or that does
// not decode, is empty.
func (m *GoSetupMemo) load() {
	if m.loaded {
		return
	}
	m.loaded = true
	m.entries = map[string]setupEntry{}
	exe, err := os.Executable()
	if err != nil {
		return
	}
	st, err := filestamp.Lstat(exe)
	if err != nil || st.Settled(m.now()).CTime == 0 {
		return
	}
	m.key = fmt.Sprintf("%d:%d:%d:%d:%d", st.Size, st.MTime, st.CTime, st.Ino, st.Dev)
	if m.Read == nil {
		return
	}
	data, err := m.Read(m.Path)
	if err != nil {
		return
	}
	if e, err := decodeGoSetup(data, m.key); err == nil {
		m.entries = e
	}
}

func (m *GoSetupMemo) now() time.Time {
	if m.Now != nil {
		return m.Now()
	}
	return time.Now()
}

// stat returns the stamp of the file at p, settled at now, and whether
// the memo may keep it: a regular file (a link's stamp says nothing of
// what it leads to) of a memo that has a key.
func (m *GoSetupMemo) stat(p string, now time.Time) (filestamp.Stamp, bool) {
	m.load()
	if m.key == "" {
		return filestamp.Stamp{}, false
	}
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return filestamp.Stamp{}, false
	}
	return filestamp.Of(fi).Settled(now), true
}

// lookup returns what the memo holds for p at stamp st.
func (m *GoSetupMemo) lookup(p string, st filestamp.Stamp) (setupEntry, bool) {
	e, ok := m.entries[p]
	if !ok || !e.st.Same(st) {
		return setupEntry{}, false
	}
	return e, true
}

// note records what was read of p at stamp st, when st is settled.
func (m *GoSetupMemo) note(p string, st filestamp.Stamp, size int, body string) {
	if st.CTime == 0 {
		if _, ok := m.entries[p]; ok {
			delete(m.entries, p)
			m.dirty = true
		}
		return
	}
	if e, ok := m.entries[p]; ok && e.st == st && e.size == size && e.body == body {
		return
	}
	m.entries[p] = setupEntry{st: st, size: size, body: body}
	m.dirty = true
}

// Save writes the memo when a judgement changed it.
func (m *GoSetupMemo) Save() error {
	if m == nil || !m.dirty || m.Write == nil || m.key == "" {
		return nil
	}
	m.dirty = false
	return m.Write(m.Path, encodeGoSetup(m.key, m.entries))
}

func encodeGoSetup(key string, entries map[string]setupEntry) []byte {
	b := []byte(goSetupHeader)
	str := func(s string) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	str(key)
	b = binary.AppendUvarint(b, uint64(len(entries)))
	for p, e := range entries {
		str(p)
		b = binary.AppendVarint(b, e.st.Size)
		b = binary.AppendVarint(b, e.st.MTime)
		b = binary.AppendVarint(b, e.st.CTime)
		b = binary.AppendUvarint(b, e.st.Ino)
		b = binary.AppendUvarint(b, e.st.Dev)
		b = binary.AppendUvarint(b, uint64(e.size))
		str(e.body)
	}
	return b
}

var errGoSetup = errors.New("not a go setup memo")

// decodeGoSetup decodes a memo written under key; any other bytes are an
// error.
func decodeGoSetup(data []byte, key string) (map[string]setupEntry, error) {
	if len(data) < len(goSetupHeader) || string(data[:len(goSetupHeader)]) != goSetupHeader {
		return nil, errGoSetup
	}
	s := data[len(goSetupHeader):]
	bad := false
	uv := func() uint64 {
		v, n := binary.Uvarint(s)
		if n <= 0 {
			bad = true
			return 0
		}
		s = s[n:]
		return v
	}
	vi := func() int64 {
		v, n := binary.Varint(s)
		if n <= 0 {
			bad = true
			return 0
		}
		s = s[n:]
		return v
	}
	str := func() string {
		n := uv()
		if bad || n > uint64(len(s)) {
			bad = true
			return ""
		}
		out := string(s[:n])
		s = s[n:]
		return out
	}
	if str() != key || bad {
		return nil, errGoSetup
	}
	n := uv()
	if bad || n > uint64(len(s)) {
		return nil, errGoSetup
	}
	out := make(map[string]setupEntry, n)
	for range n {
		p := str()
		var e setupEntry
		e.st.Size, e.st.MTime, e.st.CTime = vi(), vi(), vi()
		e.st.Ino, e.st.Dev = uv(), uv()
		e.size = int(uv())
		e.body = str()
		if bad || e.size < 0 {
			return nil, errGoSetup
		}
		out[p] = e
	}
	if len(s) != 0 {
		return nil, errGoSetup
	}
	return out, nil
}
