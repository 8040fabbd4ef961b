package checkpoint

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// object returns the file holding the contents whose SHA-256 is sum.
func (s Store) object(sum string) string {
	return filepath.Join(s.Dir, "objects", sum[:2], sum[2:]+".gz")
}

// validSum reports whether sum is a SHA-256 in lower-case hex, and so
// safe to use in a file name.
func validSum(sum string) bool {
	if len(sum) != 2*sha256.Size {
		return false
	}
	for _, c := range []byte(sum) {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// putAll stores the contents of the files among es and fills in their
// hashes and sizes. The work is shared by a worker per CPU, each with its
// own compressor and buffers (a gzip writer costs about a megabyte to
// make: one per file made a 10,000-file checkpoint spend its time
// collecting garbage). Past deadline (if not zero), it gives up with a
// *TooLargeError whose Late is set. Of several errors, the one of the
// first file in es is returned.
func (s Store) putAll(r *os.Root, es []Entry, deadline time.Time) error {
	var files []int
	for i := range es {
		if es[i].Kind == KindFile {
			files = append(files, i)
		}
	}
	if len(files) == 0 {
		return nil
	}
	if err := os.MkdirAll(filepath.Join(s.Dir, "objects"), 0o755); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	var (
		next, stored atomic.Int64
		mu           sync.Mutex
		first        = len(files) // index into files of the first error
		firstErr     error
		wg           sync.WaitGroup
	)
	fail := func(k int, err error) {
		mu.Lock()
		defer mu.Unlock()
		if k < first {
			first, firstErr = k, err
		}
	}
	failed := func() bool {
		mu.Lock()
		defer mu.Unlock()
		return firstErr != nil
	}
	for range min(runtime.GOMAXPROCS(0), len(files)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := &putter{s: s, dirs: dirCache{r: r}, h: sha256.New(), buf: make([]byte, 32<<10), rbuf: make([]byte, 32<<10)}
			defer p.dirs.close()
			for {
				k := int(next.Add(1)) - 1
				if k >= len(files) || failed() {
					return
				}
				if !deadline.IsZero() && time.Now().After(deadline) {
					fail(k, &TooLargeError{Files: len(files), Late: true, Stored: int(stored.Load())})
					return
				}
				e := &es[files[k]]
				var err error
				if e.SHA256, e.Size, err = p.put(e.Path); err != nil {
					fail(k, fmt.Errorf("checkpoint: storing %q: %w", e.Path, err))
					return
				}
				stored.Add(1)
			}
		}()
	}
	wg.Wait()
	return firstErr
}

// A putter stores objects, one at a time, reusing its compressor and
// buffers.
type putter struct {
	s    Store
	dirs dirCache
	zw   *gzip.Writer
	bw   *bufio.Writer
	h    hash.Hash
	buf  []byte // what put reads
	rbuf []byte // what write copies through
}

// put stores the contents of the file name in r, unless an object already
// holds them, and returns their hash and size. A file that fits in the
// putter's buffer is read once; a larger one is read again to compress it.
func (p *putter) put(name string) (sum string, size int64, err error) {
	dir, base := path.Split(name)
	r, err := p.dirs.open(path.Clean(dir))
	if err != nil {
		return "", 0, err
	}
	f, err := r.Open(base)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	n, err := io.ReadFull(f, p.buf)
	small := err == io.EOF || err == io.ErrUnexpectedEOF
	if err != nil && !small {
		return "", 0, err
	}
	p.h.Reset()
	p.h.Write(p.buf[:n])
	size = int64(n)
	if !small {
		m, err := io.CopyBuffer(p.h, onlyReader{f}, p.buf)
		if err != nil {
			return "", 0, err
		}
		size += m
	}
	sum = hex.EncodeToString(p.h.Sum(nil))
	if _, err := os.Stat(p.s.object(sum)); err == nil {
		return sum, size, nil
	}
	if small {
		return p.write(bytes.NewReader(p.buf[:n]), sum)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return "", 0, err
	}
	return p.write(f, sum)
}

// write stores what it reads from src as a new object and returns its hash
// and size. The hash is taken again here, so that a file that changed since
// put hashed it is stored under the hash of what was actually stored.
// The object appears atomically: concurrent writers of the same contents
// each rename a complete copy into place.
//
// The temporary file is made in the directory the object goes to (its
// hash is known from put), so that the rename stays in one directory: a
// rename across directories takes the file system's rename lock, and
// 10,000 files made in one directory by several workers wait on its lock.
func (p *putter) write(src io.Reader, want string) (sum string, size int64, err error) {
	dir := filepath.Dir(p.s.object(want))
	tmp, err := createTemp(dir)
	if errors.Is(err, fs.ErrNotExist) {
		if err = os.MkdirAll(dir, 0o755); err == nil {
			tmp, err = createTemp(dir)
		}
	}
	if err != nil {
		return "", 0, err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	// Through a buffer: gzip writes its header, its blocks and its trailer
	// each with a write of its own.
	if p.bw == nil {
		p.bw = bufio.NewWriterSize(tmp, 32<<10)
	} else {
		p.bw.Reset(tmp)
	}
	if p.zw == nil {
		if p.zw, err = gzip.NewWriterLevel(p.bw, gzip.BestSpeed); err != nil {
			return "", 0, err
		}
	} else {
		p.zw.Reset(p.bw)
	}
	p.h.Reset()
	if size, err = io.CopyBuffer(p.zw, onlyReader{io.TeeReader(src, p.h)}, p.rbuf); err != nil {
		return "", 0, err
	}
	if err = p.zw.Close(); err != nil {
		return "", 0, err
	}
	if err = p.bw.Flush(); err != nil {
		return "", 0, err
	}
	if err = tmp.Close(); err != nil {
		return "", 0, err
	}
	sum = hex.EncodeToString(p.h.Sum(nil))
	obj := p.s.object(sum)
	if err = os.Rename(tmp.Name(), obj); errors.Is(err, fs.ErrNotExist) {
		// the object's directory is new
		if err = os.MkdirAll(filepath.Dir(obj), 0o755); err != nil {
			return "", 0, err
		}
		err = os.Rename(tmp.Name(), obj)
	}
	if err != nil {
		return "", 0, err
	}
	return sum, size, nil
}

// An unpacker reads objects back, one at a time, reusing its
// decompressor and buffers.
type unpacker struct {
	s   Store
	br  *bufio.Reader
	zr  *gzip.Reader
	h   hash.Hash
	buf []byte
}

func newUnpacker(s Store) *unpacker {
	return &unpacker{s: s, br: bufio.NewReader(nil), h: sha256.New(), buf: make([]byte, 32<<10)}
}

// copy writes the contents whose hash is sum to w, and fails if the
// object is missing or does not hold them.
func (u *unpacker) copy(w io.Writer, sum string) error {
	f, err := openRaw(u.s.object(sum), os.O_RDONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("blob %s is missing", sum)
	}
	if err != nil {
		return err
	}
	defer f.Close()
	u.br.Reset(f)
	if u.zr == nil {
		u.zr, err = gzip.NewReader(u.br)
	} else {
		err = u.zr.Reset(u.br)
	}
	if err != nil {
		return fmt.Errorf("blob %s is corrupt: %v", sum, err)
	}
	u.h.Reset()
	if _, err := io.CopyBuffer(onlyWriter{w}, io.TeeReader(corruptReader{u.zr, sum}, u.h), u.buf); err != nil {
		return err
	}
	if got := hex.EncodeToString(u.h.Sum(nil)); got != sum {
		return fmt.Errorf("blob %s is corrupt: its contents hash to %s", sum, got)
	}
	return nil
}

// corruptReader labels the errors of reading an object, to tell them from
// the errors of writing its contents out.
type corruptReader struct {
	r   io.Reader
	sum string
}

func (c corruptReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("blob %s is corrupt: %v", c.sum, err)
	}
	return n, err
}

// onlyReader and onlyWriter hide an *os.File's WriteTo and ReadFrom, so
// that io.CopyBuffer uses the buffer it is given: their fallbacks for
// what is not a socket or a file allocate 32 KiB a call.
type onlyReader struct{ io.Reader }

type onlyWriter struct{ io.Writer }

// A dirCache holds the directory of the project a worker last opened, as
// a Root of its own, so that the files of one directory are opened by
// name, and not path component by path component through the project's
// Root. It refuses to leave the project as the project's Root does.
type dirCache struct {
	r   *os.Root // the project
	dir string   // slash-separated, relative to the project; "." for r itself
	sub *os.Root
}

// open returns the Root of the directory dir of the project.
func (c *dirCache) open(dir string) (*os.Root, error) {
	if dir == "." || dir == "" {
		return c.r, nil
	}
	if c.sub != nil && c.dir == dir {
		return c.sub, nil
	}
	c.close()
	sub, err := c.r.OpenRoot(filepath.FromSlash(dir))
	if err != nil {
		return nil, err
	}
	c.dir, c.sub = dir, sub
	return sub, nil
}

// close closes the directory held, if any.
func (c *dirCache) close() {
	if c.sub != nil {
		c.sub.Close()
		c.dir, c.sub = "", nil
	}
}

// openRaw opens name as os.OpenFile does, without its attempt to register
// the file with the network poller, which a regular file refuses: four
// fcntl and an epoll_ctl fewer per file, which a checkpoint or a restore
// of 10,000 files makes 10,000 times (on a busy machine, system calls are
// most of their time).
func openRaw(name string, flag int, perm uint32) (*os.File, error) {
	for {
		fd, err := syscall.Open(name, flag|syscall.O_CLOEXEC, perm)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
		return os.NewFile(uintptr(fd), name), nil
	}
}

// createTemp creates a new file in dir, as os.CreateTemp(dir, ".tmp-*")
// does, with openRaw.
func createTemp(dir string) (*os.File, error) {
	for range 100 {
		f, err := openRaw(filepath.Join(dir, fmt.Sprintf(".tmp-%016x", rand.Uint64())), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
	return nil, fmt.Errorf("creating a temporary file in %s: too many names taken", dir)
}
