package treeview

import (
	"golang.org/x/sys/unix"
)

// markRoot is the root a mark's directories are stat'ed through: its
// descriptor, so that each directory is found from it (not by a walk of
// its whole path), or none (fd -1): then by path.
type markRoot struct {
	fd   int
	path string
}

// openMarkRoot opens root for a mark's check. The descriptor is used only
// when it is of the directory root names now, not through a link.
func openMarkRoot(root string) markRoot {
	fd, err := unix.Open(root, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return markRoot{-1, root}
	}
	var st unix.Stat_t
	byPath, ok := lstatStamp(root)
	if unix.Fstat(fd, &st) != nil || !ok || unixStamp(&st) != byPath {
		unix.Close(fd)
		return markRoot{-1, root}
	}
	return markRoot{fd, root}
}

func (m markRoot) close() {
	if m.fd >= 0 {
		unix.Close(m.fd)
	}
}

// checkDir stats the directory of d and the files d records in it, each
// by name through the directory's descriptor: same is whether the
// directory's stamp is d's, filesOK whether every file's is. A directory
// that is gone or is no longer one (a link now) is not the same; its
// files, if d records any, are not either.
func (m markRoot) checkDir(d *markDir) (same, filesOK bool) {
	at, path := m.fd, d.rel
	if m.fd < 0 || d.rel == "" {
		at, path = unix.AT_FDCWD, absOf(m.path, d.rel)
	}
	var st unix.Stat_t
	if d.n == 0 {
		err := unix.Fstatat(at, path, &st, unix.AT_SYMLINK_NOFOLLOW)
		for err == unix.EINTR {
			err = unix.Fstatat(at, path, &st, unix.AT_SYMLINK_NOFOLLOW)
		}
		return err == nil && d.stamp.Same(unixStamp(&st)), true
	}
	fd, err := unix.Openat(at, path, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	for err == unix.EINTR {
		fd, err = unix.Openat(at, path, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	}
	if err != nil {
		return false, false
	}
	defer unix.Close(fd)
	if err := unix.Fstat(fd, &st); err != nil {
		return false, false
	}
	same = d.stamp.Same(unixStamp(&st))
	var buf [256]byte // a name's NUL-ended copy for the call (a longer one grows it)
	b := buf[:0]
	return same, d.each(func(name string, want Stamp) bool {
		return fstatatName(fd, name, &b, &st) == nil && want.Same(unixStamp(&st))
	})
}

// unixStamp is the stamp of a stat, as lstatStamp takes it.
func unixStamp(st *unix.Stat_t) Stamp {
	return Stamp{
		Size:  st.Size,
		MTime: st.Mtim.Sec*1e9 + st.Mtim.Nsec,
		CTime: st.Ctim.Sec*1e9 + st.Ctim.Nsec,
		Ino:   uint64(st.Ino),
		Mode:  typeOf(st.Mode),
	}
}
