package state

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// childEnv makes the test binary act as one hook process that increments
// the counter in the file it names (see TestMain).
const childEnv = "RALPH_STATE_TEST_COUNTER"

type counter struct {
	N    int      `json:"n"`
	PIDs []string `json:"pids"`
}

// TestMain lets the test binary stand in for a hook process.
func TestMain(m *testing.M) {
	if path := os.Getenv(childEnv); path != "" {
		// The bound on the wait is TestLockTimeout's subject; here every
		// child waits its turn however busy the machine is, so that a
		// missing update can only mean a lost one.
		LockTimeout = time.Hour
		err := UpdateJSON(path, func(c *counter) error {
			n := c.N
			// Widen the window between read and write: without the lock,
			// concurrent children would lose updates.
			time.Sleep(time.Millisecond)
			c.N = n + 1
			c.PIDs = append(c.PIDs, fmt.Sprint(os.Getpid()))
			return nil
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// names lists the entries of dir.
func names(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

func TestWriteFile(t *testing.T) {
	tests := []struct {
		name string
		perm fs.FileMode
		old  []byte // existing contents, or nil for none
		data []byte
	}{
		{"new file 0644", 0o644, nil, []byte(`{"a":1}`)},
		{"new file 0600", 0o600, nil, []byte("secret\n")},
		{"empty data", 0o644, nil, []byte{}},
		{"replace longer file", 0o644, []byte(strings.Repeat("x", 10000)), []byte("short")},
		{"replace and change perm", 0o600, []byte("old"), []byte("new")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "state.json")
			if tt.old != nil {
				if err := os.WriteFile(path, tt.old, 0o666); err != nil {
					t.Fatal(err)
				}
			}
			if err := WriteFile(path, tt.data, tt.perm); err != nil {
				t.Fatalf("WriteFile error: %v", err)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, tt.data) {
				t.Errorf("WriteFile: file holds %q, want %q", got, tt.data)
			}
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if fi.Mode().Perm() != tt.perm {
				t.Errorf("WriteFile: mode %v, want %v", fi.Mode().Perm(), tt.perm)
			}
			if got, want := names(t, dir), []string{"state.json"}; !equal(got, want) {
				t.Errorf("WriteFile left %v in the directory, want %v", got, want)
			}
		})
	}
}

func equal(a, b []string) bool { return strings.Join(a, "\x00") == strings.Join(b, "\x00") }

func TestWriteFileCreatesDirectories(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a", "b", "c", "state.json")
	if err := WriteFile(path, []byte("x"), 0o644); err != nil {
		t.Fatalf("WriteFile error: %v", err)
	}
	if got, err := os.ReadFile(path); err != nil || string(got) != "x" {
		t.Errorf("ReadFile after WriteFile = %q, %v", got, err)
	}
}

func TestWriteFileError(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "state.json")
	if err := os.Mkdir(target, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(target, "keep"), []byte("k"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := WriteFile(target, []byte("x"), 0o644)
	if err == nil || !strings.Contains(err.Error(), target) {
		t.Fatalf("WriteFile over a directory = %v, want an error naming %s", err, target)
	}
	if got, want := names(t, dir), []string{"state.json"}; !equal(got, want) {
		t.Errorf("failed WriteFile left %v, want %v (no temp file)", got, want)
	}
	if got, _ := os.ReadFile(filepath.Join(target, "keep")); string(got) != "k" {
		t.Error("failed WriteFile damaged the directory it could not replace")
	}
}

// TestWriteFileAtomic checks that a reader never sees a partial file while
// writers replace it.
func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	a := bytes.Repeat([]byte("a"), 64<<10)
	b := bytes.Repeat([]byte("b"), 64<<10)
	if err := WriteFile(path, a, 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < 100; i++ {
			data := a
			if i%2 == 1 {
				data = b
			}
			if err := WriteFile(path, data, 0o644); err != nil {
				t.Error(err)
				break
			}
		}
		close(done)
	}()
	for reads := 0; ; reads++ {
		select {
		case <-done:
			wg.Wait()
			if got, want := names(t, dir), []string{"state.json"}; !equal(got, want) {
				t.Errorf("after 100 writes the directory holds %v, want %v", got, want)
			}
			return
		default:
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("read %d: %v", reads, err)
		}
		if !bytes.Equal(got, a) && !bytes.Equal(got, b) {
			t.Fatalf("read %d saw a partial file of %d bytes", reads, len(got))
		}
	}
}

func TestUpdate(t *testing.T) {
	t.Run("missing file gets nil", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "sub", "state.json")
		called := false
		err := Update(path, func(old []byte) ([]byte, error) {
			called = true
			if old != nil {
				t.Errorf("Update of a missing file passed %q, want nil", old)
			}
			return []byte("new"), nil
		})
		if err != nil || !called {
			t.Fatalf("Update = %v, called %v; want nil, true", err, called)
		}
		if got, _ := os.ReadFile(path); string(got) != "new" {
			t.Errorf("Update wrote %q, want %q", got, "new")
		}
	})
	t.Run("existing file", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "state.json")
		if err := os.WriteFile(path, []byte("1"), 0o644); err != nil {
			t.Fatal(err)
		}
		err := Update(path, func(old []byte) ([]byte, error) {
			return append(old, '2'), nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(path); string(got) != "12" {
			t.Errorf("Update wrote %q, want %q", got, "12")
		}
	})
	t.Run("nil result leaves the file alone", func(t *testing.T) {
		dir := t.TempDir()
		path := filepath.Join(dir, "state.json")
		if err := os.WriteFile(path, []byte("keep"), 0o600); err != nil {
			t.Fatal(err)
		}
		before, _ := os.Stat(path)
		if err := Update(path, func([]byte) ([]byte, error) { return nil, nil }); err != nil {
			t.Fatal(err)
		}
		after, _ := os.Stat(path)
		if got, _ := os.ReadFile(path); string(got) != "keep" || !os.SameFile(before, after) || after.Mode().Perm() != 0o600 {
			t.Errorf("Update with nil result changed the file: %q, same inode %v, mode %v", got, os.SameFile(before, after), after.Mode().Perm())
		}
	})
	t.Run("nil result leaves a missing file missing", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "state.json")
		if err := Update(path, func([]byte) ([]byte, error) { return nil, nil }); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Update with nil result created %s (stat: %v)", path, err)
		}
	})
	t.Run("empty result is written", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "state.json")
		if err := os.WriteFile(path, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := Update(path, func([]byte) ([]byte, error) { return []byte{}, nil }); err != nil {
			t.Fatal(err)
		}
		if got, err := os.ReadFile(path); err != nil || len(got) != 0 {
			t.Errorf("Update with an empty result: file %q, %v; want empty", got, err)
		}
	})
	t.Run("fn error is returned and nothing written", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "state.json")
		if err := os.WriteFile(path, []byte("keep"), 0o644); err != nil {
			t.Fatal(err)
		}
		boom := errors.New("boom")
		err := Update(path, func([]byte) ([]byte, error) { return []byte("lost"), boom })
		if !errors.Is(err, boom) {
			t.Errorf("Update = %v, want %v", err, boom)
		}
		if got, _ := os.ReadFile(path); string(got) != "keep" {
			t.Errorf("Update after an error wrote %q", got)
		}
	})
	t.Run("unreadable path is an error", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "state.json")
		if err := os.Mkdir(path, 0o755); err != nil {
			t.Fatal(err)
		}
		err := Update(path, func([]byte) ([]byte, error) {
			t.Error("fn called although the file could not be read")
			return nil, nil
		})
		if err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("Update of a directory = %v, want an error naming it", err)
		}
	})
	t.Run("lock is a sidecar file", func(t *testing.T) {
		dir := t.TempDir()
		path := filepath.Join(dir, "state.json")
		if err := Update(path, func([]byte) ([]byte, error) { return []byte("{}"), nil }); err != nil {
			t.Fatal(err)
		}
		if got, want := names(t, dir), []string{"state.json", "state.json.lock"}; !equal(got, want) {
			t.Errorf("after Update the directory holds %v, want %v", got, want)
		}
	})
}

func TestLockTimeout(t *testing.T) {
	old := LockTimeout
	LockTimeout = 50 * time.Millisecond
	t.Cleanup(func() { LockTimeout = old })

	path := filepath.Join(t.TempDir(), "state.json")
	unlock, err := Lock(path)
	if err != nil {
		t.Fatal(err)
	}
	err = Update(path, func([]byte) ([]byte, error) {
		t.Error("fn ran while another holder had the lock")
		return nil, nil
	})
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "timed out") {
		t.Errorf("Update under a held lock = %v, want a timeout naming %s", err, path)
	}
	// The waiter that gave up is still queued in the kernel: when its turn
	// comes it must let go, or the next Update would time out too.
	LockTimeout = time.Hour
	unlock()
	if err := Update(path, func([]byte) ([]byte, error) { return []byte("ok"), nil }); err != nil {
		t.Errorf("Update after unlock = %v", err)
	}
}

func TestLockFileContext(t *testing.T) {
	lock := filepath.Join(t.TempDir(), "x.lock")
	unlock, err := LockFile(context.Background(), lock)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := LockFile(ctx, lock); !errors.Is(err, context.Canceled) {
		t.Errorf("LockFile with a cancelled context under a held lock = %v, want context.Canceled", err)
	}
	unlock()
	unlock, err = LockFile(context.Background(), lock)
	if err != nil {
		t.Fatalf("LockFile after the holder and the cancelled waiter let go = %v", err)
	}
	unlock()
}

type doc struct {
	Loop  string         `json:"loop"`
	Count int            `json:"count"`
	Tags  map[string]int `json:"tags,omitempty"`
}

func TestUpdateJSON(t *testing.T) {
	t.Run("missing file starts from zero", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "state.json")
		err := UpdateJSON(path, func(d *doc) error {
			if d.Loop != "" || d.Count != 0 || d.Tags != nil {
				t.Errorf("UpdateJSON of a missing file passed %+v, want the zero value", *d)
			}
			d.Loop, d.Count = "ralph-x-12345678", 1
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		var got doc
		if err := ReadJSON(path, &got); err != nil {
			t.Fatal(err)
		}
		if got.Loop != "ralph-x-12345678" || got.Count != 1 {
			t.Errorf("ReadJSON after UpdateJSON = %+v", got)
		}
		raw, _ := os.ReadFile(path)
		if !json.Valid(raw) || !bytes.HasSuffix(raw, []byte("}\n")) {
			t.Errorf("UpdateJSON wrote %q, want indented JSON ending in a newline", raw)
		}
	})
	t.Run("existing file is decoded", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "state.json")
		if err := os.WriteFile(path, []byte(`{"loop":"l","count":41,"extra":true}`), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := UpdateJSON(path, func(d *doc) error { d.Count++; return nil }); err != nil {
			t.Fatal(err)
		}
		var got doc
		if err := ReadJSON(path, &got); err != nil || got.Count != 42 || got.Loop != "l" {
			t.Errorf("after UpdateJSON: %+v, %v; want count 42, loop l", got, err)
		}
	})
	t.Run("fn error leaves the file alone", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "state.json")
		if err := os.WriteFile(path, []byte(`{"count":1}`), 0o644); err != nil {
			t.Fatal(err)
		}
		boom := errors.New("boom")
		err := UpdateJSON(path, func(d *doc) error { d.Count = 99; return boom })
		if !errors.Is(err, boom) {
			t.Errorf("UpdateJSON = %v, want %v", err, boom)
		}
		if got, _ := os.ReadFile(path); string(got) != `{"count":1}` {
			t.Errorf("UpdateJSON after an error wrote %q", got)
		}
	})
	for _, corrupt := range []string{"", "{", `{"count":"x"}`, "[1,2]", "\x00\x00", "{}{}"} {
		t.Run(fmt.Sprintf("corrupt %q", corrupt), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "state.json")
			if err := os.WriteFile(path, []byte(corrupt), 0o644); err != nil {
				t.Fatal(err)
			}
			err := UpdateJSON(path, func(d *doc) error {
				t.Error("fn called on a corrupt file")
				return nil
			})
			if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "corrupt") {
				t.Errorf("UpdateJSON of %q = %v, want an error naming %s as corrupt", corrupt, err, path)
			}
			if got, _ := os.ReadFile(path); string(got) != corrupt {
				t.Errorf("UpdateJSON overwrote the corrupt file with %q", got)
			}
		})
	}
}

func TestReadJSON(t *testing.T) {
	dir := t.TempDir()
	t.Run("missing", func(t *testing.T) {
		v := doc{Loop: "keep"}
		err := ReadJSON(filepath.Join(dir, "missing.json"), &v)
		if !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("ReadJSON(missing) = %v, want fs.ErrNotExist", err)
		}
		if v.Loop != "keep" {
			t.Errorf("ReadJSON(missing) changed v to %+v", v)
		}
	})
	t.Run("corrupt", func(t *testing.T) {
		path := filepath.Join(dir, "corrupt.json")
		if err := os.WriteFile(path, []byte(`{"loop":`), 0o644); err != nil {
			t.Fatal(err)
		}
		var v doc
		err := ReadJSON(path, &v)
		if err == nil || !strings.Contains(err.Error(), path) || errors.Is(err, fs.ErrNotExist) {
			t.Errorf("ReadJSON(corrupt) = %v, want an error naming %s", err, path)
		}
	})
	t.Run("wrong type", func(t *testing.T) {
		path := filepath.Join(dir, "wrong.json")
		if err := os.WriteFile(path, []byte(`{"count":"many"}`), 0o644); err != nil {
			t.Fatal(err)
		}
		var v doc
		if err := ReadJSON(path, &v); err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("ReadJSON(wrong type) = %v, want an error naming %s", err, path)
		}
	})
	t.Run("directory", func(t *testing.T) {
		var v doc
		if err := ReadJSON(dir, &v); err == nil {
			t.Error("ReadJSON(directory) = nil, want an error")
		}
	})
	t.Run("valid", func(t *testing.T) {
		path := filepath.Join(dir, "ok.json")
		if err := os.WriteFile(path, []byte(`{"loop":"l","count":3,"tags":{"a":1}}`), 0o644); err != nil {
			t.Fatal(err)
		}
		var v doc
		if err := ReadJSON(path, &v); err != nil || v.Loop != "l" || v.Count != 3 || v.Tags["a"] != 1 {
			t.Errorf("ReadJSON = %+v, %v", v, err)
		}
	})
}

// TestUpdateJSONProcesses runs 100 processes that each increment a counter
// in one file at the same time, as parallel hooks do, and checks that no
// update is lost and the file stays valid JSON.
func TestUpdateJSONProcesses(t *testing.T) {
	const n = 100
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "loops", "ralph-x-12345678", "state.json")
	var wg sync.WaitGroup
	errs := make(chan error, n)
	start := make(chan struct{})
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(exe, "-test.run=^$")
			cmd.Env = append(os.Environ(), "GORACE="+strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"), childEnv+"="+path)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			<-start
			if err := cmd.Run(); err != nil {
				errs <- fmt.Errorf("child: %v: %s", err, stderr.String())
			}
		}()
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}

	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !json.Valid(raw) {
		t.Fatalf("state file is not valid JSON after %d concurrent updates:\n%s", n, raw)
	}
	var c counter
	if err := json.Unmarshal(raw, &c); err != nil {
		t.Fatal(err)
	}
	if c.N != n {
		t.Errorf("counter = %d after %d concurrent updates, want %d", c.N, n, n)
	}
	seen := map[string]bool{}
	for _, p := range c.PIDs {
		if seen[p] {
			t.Errorf("pid %s recorded twice", p)
		}
		seen[p] = true
	}
	if len(c.PIDs) != n {
		t.Errorf("%d pids recorded, want %d", len(c.PIDs), n)
	}
	if got, want := names(t, filepath.Dir(path)), []string{"state.json", "state.json.lock"}; !equal(got, want) {
		t.Errorf("after %d updates the directory holds %v, want %v (no temp files)", n, got, want)
	}
}
