// Package snapshot records the working tree of a project at the end of
// each loop iteration and brings it back later, byte-exact, deleted files
// included, so that a loop can be rolled back to an earlier iteration or to
// its best one.
//
// A snapshot is a git tree in a private object store, a bare repository
// (Store.Git: for a loop, in ralph's state home, outside the project; by
// default <root>/.aiwg/ralph/snapshots/git). git names an object by its
// hash but does not check the hash when it reads one, so a store that a
// program of the agent's could write (one no hook sees) would give back
// whatever it wrote: a loop keeps its store, and its index and caches,
// outside the project. The project's own .git is never used:
// snapshots take no commit, branch, stash or index entry of the user's, and
// only <root>/.git/info/exclude is ever read from it. Git plumbing is used
// rather than a walk of our own because it gives, for free and well tested:
//
//   - the exact .gitignore semantics users expect (per-directory .gitignore
//     files, the project's .git/info/exclude, the user's global excludes
//     file; a file that is tracked stays tracked, as in git);
//   - an index that works as a stat cache, so that snapshotting an
//     unchanged tree of 10,000 files costs two git processes and about
//     20 ms, not a read of every file;
//   - content-addressed, compressed objects shared by all snapshots;
//   - file modes and symbolic links stored as such, never followed.
//
// The cost is a dependency on the git binary: without it Take, Diff and
// Restore return ErrNoGit, and callers go on without snapshots.
//
// Every git process runs with a clean environment: no inherited GIT_*
// variable, no system or global git config (so no user filters, autocrlf
// or hooks), and the store's info/attributes turns off every attribute that
// could change bytes on the way in or out (text, eol, filter, ident,
// working-tree-encoding), whatever the project's .gitattributes say. Paths
// under .aiwg/ are never part of a snapshot.
//
// A caller that can vouch for the whole tree (a loop's Stop, through its
// view of the tree) passes its mark to TakeMarked: a digest of every stamp
// in the tree and of Inputs. The mark is recorded with the tree and the
// index's checksum in "<index>.mark", and while both hold, the next
// TakeMarked returns that tree without running git at all.
//
// Each caller keeps its own index file (a loop uses
// <loopdir>/snapshot.index), locked through "<index>.flock" for the length
// of a Take or Restore. Callers with different indexes share the object
// store safely.
//
// Limits, all git's own: a nested git repository is recorded as a gitlink
// (its commit id), or left out when it has no commit yet, and its files are
// never snapshotted or restored; a file git cannot read makes Take fail;
// a file that was snapshotted stays in later snapshots of the same index
// even once ignored; only the executable bit of a file's mode is kept; and
// a change that keeps a file's size, modification and inode change times
// (to the second) is not seen. Nothing is ever collected from the store.
package snapshot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/state"
)

// ErrNoGit reports that the git binary is not on PATH.
var ErrNoGit = errors.New("snapshot: git not found on PATH")

// LockTimeout bounds how long Take and Restore wait for the index lock.
var LockTimeout = 10 * time.Second

// Store is the private snapshot store of one project.
type Store struct {
	Root  string // project root (absolute)
	Index string // index file of the caller (a loop's snapshot.index)
	// Git is the store's git directory; "" is <Root>/.aiwg/ralph/snapshots/git.
	Git string
	// Check, when set, vets Root before Take or Restore touch the tree: a
	// loop's store refuses a root that is no project (project.CheckSnapshotRoot).
	Check func(root string) error
}

// check runs s.Check.
func (s *Store) check() error {
	if s.Check == nil {
		return nil
	}
	return s.Check(s.Root)
}

// Dir returns the store's git directory: Git, else
// <Root>/.aiwg/ralph/snapshots/git.
func (s *Store) Dir() string {
	if s.Git != "" {
		return s.Git
	}
	return filepath.Join(s.Root, ".aiwg", "ralph", "snapshots", "git")
}

// ValidTree reports whether id looks like a tree id (40 lowercase hex).
func ValidTree(id string) bool {
	if len(id) != 40 {
		return false
	}
	for _, c := range []byte(id) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// Take snapshots the working tree (respecting .gitignore, never .aiwg/)
// and returns its tree id (40 hex). Incremental through the index.
func (s *Store) Take(ctx context.Context) (string, error) {
	if err := s.check(); err != nil {
		return "", fmt.Errorf("snapshot: take: %w", err)
	}
	r, unlock, err := s.open(ctx, true)
	if err != nil {
		return "", fmt.Errorf("snapshot: take: %w", err)
	}
	defer unlock()
	id, err := r.take(ctx)
	if err != nil {
		return "", fmt.Errorf("snapshot: take: %w", err)
	}
	os.Remove(r.index + ".mark") // no mark stands for this tree
	return id, nil
}

// TakeMarked is Take for a caller that knows the tree's mark: a digest
// of every stamp in it (treeview.View.Digest), settled, taken before this
// call. When the mark is the one the last TakeMarked on the same index
// recorded, and the index is as that Take left it, the tree is the one it
// took, and no git process runs. Otherwise it is Take, and the mark is
// recorded with the tree; mark "" records none (the caller cannot vouch
// for the tree).
func (s *Store) TakeMarked(ctx context.Context, mark string) (string, error) {
	if err := s.check(); err != nil {
		return "", fmt.Errorf("snapshot: take: %w", err)
	}
	r, unlock, err := s.open(ctx, true)
	if err != nil {
		return "", fmt.Errorf("snapshot: take: %w", err)
	}
	defer unlock()
	if id, ok := markedTree(r.index, mark); ok {
		return id, nil
	}
	os.Remove(r.index + ".mark") // git changes the index: the old mark is void
	id, err := r.take(ctx)
	if err != nil {
		return "", fmt.Errorf("snapshot: take: %w", err)
	}
	if mark != "" {
		if sum := indexSum(r.index); sum != "" {
			writeMark(r.index, mark+" "+sum+" "+id+"\n") // a cache: failing to write it costs only time
		}
	}
	return id, nil
}

// Inputs returns the files outside the tree, absolute, whose content
// decides what Take holds besides the tree's own: the project's
// .git/info/exclude and the user's global excludes file (git's defaults:
// no global config is read). A caller's mark covers their stamps.
func (s *Store) Inputs() []string {
	in := []string{filepath.Join(s.Root, ".git", "info", "exclude")}
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" {
		in = append(in, filepath.Join(x, "git", "ignore"))
	}
	if h := os.Getenv("HOME"); h != "" {
		in = append(in, filepath.Join(h, ".config", "git", "ignore"))
	}
	return in
}

// markedTree returns the tree recorded in <index>.mark with mark, when the
// index still has the checksum recorded with it.
func markedTree(index, mark string) (string, bool) {
	if mark == "" {
		return "", false
	}
	data, err := os.ReadFile(index + ".mark")
	if err != nil {
		return "", false
	}
	f := strings.Fields(string(data))
	if len(f) != 3 || f[0] != mark || !ValidTree(f[2]) || f[1] != indexSum(index) {
		return "", false
	}
	return f[2], true
}

// writeMark replaces <index>.mark with data through a rename, so that a
// reader finds the whole of one mark or none.
func writeMark(index, data string) {
	tmp := index + ".mark.tmp"
	if err := os.WriteFile(tmp, []byte(data), 0o644); err != nil {
		return
	}
	if err := os.Rename(tmp, index+".mark"); err != nil {
		os.Remove(tmp)
	}
}

// config is appended to the store's config when it is created. The
// untracked cache is off: git does not use it with a pathspec (see take),
// and without one it saved nothing measurable on 10,000 files.
const config = `[core]
	autocrlf = false
	filemode = true
	symlinks = true
	quotepath = false
	untrackedCache = false
[gc]
	auto = 0
[advice]
	addEmbeddedRepo = false
`

// attributes is the store's info/attributes: no conversion of any kind.
const attributes = "* -text -filter -eol -ident -working-tree-encoding\n"

// exclude starts the store's info/exclude; the project's own
// .git/info/exclude follows it.
const exclude = "/.aiwg/\n"

// A repo runs git on one store, its project and one index.
type repo struct {
	git   string // path of the git binary
	root  string
	dir   string
	index string
}

// open finds git, makes the paths absolute, creates the store on first
// use and, with lock, takes the index lock. unlock is never nil.
func (s *Store) open(ctx context.Context, lock bool) (r *repo, unlock func(), err error) {
	unlock = func() {}
	git, err := exec.LookPath("git")
	if err != nil {
		return nil, unlock, ErrNoGit
	}
	if s.Root == "" {
		return nil, unlock, errors.New("no project root")
	}
	root, err := filepath.Abs(s.Root)
	if err != nil {
		return nil, unlock, err
	}
	dir, err := filepath.Abs((&Store{Root: root, Git: s.Git}).Dir())
	if err != nil {
		return nil, unlock, err
	}
	r = &repo{git: git, root: root, dir: dir}
	if lock {
		if s.Index == "" {
			return nil, unlock, errors.New("no index file")
		}
		if r.index, err = filepath.Abs(s.Index); err != nil {
			return nil, unlock, err
		}
		if unlock, err = lockIndex(ctx, r.index); err != nil {
			return nil, func() {}, err
		}
	}
	if err := r.init(ctx); err != nil {
		unlock()
		return nil, func() {}, err
	}
	return r, unlock, nil
}

// lockIndex takes the lock of an index file and returns its release. Under
// it, a git "<index>.lock" can only be left over from a git process that
// was killed (a hook's timeout), so it is removed.
func lockIndex(ctx context.Context, index string) (func(), error) {
	if err := os.MkdirAll(filepath.Dir(index), 0o755); err != nil {
		return nil, fmt.Errorf("creating index directory: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, LockTimeout)
	defer cancel()
	unlock, err := state.LockFile(ctx, index+".flock")
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			err = fmt.Errorf("timed out after %v", LockTimeout)
		}
		return nil, fmt.Errorf("locking %s: %w", index, err)
	}
	if err := os.Remove(index + ".lock"); err != nil && !errors.Is(err, fs.ErrNotExist) {
		unlock()
		return nil, fmt.Errorf("removing stale %s.lock: %w", index, err)
	}
	return unlock, nil
}

// init creates the store unless it exists, and brings its info/exclude up
// to date with the project's. The store is built in a temporary directory
// and renamed into place, so that processes racing to create it all end
// up with the same, complete one.
func (r *repo) init(ctx context.Context) error {
	if _, err := os.Stat(filepath.Join(r.dir, "config")); err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		if err := r.create(ctx); err != nil {
			return fmt.Errorf("creating store %s: %w", r.dir, err)
		}
	}
	return r.syncExclude()
}

// create makes a new store at r.dir.
func (r *repo) create(ctx context.Context) error {
	parent := filepath.Dir(r.dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, "git.tmp-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp) // no-op after a successful rename
	cmd := exec.CommandContext(ctx, r.git, "init", "--bare", "-q", "--template=", "--object-format=sha1", tmp)
	cmd.Env = env(nil)
	if _, err := run(cmd, nil); err != nil {
		return err
	}
	f, err := os.OpenFile(filepath.Join(tmp, "config"), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteString(config)
	if err1 := f.Close(); err == nil {
		err = err1
	}
	if err != nil {
		return err
	}
	if err := os.Mkdir(filepath.Join(tmp, "info"), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(tmp, "info", "attributes"), []byte(attributes), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(tmp, "info", "exclude"), []byte(exclude), 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, r.dir); err != nil {
		// Lost the race to another process: use its store.
		if _, err1 := os.Stat(filepath.Join(r.dir, "config")); err1 == nil {
			return nil
		}
		return err
	}
	return nil
}

// syncExclude makes the store's info/exclude "/.aiwg/" followed by the
// project's .git/info/exclude, replacing it atomically when it differs.
func (r *repo) syncExclude() error {
	want := []byte(exclude)
	user, err := os.ReadFile(filepath.Join(r.root, ".git", "info", "exclude"))
	if err == nil {
		want = append(want, user...)
		if len(user) > 0 && user[len(user)-1] != '\n' {
			want = append(want, '\n')
		}
	}
	name := filepath.Join(r.dir, "info", "exclude")
	if have, err := os.ReadFile(name); err == nil && bytes.Equal(have, want) {
		return nil
	}
	f, err := os.CreateTemp(filepath.Dir(name), "exclude.tmp-")
	if err != nil {
		return fmt.Errorf("updating %s: %w", name, err)
	}
	defer os.Remove(f.Name()) // no-op after a successful rename
	_, err = f.Write(want)
	if err1 := f.Close(); err == nil {
		err = err1
	}
	if err == nil {
		err = os.Rename(f.Name(), name)
	}
	if err != nil {
		return fmt.Errorf("updating %s: %w", name, err)
	}
	return nil
}

// take adds the working tree to the index and writes it as a tree.
func (r *repo) take(ctx context.Context) (string, error) {
	// info/exclude leaves .aiwg/ out, and so does this pathspec when a
	// .gitignore un-ignores it; git does not even walk it. The pathspec
	// has a wildcard because git add fails on a literal one that names an
	// ignored path, even to exclude it.
	args := append([]string{"add", "-A", "--", ":(top,exclude,glob).aiw[g]/**"}, ownedPathspecs()...)
	for {
		_, err := r.run(ctx, r.index, nil, args...)
		if err == nil {
			break
		}
		// git add refuses a nested repository without a commit; leave
		// it out and try again.
		var e *gitError
		if !errors.As(err, &e) || len(args) > 100 {
			return "", err
		}
		p, ok := strings.CutPrefix(e.msg, "error: '")
		p, ok1 := strings.CutSuffix(p, "/' does not have a commit checked out")
		if !ok || !ok1 || p == "" || slices.Contains(args, ":(top,exclude,literal)"+p) {
			return "", err
		}
		args = append(args, ":(top,exclude,literal)"+p)
	}
	// The same index holds the same tree: when git add left the index as
	// the last write-tree saw it, its tree is known without a process.
	sum := indexSum(r.index)
	if id, ok := cachedTree(r.index, sum); ok {
		return id, nil
	}
	out, err := r.run(ctx, r.index, nil, "write-tree")
	if err != nil {
		return "", err
	}
	id := strings.TrimSpace(string(out))
	if !ValidTree(id) {
		return "", fmt.Errorf("git write-tree: unexpected output %q", out)
	}
	if sum := indexSum(r.index); sum != "" { // write-tree may have rewritten it
		os.WriteFile(r.index+".tree", []byte(sum+" "+id+"\n"), 0o644) // a cache: failing to write it costs only time
	}
	return id, nil
}

// indexSum returns the checksum git keeps in the last 20 bytes of an index
// file, in hex, or "" when it cannot be read or is not set.
func indexSum(index string) string {
	f, err := os.Open(index)
	if err != nil {
		return ""
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || fi.Size() < 32 {
		return ""
	}
	b := make([]byte, 20)
	if _, err := f.ReadAt(b, fi.Size()-20); err != nil || bytes.Count(b, []byte{0}) == len(b) {
		return ""
	}
	return fmt.Sprintf("%x", b)
}

// cachedTree returns the tree write-tree wrote for the index with checksum
// sum, when <index>.tree remembers it.
func cachedTree(index, sum string) (string, bool) {
	if sum == "" {
		return "", false
	}
	data, err := os.ReadFile(index + ".tree")
	if err != nil {
		return "", false
	}
	s, id, ok := strings.Cut(strings.TrimSpace(string(data)), " ")
	if !ok || s != sum || !ValidTree(id) {
		return "", false
	}
	return id, true
}

// run runs git args on the store and the project with the given index
// file ("" for none), feeding it stdin, and returns its standard output.
func (r *repo) run(ctx context.Context, index string, stdin []byte, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, r.git, args...)
	cmd.Dir = r.root
	vars := []string{"GIT_DIR=" + r.dir, "GIT_WORK_TREE=" + r.root}
	if index != "" {
		vars = append(vars, "GIT_INDEX_FILE="+index)
	}
	cmd.Env = env(vars)
	return run(cmd, stdin)
}

// env returns the environment of a git process: vars, a config of git's
// defaults only, and PATH, HOME and XDG_CONFIG_HOME (where the user's
// global excludes file is found) from ours. Nothing else is inherited, in
// particular no GIT_* variable.
func env(vars []string) []string {
	e := append(vars, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull, "LANG=C", "LC_ALL=C")
	for _, k := range []string{"PATH", "HOME", "XDG_CONFIG_HOME"} {
		if v, ok := os.LookupEnv(k); ok {
			e = append(e, k+"="+v)
		}
	}
	return e
}

// run runs cmd with stdin and returns its standard output. Its error names
// the git command and quotes the first line of git's standard error.
func run(cmd *exec.Cmd, stdin []byte) ([]byte, error) {
	var stdout, stderr bytes.Buffer
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		msg, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
		return nil, &gitError{cmd: cmd.Args[1], msg: msg, err: err}
	}
	return stdout.Bytes(), nil
}

// A gitError is a git command that failed.
type gitError struct {
	cmd string // e.g. "add"
	msg string // first line of its standard error
	err error  // from exec
}

func (e *gitError) Error() string {
	if e.msg == "" {
		return fmt.Sprintf("git %s: %v", e.cmd, e.err)
	}
	return fmt.Sprintf("git %s: %s (%v)", e.cmd, e.msg, e.err)
}

func (e *gitError) Unwrap() error { return e.err }
