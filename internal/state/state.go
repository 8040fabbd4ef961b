// Package state reads and writes ralph's JSON state files safely when many
// hook processes run at once.
//
// Every read-modify-write holds an exclusive lock on a sidecar "<file>.lock"
// (never on the data file, which is replaced by rename), and every write is
// atomic: a unique temp file in the same directory, then a rename. A file
// that does not parse is reported, never overwritten. A write to one of the
// files package vault keeps (the registry, a loop's state.json and
// baselines, aiwg.yml) is sealed there too, under the same lock.
//
// What a write costs in syncs depends on what the file is (durable.go):
// state the loop cannot lose is synced, the file then its directory (the
// directories of a [Batch] once each, at its end); a sealed file whose
// seal is the vault's durable copy is not synced itself; a cache that is
// rebuilt when missing or torn ([WriteCache]) is never synced.
package state

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/gofrs/flock"

	"github.com/ralph-hooks/ralph-hooks/internal/jsonerr"
	"github.com/ralph-hooks/ralph-hooks/internal/rawfile"
	"github.com/ralph-hooks/ralph-hooks/internal/vault"
)

// LockTimeout bounds how long a writer waits for a lock.
var LockTimeout = 10 * time.Second

// Lock takes the exclusive lock guarding path (its sidecar "<path>.lock")
// and returns its release.
func Lock(path string) (unlock func(), err error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("creating state directory: %w", err)
	}
	unlock, err = LockFile(context.Background(), path+".lock")
	if err != nil {
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	return unlock, nil
}

// LockFile takes the exclusive lock on the file lockPath (created if
// missing) and returns its release. It blocks in the kernel (flock
// LOCK_EX, no polling), so waiters are woken the moment the holder lets
// go and a newcomer cannot overtake them again and again; the wait ends
// with an error when ctx is done or after LockTimeout. A waiter that gave
// up leaves the kernel's queue when its turn comes: it releases the lock
// as soon as it is granted.
func LockFile(ctx context.Context, lockPath string) (unlock func(), err error) {
	if err := ctx.Err(); err != nil {
		// Already given up: no wait to start, and no file to create
		// after the caller has gone (and perhaps removed its directory).
		return nil, err
	}
	l := flock.New(lockPath)
	got := make(chan error, 1)
	go func() { got <- lockRetry(l) }()
	timer := time.NewTimer(LockTimeout)
	defer timer.Stop()
	select {
	case err := <-got:
		if err != nil {
			return nil, err
		}
		return func() { l.Unlock() }, nil
	case <-timer.C:
		err = fmt.Errorf("timed out after %v", LockTimeout)
	case <-ctx.Done():
		err = ctx.Err()
	}
	go func() {
		if <-got == nil {
			l.Unlock()
		}
	}()
	return nil, err
}

// lockRetry blocks on l until the lock is held, again when a signal
// interrupts the wait.
func lockRetry(l *flock.Flock) error {
	for {
		err := l.Lock()
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

// WriteFile replaces path with data atomically and durably: synced before
// the rename, its directory synced after it (at the end of a [Batch] when
// one is open). A file the vault keeps (but aiwg.yml) is not synced when
// its seal is made: the vault's copy is, and its check puts that copy back
// over a file a crash left torn or old (durable.go).
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	f, err := writeTemp(path, data, perm)
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // no-op after a successful rename
	if !vaultKept(path) {
		if err := syncFile(f); err != nil {
			f.Close()
			return fmt.Errorf("syncing %s: %w", path, err)
		}
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	// Sealed before the rename: a crash between the two leaves the file as
	// ralph wrote it last, which the vault's check rolls forward to the
	// sealed copy without an alarm (Record.Prev). Renamed first, a crash
	// left a file the check could not tell from a change of the agent's,
	// and the next hook sent the loop to the human gate for ralph's own
	// write.
	held, err := vault.SealWrite(path, data)
	if rerr := os.Rename(tmp, path); rerr != nil {
		return fmt.Errorf("replacing %s: %w", path, rerr)
	}
	switch {
	case held:
		// The vault's copy stands for the file (durable.go).
	case vaultKept(path):
		syncAfter(path) // no copy holds it: it is durable itself
	default:
		syncDir(filepath.Dir(path))
	}
	if err != nil {
		return fmt.Errorf("%s is written, but its copy outside the project is not: %w", path, err)
	}
	return nil
}

// writeTemp writes data to a new temp file beside path, with perm, and
// returns it open.
func writeTemp(path string, data []byte, perm fs.FileMode) (*os.File, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("creating directory for %s: %w", path, err)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("writing %s: %w", path, err)
	}
	if _, err = f.Write(data); err == nil {
		err = f.Chmod(perm)
	}
	if err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, fmt.Errorf("writing %s: %w", path, err)
	}
	return f, nil
}

// Update runs fn on the current contents of path (nil when the file does
// not exist) under the file's lock, and atomically writes what fn returns.
// When fn returns nil bytes and no error, the file is left alone. A file
// the vault holds to its seal is held to it first ([locked]).
func Update(path string, fn func(old []byte) ([]byte, error)) error {
	return locked(path, func(old []byte) error {
		data, err := fn(old)
		if err != nil || data == nil {
			return err
		}
		return WriteFile(path, data, 0o644)
	})
}

// locked runs fn under path's lock on what path holds (nil when it does
// not exist): its bytes, unless it is a file the vault holds to its seal
// (the registry, a registered loop's state.json and baselines) and they
// are not the sealed version. Then something other than ralph changed it
// after the vault's last check (a process of the agent's, between two
// hook calls), and a write built on it would seal the change as ralph's
// own: the sealed copy is put back first, the change kept and queued for
// the caller to report (vault.HoldWrite, vault.TakeUndone), and fn gets
// the sealed version.
func locked(path string, fn func(old []byte) error) error {
	unlock, err := Lock(path)
	if err != nil {
		return err
	}
	defer unlock()
	old, err := rawfile.ReadFile(path) // a FIFO in its place must not block
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("reading %s: %w", path, err)
	}
	if vaultKept(path) {
		if old, err = vault.HoldWrite(path, old, err == nil); err != nil {
			return fmt.Errorf("%s is not written: it is not as ralph sealed it, and ralph's copy cannot be put back: %w", path, err)
		}
	}
	return fn(old)
}

// ReadJSON decodes the JSON file at path into v. A missing file leaves v
// alone and returns an error wrapping fs.ErrNotExist; a file that does not
// parse is an error naming it.
func ReadJSON(path string, v any) error {
	data, err := rawfile.ReadFile(path) // a FIFO in its place must not block
	if err != nil {
		return err
	}
	return decode(path, data, v)
}

// UpdateJSON decodes path into v (a pointer to a zero value when the file
// is missing), calls fn, and writes v back, all under the file's lock.
func UpdateJSON[T any](path string, fn func(v *T) error) error {
	return Update(path, func(old []byte) ([]byte, error) {
		v := new(T)
		if old != nil {
			if err := decode(path, old, v); err != nil {
				return nil, err
			}
		}
		if err := fn(v); err != nil {
			return nil, err
		}
		return marshal(path, v)
	})
}

// marshal encodes v as the JSON file at path, indented.
func marshal(path string, v any) ([]byte, error) {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encoding %s: %w", path, err)
	}
	return append(data, '\n'), nil
}

func decode(path string, data []byte, v any) error {
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s is corrupt (%s); it was left as is", path, jsonerr.Say(err))
	}
	return nil
}
