package hook

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/filestamp"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/vault"
)

// TestRemoveRecord holds removeRecord to os.Remove: the same file system
// left behind, and the same kind of error, whatever is at the path.
func TestRemoveRecord(t *testing.T) {
	for _, c := range []struct {
		name string
		make func(p string) error
	}{
		{"absent", func(string) error { return nil }},
		{"file", func(p string) error { return os.WriteFile(p, []byte("{}\n"), 0o644) }},
		{"empty directory", func(p string) error { return os.Mkdir(p, 0o755) }},
		{"directory with a file", func(p string) error {
			if err := os.Mkdir(p, 0o755); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(p, "x"), nil, 0o644)
		}},
		{"link to nowhere", func(p string) error { return os.Symlink("/nonexistent/ralph", p) }},
		{"link to a directory", func(p string) error { return os.Symlink(filepath.Dir(p), p) }},
		{"parent is a file", func(p string) error { return os.WriteFile(filepath.Dir(p), nil, 0o644) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got, want [2]string
			for i, remove := range []func(string) error{os.Remove, removeRecord} {
				dir := filepath.Join(t.TempDir(), "ralph")
				if err := os.Mkdir(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				p := filepath.Join(dir, ProblemFile)
				if c.name == "parent is a file" {
					if err := os.Remove(dir); err != nil {
						t.Fatal(err)
					}
				}
				if err := c.make(p); err != nil {
					t.Fatal(err)
				}
				err := remove(p)
				_, lerr := os.Lstat(p)
				r := [2]string{kind(err), kind(lerr)}
				if i == 0 {
					want = r
				} else {
					got = r
				}
			}
			if got != want {
				t.Errorf("removeRecord: error %s, then lstat %s; os.Remove: error %s, then lstat %s", got[0], got[1], want[0], want[1])
			}
		})
	}
}

func kind(err error) string {
	switch {
	case err == nil:
		return "none"
	case errors.Is(err, fs.ErrNotExist):
		return "not-exist"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// TestConfigCacheReplayed: the decoded configuration's cache, kept in the
// vault's directory, never answers for another version of aiwg.yml: a
// cache of a looser version put back (over the file, or as a link to it),
// after aiwg.yml was changed back in place to the same size with its mtime
// set back, or garbage in its place, costs a decode and nothing else. In
// a dry run nothing is written.
func TestConfigCacheReplayed(t *testing.T) {
	root := newProject(t)
	stamp := config.ExecutableStamp
	config.ExecutableStamp = func() string { return "this test" } // the test binary is too new to stamp
	t.Cleanup(func() { config.ExecutableStamp = stamp })
	cfgPath := filepath.Join(root, project.ConfigFile)
	const strict = "fail_closed: true\n\n"
	const loose = "fail_closed: false\n" // the same size
	if len(strict) != len(loose) {
		t.Fatal("the two versions must have the same size")
	}
	cache := vault.CachePath(root, "", ConfigCacheName("pre-tool-call"), nil)
	if cache == "" || strings.HasPrefix(cache, root) {
		t.Fatalf("the cache %q is not outside the project", cache)
	}
	load := func(dry bool) *config.Config {
		t.Helper()
		scope, err := project.NewScope(root, "")
		if err != nil {
			t.Fatal(err)
		}
		c := &Call{Hook: "pre-tool-call", Scope: scope, Getenv: os.Getenv, Stderr: io.Discard, DryRun: dry}
		cfg := c.Config()
		if err := c.ConfigProblem(); err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	write := func(data string, mtime time.Time) {
		t.Helper()
		if err := os.WriteFile(cfgPath, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(cfgPath, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-time.Hour)
	write(loose, old)
	if load(false).FailClosed {
		t.Fatal("the loose version reads fail_closed")
	}
	looseCache, err := os.ReadFile(cache)
	if err != nil {
		t.Fatalf("no cache written: %v", err)
	}
	write(strict, old)
	if !load(false).FailClosed {
		t.Fatal("the strict version, edited in place with its mtime set back, is not read")
	}
	aside := filepath.Join(t.TempDir(), "loose.bin")
	if err := os.WriteFile(aside, looseCache, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, forge := range []struct {
		name string
		do   func() error
	}{
		{"the loose version's cache put back", func() error { return os.WriteFile(cache, looseCache, 0o644) }},
		{"a link to it", func() error {
			if err := os.Remove(cache); err != nil && !os.IsNotExist(err) {
				return err
			}
			return os.Symlink(aside, cache)
		}},
		{"garbage", func() error {
			os.Remove(cache)
			return os.WriteFile(cache, []byte("fail_closed: false\n"), 0o644)
		}},
	} {
		if err := os.MkdirAll(filepath.Dir(cache), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := forge.do(); err != nil {
			t.Fatal(err)
		}
		if !load(false).FailClosed {
			t.Errorf("%s: the call reads the loose configuration", forge.name)
		}
	}
	if err := os.Remove(cache); err != nil {
		t.Fatal(err)
	}
	if !load(true).FailClosed {
		t.Fatal("dry run: not the file's configuration")
	}
	if _, err := os.Lstat(cache); !os.IsNotExist(err) {
		t.Fatalf("a dry run wrote the cache: %v", err)
	}
}

// TestConfigCacheByHook: each hook is another executable, so another key:
// pre-tool-call and post-tool-call, taking turns on every tool call, keep
// a cache each rather than rewriting one.
func TestConfigCacheByHook(t *testing.T) {
	root := newProject(t)
	stamp := config.ExecutableStamp
	t.Cleanup(func() { config.ExecutableStamp = stamp })
	if err := os.WriteFile(filepath.Join(root, project.ConfigFile), []byte("fail_closed: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	scope, err := project.NewScope(root, "")
	if err != nil {
		t.Fatal(err)
	}
	inodes := map[string]uint64{}
	for round := range 3 {
		for _, h := range []string{"pre-tool-call", "post-tool-call", "stop"} {
			config.ExecutableStamp = func() string { return h } // each its own binary
			c := &Call{Hook: h, Scope: scope, Getenv: os.Getenv, Stderr: io.Discard}
			if !c.Config().FailClosed {
				t.Fatalf("%s: not the file's configuration", h)
			}
			st, err := filestamp.Lstat(vault.CachePath(root, "", ConfigCacheName(h), nil))
			if err != nil {
				t.Fatalf("%s: %v", h, err)
			}
			if round == 0 {
				inodes[h] = st.Ino
			} else if st.Ino != inodes[h] {
				t.Fatalf("round %d: %s's cache was written again", round, h)
			}
		}
	}
	for _, bad := range []string{"", "../x", "a/b", ".hidden"} {
		if n := ConfigCacheName(bad); n != "config-hook.bin" {
			t.Errorf("ConfigCacheName(%q) = %q", bad, n)
		}
	}
}
