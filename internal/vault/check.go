package vault

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tidwall/gjson"

	"github.com/ralph-hooks/ralph-hooks/internal/filestamp"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/rawfile"
)

// Restored is a sealed file Check put back.
type Restored struct {
	Rel   string   // relative to the root
	How   string   // what had happened: "changed", "deleted", "replaced by a link", "created"
	Kept  string   // where the rejected bytes were kept, "" when there were none
	Loops []string // the loops the change touched: its own, or every active one
	Lost  bool     // the sealed copy is gone too: the file is left as it is
}

// String says what happened in one line.
func (r Restored) String() string {
	if r.Lost {
		return fmt.Sprintf("%s was %s outside ralph, and its sealed copy outside the project is gone or changed too: it could not be put back, and is sealed as it is", r.Rel, r.How)
	}
	s := fmt.Sprintf("%s was %s outside ralph and is restored", r.Rel, r.How)
	if r.How == "created" {
		s = fmt.Sprintf("%s was created outside ralph while a loop runs and is removed", r.Rel)
	}
	if r.Kept != "" {
		s += " (the rejected file is kept as " + r.Kept + ")"
	}
	return s
}

// Check compares the project's sealed files with the vault and puts back
// every one ralph did not write as it is: changed, deleted, turned into a
// link, or (aiwg.yml while a loop runs) created. The config is held to its
// seal only while the sealed registry lists an active loop. It returns what
// it restored; a project with no vault has nothing to check.
func (v *Vault) Check() ([]Restored, error) {
	out, _, err := v.check(nil)
	return out, err
}

// Held is a sealed file's content as a check held it to its seal.
type Held struct {
	Data   []byte // the file's bytes (nil when Absent)
	Absent bool   // sealed as missing, and missing
}

// RegistryRel is the registry's vault name (its path relative to the root).
var RegistryRel = registryRel

// CheckHeld is Check that also returns the content of the sealed files
// rels (vault names) as the check held them to their seal: the file's own
// bytes, which matched it, or the sealed copy put back in its place (or its
// absence). A hook judges its call by these, not by a second read of the
// file, which a process of the agent's could have rewritten after the
// check. A file the check does not hold (not sealed, not held while no loop
// runs, or not checkable) is not in held: the caller reads it itself.
func (v *Vault) CheckHeld(rels ...string) (restored []Restored, held map[string]Held, err error) {
	return v.check(rels)
}

// check is Check; it returns the content of the sealed files keep as
// CheckHeld does.
func (v *Vault) check(keep []string) ([]Restored, map[string]Held, error) {
	ix, err := v.Read()
	if err != nil || len(ix.Files) == 0 {
		return nil, nil, err
	}
	var held map[string]Held
	hold := func(rel string, h Held) {
		if held == nil {
			held = map[string]Held{}
		}
		held[rel] = h
	}
	var out []Restored
	var errs []error
	type settle struct {
		sum string
		st  filestamp.Stamp
	}
	settled := map[string]settle{}
	now := clock()
	// registered says whether the sealed registry holds loop id: the
	// index's own list of its loops is written with it, but anyone who
	// can write the index could empty that list alone.
	var sealedLoops []string
	registered := func(id string) bool {
		if sealedLoops == nil {
			sealedLoops = []string{}
			if rec, ok := ix.Files[registryRel]; ok && !rec.Absent {
				sealedLoops = activeIn(v.sealedCopy(rec))
			}
		}
		return slices.Contains(sealedLoops, id)
	}
	// sealedHolds is holds by the sealed registry's loops.
	sealedHolds := func(rel string) bool {
		registered("")
		if rel == project.ConfigFile {
			return len(sealedLoops) > 0
		}
		id, ok := loopOf(rel)
		return ok && slices.Contains(sealedLoops, id)
	}
	for _, rel := range sorted(ix.Files) {
		rec := ix.Files[rel]
		if !holds(ix, rel) && !sealedHolds(rel) {
			continue // aiwg.yml while no loop runs; a loop's files written, not yet registered, or ended
		}
		kept := slices.Contains(keep, rel)
		var data []byte
		var into *[]byte
		if kept {
			into = &data
		}
		if ok, st := same(v.path(rel), rec, now, into); ok {
			if st != nil {
				settled[rel] = settle{rec.SHA256, *st}
			}
			switch {
			case kept && rec.Absent:
				hold(rel, Held{Absent: true})
			case kept && data == nil:
				data = v.sealedCopy(rec) // trusted by its stamp, not read
				fallthrough
			case kept && data != nil:
				hold(rel, Held{Data: data})
			}
			continue
		}
		r, put, err := v.restore(rel)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if kept && put != nil {
			hold(rel, *put)
		}
		if r == nil {
			continue
		}
		if id, ok := loopOf(rel); ok {
			r.Loops = []string{id}
		} else {
			r.Loops = slices.Clone(ix.Active)
			registered("")
			for _, id := range sealedLoops {
				if !slices.Contains(r.Loops, id) {
					r.Loops = append(r.Loops, id)
				}
			}
		}
		out = append(out, *r)
	}
	if len(settled) > 0 {
		// Recorded for the next checks; a failure only costs them a read.
		_ = v.update(func(ix *Index, _ *staged) error {
			for rel, s := range settled {
				// Only onto the version whose digest matched: one sealed
				// since has no stamp yet.
				if r, ok := ix.Files[rel]; ok && !r.Absent && r.SHA256 == s.sum {
					r.Stamp = &s.st
					ix.Files[rel] = r
				}
			}
			return nil
		})
	}
	more, err := v.checkScopes(ix)
	return append(out, more...), held, errors.Join(append(errs, err)...)
}

// activeIn returns the loops the registry data holds.
func activeIn(data []byte) []string {
	var ids []string
	for _, id := range gjson.GetBytes(data, "active_loops.#.loop_id").Array() {
		if project.ValidLoopID(id.Str) {
			ids = append(ids, id.Str)
		}
	}
	return ids
}

// sealedCopy returns the sealed copy of rec's version, nil when it is gone
// or does not match its digest.
func (v *Vault) sealedCopy(rec Record) []byte {
	data, err := os.ReadFile(v.blob(rec.SHA256))
	if err != nil || digest(data) != rec.SHA256 {
		return nil
	}
	return data
}

func sorted(m map[string]Record) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// same reports whether path is as sealed: a regular file of the sealed
// size and digest. The digest is read unless the file still has the stamp
// recorded when it last matched (rec.Stamp): size and mtime alone would let
// a same-size change with its mtime set back (touch -r) through; a stamp's
// settled ctime and inode do not (package filestamp). When it read a
// matching digest of a file of at least stampSize bytes whose stamp is
// settled, it returns that stamp, to be recorded. When keep is not nil and
// it read a matching digest, *keep is set to a copy of the bytes read.
func same(path string, rec Record, now time.Time, keep *[]byte) (bool, *filestamp.Stamp) {
	st, err := os.Lstat(path)
	if rec.Absent {
		return errors.Is(err, fs.ErrNotExist), nil
	}
	if err != nil || !st.Mode().IsRegular() || st.Size() != rec.Size {
		return false, nil
	}
	cur := filestamp.Of(st)
	if rec.Stamp != nil && rec.Stamp.Same(cur) {
		return true, nil
	}
	bp := readBuf.Get().(*[]byte)
	defer readBuf.Put(bp)
	data, err := readInto(*bp, path)
	if err != nil {
		return false, nil
	}
	*bp = data
	if digest(data) != rec.SHA256 {
		return false, nil
	}
	if keep != nil {
		*keep = slices.Clone(data)
	}
	if s := cur.Settled(now); s.CTime != 0 && rec.Size >= stampSize && (rec.Stamp == nil || *rec.Stamp != s) {
		return true, &s
	}
	return true, nil
}

// clock and readInto are time.Now and rawfile.ReadInto (tests move the
// clock on, and count the reads).
var (
	clock    = time.Now
	readInto = rawfile.ReadInto
)

// stampSize is the smallest sealed file whose stamp is recorded: reading a
// smaller one costs less than writing the index again.
const stampSize = 64 << 10

// readBuf holds the buffers the check reads the index and the sealed files
// into: it keeps none of their bytes, and one buffer for all of them spares
// a hook call fresh memory (page faults) per file.
var readBuf = sync.Pool{New: func() any { b := make([]byte, 0, 8192); return &b }}

func digest(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// restore puts back rel under its lock, after checking again that it still
// differs from the seal (ralph may have written and sealed it meanwhile).
// It returns nil when there was nothing to do. put is what the file holds
// when restore is done with it, as sealed: the bytes it found matching the
// seal under the lock, or the sealed copy it wrote (or its absence); nil
// when it cannot say (an agent's settings, held to ralph's part only).
func (v *Vault) restore(rel string) (r *Restored, put *Held, err error) {
	path := v.path(rel)
	unlock, err := v.lockFor(rel)
	if err != nil {
		return nil, nil, err
	}
	defer unlock()
	ix, err := v.Read()
	if err != nil {
		return nil, nil, err
	}
	rec, ok := ix.Files[rel]
	if !ok {
		return nil, nil, nil
	}
	sealed := func() *Held {
		if rec.Absent {
			return &Held{Absent: true}
		}
		if data := v.sealedCopy(rec); data != nil {
			return &Held{Data: data}
		}
		return nil
	}
	var now []byte
	if same, _ := same(path, rec, clock(), &now); same {
		if now != nil {
			return nil, &Held{Data: now}, nil
		}
		return nil, sealed(), nil
	}
	if rec.Settings {
		r, err := v.restoreHooks(rel, path, rec)
		return r, nil, err
	}
	if r, err = v.restoreWhole(rel, path, rec); err != nil {
		return nil, nil, err
	}
	return r, sealed(), nil
}

// restoreWhole is restore of a file sealed whole (or as absent).
func (v *Vault) restoreWhole(rel, path string, rec Record) (*Restored, error) {
	var data []byte
	r := &Restored{Rel: rel, How: "changed"}
	st, lerr := os.Lstat(path)
	switch {
	case errors.Is(lerr, fs.ErrNotExist):
		r.How = "deleted"
	case lerr == nil && st.Mode()&fs.ModeSymlink != 0:
		r.How = "replaced by a link"
	case rec.Absent:
		r.How = "created"
	}
	if !rec.Absent {
		if data = v.sealedCopy(rec); data == nil {
			// Not as sealed, and the copy that would put it back was
			// deleted or changed too: a change all the same, reported and
			// left as it is for the human. It is sealed as it is now
			// (unchecked, as Adopt seals a vault that is gone), so that
			// ralph's next writes, the human's gate decision first, are
			// not refused for want of a copy, and a later change is undone.
			r.Lost = true
			switch {
			case lerr == nil && st.Mode().IsRegular():
				cur, err := os.ReadFile(path)
				if err == nil {
					err = v.Seal(rel, cur, false)
				}
				if err != nil {
					return nil, fmt.Errorf("sealing %s afresh: %w", rel, err)
				}
			case errors.Is(lerr, fs.ErrNotExist):
				if err := v.Seal(rel, nil, true); err != nil {
					return nil, fmt.Errorf("sealing %s afresh: %w", rel, err)
				}
			}
			return r, nil
		}
		if rec.Prev != "" && heldPrev(path, rec.Prev) {
			// ralph's write of the sealed version, cut short by a crash
			// between its seal and its rename: finished, not a change.
			if err := writeAtomic(path, data); err != nil {
				return nil, fmt.Errorf("restoring %s: %w", rel, err)
			}
			return nil, nil
		}
	}
	if lerr == nil {
		if st.Mode().IsRegular() {
			if old, err := os.ReadFile(path); err == nil {
				r.Kept = v.keep(rel, old)
			}
		}
		if st.IsDir() {
			if filepath.IsAbs(rel) {
				return nil, fmt.Errorf("restoring %s: it is a directory now", rel)
			}
			if err := os.Rename(path, path+".rejected-"+strconv.FormatInt(time.Now().UnixNano(), 10)); err != nil {
				return nil, fmt.Errorf("restoring %s: %w", rel, err)
			}
		}
	}
	if rec.Absent {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("restoring %s: %w", rel, err)
		}
		return r, nil
	}
	if err := writeAtomic(path, data); err != nil {
		return nil, fmt.Errorf("restoring %s: %w", rel, err)
	}
	return r, nil
}

// heldPrev reports whether path is a regular file whose digest is prev.
func heldPrev(path, prev string) bool {
	st, err := os.Lstat(path)
	if err != nil || !st.Mode().IsRegular() {
		return false
	}
	data, err := os.ReadFile(path)
	return err == nil && digest(data) == prev
}

// keep saves rejected bytes under the vault's rejected/ directory and
// returns their path ("" when they could not be kept).
func (v *Vault) keep(rel string, data []byte) string {
	name := strings.ReplaceAll(filepath.ToSlash(rel), "/", "_") + "." + time.Now().UTC().Format("20060102T150405.000000000Z")
	p := filepath.Join(v.Rejected(), name)
	if err := writeAtomic(p, data); err != nil {
		return ""
	}
	return p
}

// restoreHooks holds an agent's settings file to ralph's registration in
// it: when its "hooks" are as sealed and nothing turns them all off, the
// rest of the change is the human's or the agent's own (Claude Code writes
// permissions there) and is sealed as it is; else the sealed "hooks" are
// put back into the file as it is now, "disableAllHooks" taken out (and
// the env settings that are ralph's: settings.go). A file
// that is gone or no longer JSON gets the sealed copy whole.
func (v *Vault) restoreHooks(rel, path string, rec Record) (*Restored, error) {
	sealed, err := os.ReadFile(v.blob(rec.SHA256))
	if err != nil || digest(sealed) != rec.SHA256 {
		return nil, fmt.Errorf("restoring %s: the sealed copy %s is gone or does not match its digest", rel, v.blob(rec.SHA256))
	}
	cur, err := os.ReadFile(path)
	st, lerr := os.Lstat(path)
	r := &Restored{Rel: rel, How: "changed"}
	var data []byte
	switch {
	case errors.Is(lerr, fs.ErrNotExist):
		r.How, data = "deleted", sealed
	case lerr == nil && !st.Mode().IsRegular():
		r.How, data = "replaced by a link", sealed
		if st.IsDir() {
			return nil, fmt.Errorf("restoring %s: it is a directory now", rel)
		}
	case err != nil || !gjson.ValidBytes(cur):
		data = sealed
	default:
		if sameRalphs(cur, sealed) { // ralph's part: settings.go
			return nil, v.seal(rel, cur, rec) // not ralph's part: accepted as it is
		}
		r.How = "changed (ralph's hook registration)"
		if data, err = putRalphs(cur, sealed); err != nil {
			data = sealed
		}
	}
	if lerr == nil && len(cur) > 0 {
		r.Kept = v.keep(rel, cur)
	}
	if err := writeAtomic(path, data); err != nil {
		return nil, fmt.Errorf("restoring %s: %w", rel, err)
	}
	return r, v.seal(rel, data, rec)
}

// compact is raw JSON without its insignificant spaces.
func compact(raw string) string {
	var b bytes.Buffer
	if json.Compact(&b, []byte(raw)) != nil {
		return raw
	}
	return b.String()
}
