// Package vault keeps a sealed copy of ralph's own state outside the
// project, so that a change ralph did not make is seen and undone.
//
// Every write ralph makes to the registry, a loop's state.json or the
// configuration it loaded is sealed: its size and SHA-256 go into an index, and its bytes into a copy named by their
// digest, in the user's state directory (Home), keyed by the project's
// real path. Check compares the project's files with the index (size,
// then digest: the files are small) and puts back the sealed
// copy of every file that changed, vanished or became a link, keeping the
// rejected bytes beside the index for the human.
//
// Locks: a sealed file's lock (for .aiwg/ralph/…, the sidecar
// "<file>.lock" package state takes; else one under the vault's locks/),
// then the index's "index.json.lock", always in that order.
package vault

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/gofrs/flock"
	"github.com/tidwall/gjson"

	"github.com/ralph-hooks/ralph-hooks/internal/filestamp"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/rawfile"
)

// Env overrides the state directory (tests use it).
const Env = "RALPH_STATE_HOME"

// LockTimeout bounds how long the vault waits for a lock.
var LockTimeout = 30 * time.Second

// Home returns the user's state directory for ralph-hooks: $RALPH_STATE_HOME,
// else $XDG_STATE_HOME/ralph-hooks, else the platform's equivalent
// (~/.local/state/ralph-hooks; ~/Library/Application Support/ralph-hooks/state
// on macOS; %LocalAppData%\ralph-hooks\state on Windows).
func Home(getenv func(string) string) (string, error) {
	if d := getenv(Env); d != "" {
		return filepath.Abs(d)
	}
	if d := getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "ralph-hooks"), nil
	}
	switch runtime.GOOS {
	case "windows":
		if d := getenv("LocalAppData"); d != "" {
			return filepath.Join(d, "ralph-hooks", "state"), nil
		}
	case "darwin", "ios":
		if h := getenv("HOME"); h != "" {
			return filepath.Join(h, "Library", "Application Support", "ralph-hooks", "state"), nil
		}
	default:
		if h := getenv("HOME"); h != "" {
			return filepath.Join(h, ".local", "state", "ralph-hooks"), nil
		}
	}
	return "", errors.New("no state directory: set " + Env + ", XDG_STATE_HOME or HOME")
}

// Vault is one project's sealed state.
type Vault struct {
	Root string // the project root, as ralph names it
	Dir  string // the project's directory in the state home
}

// Open returns the vault of the project at root. It touches nothing.
func Open(root string, getenv func(string) string) (*Vault, error) {
	home, err := Home(getenv)
	if err != nil {
		return nil, err
	}
	return &Vault{Root: root, Dir: filepath.Join(home, "projects", freshKey(root))}, nil
}

// Key names a project in the state home: the first 16 bytes of the
// SHA-256 of its root's real path, in hex.
func Key(root string) string {
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	sum := sha256.Sum256([]byte(filepath.Clean(root)))
	return hex.EncodeToString(sum[:16])
}

// Record is one sealed file.
type Record struct {
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
	Absent bool   `json:"absent,omitempty"` // sealed as missing: it must not appear
	// Settings marks an agent's settings file: only ralph's registration
	// in it (its "hooks", no "disableAllHooks") is held to the seal; the
	// rest is the human's and the agent's own (permissions, …).
	Settings bool `json:"settings,omitempty"`
	// Stamp is the file's stamp when its digest last matched, recorded
	// once settled (package filestamp) for a file big enough that reading
	// it on every check costs: while the file keeps it, the check does
	// not read it. Sealing a new version drops it.
	Stamp *filestamp.Stamp `json:"stamp,omitempty"`
	// Prev is the digest of the version sealed before this one: ralph's
	// own earlier write. Package state seals a file before it renames the
	// new version into place, so a file found holding Prev is a write a
	// crash cut short: Check finishes it (puts the sealed copy in place)
	// without calling it a change.
	Prev string `json:"prev,omitempty"`
}

// Index is the vault's index.json.
type Index struct {
	Root string `json:"root"`
	// Active lists the loops the sealed registry holds; the config is
	// only held to its seal while one runs.
	Active []string          `json:"active_loops"`
	Files  map[string]Record `json:"files"` // by path relative to Root
}

func (v *Vault) index() string { return filepath.Join(v.Dir, "index.json") }
func (v *Vault) blob(sum string) string {
	return filepath.Join(v.Dir, "blobs", sum)
}

// Rejected returns the directory where Check keeps what it undid.
func (v *Vault) Rejected() string { return filepath.Join(v.Dir, "rejected") }

// Sealed names the project a file ralph writes belongs to when the file is
// one the vault keeps: the registry, a loop's state.json and baselines
// (loopFiles) or aiwg.yml.
func Sealed(path string) (root, rel string, ok bool) {
	path = filepath.Clean(path)
	dir, base := filepath.Split(path)
	dir = filepath.Clean(dir)
	switch {
	case base == project.ConfigFile:
		return dir, base, true
	case base == "registry.json" && strings.HasSuffix(dir, string(filepath.Separator)+filepath.FromSlash(project.RalphDir)):
		root = strings.TrimSuffix(dir, string(filepath.Separator)+filepath.FromSlash(project.RalphDir))
		return root, filepath.Join(filepath.FromSlash(project.RalphDir), base), true
	case loopFile(base):
		loops := filepath.Dir(dir)
		id := filepath.Base(dir)
		suffix := string(filepath.Separator) + filepath.FromSlash(project.RalphDir) + string(filepath.Separator) + "loops"
		if !project.ValidLoopID(id) || !strings.HasSuffix(loops, suffix) {
			return "", "", false
		}
		root = strings.TrimSuffix(loops, suffix)
		rel, err := filepath.Rel(root, path)
		return root, rel, err == nil
	}
	return "", "", false
}

// SealWrite seals data, just written to path by ralph, when path is a file
// the vault keeps; other paths are left alone. held says the vault's check
// now holds the file to the copy just sealed, putting it back whenever the
// file differs from it (torn by a crash included): the registry, and the
// sealed files of a loop the sealed registry lists; not aiwg.yml, held
// only while a loop runs, nor the files of a loop not (or no longer)
// registered.
func SealWrite(path string, data []byte) (held bool, err error) {
	root, rel, ok := Sealed(path)
	if !ok || root == "" {
		return false, nil
	}
	v, err := Open(root, os.Getenv)
	if err != nil {
		return false, err
	}
	err = v.update(func(ix *Index, w *staged) error {
		if err := v.sealIn(ix, w, rel, data, Record{}); err != nil {
			return err
		}
		id, isLoop := loopOf(rel)
		held = rel == registryRel || isLoop && slices.Contains(ix.Active, id)
		return nil
	})
	return held, err
}

// registryRel is the registry's path relative to the root.
var registryRel = filepath.Join(filepath.FromSlash(project.RalphDir), "registry.json")

// Seal records data as the content of rel (relative to the root), as ralph
// just wrote it; absent seals it as a file that must not exist. Sealing
// the registry also forgets the state.json of every loop it no longer
// lists (they are archived), and seals that of a loop it lists first.
func (v *Vault) Seal(rel string, data []byte, absent bool) error {
	return v.seal(rel, data, Record{Absent: absent})
}

func (v *Vault) seal(rel string, data []byte, rec Record) error {
	return v.update(func(ix *Index, w *staged) error { return v.sealIn(ix, w, rel, data, rec) })
}

// sealIn is seal's change of the index ix, under the vault's lock; the
// copies it names are staged in w.
func (v *Vault) sealIn(ix *Index, w *staged, rel string, data []byte, rec Record) error {
	if !rec.Absent {
		rec.SHA256 = digest(data)
		rec.Size = int64(len(data))
		if old, ok := ix.Files[rel]; ok && !old.Absent && !old.Settings && !rec.Settings && old.SHA256 != rec.SHA256 {
			rec.Prev = old.SHA256
		}
		if err := w.put(v.blob(rec.SHA256), data); err != nil {
			return fmt.Errorf("sealing %s: %w", rel, err)
		}
	}
	ix.Files[rel] = rec
	if rel != registryRel {
		return nil
	}
	ix.Active = ix.Active[:0]
	for _, id := range gjson.GetBytes(data, "active_loops.#.loop_id").Array() {
		if project.ValidLoopID(id.Str) {
			ix.Active = append(ix.Active, id.Str)
		}
	}
	for name := range ix.Files {
		if id, ok := loopOf(name); ok && !slices.Contains(ix.Active, id) {
			// No longer held to its copy here: ralph did not sync it while
			// it was (package state), so it is synced now.
			syncFile(v.path(name))
			delete(ix.Files, name)
		}
	}
	// A loop registered after its state was written (and its seal
	// pruned meanwhile) is sealed as its state is now.
	for _, id := range ix.Active {
		for _, f := range sortedLoopFiles() {
			name := filepath.Join(filepath.FromSlash(project.RalphDir), "loops", id, f)
			if _, ok := ix.Files[name]; ok {
				continue
			}
			if data, err := os.ReadFile(v.path(name)); err == nil {
				sum := digest(data)
				if w.put(v.blob(sum), data) == nil {
					ix.Files[name] = Record{Size: int64(len(data)), SHA256: sum}
				}
			}
		}
	}
	return nil
}

// loopOf returns the loop whose state.json (or other sealed file: loopFiles) rel is.
func loopOf(rel string) (string, bool) {
	parts := strings.Split(filepath.ToSlash(rel), "/")
	if len(parts) == 5 && parts[0]+"/"+parts[1] == project.RalphDir && parts[2] == "loops" && loopFile(parts[4]) {
		return parts[3], true
	}
	return "", false
}

// SealConfig seals the project's aiwg.yml as it is now (or its absence):
// the configuration ralph loaded.
func (v *Vault) SealConfig() error {
	path := filepath.Join(v.Root, project.ConfigFile)
	unlock, err := v.lockFor(project.ConfigFile)
	if err != nil {
		return err
	}
	defer unlock()
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return v.Seal(project.ConfigFile, nil, true)
	}
	if err != nil {
		return fmt.Errorf("sealing %s: %w", path, err)
	}
	return v.Seal(project.ConfigFile, data, false)
}

// Name is how the vault names path: relative to the root when inside it,
// else absolute (an agent's user-scope settings).
func (v *Vault) Name(path string) string {
	if rel, err := filepath.Rel(v.Root, path); err == nil && filepath.IsLocal(rel) {
		return rel
	}
	return filepath.Clean(path)
}

// path is the file a vault name stands for.
func (v *Vault) path(name string) string {
	if filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(v.Root, name)
}

// SealInstall seals what ralph install just wrote: the agent's settings
// file (its registration of the hooks) and the files beside it that are
// ralph's alone (the install record, a plugin).
func (v *Vault) SealInstall(settings string, own ...string) error {
	if err := v.sealFile(settings, Record{Settings: isJSON(settings)}); err != nil {
		return err
	}
	return v.SealOwn(own...)
}

// SealOwn seals files that are ralph's alone, whole, as they are now.
func (v *Vault) SealOwn(paths ...string) error {
	for _, p := range paths {
		if err := v.sealFile(p, Record{}); err != nil {
			return err
		}
	}
	return nil
}

func isJSON(path string) bool { return strings.HasSuffix(path, ".json") }

// sealFile seals path as it is now, under its lock.
func (v *Vault) sealFile(path string, rec Record) error {
	unlock, err := v.lockFor(v.Name(path))
	if err != nil {
		return err
	}
	defer unlock()
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("sealing %s: %w", path, err)
	}
	return v.seal(v.Name(path), data, rec)
}

// Forget drops the seals of paths: ralph uninstall took its registration
// out.
func (v *Vault) Forget(paths ...string) error {
	return v.update(func(ix *Index, _ *staged) error {
		for _, p := range paths {
			delete(ix.Files, v.Name(p))
		}
		return nil
	})
}

// Read returns the vault's index; an empty one when there is none.
func (v *Vault) Read() (*Index, error) {
	ix := &Index{Root: v.Root, Files: map[string]Record{}}
	bp := readBuf.Get().(*[]byte)
	defer readBuf.Put(bp)
	data, err := rawfile.ReadInto(*bp, v.index())
	if errors.Is(err, fs.ErrNotExist) {
		return ix, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the vault: %w: %w", ErrIndex, err)
	}
	// gjson, not encoding/json: every hook reads this, and reflection
	// costs more than the rest of the check.
	if !gjson.ValidBytes(data) {
		return nil, fmt.Errorf("%w: %s is corrupt (not valid JSON)", ErrIndex, v.index())
	}
	*bp = data
	doc := gjson.ParseBytes(data) // a copy: the buffer goes back to readBuf
	ix.Root = doc.Get("root").Str
	for _, id := range doc.Get("active_loops").Array() {
		ix.Active = append(ix.Active, id.Str)
	}
	doc.Get("files").ForEach(func(k, r gjson.Result) bool {
		rec := Record{Size: r.Get("size").Int(), SHA256: r.Get("sha256").Str, Absent: r.Get("absent").Bool(), Settings: r.Get("settings").Bool(), Prev: r.Get("prev").Str}
		if st := r.Get("stamp"); st.IsObject() {
			rec.Stamp = &filestamp.Stamp{Size: st.Get("size").Int(), MTime: st.Get("mtime_ns").Int(), CTime: st.Get("ctime_ns").Int(),
				Ino: st.Get("ino").Uint(), Dev: st.Get("dev").Uint()}
		}
		// Only what the vault writes: no path out of the project but an
		// agent's settings, and only aiwg.yml sealed as absent.
		switch {
		case filepath.IsAbs(k.Str) && !rec.Settings, !filepath.IsAbs(k.Str) && !filepath.IsLocal(k.Str):
		case rec.Absent && k.Str != project.ConfigFile:
		default:
			ix.Files[k.Str] = rec
		}
		return true
	})
	return ix, nil
}

// update changes the index under its lock (the copies fn stages in w are
// written under it too, so that prune never takes one still to be named,
// and renamed into place before the index: staged.go). A vault made for
// the first time also clears the vaults of projects that no longer exist.
func (v *Vault) update(fn func(*Index, *staged) error) error {
	fresh := false
	if _, err := os.Stat(v.Dir); errors.Is(err, fs.ErrNotExist) {
		fresh = true
	}
	if err := os.MkdirAll(v.Dir, 0o700); err != nil {
		return fmt.Errorf("creating the vault: %w", err)
	}
	unlock, err := lock(v.index() + ".lock")
	if err != nil {
		return err
	}
	defer unlock()
	ix, err := v.Read()
	if err != nil {
		ix = &Index{Files: map[string]Record{}} // a corrupt index is resealed from ralph's writes
	}
	ix.Root = v.Root
	w := &staged{}
	defer w.abort()
	if err := fn(ix, w); err != nil {
		return err
	}
	data, err := json.MarshalIndent(ix, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding the vault's index: %w", err)
	}
	if err := w.commit(v.index(), append(data, '\n')); err != nil {
		return err
	}
	v.prune(ix)
	if fresh {
		pruneProjects(filepath.Dir(v.Dir))
	}
	return nil
}

// prune removes the copies no record names.
func (v *Vault) prune(ix *Index) {
	blobs, _ := os.ReadDir(filepath.Join(v.Dir, "blobs"))
	if len(blobs) <= len(ix.Files) {
		return
	}
	keep := map[string]bool{}
	for _, r := range ix.Files {
		keep[r.SHA256] = true
	}
	for _, b := range blobs {
		if !keep[b.Name()] && !strings.HasPrefix(b.Name(), ".") {
			os.Remove(v.blob(b.Name()))
		}
	}
}

// pruneProjects removes the vaults of projects whose root is gone.
func pruneProjects(dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name(), "index.json"))
		if err != nil {
			continue
		}
		root := gjson.GetBytes(data, "root").Str
		if _, err := os.Stat(root); root != "" && errors.Is(err, fs.ErrNotExist) {
			os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}
}

// lockFor takes the lock of a sealed file: the sidecar package state
// takes for ralph's files under .aiwg/ralph, else one of the vault's own
// (no lock file beside aiwg.yml or an agent's settings).
func (v *Vault) lockFor(name string) (func(), error) {
	if strings.HasPrefix(filepath.ToSlash(name), project.RalphDir+"/") {
		return lock(v.path(name) + ".lock")
	}
	return lock(filepath.Join(v.Dir, "locks", digest([]byte(name))[:16]+".lock"))
}

// lock takes the exclusive flock on lockPath (created with its directory).
func lock(lockPath string) (func(), error) {
	if err := os.MkdirAll(filepath.Dir(lockPath), 0o755); err != nil {
		return nil, fmt.Errorf("locking %s: %w", lockPath, err)
	}
	l := flock.New(lockPath)
	deadline := time.Now().Add(LockTimeout)
	for {
		ok, err := l.TryLock()
		if err != nil {
			return nil, fmt.Errorf("locking %s: %w", lockPath, err)
		}
		if ok {
			return func() { l.Unlock() }, nil
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("locking %s: timed out after %v", lockPath, LockTimeout)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// syncFile syncs the project's file at path, when there is one (tests
// count the calls).
var syncFile = func(path string) {
	if f, err := os.Open(path); err == nil {
		f.Sync()
		f.Close()
	}
}

// tempBeside creates a temp file in path's directory (made if missing),
// named after it.
func tempBeside(path string) (*os.File, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("writing %s: %w", path, err)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("writing %s: %w", path, err)
	}
	return f, nil
}

// writeAtomic replaces path with data: a temp file beside it, fsync, rename.
func writeAtomic(path string, data []byte) error {
	f, err := tempBeside(path)
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(0o644)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// Kept reports whether the vault has an index for the project.
func (v *Vault) Kept() bool {
	_, err := os.Lstat(v.index())
	return err == nil
}

// Seals reports whether the vault's index can be read and holds a record
// of rel.
func (v *Vault) Seals(rel string) bool {
	ix, err := v.Read()
	if err != nil {
		return false
	}
	_, ok := ix.Files[rel]
	return ok
}

// ErrIndex is a vault index that is there but cannot be read: ralph
// writes it whole (a temp file renamed into place), so only someone else
// leaves it so.
var ErrIndex = errors.New("the vault's index cannot be read")

// SetAside moves an index that cannot be read into the rejected
// directory, for the human, so that Adopt can seal the project afresh. It
// returns where the index was kept.
func (v *Vault) SetAside() (string, error) {
	unlock, err := lock(v.index() + ".lock")
	if err != nil {
		return "", err
	}
	defer unlock()
	p := filepath.Join(v.Rejected(), "index.json."+time.Now().UTC().Format("20060102T150405.000000000Z"))
	if err := os.MkdirAll(v.Rejected(), 0o755); err != nil {
		return "", fmt.Errorf("setting the vault's index aside: %w", err)
	}
	if err := os.Rename(v.index(), p); err != nil {
		return "", fmt.Errorf("setting the vault's index aside: %w", err)
	}
	return p, nil
}

// Adopt seals the project's state as it is now when the vault holds
// nothing of a project that has a registry: a loop started by a ralph
// without the vault, or a vault deleted. It reports whether it did. A
// registry that is not valid JSON was not written by ralph and is not
// sealed: the human's repair of it must not be undone.
func (v *Vault) Adopt() (bool, error) {
	if _, err := os.Stat(v.index()); !errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	rel := filepath.Join(filepath.FromSlash(project.RalphDir), "registry.json")
	unlock, err := v.lockFor(rel)
	if err != nil {
		return false, err
	}
	data, err := rawfile.ReadFile(v.path(rel)) // a FIFO in its place must not block
	unlock()
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("sealing %s: %w", rel, err)
	}
	if !json.Valid(data) {
		return false, nil
	}
	if err := v.Seal(rel, data, false); err != nil {
		return false, err
	}
	return true, v.SealConfig()
}
