// Package checkpoint stores the current contents of files before a risky
// change, so that they can be restored byte-exact later, deleted files
// included.
//
// A Store is a directory holding two kinds of files:
//
//	objects/<2 hex>/<62 hex>.gz   file contents, gzip-compressed, named by SHA-256
//	manifests/<ID>.json           one checkpoint: what was stored, and why
//
// Objects are shared between checkpoints and never rewritten. All access
// to the project goes through an os.Root, so neither taking a checkpoint
// nor restoring one follows a symbolic link out of the project.
//
// The store's directory is in the project, where a program of the agent's
// that no hook sees (a test the completion command runs) can write. An
// object is named by its SHA-256 and Restore checks every one it needs
// before it changes anything, so a rewritten object is refused. A
// manifest says which object each path gets, and which paths did not
// exist (and so are removed): rewritten, it would "restore" the agent's
// weakened tests, or delete files. So a store with a Sealed directory
// (ralph's state home, outside the project: see [For]) writes each
// manifest there too, and reads and lists only those copies: a manifest
// changed in the project is reported (Manifest.Changed) and the sealed
// one used, and one that ralph never sealed is not a checkpoint.
package checkpoint

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/jsonerr"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/state"
	"github.com/ralph-hooks/ralph-hooks/internal/vault"
)

// SealedName is the directory of a scope's sealed manifests in its cache
// directory of the state home (vault.CacheDir).
const SealedName = "checkpoints"

// For returns the checkpoint store of the scope sc: its checkpoints
// directory, with the manifests sealed in the scope's cache directory in
// the state home (no Sealed directory when there is no state home). A nil
// getenv is os.Getenv.
func For(sc project.Scope, getenv func(string) string) Store {
	s := Store{Dir: sc.Checkpoints()}
	if dir := vault.CacheDir(sc.Root, sc.Loop, getenv); dir != "" {
		s.Sealed = filepath.Join(dir, SealedName)
	}
	return s
}

// Store is a checkpoint directory, e.g. <project>/.aiwg/ralph/checkpoints.
type Store struct {
	Dir string
	// Sealed, when set, is the directory (outside the project) that keeps
	// ralph's copy of every manifest it writes, <ID>.json: Load and List
	// trust those alone.
	Sealed string
}

// Meta describes the action a checkpoint is taken before.
type Meta struct {
	Hook    string `json:"hook,omitempty"`   // e.g. "pre-tool-call"
	Tool    string `json:"tool,omitempty"`   // e.g. "Bash", "Edit"
	Target  string `json:"target,omitempty"` // the command or file path
	Rule    string `json:"rule,omitempty"`   // rule that made it risky
	Level   string `json:"level,omitempty"`
	Session string `json:"session_id,omitempty"`
	Loop    string `json:"loop_id,omitempty"`
}

// Limits bound one checkpoint. A count that is zero or negative takes its
// value from DefaultLimits; a zero Deadline is none.
type Limits struct {
	MaxFiles int   // entries of any kind: files, directories, symlinks
	MaxBytes int64 // total size of the regular files, before compression
	// Deadline: a checkpoint not stored by then is given up (a hook has
	// a timeout, and a hook that times out guards nothing).
	Deadline time.Time
}

// DefaultLimits are the limits used for a zero Limits field. A checkpoint
// of 50,000 small files takes a few seconds; MaxBytes keeps the time spent
// compressing large ones as short.
var DefaultLimits = Limits{MaxFiles: 50000, MaxBytes: 64 << 20}

// TooLargeError reports a checkpoint that would exceed its Limits, or was
// not stored by its Deadline. Counting stops at the first entry over a
// limit, so the counts are lower bounds.
type TooLargeError struct {
	Files  int
	Bytes  int64
	Limits Limits
	// Late: the deadline passed with Stored of the Files stored.
	Late   bool
	Stored int
}

// Error says which limits were exceeded.
func (e *TooLargeError) Error() string {
	if e.Late {
		return fmt.Sprintf("checkpoint too slow: %d of %d files (%d bytes) stored by its deadline", e.Stored, e.Files, e.Bytes)
	}
	return fmt.Sprintf("checkpoint too large: over %d files or %d bytes (counted %d files, %d bytes before stopping)",
		e.Limits.MaxFiles, e.Limits.MaxBytes, e.Files, e.Bytes)
}

// Entry kinds.
const (
	KindFile    = "file"
	KindDir     = "dir"
	KindSymlink = "symlink"
	KindAbsent  = "absent"
)

// Entry is one path of a checkpoint and its state at checkpoint time.
type Entry struct {
	Path   string `json:"path"`             // slash-separated, relative to the project root
	Kind   string `json:"kind"`             // KindFile, KindDir, KindSymlink or KindAbsent
	Mode   uint32 `json:"mode,omitempty"`   // permission bits (fs.FileMode.Perm())
	Size   int64  `json:"size,omitempty"`   // size of a file
	SHA256 string `json:"sha256,omitempty"` // content hash of a file
	Link   string `json:"link,omitempty"`   // symlink target, as read by os.Readlink
}

// Manifest is one checkpoint.
type Manifest struct {
	ID      string    `json:"id"`
	Created time.Time `json:"created"`
	Meta
	Entries []Entry  `json:"entries"`           // sorted by Path
	Skipped []string `json:"skipped,omitempty"` // paths not stored, with why, e.g. "web/node_modules/ (regenerable)"
	// Changed, set by Load, says how the project's copy of a sealed
	// manifest differs from the sealed one, which is the one returned
	// ("" when they agree).
	Changed string `json:"-"`
}

// ValidID reports whether id is a well-formed checkpoint ID,
// cp-YYYYMMDDTHHMMSS-<8 hex digits>. (A hand-written check: a package-level
// regexp would cost every hook call its compilation.)
func ValidID(id string) bool {
	const shape = "cp-DDDDDDDDTDDDDDD-HHHHHHHH"
	if len(id) != len(shape) {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch shape[i] {
		case 'D':
			if c < '0' || c > '9' {
				return false
			}
		case 'H':
			if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
				return false
			}
		default:
			if c != shape[i] {
				return false
			}
		}
	}
	return true
}

func checkID(id string) error {
	if !ValidID(id) {
		return fmt.Errorf("invalid checkpoint ID %q: want cp-YYYYMMDDTHHMMSS-<8 hex digits>", id)
	}
	return nil
}

// newID returns a new checkpoint ID. Its random part only needs to be
// unlikely to collide within a second, so math/rand does: crypto/rand
// would cost every hook call its initialisation.
func newID(t time.Time) string {
	return fmt.Sprintf("cp-%s-%08x", t.UTC().Format("20060102T150405"), rand.Uint32())
}

func (s Store) manifest(id string) string {
	return filepath.Join(s.Dir, "manifests", id+".json")
}

// Load reads the checkpoint with the given ID: from the sealed copy when
// the store has a Sealed directory (a checkpoint with none there is an
// error), else from the project's.
func (s Store) Load(id string) (*Manifest, error) {
	if err := checkID(id); err != nil {
		return nil, err
	}
	if s.Sealed == "" {
		return s.load(id, s.manifest(id))
	}
	sealed := s.sealed(id)
	if _, err := os.Lstat(sealed); errors.Is(err, fs.ErrNotExist) {
		if _, err := os.Lstat(s.manifest(id)); err == nil {
			return nil, fmt.Errorf("checkpoint %s: ralph sealed no copy of its manifest (%q; none in %q): ralph did not write it, or its copy was removed, so it restores nothing from it", id, s.manifest(id), s.Sealed)
		}
		return nil, fmt.Errorf("checkpoint %s not found in %q: %w", id, s.Sealed, fs.ErrNotExist)
	}
	m, err := s.load(id, sealed)
	if err != nil {
		return nil, err
	}
	if cur, err := os.ReadFile(s.manifest(id)); err != nil {
		m.Changed = "the project's copy " + s.manifest(id) + " is gone"
	} else if ours, err := os.ReadFile(sealed); err == nil && !bytes.Equal(cur, ours) {
		m.Changed = "the project's copy " + s.manifest(id) + " was changed since ralph wrote it"
	}
	return m, nil
}

// load reads and checks the manifest of id at name.
func (s Store) load(id, name string) (*Manifest, error) {
	data, err := os.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("checkpoint %s not found in %q: %w", id, filepath.Dir(filepath.Dir(name)), fs.ErrNotExist)
	}
	if err != nil {
		return nil, fmt.Errorf("reading checkpoint %s: %w", id, err)
	}
	m := new(Manifest)
	if err := json.Unmarshal(data, m); err != nil {
		return nil, fmt.Errorf("checkpoint manifest %q is corrupt (%s): move it aside to use the other checkpoints", name, jsonerr.Say(err))
	}
	if m.ID != id {
		return nil, fmt.Errorf("checkpoint manifest %q holds ID %q", name, m.ID)
	}
	return m, nil
}

// sealed is the sealed copy of id's manifest.
func (s Store) sealed(id string) string { return filepath.Join(s.Sealed, id+".json") }

// Has reports whether the store holds the checkpoint id: ralph's sealed
// copy of its manifest, or with no Sealed directory, the project's.
func (s Store) Has(id string) bool {
	name := s.manifest(id)
	if s.Sealed != "" {
		name = s.sealed(id)
	}
	fi, err := os.Lstat(name)
	return err == nil && fi.Mode().IsRegular()
}

// List returns all checkpoints of the store, newest first: those whose
// manifest ralph sealed when the store has a Sealed directory (a manifest
// only in the project is no checkpoint), else the project's. A store that
// does not exist yet has none; a manifest that does not parse is an error
// naming it.
func (s Store) List() ([]*Manifest, error) {
	dir := filepath.Join(s.Dir, "manifests")
	if s.Sealed != "" {
		dir = s.Sealed
	}
	des, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("listing checkpoints: %w", err)
	}
	var ms []*Manifest
	for _, de := range des {
		id, ok := strings.CutSuffix(de.Name(), ".json")
		if !ok || !ValidID(id) || !de.Type().IsRegular() {
			continue // temporary files and strangers
		}
		m, err := s.Load(id)
		if err != nil {
			return nil, err
		}
		ms = append(ms, m)
	}
	slices.SortFunc(ms, func(a, b *Manifest) int {
		if c := b.Created.Compare(a.Created); c != 0 {
			return c
		}
		return strings.Compare(b.ID, a.ID)
	})
	return ms, nil
}

// regenerable reports whether s is a directory name whose contents tools
// rebuild, and which a checkpoint therefore does not store when it meets them inside a
// directory it walks.
func regenerable(s string) bool {
	switch s {
	case "node_modules", ".venv", "venv", "__pycache__", ".pytest_cache", ".mypy_cache", ".tox",
		".next", ".cache", "target", "dist", "build", "coverage", ".gradle":
		return true
	}
	return false
}

// Create takes a checkpoint of paths, absolute paths inside the project
// root, and records it with meta. A directory is stored with everything
// below it, except version control, ralph's state and regenerable
// directories, which are listed in Skipped. Symbolic links are recorded,
// never followed. A path that does not exist is recorded as absent, so
// that restoring removes it.
//
// A checkpoint that would exceed lim is not written; Create returns a
// *TooLargeError instead.
func (s Store) Create(root string, paths []string, meta Meta, lim Limits) (*Manifest, error) {
	if lim.MaxFiles <= 0 {
		lim.MaxFiles = DefaultLimits.MaxFiles
	}
	if lim.MaxBytes <= 0 {
		lim.MaxBytes = DefaultLimits.MaxBytes
	}
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("checkpoint: %w", err)
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, fmt.Errorf("checkpoint: opening project root: %w", err)
	}
	defer r.Close()

	c := &collector{r: r, lim: lim, seen: make(map[string]bool)}
	if dir, err := filepath.Abs(s.Dir); err == nil {
		if rel, ok := relative(root, dir); ok {
			c.store = rel
		}
	}
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			return nil, fmt.Errorf("checkpoint: path %q is not absolute", p)
		}
		rel, ok := relative(root, p)
		if !ok {
			return nil, fmt.Errorf("checkpoint: path %q is outside the project root %q", p, root)
		}
		if err := c.add(rel); err != nil {
			return nil, err
		}
	}

	if err := s.putAll(r, c.entries, lim.Deadline); err != nil {
		if tl, ok := err.(*TooLargeError); ok {
			tl.Bytes, tl.Limits = c.bytes, lim
		}
		return nil, err
	}
	slices.SortFunc(c.entries, func(a, b Entry) int { return strings.Compare(a.Path, b.Path) })
	slices.Sort(c.skipped)

	now := time.Now().UTC()
	m := &Manifest{
		ID:      newID(now),
		Created: now,
		Meta:    meta,
		Entries: c.entries,
		Skipped: c.skipped,
	}
	if m.Entries == nil {
		m.Entries = []Entry{}
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("checkpoint: encoding manifest: %w", err)
	}
	data = append(data, '\n')
	if s.Sealed != "" {
		// The sealed copy first: a manifest in the project is trusted
		// only once it is there.
		if err := os.MkdirAll(s.Sealed, 0o755); err != nil {
			return nil, fmt.Errorf("checkpoint: sealing its manifest: %w", err)
		}
		if err := state.WriteFile(s.sealed(m.ID), data, 0o644); err != nil {
			return nil, fmt.Errorf("checkpoint: sealing its manifest: %w", err)
		}
	}
	if err := state.WriteFile(s.manifest(m.ID), data, 0o644); err != nil {
		return nil, fmt.Errorf("checkpoint: %w", err)
	}
	return m, nil
}

// relative returns p relative to root, slash-separated, and whether p is
// root or inside it.
func relative(root, p string) (string, bool) {
	rel, err := filepath.Rel(root, filepath.Clean(p))
	if err != nil || (rel != "." && !filepath.IsLocal(rel)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// A collector gathers the entries of one checkpoint.
type collector struct {
	r       *os.Root
	lim     Limits
	store   string // the store's directory relative to the root, if inside it
	seen    map[string]bool
	entries []Entry
	skipped []string
	bytes   int64
}

// add records the path rel given by the caller.
func (c *collector) add(rel string) error {
	if c.seen[rel] {
		return nil
	}
	fi, err := c.r.Lstat(filepath.FromSlash(rel))
	if err != nil {
		if notExist(err) {
			c.seen[rel] = true
			return c.append(Entry{Path: rel, Kind: KindAbsent})
		}
		return fmt.Errorf("checkpoint: %w", err)
	}
	if !fi.IsDir() {
		return c.addInfo(rel, fi)
	}
	if why := c.skipDir(rel, true); why != "" {
		c.skip(rel, why)
		return nil
	}
	err = fs.WalkDir(c.r.FS(), rel, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("checkpoint: %w", err)
		}
		if c.seen[p] {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() && p != rel {
			if why := c.skipDir(p, false); why != "" {
				c.skip(p, why)
				return fs.SkipDir
			}
		}
		fi, err := d.Info()
		if err != nil {
			return fmt.Errorf("checkpoint: %w", err)
		}
		return c.addInfo(p, fi)
	})
	return err
}

// skipDir returns why the directory rel is not stored, or "" if it is.
// Version control and regenerable directories are stored only when asked
// for directly: the caller decides what deserves a checkpoint.
func (c *collector) skipDir(rel string, direct bool) string {
	switch name := path.Base(rel); {
	case rel == c.store:
		return "checkpoint store"
	case name == ".aiwg":
		return "ralph state"
	case name == ".git" && !direct:
		return "version control"
	case regenerable(name) && !direct:
		return "regenerable"
	}
	return ""
}

// skip records that the directory rel is not stored, and why.
func (c *collector) skip(rel, why string) {
	c.seen[rel] = true
	c.skipped = append(c.skipped, rel+"/ ("+why+")")
}

// addInfo records rel, described by fi.
func (c *collector) addInfo(rel string, fi fs.FileInfo) error {
	c.seen[rel] = true
	e := Entry{Path: rel, Mode: uint32(fi.Mode().Perm())}
	switch fi.Mode().Type() {
	case 0:
		e.Kind = KindFile
		e.Size = fi.Size()
		c.bytes += e.Size
	case fs.ModeDir:
		e.Kind = KindDir
	case fs.ModeSymlink:
		e.Kind = KindSymlink
		e.Mode = 0
		link, err := c.r.Readlink(filepath.FromSlash(rel))
		if err != nil {
			return fmt.Errorf("checkpoint: %w", err)
		}
		e.Link = link
	default:
		c.skipped = append(c.skipped, rel+" (not a regular file)")
		return nil
	}
	return c.append(e)
}

func (c *collector) append(e Entry) error {
	c.entries = append(c.entries, e)
	if len(c.entries) > c.lim.MaxFiles || c.bytes > c.lim.MaxBytes {
		return &TooLargeError{Files: len(c.entries), Bytes: c.bytes, Limits: c.lim}
	}
	return nil
}

var errNotDir error = syscall.ENOTDIR

// notExist reports whether err says a path does not exist, including
// when one of its parents is not a directory.
func notExist(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, errNotDir)
}
