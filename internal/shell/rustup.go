package shell

import (
	"path/filepath"
	"strings"
)

// rustup's proxies (cargo, rustc, rustdoc, rustfmt…) run the toolchain a
// command names: cargo +TOOLCHAIN, or $RUSTUP_TOOLCHAIN. A toolchain
// named by a path is any directory: its bin/cargo is whatever program the
// agent put there (rustup 1.29 here: `cargo +/tmp/x/tc --version` and
// `RUSTUP_TOOLCHAIN=/tmp/x/tc cargo --version` each ran tc/bin/cargo, a
// script that deleted tests/). That program is read as a script run by
// path is; one ralph cannot read is opaque.

// rustupProxy reports whether name is one of the programs rustup
// installs as proxies.
func rustupProxy(name string) bool {
	switch name {
	case "cargo", "rustc", "rustdoc", "rustfmt", "cargo-fmt", "cargo-clippy", "clippy-driver", "rust-gdb",
		"rust-lldb", "rust-analyzer", "cargo-miri":
		return true
	}
	return false
}

// rustupToolchain walks the program a rustup proxy name runs from a
// toolchain named by a path.
func (w *walker) rustupToolchain(c *ctx, name string, args []Word, sc *scope) {
	if !rustupProxy(name) {
		return
	}
	tc := ""
	if len(args) > 0 {
		if s, ok := args[0].Value(); ok && strings.HasPrefix(s, "+") {
			tc = s[1:]
		}
	}
	if tc == "" && len(sc.vars) > 0 {
		if v, ok := w.envOnce("RUSTUP_TOOLCHAIN", sc); ok {
			tc = v
		}
	}
	if !strings.ContainsRune(tc, '/') {
		return // an installed toolchain, by name
	}
	p := filepath.Join(tc, "bin", name)
	if text, f, ok := w.readScript(p, sc.cwd); ok {
		prev := w.file
		w.file = f
		w.runText(c.with(name+" of the toolchain "+tc), text, sc)
		w.file = prev
		return
	}
	w.opaque(name + " of the toolchain at " + tc + ": a program ralph cannot read")
}
