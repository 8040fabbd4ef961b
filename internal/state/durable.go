package state

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/vault"
)

// What ralph writes, by what a crash may cost. A sync is what makes a
// write survive a crash of the machine (a crash of the process loses
// nothing written), and each costs a fraction of a millisecond to
// several: the stop hook made 26 of them a stop. So a write syncs only
// what the loop cannot do without:
//
//   - Durable ([WriteFile]): the loop's history and verdicts (an
//     iteration's file, the reflections and their signatures, which the
//     stuck detection counts, the patterns, the completion's latest
//     results a gate makes the baseline, checkpoints' manifests, what
//     ralph install writes). The file is synced before its rename, its
//     directory after it; inside a [Batch] (the stop hook) each directory
//     once, when the batch ends, before the hook answers.
//   - Held ([WriteFile] of a file the vault holds to its copy: the
//     registry, the state.json and baselines of a loop the registry
//     lists): the vault's copy is written durably (package vault syncs
//     its copy and index), and the vault's check at every hook puts it
//     back over a project file that differs from it, torn by a crash or
//     left old. The project's file is not synced. One the vault does not
//     hold (a loop not yet registered, no state home) is synced after its
//     rename, as a durable file; the vault syncs a loop's files as the
//     registry drops the loop. aiwg.yml, held only while a loop runs, is
//     durable.
//   - Cache ([WriteCache], read by [ReadCache]): rebuilt from the tree
//     when missing or unreadable (the tree view, the latest surface). It
//     is never synced: the file carries its length and CRC-32C, and a
//     torn, truncated or garbage one reads as missing, never as a valid
//     but wrong one. Whatever names a cache by its stamp (the tree's
//     mark) is a cache too, and a cache that fails to read voids it.

// syncFile syncs f; tests count the syncs through it.
var syncFile = (*os.File).Sync

// batch is the open Batch's directories to sync, nil when none is open.
var batch struct {
	sync.Mutex
	open int
	dirs map[string]bool
}

// Batch defers the syncs of the directories durable writes renamed into
// until the returned end, which syncs each once, all at once, and returns
// when every one is done. Batches nest; the outermost end syncs.
func Batch() (end func()) {
	batch.Lock()
	batch.open++
	if batch.dirs == nil {
		batch.dirs = map[string]bool{}
	}
	batch.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			batch.Lock()
			batch.open--
			var dirs []string
			if batch.open == 0 {
				for d := range batch.dirs {
					dirs = append(dirs, d)
				}
				batch.dirs = nil
			}
			batch.Unlock()
			// At once: a sync is mostly a wait on the disk, and the
			// stop hook ends its iteration with four.
			var wg sync.WaitGroup
			for _, d := range dirs {
				wg.Add(1)
				go func() {
					defer wg.Done()
					syncPath(d)
				}()
			}
			wg.Wait()
		})
	}
}

// syncDir syncs dir, or notes it for the open batch's end.
func syncDir(dir string) {
	batch.Lock()
	if batch.open > 0 {
		batch.dirs[dir] = true
		batch.Unlock()
		return
	}
	batch.Unlock()
	syncPath(dir)
}

// syncAfter syncs the file at path, already renamed, and its directory:
// a sealed file with no vault copy to stand for it.
func syncAfter(path string) {
	syncPath(path)
	syncDir(filepath.Dir(path))
}

// syncPath syncs the file or directory at path, as best it can: its
// rename is done, and a failed sync leaves it as durable as the system's
// own writeback makes it.
func syncPath(path string) {
	if f, err := os.Open(path); err == nil {
		syncFile(f)
		f.Close()
	}
}

// vaultKept reports whether the vault keeps a copy of path that stands
// for it after a crash: every file it seals but the config.
func vaultKept(path string) bool {
	_, rel, ok := vault.Sealed(path)
	return ok && rel != project.ConfigFile
}

// The cache's trailer: the length of what precedes it and its CRC-32C,
// then a magic that is not the end of any JSON or text file ralph writes.
const cacheMagic = "\x00ralph-cache1"

// WriteCache replaces path with data atomically, followed by a trailer
// that lets [ReadCache] tell a torn file; nothing is synced (see the
// classes above).
func WriteCache(path string, data []byte, perm fs.FileMode) error {
	var tr [12]byte
	binary.BigEndian.PutUint64(tr[:8], uint64(len(data)))
	binary.BigEndian.PutUint32(tr[8:], checksum(data))
	buf := make([]byte, 0, len(data)+len(tr)+len(cacheMagic))
	buf = append(append(append(buf, data...), tr[:]...), cacheMagic...)
	return WriteBare(path, buf, perm)
}

// WriteBare replaces path with data atomically, as WriteCache does, but
// with no trailer: for a cache whose content tells a torn file itself (the
// decoded configuration ends with its SHA-256, package config), read as
// it is. Nothing is synced.
func WriteBare(path string, data []byte, perm fs.FileMode) error {
	f, err := writeTemp(path, data, perm)
	if err != nil {
		return err
	}
	tmp := f.Name()
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("replacing %s: %w", path, err)
	}
	return nil
}

// ErrTorn is the error of a cache file that is not whole: cut short,
// overwritten, or not written by WriteCache.
var ErrTorn = errors.New("not a whole cache file")

// ReadCache returns what WriteCache wrote to path. A missing file is an
// error wrapping fs.ErrNotExist; one whose trailer does not match what
// precedes it, ErrTorn.
func ReadCache(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	n := len(data) - 12 - len(cacheMagic)
	if n < 0 || string(data[n+12:]) != cacheMagic {
		return nil, fmt.Errorf("%s: %w", path, ErrTorn)
	}
	body, tr := data[:n], data[n:n+12]
	if binary.BigEndian.Uint64(tr[:8]) != uint64(n) || binary.BigEndian.Uint32(tr[8:]) != checksum(body) {
		return nil, fmt.Errorf("%s: %w", path, ErrTorn)
	}
	return body, nil
}
