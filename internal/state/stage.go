package state

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/ralph-hooks/ralph-hooks/internal/crashpoint"
)

// Stage is a set of durable writes made under one lock and synced
// together: each file is written to a temp file beside its place and its
// sync started at once; [Stage.Commit] waits for every sync, then renames
// the files into place in the order they were written, and syncs their
// directories (at the end of the open [Batch]). A sync is mostly a wait on
// the disk: a reflection wrote its pattern files and seen.json one after
// another, three waits where one does.
//
// What a crash can leave is what writing the files one by one left: each
// file old or new, never torn, and a file new only when every file
// written before it is new too (renamed in order, each synced before any
// rename). Only the temp files of a crash differ: they may be synced.
//
// A file the vault keeps is not staged: its seal is made under its own
// lock, at its rename ([WriteFile]).
type Stage struct {
	files []stagedFile
}

// stagedFile is one write of a Stage: its temp file, open while its sync
// runs.
type stagedFile struct {
	f    *os.File
	tmp  string     // the temp file, "" once renamed
	path string     // where it goes
	sync chan error // its sync's result; nil once received
}

// stageRename renames a staged file into place; a test holds it.
var stageRename = os.Rename

// Write stages data as the new content of path, with perm, and starts
// its sync. A file the vault keeps is written at once ([WriteFile]).
func (s *Stage) Write(path string, data []byte, perm fs.FileMode) error {
	if vaultKept(path) {
		return WriteFile(path, data, perm)
	}
	f, err := writeTemp(path, data, perm)
	if err != nil {
		return err
	}
	sf := stagedFile{f: f, tmp: f.Name(), path: path, sync: make(chan error, 1)}
	go func() { sf.sync <- syncFile(f) }()
	s.files = append(s.files, sf)
	return nil
}

// Commit waits for the sync of every staged file, then renames each into
// place in the order written and syncs their directories (each once, at
// the end of the open Batch). A failed sync renames none of them.
func (s *Stage) Commit() error {
	var errs []error
	for i := range s.files {
		sf := &s.files[i]
		err := <-sf.sync
		sf.sync = nil
		if cerr := sf.f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("syncing %s: %w", sf.path, err))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	if len(s.files) == 0 {
		return nil
	}
	crashpoint.Here("state.stage.synced")
	dirs := map[string]bool{}
	for i := range s.files {
		sf := &s.files[i]
		if err := stageRename(sf.tmp, sf.path); err != nil {
			return fmt.Errorf("replacing %s: %w", sf.path, err)
		}
		sf.tmp = ""
		dirs[filepath.Dir(sf.path)] = true
		if i < len(s.files)-1 {
			crashpoint.Here("state.stage.renamed")
		}
	}
	for d := range dirs {
		syncDir(d)
	}
	return nil
}

// Abort removes what was staged and not renamed, once its sync is done.
// After Commit it does nothing.
func (s *Stage) Abort() {
	for i := range s.files {
		sf := &s.files[i]
		if sf.sync != nil {
			<-sf.sync
			sf.f.Close()
			sf.sync = nil
		}
		if sf.tmp != "" {
			os.Remove(sf.tmp)
			sf.tmp = ""
		}
	}
}

// UpdateStaged is [Update] whose fn stages the files it writes beside
// path in s: they are synced with path's new content, all at once, and
// renamed into place before it, under path's lock. When fn fails, nothing
// it staged is written.
func UpdateStaged(path string, fn func(old []byte, s *Stage) ([]byte, error)) error {
	return locked(path, func(old []byte) error {
		s := &Stage{}
		defer s.Abort()
		data, err := fn(old, s)
		if err != nil {
			return err
		}
		if data != nil {
			if vaultKept(path) {
				// Sealed under its lock at its rename: after what fn staged.
				if err := s.Commit(); err != nil {
					return err
				}
				return WriteFile(path, data, 0o644)
			}
			if err := s.Write(path, data, 0o644); err != nil {
				return err
			}
		}
		return s.Commit()
	})
}

// UpdateJSONStaged is [UpdateJSON] whose fn stages the files it writes
// beside path in s ([UpdateStaged]).
func UpdateJSONStaged[T any](path string, fn func(v *T, s *Stage) error) error {
	return UpdateStaged(path, func(old []byte, s *Stage) ([]byte, error) {
		v := new(T)
		if old != nil {
			if err := decode(path, old, v); err != nil {
				return nil, err
			}
		}
		if err := fn(v, s); err != nil {
			return nil, err
		}
		return marshal(path, v)
	})
}
