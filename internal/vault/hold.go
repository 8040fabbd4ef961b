package vault

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/ralph-hooks/ralph-hooks/internal/project"
)

// Undone is a change to a sealed file that a writer of ralph's state found
// and put back before its own write (HoldWrite).
type Undone struct {
	Root string // the project's root
	Restored
}

var undone struct {
	sync.Mutex
	list []Undone
}

// TakeUndone returns the changes ralph's own writes put back in this
// process since the last call, and forgets them: the caller reports them
// and records them in the loops they touched, as a hook's check does.
func TakeUndone() []Undone {
	undone.Lock()
	defer undone.Unlock()
	l := undone.list
	undone.list = nil
	return slices.Clip(l)
}

// HoldWrite is what a writer of ralph's state builds on: package state's
// Update calls it under path's lock with the bytes it just read (exists
// false when there was no file). A file the vault does not hold to its
// seal (not sealed; aiwg.yml while no loop runs; the files of a loop the
// sealed registry does not list) is built on as read. A held file as
// sealed is too. A held file that is not as sealed was changed by
// something other than ralph since ralph last wrote it, after the last
// check: built on, the change would be sealed as ralph's own at this
// write. So it is held to its seal first, as the check does: the sealed
// copy is put back (the rejected bytes kept in Rejected), the change is
// queued for TakeUndone, and base is the sealed version (nil for a file
// sealed as absent). ralph's own write that a crash cut short between its
// seal and its rename (Record.Prev) is rolled forward, not reported.
//
// An error (the sealed copy gone, the file not writable) means the file
// must not be written: its change would be sealed. A vault whose index is
// corrupt holds nothing to hold the file to (update reseals it).
func HoldWrite(path string, data []byte, exists bool) (base []byte, err error) {
	root, rel, ok := Sealed(path)
	if !ok || root == "" {
		return data, nil
	}
	v, err := Open(root, os.Getenv)
	if err != nil {
		return data, nil // no state home: nothing is sealed
	}
	ix, err := v.Read()
	if err != nil {
		// A corrupt index holds nothing: the check says so on every hook
		// call, and this write reseals it (update), as a deleted one is
		// adopted. Refusing would stop every loop's writes, and protect
		// nothing that deleting the index does not open as well.
		return data, nil
	}
	rec, ok := ix.Files[rel]
	if !ok || !holds(ix, rel) {
		return data, nil
	}
	if rec.Absent && !exists {
		return nil, nil
	}
	if exists && !rec.Absent && int64(len(data)) == rec.Size && digest(data) == rec.SHA256 {
		if st, err := os.Lstat(path); err == nil && st.Mode().IsRegular() {
			return data, nil
		}
	}
	r, err := v.restoreWhole(rel, path, rec)
	if err != nil {
		return nil, err
	}
	if rec.Absent {
		base = nil
	} else if base = v.sealedCopy(rec); base == nil {
		return nil, fmt.Errorf("restoring %s: the sealed copy %s is gone or does not match its digest", rel, v.blob(rec.SHA256))
	}
	if r != nil {
		if id, ok := loopOf(rel); ok {
			r.Loops = []string{id}
		} else {
			r.Loops = slices.Clone(ix.Active)
		}
		queue(Undone{Root: root, Restored: *r})
	}
	return base, nil
}

// holds reports whether the vault's check holds rel to its seal: the
// registry always, aiwg.yml while a loop runs, a loop's files while the
// sealed registry lists it (as check).
func holds(ix *Index, rel string) bool {
	if rel == project.ConfigFile {
		return len(ix.Active) > 0
	}
	if id, ok := loopOf(rel); ok {
		return slices.Contains(ix.Active, id)
	}
	return true
}

// queue keeps u for the next TakeUndone.
func queue(u Undone) {
	undone.Lock()
	undone.list = append(undone.list, u)
	undone.Unlock()
}

// TakeUndoneIn is TakeUndone of the project at root; the others' changes
// stay queued.
func TakeUndoneIn(root string) []Restored {
	undone.Lock()
	defer undone.Unlock()
	var mine []Restored
	rest := undone.list[:0]
	for _, u := range undone.list {
		if filepath.Clean(u.Root) == filepath.Clean(root) {
			mine = append(mine, u.Restored)
		} else {
			rest = append(rest, u)
		}
	}
	undone.list = rest
	return mine
}

// Changed lists the sealed files the check would put back now (vault
// names, sorted): held to their seal, and not as sealed (but ralph's own
// write a crash cut short, which the check rolls forward). It changes
// nothing: ralph doctor reports them.
func (v *Vault) Changed() ([]string, error) {
	ix, err := v.Read()
	if err != nil {
		return nil, err
	}
	var out []string
	now := clock()
	for _, rel := range sorted(ix.Files) {
		rec := ix.Files[rel]
		if rec.Settings || !holds(ix, rel) {
			continue
		}
		if ok, _ := same(v.path(rel), rec, now, nil); !ok && (rec.Prev == "" || !heldPrev(v.path(rel), rec.Prev)) {
			out = append(out, rel)
		}
	}
	return out, nil
}
