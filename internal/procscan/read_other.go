//go:build !unix

package procscan

import (
	"os"
	"path/filepath"
)

// procFS reads the files of one proc directory (a fake one in tests:
// there is no /proc here).
type procFS struct{ path string }

func openProc(dir string) (*procFS, error) {
	if _, err := os.Stat(dir); err != nil {
		return nil, err
	}
	return &procFS{path: dir}, nil
}

func (p *procFS) close() {}

func (p *procFS) readSmall(rel string, buf []byte) ([]byte, error) {
	f, err := os.Open(filepath.Join(p.path, rel))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	n, err := f.Read(buf)
	if err != nil {
		return nil, err
	}
	return buf[:n], nil
}

func (p *procFS) readFile(rel string) ([]byte, error) {
	return os.ReadFile(filepath.Join(p.path, rel))
}

func (p *procFS) readlink(rel string) (string, error) {
	return os.Readlink(filepath.Join(p.path, rel))
}
