package shell

import (
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// wrapperOpts are, for the programs that run the command they are given
// after their options, the short options and long options that take a
// value (skipOpts).
var wrapperOpts map[string][2]string

// secretRunner returns the subcommand of a program that runs a command
// under secrets or a dev environment it loads, and the readings of its
// command: after --, or, without one, after its options and operands —
// read once with each option a flag and once with each taking the next
// word as its value, as the program's own options are not all known here.
func secretRunner(name string, args []Word) (string, [][]Word, bool) {
	if name == "envchain" {
		// envchain [--noecho] NAMESPACE[,NS…] COMMAND
		rest, ok := skipOpts(args, "", "")
		if !ok || len(rest) < 2 {
			return "", nil, false
		}
		return rest[0].Lit(), [][]Word{rest[1:]}, true
	}
	if len(args) == 0 {
		return "", nil, false
	}
	sub := args[0].Lit()
	operands := 0 // before the command
	switch {
	case name == "devbox" && sub == "run", name == "op" && sub == "run", name == "doppler" && sub == "run",
		name == "infisical" && sub == "run", name == "teller" && sub == "run":
	case name == "aws-vault" && sub == "exec", name == "chamber" && sub == "exec", name == "sops" && sub == "exec-env":
		operands = 1 // PROFILE, SERVICE, FILE
	default:
		return "", nil, false
	}
	rest := args[1:]
	for i, a := range rest {
		if a.Lit() == "--" {
			return sub, [][]Word{rest[i+1:]}, i+1 < len(rest)
		}
	}
	var readings [][]Word
	for _, valued := range []bool{false, true} {
		n := operands
		var out []Word
		for i := 0; i < len(rest); i++ {
			a := rest[i].Lit()
			if len(out) == 0 && len(a) > 1 && a[0] == '-' {
				if valued && !strings.Contains(a, "=") {
					i++
				}
				continue
			}
			if len(out) == 0 && n > 0 {
				n--
				continue
			}
			out = append(out, rest[i])
		}
		if sub == "exec-env" && len(out) == 1 {
			// sops exec-env FILE 'CMD': a command line for sh -c.
			out = append([]Word{{Raw: "sh", Values: []string{"sh"}}, {Raw: "-c", Values: []string{"-c"}}}, out...)
		}
		if len(out) > 0 && (len(readings) == 0 || len(out) != len(readings[0])) {
			readings = append(readings, out)
		}
	}
	return sub, readings, len(readings) > 0
}

// commandFlag returns the value of --command (doppler run, infisical
// run): a command line its shell runs.
func commandFlag(args []Word) (Word, bool) {
	for i, a := range args {
		s := a.Lit()
		if s == "--" {
			break
		}
		if s == "--command" && i+1 < len(args) {
			return args[i+1], true
		}
		if v, ok := strings.CutPrefix(s, "--command="); ok {
			return Word{Raw: v, Values: []string{v}}, true
		}
	}
	return Word{}, false
}

// passesDashes are programs whose operands after -- are data or their
// own child's arguments, not a command line: grep -- rm x searches.
var passesDashes map[string]bool

// dashCommands are the programs that, named right after an unknown
// program's --, make it read as a wrapper running them (mywrap -- rm -rf x).
var dashCommands map[string]bool

// afterDashes judges what follows -- as a command line when an unknown
// program gives -- and then a program that deletes or runs commands: an
// unknown wrapper (a company's secret loader, a sandbox) runs it.
func (w *walker) afterDashes(c *ctx, name string, args []Word, sc *scope) {
	if passesDashes[name] {
		return
	}
	for i, a := range args {
		if a.Lit() != "--" || i+1 >= len(args) {
			continue
		}
		if v, ok := args[i+1].Value(); ok && dashCommands[filepath.Base(v)] {
			w.exec(c.with(name+" --"), args[i+1:], sc.clone(), nil, nil)
		}
		return
	}
}

// printfVar sets the variable printf -v names to what printf would print:
// known when the format and its arguments are, else computed.
func (w *walker) printfVar(args []Word, sc *scope) {
	if len(args) < 3 || args[0].Lit() != "-v" {
		return
	}
	name := args[1].Lit()
	if name == "" || strings.ContainsAny(name, "[$") {
		return // an array element or a computed name: arith.go reads those
	}
	var vals []string
	for _, a := range args[2:] {
		v, ok := a.Value()
		if !ok {
			sc.vars[name] = value{dynamic: true}
			return
		}
		vals = append(vals, v)
	}
	out, ok := printf(vals)
	if !ok {
		sc.vars[name] = value{dynamic: true}
		return
	}
	sc.vars[name] = value{vals: []string{out}}
}

// declQuoted sets the variable of a quoted NAME=VALUE operand of declare,
// local, export and the like (declare "c=rm -rf x"), which bash assigns as
// it would the unquoted form: to its value when known, else to a computed
// one that splits into any words.
func (w *walker) declQuoted(c *ctx, x *syntax.Word, sc *scope) {
	if x == nil || x.Lit() != "" {
		return // a flag, or a bare name the parser read as such
	}
	wd := w.word(c, x, sc)
	if wd.Dynamic {
		// The name itself may be computed: nothing to set.
		if lit := prefix(x.Parts); lit != "" {
			if name, _, ok := strings.Cut(lit, "="); ok && validName(name) {
				sc.vars[name] = value{dynamic: true, words: true}
			}
		}
		return
	}
	for _, v := range wd.Values {
		if name, val, ok := strings.Cut(v, "="); ok && validName(name) {
			sc.vars[name] = value{vals: []string{val}}
		}
	}
}

// validName reports whether s is a shell variable name.
func validName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for _, r := range s {
		if r != '_' && !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// wrapperTables builds this file's tables; tables calls it, so that a hook
// call that reads no shell does not pay for them at start-up.
func wrapperTables() {
	wrapperOpts = map[string][2]string{
		"pkexec":          {"", "user"},
		"chpst":           {"uUbe/nlLmdopfcrt", ""},
		"with-contenv":    {"", ""},
		"flatpak-spawn":   {"", "env forward-fd directory sandbox-expose sandbox-expose-ro sandbox-flag"},
		"distrobox-enter": {"ne", "name additional-flags"},
		"s6-setuidgid":    {"", ""},
		"dotenv":          {"ecvp", ""}, // dotenv-cli: -e FILE, -c ENV, -v VAR=VAL, -p VAR
	}
	passesDashes = map[string]bool{
		"grep": true, "egrep": true, "fgrep": true, "rg": true, "ag": true, "ack": true, "git": true, "echo": true,
		"printf": true, "sed": true, "awk": true, "gawk": true, "jq": true, "yq": true, "cat": true, "ls": true,
		"head": true, "tail": true, "wc": true, "sort": true, "uniq": true, "cut": true, "tr": true, "diff": true,
		"cmp": true, "test": true, "[": true, "touch": true, "mkdir": true, "stat": true, "file": true, "man": true,
		"cargo": true, "go": true, "npm": true, "yarn": true, "pnpm": true, "bun": true, "deno": true, "make": true,
		"just": true, "task": true, "gradle": true, "mvn": true, "dotnet": true, "swift": true, "zig": true,
		"pytest": true, "jest": true, "vitest": true, "mocha": true, "rspec": true, "tsx": true, "ts-node": true,
		"set": true, "getopt": true, "getopts": true, "printenv": true, "basename": true, "dirname": true,
		"realpath": true, "readlink": true, "tee": true, "xxd": true, "od": true, "less": true, "more": true,
		// The coding agents: claude mcp add NAME -- CMD registers CMD, which
		// runs with a later session (package risk's rules agent-config and
		// nested-agent judge them).
		"claude": true, "codex": true, "gemini": true, "copilot": true, "opencode": true, "cursor-agent": true,
		"qwen": true, "amp": true, "crush": true, "goose": true, "aider": true, "droid": true,
	}
	dashCommands = map[string]bool{
		"rm": true, "rmdir": true, "unlink": true, "shred": true, "srm": true, "wipe": true, "rimraf": true,
		"find": true, "git": true, "dd": true, "truncate": true, "mv": true, "sh": true, "bash": true, "zsh": true,
		"dash": true, "ksh": true, "fish": true, "eval": true, "xargs": true, "sudo": true,
	}
}
