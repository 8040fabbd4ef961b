package completion

import (
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// cargoTarget reports whether the Cargo.toml section headed h decides
// which tests cargo test builds and how: the package (autotests, …), the
// targets, the features, the workspace (its members).
func cargoTarget(h string) bool {
	switch h {
	case "[lib]", "[[test]]", "[[bin]]", "[[bench]]", "[workspace]", "[package]", "[features]":
		return true
	}
	return false
}

// cargoPatch reports whether the Cargo.toml section headed h swaps a
// dependency for other code: [patch.<source>] and [replace]. The lines
// before any header count too, where a dotted key (patch.crates-io.x =
// …) can say the same.
func cargoPatch(h string) bool {
	return h == "[]" || h == "[replace]" || strings.HasPrefix(h, "[patch.") || strings.HasPrefix(h, "[patch]")
}

// workspaceMembers matches the members list of a [workspace] section.
var workspaceMembers = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?s)\bmembers\s*=\s*\[(.*?)\]`)
})

// quoted matches a TOML string.
var quoted = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`["']([^"']+)["']`) })

// maxMembers bounds the workspace members whose Cargo.toml is read.
const maxMembers = 200

// cargoInputs digests, through section, the parts of the Cargo.toml in
// the project's directory dir ("" for its root) that decide what cargo
// test builds: the package and its targets, and the [patch] and [replace]
// sections; and, for the root's, the same parts of each workspace
// member's Cargo.toml (members given by path or glob), which cargo test
// builds and tests as well.
func cargoInputs(root, dir string, section func(rel, label string, keep func(string) bool) []string) {
	rel := path.Join(dir, "Cargo.toml")
	targets := section(rel, "package and targets", cargoTarget)
	section(rel, "[patch] and [replace]", cargoPatch)
	if dir != "" {
		return
	}
	var ws string
	for _, s := range targets {
		if strings.HasPrefix(s, "[workspace]") {
			ws = s
		}
	}
	if ws == "" {
		return // no [workspace]: nothing for the pattern to match
	}
	m := workspaceMembers().FindStringSubmatch(ws)
	if m == nil {
		return
	}
	n := 0
	for _, q := range quoted().FindAllStringSubmatch(m[1], -1) {
		dirs, _ := filepath.Glob(filepath.Join(root, filepath.FromSlash(q[1])))
		for _, d := range dirs {
			r, err := filepath.Rel(root, d)
			if err != nil || r == "." || strings.HasPrefix(r, "..") {
				continue
			}
			if n++; n > maxMembers {
				return
			}
			cargoInputs(root, filepath.ToSlash(r), section)
		}
	}
}
