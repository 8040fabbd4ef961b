package project

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestValidLoopID(t *testing.T) {
	tests := []struct {
		id   string
		want bool
	}{
		{"ralph-fix-tests-1a2b3c4d", true},
		{"ralph-x-00000000", true},
		{"ralph-a1-b2-c3-deadbeef", true},
		{"ralph-9-abcdef01", true},
		{"ralph-" + strings.Repeat("a", 128-len("ralph--12345678")) + "-12345678", true}, // exactly 128

		{"", false},
		{"ralph", false},
		{"ralph-", false},
		{"ralph--12345678", false},     // no slug
		{"ralph-x-1234567", false},     // 7 hex digits
		{"ralph-x-123456789", false},   // 9 digits: the last 8 follow a digit, not a dash
		{"ralph-x-abcdefgh", false},    // not hex
		{"ralph-x-ABCDEF01", false},    // upper-case hex
		{"ralph-X-12345678", false},    // upper-case slug
		{"RALPH-x-12345678", false},    // upper-case prefix
		{"loop-x-12345678", false},     // wrong prefix
		{"ralph_x_12345678", false},    // underscores
		{"ralph-../x-12345678", false}, // path traversal
		{"ralph-..-12345678", false},
		{"../ralph-x-12345678", false},
		{"ralph-x/../../y-12345678", false},
		{"ralph-x-12345678/..", false},
		{"/ralph-x-12345678", false},
		{"ralph-x.y-12345678", false},
		{"ralph-x y-12345678", false},
		{" ralph-x-12345678", false},
		{"ralph-x-12345678 ", false},
		{"ralph-x-12345678\n", false},
		{"ralph-x\n-12345678", false},
		{"ralph-x-12345678\x00", false},
		{"ralph-é-12345678", false},
		{"ralph-x-12345678-", false},
		{"ralph-" + strings.Repeat("a", 129-len("ralph--12345678")) + "-12345678", false}, // 129
		{"ralph-" + strings.Repeat("a", 10000) + "-12345678", false},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			if got := ValidLoopID(tt.id); got != tt.want {
				t.Errorf("ValidLoopID(%q) = %v, want %v", tt.id, got, tt.want)
			}
			err := CheckLoopID(tt.id)
			if (err == nil) != tt.want {
				t.Errorf("CheckLoopID(%q) = %v, want error %v", tt.id, err, !tt.want)
			}
			if err != nil && !strings.Contains(err.Error(), "invalid loop id") {
				t.Errorf("CheckLoopID(%q) = %q, want it to say invalid loop id", tt.id, err)
			}
		})
	}
}

// tree makes dirs and files (names ending in "/" are directories) under a
// fresh temp dir and returns it, with symlinks resolved.
func tree(t *testing.T, paths ...string) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		full := filepath.Join(root, p)
		if strings.HasSuffix(p, "/") {
			if err := os.MkdirAll(full, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// markersAbove reports whether an ancestor of dir holds a project marker,
// which would make the fallback cases meaningless on this machine.
func markersAbove(dir string) string {
	for d := filepath.Dir(dir); ; d = filepath.Dir(d) {
		for _, n := range []string{ConfigFile, ".aiwg", ".git"} {
			if _, err := os.Lstat(filepath.Join(d, n)); err == nil {
				return filepath.Join(d, n)
			}
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

func TestFindRoot(t *testing.T) {
	tests := []struct {
		name  string
		paths []string
		cwd   string            // relative to the tree
		env   map[string]string // values may use $ROOT
		want  string            // relative to the tree; "=" + path for an absolute want
	}{
		{"git repo", []string{".git/", "src/pkg/"}, "src/pkg", nil, "."},
		{"git file (worktree)", []string{".git", "src/"}, "src", nil, "."},
		{"aiwg.yml", []string{"aiwg.yml", "a/b/"}, "a/b", nil, "."},
		{".aiwg dir", []string{".aiwg/ralph/", "a/"}, "a", nil, "."},
		{"cwd is the root", []string{".git/"}, ".", nil, "."},
		{"aiwg.yml beats a nearer .git", []string{"aiwg.yml", "sub/.git/", "sub/x/"}, "sub/x", nil, "."},
		// A stray .aiwg above a repository does not capture it (issue 13).
		{"stray .aiwg above .git", []string{".aiwg/", "sub/.git/", "sub/x/"}, "sub/x", nil, "sub"},
		{".aiwg at the git root", []string{".git/", ".aiwg/", "x/"}, "x", nil, "."},
		{".aiwg below the git root", []string{".git/", "svc/.aiwg/", "svc/x/"}, "svc/x", nil, "svc"},
		{"no marker in HOME itself", []string{"aiwg.yml", ".aiwg/", ".git/", "p/x/"}, "p/x", map[string]string{"HOME": "$ROOT"}, "p/x"},
		{"git repo under a dotfiles HOME", []string{".git/", ".aiwg/", "p/.git/", "p/x/"}, "p/x", map[string]string{"HOME": "$ROOT"}, "p"},
		{"aiwg.yml below the git root", []string{".git/", "svc/aiwg.yml", "svc/src/"}, "svc/src", nil, "svc"},
		{"nearest aiwg.yml", []string{"aiwg.yml", "inner/aiwg.yml", "inner/x/"}, "inner/x", nil, "inner"},
		{"nearest .git", []string{".git/", "vendor/lib/.git/", "vendor/lib/x/"}, "vendor/lib/x", nil, "vendor/lib"},
		{"no marker: cwd", []string{"a/b/"}, "a/b", nil, "a/b"},
		{"CLAUDE_PROJECT_DIR wins", []string{"aiwg.yml", "other/"}, ".", map[string]string{"CLAUDE_PROJECT_DIR": "$ROOT/other"}, "other"},
		{"CLAUDE_PROJECT_DIR cleaned", []string{"p/"}, ".", map[string]string{"CLAUDE_PROJECT_DIR": "$ROOT/p/../p/"}, "p"},
		{"CLAUDE_PROJECT_DIR need not exist", nil, ".", map[string]string{"CLAUDE_PROJECT_DIR": "/nonexistent/proj"}, "=/nonexistent/proj"},
		{"relative CLAUDE_PROJECT_DIR ignored", []string{".git/", "a/"}, "a", map[string]string{"CLAUDE_PROJECT_DIR": "a"}, "."},
		{"empty CLAUDE_PROJECT_DIR ignored", []string{".git/", "a/"}, "a", map[string]string{"CLAUDE_PROJECT_DIR": ""}, "."},
		{"cwd not cleaned", []string{".git/", "a/b/"}, "a/./b/../b/", nil, "."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := tree(t, tt.paths...)
			if tt.want != "." && !strings.HasPrefix(tt.want, "=") {
				// A fallback or inner answer is only meaningful when
				// nothing above the tree is a project.
				if m := markersAbove(root); m != "" {
					t.Skipf("%s exists above the temp dir", m)
				}
			}
			e := map[string]string{}
			for k, v := range tt.env {
				e[k] = strings.ReplaceAll(v, "$ROOT", root)
			}
			cwd := root + "/" + tt.cwd
			want := filepath.Join(root, tt.want)
			if strings.HasPrefix(tt.want, "=") {
				want = tt.want[1:]
			}
			if got := FindRoot(cwd, env(e)); got != want {
				t.Errorf("FindRoot(%q, %v) = %q, want %q", cwd, e, got, want)
			}
		})
	}
}

func TestFindRootEmptyCwd(t *testing.T) {
	root := tree(t, "aiwg.yml", "x/")
	t.Chdir(filepath.Join(root, "x"))
	if got := FindRoot("", env(nil)); got != root {
		t.Errorf("FindRoot(\"\") in %s/x = %q, want %q", root, got, root)
	}
}

func TestLayoutAndScope(t *testing.T) {
	const root = "/work/proj"
	l := Layout{Root: root}
	for _, c := range []struct{ name, got, want string }{
		{"Ralph", l.Ralph(), "/work/proj/.aiwg/ralph"},
		{"Config", l.Config(), "/work/proj/aiwg.yml"},
		{"Registry", l.Registry(), "/work/proj/.aiwg/ralph/registry.json"},
		{"Loops", l.Loops(), "/work/proj/.aiwg/ralph/loops"},
	} {
		if c.got != c.want {
			t.Errorf("Layout.%s() = %q, want %q", c.name, c.got, c.want)
		}
	}

	tests := []struct {
		loop                         string
		dir, state, log, checkpoints string
	}{
		{"", "/work/proj/.aiwg/ralph", "/work/proj/.aiwg/ralph/guard.json",
			"/work/proj/.aiwg/ralph/hook-log.jsonl", "/work/proj/.aiwg/ralph/checkpoints"},
		{"ralph-fix-1a2b3c4d", "/work/proj/.aiwg/ralph/loops/ralph-fix-1a2b3c4d", "/work/proj/.aiwg/ralph/loops/ralph-fix-1a2b3c4d/state.json",
			"/work/proj/.aiwg/ralph/loops/ralph-fix-1a2b3c4d/hook-log.jsonl", "/work/proj/.aiwg/ralph/loops/ralph-fix-1a2b3c4d/checkpoints"},
	}
	for _, tt := range tests {
		t.Run("loop "+tt.loop, func(t *testing.T) {
			s, err := NewScope(root, tt.loop)
			if err != nil {
				t.Fatalf("NewScope(%q, %q) error: %v", root, tt.loop, err)
			}
			if s.Loop != tt.loop || s.Root != root {
				t.Errorf("NewScope = %+v", s)
			}
			for _, c := range []struct{ name, got, want string }{
				{"Dir", s.Dir(), tt.dir},
				{"State", s.State(), tt.state},
				{"Log", s.Log(), tt.log},
				{"Checkpoints", s.Checkpoints(), tt.checkpoints},
			} {
				if c.got != c.want {
					t.Errorf("Scope(%q).%s() = %q, want %q", tt.loop, c.name, c.got, c.want)
				}
			}
		})
	}
	for _, bad := range []string{"ralph-../x-12345678", "../../etc", "ralph-X-12345678", "x"} {
		if s, err := NewScope(root, bad); err == nil {
			t.Errorf("NewScope(%q, %q) = %+v, want an error", root, bad, s)
		}
	}
}

func TestCheckRoot(t *testing.T) {
	home := tree(t, "proj/.git/", "bare/", "file")
	e := env(map[string]string{"HOME": home})
	for _, tt := range []struct {
		root, want string // want: a part of the error, "" for none
	}{
		{"/", "filesystem root"},
		{home, "home directory itself"},
		{home + "/", "home directory itself"},
		{filepath.Join(home, "missing"), "does not exist"},
		{filepath.Join(home, "file"), "not a directory"},
		{"rel/dir", "not an absolute path"},
		{filepath.Join(home, "proj"), ""},
		{filepath.Join(home, "bare"), ""},
	} {
		err := CheckRoot(tt.root, e)
		if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("CheckRoot(%q) = %v, want %q", tt.root, err, tt.want)
		}
	}
	// A snapshot needs a project marker too.
	if err := CheckSnapshotRoot(filepath.Join(home, "proj"), e); err != nil {
		t.Errorf("CheckSnapshotRoot(proj with .git) = %v", err)
	}
	if err := CheckSnapshotRoot(filepath.Join(home, "bare"), e); err == nil || !strings.Contains(err.Error(), "no project marker") {
		t.Errorf("CheckSnapshotRoot(bare) = %v, want no project marker", err)
	}
	if err := CheckSnapshotRoot("/", e); err == nil {
		t.Error("CheckSnapshotRoot(/) = nil")
	}
}
