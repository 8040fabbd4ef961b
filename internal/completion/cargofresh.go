package completion

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Unfresh removes, in the cargo target directory of the project at root,
// the fingerprints of the crates cargo judges up to date by their
// sources' modification times — the project's own and its path
// dependencies, whose fingerprints check their dep-info ("CheckDepInfo")
// where a registry's or git's hold a version — so that the completion
// command's cargo builds them again from the sources as they are.
// Otherwise a source fixed, built, then put back broken with its old
// modification time (touch -r, cp -p) is fresh to cargo, and its tests run
// the fixed build. Dependencies' fingerprints stay, and their builds.
//
// The target directory is root/target (ralph removes CARGO_TARGET_DIR
// from the command's environment; a target-dir in .cargo/config is read);
// a link on the way is not followed. A project without one is left alone.
func Unfresh(root string) error {
	if _, err := os.Stat(filepath.Join(root, "Cargo.toml")); err != nil {
		return nil
	}
	target := filepath.Join(root, "target")
	if d := configTargetDir(root); d != "" {
		target = d
		if !filepath.IsAbs(target) {
			target = filepath.Join(root, target)
		}
	}
	if st, err := os.Lstat(target); err != nil || !st.IsDir() {
		return nil
	}
	var errs []string
	// target/debug/.fingerprint, target/<triple>/release/.fingerprint.
	var walk func(dir string, depth int)
	walk = func(dir string, depth int) {
		ents, err := os.ReadDir(dir)
		if err != nil {
			return
		}
		for _, e := range ents {
			if !e.IsDir() || e.Type()&os.ModeSymlink != 0 {
				continue
			}
			p := filepath.Join(dir, e.Name())
			if e.Name() == ".fingerprint" {
				if err := unfreshIn(p); err != nil {
					errs = append(errs, err.Error())
				}
				continue
			}
			if depth < 2 && e.Name() != "deps" && e.Name() != "build" && e.Name() != "incremental" {
				walk(p, depth+1)
			}
		}
	}
	walk(target, 0)
	if len(errs) > 0 {
		return fmt.Errorf("cargo fingerprints in %s: %s", target, strings.Join(errs, "; "))
	}
	return nil
}

// unfreshIn removes the units of the .fingerprint directory dir whose
// fingerprint checks dep-info (see [Unfresh]).
func unfreshIn(dir string) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range ents {
		if !e.IsDir() || e.Type()&os.ModeSymlink != 0 {
			continue
		}
		unit := filepath.Join(dir, e.Name())
		files, err := os.ReadDir(unit)
		if err != nil {
			continue
		}
		local := false
		for _, f := range files {
			if local || !f.Type().IsRegular() || !strings.HasSuffix(f.Name(), ".json") {
				continue
			}
			if data, err := readSmall(filepath.Join(unit, f.Name())); err == nil && bytes.Contains(data, []byte(`"CheckDepInfo"`)) {
				local = true
			}
		}
		if local {
			if err := os.RemoveAll(unit); err != nil {
				return err
			}
		}
	}
	return nil
}

// configTargetDir returns the build.target-dir of the project's
// .cargo/config.toml (or .cargo/config), "" when it sets none.
func configTargetDir(root string) string {
	for _, f := range []string{"config.toml", "config"} {
		src, _ := readSmall(filepath.Join(root, ".cargo", f))
		for _, l := range strings.Split(string(src), "\n") {
			k, v, ok := strings.Cut(strings.TrimSpace(l), "=")
			if !ok {
				continue
			}
			if k = strings.TrimSpace(k); k == "target-dir" || k == "build.target-dir" {
				return strings.Trim(strings.TrimSpace(v), `"'`)
			}
		}
	}
	return ""
}
