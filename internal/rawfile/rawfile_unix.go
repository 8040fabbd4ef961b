//go:build unix

package rawfile

import (
	"io/fs"
	"syscall"
)

// ReadFile reads the whole file name, as os.ReadFile.
func ReadFile(name string) ([]byte, error) { return ReadInto(nil, name) }

// ReadInto reads the whole file name into buf's storage, from its start,
// growing it as needed, and returns what it read.
//
// Only a regular file is read: a FIFO, a device or a socket in its place
// (mkfifo aiwg.yml) would block the hook on the open or the read, or never
// end (/dev/zero), so it is an error, ErrNotRegular; a directory is
// syscall.EISDIR, as for os.ReadFile. O_NONBLOCK keeps the open of a FIFO
// from waiting for a writer; on a regular file it changes nothing.
func ReadInto(buf []byte, name string) ([]byte, error) {
	fd, err := open(name, syscall.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: err}
	}
	switch st.Mode & syscall.S_IFMT {
	case syscall.S_IFREG:
	case syscall.S_IFDIR:
		return nil, &fs.PathError{Op: "read", Path: name, Err: syscall.EISDIR}
	default:
		return nil, &fs.PathError{Op: "read", Path: name, Err: ErrNotRegular}
	}
	if cap(buf) == 0 {
		buf = make([]byte, 0, 4096) // not before the open: a missing file costs no memory
	}
	buf = buf[:0]
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return nil, &fs.PathError{Op: "read", Path: name, Err: err}
		case n == 0:
			return buf, nil
		}
		buf = buf[:len(buf)+n]
	}
}

// Append appends data to the file name in one write, creating it with
// perm when it does not exist, as os.OpenFile with O_APPEND|O_CREATE and a
// Write would.
func Append(name string, data []byte, perm uint32) error {
	fd, err := open(name, syscall.O_WRONLY|syscall.O_APPEND|syscall.O_CREAT, perm)
	if err != nil {
		return err
	}
	for len(data) > 0 {
		n, err := syscall.Write(fd, data)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			syscall.Close(fd)
			return &fs.PathError{Op: "write", Path: name, Err: err}
		}
		data = data[n:]
	}
	if err := syscall.Close(fd); err != nil {
		return &fs.PathError{Op: "close", Path: name, Err: err}
	}
	return nil
}

func open(name string, flag int, perm uint32) (int, error) {
	for {
		fd, err := syscall.Open(name, flag|syscall.O_CLOEXEC, perm)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return -1, &fs.PathError{Op: "open", Path: name, Err: err}
		}
		return fd, nil
	}
}
