package risk

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/ralph-hooks/ralph-hooks/internal/shell"
)

// This file is the built-in rule golden-update: a command that rewrites
// the expectations tests compare with (golden files, snapshots, approved
// files) to whatever the code outputs now. In a loop that makes the
// completion command pass without fixing anything, so it asks the human.
// Running the same tests without the update passes; a new snapshot of a
// new test is written by the plain run.

// goldenFlag matches a go test flag a project defines to rewrite its
// golden files: -update, -golden, -update-golden, -regen, -rewrite,
// -record, -accept, -overwrite (=true or no value).
var goldenFlag = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^--?(?:test\.)?(?:update|golden|regen(?:erate)?|rewrite|record|accept|overwrite|fix)[\w.-]*(?:=(?:true|1|yes|all|on))?$`)
})

// snapshotFlag matches the flags of JavaScript runners (jest, vitest,
// playwright, mocha's snapshot plugins) that rewrite snapshots.
var snapshotFlag = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:-u|--update|--updateSnapshot|--update-snapshots?|--update-snapshots=(?:all|changed|true)|--updateSnapshot=true|--update=(?:true|all)|-u=true)$`)
})

// pytestFlags rewrite snapshots or regression data: syrupy's and
// pytest-snapshot's --snapshot-update, pytest-regressions' --force-regen
// and --regen-all, inline-snapshot's --inline-snapshot=fix|update.
var pytestFlags = []string{"--snapshot-update", "--force-regen", "--regen-all", "--update-snapshots", "--update-golden", "--update-goldens"}

// goldenEnv matches an environment variable set to rewrite expectations
// (UPDATE_GOLDEN=1, INSTA_UPDATE=always, UPDATE_SNAPSHOTS=1 for RSpec,
// Rust's expect-test UPDATE_EXPECT=1, trybuild's TRYBUILD=overwrite) or
// to pass failing snapshot assertions (INSTA_FORCE_PASS).
var goldenEnv = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^|[\s;&|(])(?:export\s+)?(UPDATE_GOLDENS?|GOLDEN_UPDATE|UPDATE_SNAPSHOTS?|SNAPSHOT_UPDATE|UPDATE_EXPECT|INSTA_UPDATE=(?:always|force)|INSTA_FORCE_PASS|INSTA_FORCE_UPDATE|TRYBUILD=overwrite)(?:=([^\s;&|)]*))?`)
})

// isGoldenFlag reports whether w is a flag goldenFlag matches; a word that
// is no flag is refused before the expression is compiled, so that a go
// test without flags (every Bash call that runs tests) never compiles it.
func isGoldenFlag(w string) bool {
	return strings.HasPrefix(w, "-") && goldenFlag().MatchString(w)
}

// isSnapshotFlag is isGoldenFlag for snapshotFlag.
func isSnapshotFlag(w string) bool {
	return strings.HasPrefix(w, "-") && snapshotFlag().MatchString(w)
}

// mayGoldenEnv reports whether cmdline may hold a name goldenEnv matches:
// every one of them holds UPDATE, INSTA_FORCE_PASS or TRYBUILD=overwrite.
// A command line with none of them (nearly every one) is passed over
// without compiling goldenEnv.
func mayGoldenEnv(cmdline string) bool {
	return strings.Contains(cmdline, "UPDATE") || strings.Contains(cmdline, "INSTA_FORCE_PASS") || strings.Contains(cmdline, "TRYBUILD=overwrite")
}

// goldenRules judges a command that runs tests with the flag that rewrites
// their expectations.
func (g *Guard) goldenRules(c *shell.Cmd) []Finding {
	if c.Remote != "" {
		return nil
	}
	how := goldenUpdate(c)
	if how == "" {
		return nil
	}
	text := quoted(c)
	return []Finding{g.builtin("golden-update", fmt.Sprintf("%s %s: the expected outputs the tests compare with become whatever the code prints now, so a failing test passes without a fix. Fix the code under test; if the expectations are truly out of date, ask the human to update them.", text, how), text, nil)}
}

// goldenEnvRules judges a command line that sets an environment variable
// that rewrites expectations for the commands it runs.
func (g *Guard) goldenEnvRules(cmdline string) []Finding {
	if !mayGoldenEnv(cmdline) {
		return nil
	}
	for _, m := range goldenEnv().FindAllStringSubmatch(cmdline, -1) {
		name, val := m[1], strings.Trim(m[2], `"'`)
		if !strings.Contains(name, "=") && (val == "0" || strings.EqualFold(val, "false") || strings.EqualFold(val, "no")) {
			continue
		}
		if !strings.Contains(name, "=") && m[2] == "" && !strings.Contains(m[0], "export") {
			continue // a name alone, not an assignment
		}
		return []Finding{g.builtin("golden-update", fmt.Sprintf("%s sets %s, which rewrites the expected outputs (golden files, snapshots) the tests compare with to whatever the code prints now, or passes failing snapshot assertions: a failing test passes without a fix. Fix the code under test; if the expectations are truly out of date, ask the human to update them.", cmdline, strings.TrimSpace(m[0])), cmdline, nil)}
	}
	return nil
}

// goldenUpdate says how command c rewrites expectations, or "".
func goldenUpdate(c *shell.Cmd) string {
	words := make([]string, len(c.Args))
	for i, a := range c.Args {
		words[i], _ = a.Value()
	}
	name := c.Name
	// python -m pytest, yarn jest, npm test -- -u, bun test -u
	switch {
	case strings.HasPrefix(name, "python") && len(words) > 1 && words[0] == "-m":
		name, words = words[1], words[2:]
	case name == "yarn" || name == "pnpm" || name == "npm" || name == "bun":
		if !testScript(words) {
			return ""
		}
		name = "jest" // the script's runner: jest, vitest, playwright take the same -u
	}
	switch {
	case name == "go" && len(words) > 0 && words[0] == "test":
		return flagged(words[1:], isGoldenFlag, "runs the tests with")
	case strings.HasSuffix(name, ".test") || name == "gotestsum":
		return flagged(words, isGoldenFlag, "runs the tests with")
	case name == "jest" || name == "vitest" || name == "playwright" || name == "mocha" || name == "ava" || name == "react-scripts" || name == "bun":
		for i, w := range words {
			// vitest --update new (or none) writes only new snapshots.
			if (w == "--update" || w == "-u") && i+1 < len(words) && (words[i+1] == "new" || words[i+1] == "none" || words[i+1] == "false") {
				words[i] = ""
			}
		}
		return flagged(words, isSnapshotFlag, "rewrites the snapshots with")
	case name == "pytest" || name == "py.test":
		return flagged(words, func(w string) bool {
			f, v, _ := strings.Cut(w, "=")
			return containsWord(pytestFlags, f) || f == "--inline-snapshot" && (strings.Contains(v, "fix") || strings.Contains(v, "update"))
		}, "rewrites the snapshots or regression data with")
	case name == "cargo" && len(words) > 1 && words[0] == "insta":
		switch words[1] {
		case "accept", "review":
			return "accepts every pending insta snapshot (cargo insta " + words[1] + ")"
		case "test":
			return flagged(words[2:], func(w string) bool {
				return w == "--accept" || w == "--review" || w == "--force-update-snapshots" || strings.HasPrefix(w, "--unreferenced=") && strings.HasSuffix(w, "delete")
			}, "accepts the insta snapshots with")
		}
	}
	return ""
}

// testScript reports whether a package manager's arguments run the tests:
// test, t, run test…, or a runner (jest, vitest, playwright).
func testScript(words []string) bool {
	for _, w := range words {
		if w == "--" {
			return false
		}
		if w == "test" || w == "t" || strings.HasPrefix(w, "test:") || w == "jest" || w == "vitest" || w == "playwright" {
			return true
		}
	}
	return false
}

// flagged returns what verb says with the first word that is matches, or
// "".
func flagged(words []string, is func(string) bool, verb string) string {
	for _, w := range words {
		if w != "" && is(w) {
			return verb + " " + w
		}
	}
	return ""
}

func containsWord(ws []string, w string) bool {
	for _, x := range ws {
		if x == w {
			return true
		}
	}
	return false
}
