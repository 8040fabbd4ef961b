package completion

import (
	"os"
	"path/filepath"
	"testing"
)

// TestUnfresh: the fingerprints of the project's own crates (dep-info
// checked, by modification times) are removed, a registry dependency's
// stay; a link on the way is not followed; a configured target-dir is
// used; a project without Cargo.toml is left alone.
func TestUnfresh(t *testing.T) {
	mk := func(t *testing.T, p, body string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	local := `{"rustc":1,"local":[{"CheckDepInfo":{"dep_info":"lib/calc-x"}}]}`
	registry := `{"rustc":1,"local":[{"Precalculated":"1.0.197"}]}`
	fill := func(t *testing.T, target string) {
		for _, prof := range []string{"debug", "release", "x86_64-unknown-linux-gnu/debug"} {
			mk(t, filepath.Join(target, prof, ".fingerprint", "calc-0123456789abcdef", "lib-calc.json"), local)
			mk(t, filepath.Join(target, prof, ".fingerprint", "calc-fedcba9876543210", "test-lib-calc.json"), local)
			mk(t, filepath.Join(target, prof, ".fingerprint", "serde-0123456789abcdef", "lib-serde.json"), registry)
		}
	}
	gone := func(t *testing.T, target string, want bool) {
		t.Helper()
		for _, prof := range []string{"debug", "release", "x86_64-unknown-linux-gnu/debug"} {
			for _, u := range []string{"calc-0123456789abcdef", "calc-fedcba9876543210"} {
				_, err := os.Stat(filepath.Join(target, prof, ".fingerprint", u))
				if os.IsNotExist(err) != want {
					t.Errorf("%s %s: removed %v, want %v", prof, u, os.IsNotExist(err), want)
				}
			}
			if _, err := os.Stat(filepath.Join(target, prof, ".fingerprint", "serde-0123456789abcdef", "lib-serde.json")); err != nil {
				t.Errorf("%s: a registry dependency's fingerprint removed: %v", prof, err)
			}
		}
	}

	t.Run("own crates", func(t *testing.T) {
		root := t.TempDir()
		mk(t, filepath.Join(root, "Cargo.toml"), "[package]\nname = \"calc\"\n")
		fill(t, filepath.Join(root, "target"))
		if err := Unfresh(root); err != nil {
			t.Fatal(err)
		}
		gone(t, filepath.Join(root, "target"), true)
	})
	t.Run("configured target-dir", func(t *testing.T) {
		root := t.TempDir()
		mk(t, filepath.Join(root, "Cargo.toml"), "[package]\nname = \"calc\"\n")
		mk(t, filepath.Join(root, ".cargo", "config.toml"), "[build]\ntarget-dir = \"out\"\n")
		fill(t, filepath.Join(root, "out"))
		if err := Unfresh(root); err != nil {
			t.Fatal(err)
		}
		gone(t, filepath.Join(root, "out"), true)
	})
	t.Run("a linked target is not followed", func(t *testing.T) {
		root, elsewhere := t.TempDir(), t.TempDir()
		mk(t, filepath.Join(root, "Cargo.toml"), "[package]\nname = \"calc\"\n")
		fill(t, elsewhere)
		if err := os.Symlink(elsewhere, filepath.Join(root, "target")); err != nil {
			t.Fatal(err)
		}
		if err := Unfresh(root); err != nil {
			t.Fatal(err)
		}
		gone(t, elsewhere, false)
	})
	t.Run("no Cargo.toml", func(t *testing.T) {
		root := t.TempDir()
		fill(t, filepath.Join(root, "target"))
		if err := Unfresh(root); err != nil {
			t.Fatal(err)
		}
		gone(t, filepath.Join(root, "target"), false)
	})
}
