// Package rawfile reads and appends to the small files every hook call
// touches (the vault's index and seals, the registry, aiwg.yml, the audit
// log) with plain system calls: os.Open and os.OpenFile try to register
// each file with the network poller, which a regular file refuses — four
// fcntl and an epoll_ctl per file, and the poller's own epoll instance
// and eventfd on the process's first file — and wrap it in an os.File
// with a cleanup. On a hook call that opens ten files and exits, that was
// a measurable part of its cost. ReadInto reads into a buffer the caller
// keeps: a hook that reads ten small files and keeps none of them pays
// for fresh memory (a page fault apiece) once, not ten times. Errors are os's: *fs.PathError, so
// errors.Is(err, fs.ErrNotExist) holds as for os.ReadFile.
package rawfile

import "errors"

// ErrNotRegular is the error of ReadFile and ReadInto for a path that is
// neither a regular file nor a directory (a FIFO, a device, a socket).
var ErrNotRegular = errors.New("is not a regular file (a FIFO, a device or a socket)")
