package vault

import (
	"errors"
	"fmt"
	"os"

	"github.com/ralph-hooks/ralph-hooks/internal/crashpoint"
)

// staged is what one update of the index writes: the copies it names,
// then the index itself. Each is written to a temp file beside its place
// and synced, all the syncs at once (a sync is mostly a wait on the disk,
// and a stop seals three times: six syncs one after another were 1–9 ms
// of its wall clock); only when every one is synced are the copies
// renamed into place, and the index last. A crash therefore leaves the
// old index, or the new one with every copy it names whole.
type staged struct {
	temps []temp
}

// temp is a staged file: written, its sync started.
type temp struct {
	f    *os.File
	tmp  string     // its name, "" once renamed
	path string     // where it is renamed to
	sync chan error // the sync's result, nil once received
}

// Seams for the tests: the sync of a staged file and the rename into
// place.
var (
	stagedSync   = (*os.File).Sync
	stagedRename = os.Rename
)

// put writes data to a temp file beside path and starts its sync.
func (s *staged) put(path string, data []byte) error {
	f, err := tempBeside(path)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(0o644)
	}
	if err != nil {
		f.Close()
		os.Remove(f.Name())
		return fmt.Errorf("writing %s: %w", path, err)
	}
	t := temp{f: f, tmp: f.Name(), path: path, sync: make(chan error, 1)}
	go func() { t.sync <- stagedSync(f) }()
	s.temps = append(s.temps, t)
	return nil
}

// commit writes the index at path with data, waits for every staged
// file's sync, then renames the copies into place and the index last.
func (s *staged) commit(path string, data []byte) error {
	if err := s.put(path, data); err != nil {
		return err
	}
	var errs []error
	for i := range s.temps {
		t := &s.temps[i]
		err := <-t.sync
		if cerr := t.f.Close(); err == nil {
			err = cerr
		}
		t.sync = nil
		if err != nil {
			errs = append(errs, fmt.Errorf("writing %s: %w", t.path, err))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	crashpoint.Here("vault.update.synced")
	for i := range s.temps {
		t := &s.temps[i]
		if err := stagedRename(t.tmp, t.path); err != nil {
			return fmt.Errorf("writing %s: %w", t.path, err)
		}
		t.tmp = ""
		if i < len(s.temps)-1 {
			crashpoint.Here("vault.update.copy-renamed")
		}
	}
	crashpoint.Here("vault.update.index-renamed")
	return nil
}

// abort removes what was staged and not renamed, once its sync is done.
func (s *staged) abort() {
	for i := range s.temps {
		t := &s.temps[i]
		if t.sync != nil {
			<-t.sync
			t.f.Close()
			t.sync = nil
		}
		if t.tmp != "" {
			os.Remove(t.tmp)
			t.tmp = ""
		}
	}
}
