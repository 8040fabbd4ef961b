//go:build unix

package procscan

import (
	"os"

	"golang.org/x/sys/unix"
)

// procFS reads the files of one proc directory through a descriptor of
// it: each file is one openat, its reads and a close, without the stat,
// the poller's registration and the flag changes os.Open and os.ReadFile
// make for every file (five system calls of the eight a process's stat
// cost through os: the listing reads one stat per process on the machine).
type procFS struct {
	fd   int
	path string
}

// openProc opens the proc directory dir.
func openProc(dir string) (*procFS, error) {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: dir, Err: err}
	}
	return &procFS{fd: fd, path: dir}, nil
}

func (p *procFS) close() { unix.Close(p.fd) }

// readSmall reads the file rel (relative to the directory) into buf with
// one read: /proc's stat files give their whole text at once, and a
// longer one is cut at len(buf), which ParseStat then refuses.
func (p *procFS) readSmall(rel string, buf []byte) ([]byte, error) {
	fd, err := openat(p.fd, rel)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	n, err := read(fd, buf)
	if err != nil {
		return nil, err
	}
	return buf[:n], nil
}

// readFile reads the whole of the file rel, however long (an
// environment padded past any bound still shows the entries after it).
func (p *procFS) readFile(rel string) ([]byte, error) {
	fd, err := openat(p.fd, rel)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	b := make([]byte, 0, 4096)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := read(fd, b[len(b):cap(b)])
		if err != nil {
			return nil, err
		}
		if n == 0 {
			break
		}
		b = b[:len(b)+n]
	}
	return b, nil
}

// readlink reads the symbolic link rel.
func (p *procFS) readlink(rel string) (string, error) {
	for size := 256; ; size *= 2 {
		buf := make([]byte, size)
		n, err := unix.Readlinkat(p.fd, rel, buf)
		for err == unix.EINTR {
			n, err = unix.Readlinkat(p.fd, rel, buf)
		}
		if err != nil {
			return "", err
		}
		if n < size {
			return string(buf[:n]), nil
		}
	}
}

func openat(dirfd int, rel string) (int, error) {
	for {
		fd, err := unix.Openat(dirfd, rel, unix.O_RDONLY|unix.O_CLOEXEC|unix.O_NOCTTY, 0)
		if err != unix.EINTR {
			return fd, err
		}
	}
}

func read(fd int, b []byte) (int, error) {
	for {
		n, err := unix.Read(fd, b)
		if err != unix.EINTR {
			return n, err
		}
	}
}
