package shell

import "strings"

// wrapperOpts are, for the programs that run the command they are given
// after their options, the short options and long options that take a
// value (skipOpts).
var wrapperOpts = map[string][2]string{
	"pkexec":          {"", "user"},
	"chpst":           {"uUbe/nlLmdopfcrt", ""},
	"with-contenv":    {"", ""},
	"flatpak-spawn":   {"", "env forward-fd directory sandbox-expose sandbox-expose-ro sandbox-flag"},
	"distrobox-enter": {"ne", "name additional-flags"},
	"s6-setuidgid":    {"", ""},
	"dotenv":          {"ecvp", ""}, // dotenv-cli: -e FILE, -c ENV, -v VAR=VAL, -p VAR
}

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
