package treeview

import (
	"golang.org/x/sys/unix"
)

// checkDir stats the directory at abs and the files d records in it,
// each by name through the directory's descriptor: same is whether the
// directory's stamp is d's, filesOK whether every file's is. A directory
// that is gone or is no longer one (a link now) is not the same; its
// files, if d records any, are not either.
func checkDir(abs string, d *markDir) (same, filesOK bool) {
	if len(d.files) == 0 {
		st, ok := lstatStamp(abs) // one call, not three
		return ok && d.stamp.Same(st), true
	}
	fd, err := unix.Open(abs, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	for err == unix.EINTR {
		fd, err = unix.Open(abs, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	}
	if err != nil {
		return false, len(d.files) == 0
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return false, len(d.files) == 0
	}
	same = d.stamp.Same(unixStamp(&st))
	for i := range d.files {
		f := &d.files[i]
		err := unix.Fstatat(fd, f.name, &st, unix.AT_SYMLINK_NOFOLLOW)
		for err == unix.EINTR {
			err = unix.Fstatat(fd, f.name, &st, unix.AT_SYMLINK_NOFOLLOW)
		}
		if err != nil || !f.stamp.Same(unixStamp(&st)) {
			return same, false
		}
	}
	return same, true
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
