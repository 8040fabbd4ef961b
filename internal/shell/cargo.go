package shell

import (
	"slices"
	"strings"
)

// cargo runs programs its configuration names, not the command line: a
// target's runner runs every test and program binary (with the binary as
// its last arguments: CARGO_TARGET_<TRIPLE>_RUNNER='rm -rf tests --' cargo
// test deletes tests), a linker and the rustc wrappers run at every build.
// They come from --config KEY=VALUE and from the environment.

// cargoKey reports whether a configuration key's value is a program cargo
// runs.
func cargoKey(k string) bool {
	switch k {
	case "build.rustc", "build.rustc-wrapper", "build.rustc-workspace-wrapper", "build.rustdoc":
		return true
	}
	return strings.HasPrefix(k, "target.") && (strings.HasSuffix(k, ".runner") || strings.HasSuffix(k, ".linker"))
}

// cargoVar reports whether an environment variable names a program cargo
// runs.
func cargoVar(k string) bool {
	switch k {
	case "RUSTC", "RUSTC_WRAPPER", "RUSTC_WORKSPACE_WRAPPER", "CARGO_BUILD_RUSTC", "CARGO_BUILD_RUSTC_WRAPPER",
		"CARGO_BUILD_RUSTC_WORKSPACE_WRAPPER", "RUSTDOC":
		return true
	}
	return strings.HasPrefix(k, "CARGO_TARGET_") && (strings.HasSuffix(k, "_RUNNER") || strings.HasSuffix(k, "_LINKER"))
}

// cargoCommand judges the programs a cargo command runs from its --config
// settings and the environment.
func (w *walker) cargoCommand(c *ctx, args []Word, sc *scope) {
	cc := c.with("cargo")
	var keys []string
	for k := range sc.vars {
		if cargoVar(k) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		v := sc.vars[k]
		if v.dynamic || len(v.vals) != 1 {
			w.opaque("cargo with " + k + " computed at run time")
			continue
		}
		w.cargoProgram(cc.with(k), strings.Fields(v.vals[0]), sc)
	}
	for i := 0; i < len(args); i++ {
		s := args[i].Lit()
		var kv Word
		switch {
		case s == "--":
			return
		case s == "--config" && i+1 < len(args):
			i++
			kv = args[i]
		case strings.HasPrefix(s, "--config="):
			kv = gluedWord(args[i], s[len("--config="):])
		default:
			continue
		}
		v, ok := kv.Value()
		if !ok {
			w.opaque("cargo --config computed at run time: " + kv.Raw)
			continue
		}
		key, val, ok := strings.Cut(v, "=")
		if !ok {
			continue // a configuration file: its digest is the completion's
		}
		key = strings.Trim(strings.TrimSpace(key), `"`)
		if cargoKey(key) {
			w.cargoProgram(cc.with("--config "+key), tomlCommand(strings.TrimSpace(val)), sc)
		}
	}
}

// cargoProgram judges a program cargo runs, given as its words.
func (w *walker) cargoProgram(c *ctx, argv []string, sc *scope) {
	if len(argv) == 0 {
		return
	}
	words := make([]Word, len(argv))
	for i, a := range argv {
		words[i] = Word{Raw: a, Values: []string{a}}
	}
	w.exec(c, words, sc.child(), nil, nil)
}

// tomlCommand reads a command from a TOML value: a string, split on
// spaces as cargo does, or an array of strings.
func tomlCommand(v string) []string {
	if strings.HasPrefix(v, "[") {
		var out []string
		for rest := v; ; {
			i := strings.IndexAny(rest, `"'`)
			if i < 0 {
				return out
			}
			j := strings.IndexByte(rest[i+1:], rest[i])
			if j < 0 {
				return out
			}
			out = append(out, rest[i+1:i+1+j])
			rest = rest[i+j+2:]
		}
	}
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		v = v[1 : len(v)-1]
	}
	return strings.Fields(v)
}
