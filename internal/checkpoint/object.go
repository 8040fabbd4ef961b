package checkpoint

import (
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
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

// put stores the contents of the file name in r, unless an object already
// holds them, and returns their hash and size.
func (s Store) put(r *os.Root, name string) (sum string, size int64, err error) {
	f, err := r.Open(filepath.FromSlash(name))
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	size, err = io.Copy(h, f)
	if err != nil {
		return "", 0, err
	}
	sum = hex.EncodeToString(h.Sum(nil))
	if _, err := os.Stat(s.object(sum)); err == nil {
		return sum, size, nil
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return "", 0, err
	}
	return s.write(f)
}

// write stores what it reads from src as a new object and returns its hash
// and size. The hash is taken again here, so that a file that changed since
// put hashed it is stored under the hash of what was actually stored.
// The object appears atomically: concurrent writers of the same contents
// each rename a complete copy into place.
func (s Store) write(src io.Reader) (sum string, size int64, err error) {
	dir := filepath.Join(s.Dir, "objects")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", 0, err
	}
	tmp, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return "", 0, err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	h := sha256.New()
	zw, err := gzip.NewWriterLevel(tmp, gzip.BestSpeed)
	if err != nil {
		return "", 0, err
	}
	if size, err = io.Copy(zw, io.TeeReader(src, h)); err != nil {
		return "", 0, err
	}
	if err = zw.Close(); err != nil {
		return "", 0, err
	}
	if err = tmp.Close(); err != nil {
		return "", 0, err
	}
	sum = hex.EncodeToString(h.Sum(nil))
	obj := s.object(sum)
	if err = os.MkdirAll(filepath.Dir(obj), 0o755); err != nil {
		return "", 0, err
	}
	if err = os.Rename(tmp.Name(), obj); err != nil {
		return "", 0, err
	}
	return sum, size, nil
}

// copyObject writes the contents whose hash is sum to w, and fails if the
// object is missing or does not hold them.
func (s Store) copyObject(w io.Writer, sum string) error {
	f, err := os.Open(s.object(sum))
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("blob %s is missing", sum)
	}
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return fmt.Errorf("blob %s is corrupt: %v", sum, err)
	}
	h := sha256.New()
	if _, err := io.Copy(w, io.TeeReader(corruptReader{zr, sum}, h)); err != nil {
		return err
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != sum {
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
