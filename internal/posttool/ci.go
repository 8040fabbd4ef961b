package posttool

import (
	"bytes"
	"path"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/ralph-hooks/ralph-hooks/internal/clip"
	"github.com/ralph-hooks/ralph-hooks/internal/config"
)

// Limits on reading a CI file (outside input).
const (
	maxCIFile    = 1 << 20 // bytes read
	maxCILine    = 4096    // bytes of a line looked at
	maxCISteps   = 2000    // steps kept
	maxStepWords = 16      // words after a program searched for its subcommand
)

// ciGlobs are the CI and git-hook configuration files, relative to the
// project root. The ci-config risk rule of aiwg.yml adds its own.
var ciGlobs = []string{
	".github/workflows/*.{yml,yaml}",
	".gitlab-ci.{yml,yaml}",
	".gitlab/ci/**/*.{yml,yaml}",
	".circleci/*.{yml,yaml}",
	".buildkite/**/*.{yml,yaml}",
	"Jenkinsfile",
	"azure-pipelines.{yml,yaml}",
	".travis.yml",
	"bitbucket-pipelines.yml",
	".drone.yml",
	".woodpecker.{yml,yaml}",
	".woodpecker/*.{yml,yaml}",
	".pre-commit-config.{yaml,yml}",
	"{lefthook,.lefthook}.{yml,yaml}",
	".husky/*",
}

// ciPatterns returns the CI globs: ciGlobs and the paths of the ci-config
// risk rule, except those that would make finding them walk the whole
// tree (a leading **).
func ciPatterns(cfg *config.Config) []string {
	out := ciGlobs
	for _, r := range cfg.RiskRules {
		if r.Name != "ci-config" {
			continue
		}
		for _, p := range r.Paths {
			if !strings.HasPrefix(p, "**") && doublestar.ValidatePattern(p) {
				out = append(out[:len(out):len(out)], p)
			}
		}
	}
	return out
}

// isCI reports whether rel (slash-separated, relative to the root) is a
// CI or git-hook configuration file.
func isCI(rel string, patterns []string) bool {
	if strings.HasPrefix(rel, ".husky/_/") {
		return false // husky's own machinery
	}
	for _, g := range patterns {
		if doublestar.MatchUnvalidated(g, rel) {
			return true
		}
	}
	return false
}

// Step is one test or lint step of a CI file: a command line that runs a
// test runner or a checker.
type Step struct {
	Key  string `json:"key"`           // what runs: "go test", "pytest", "npm run lint", "uses: golangci/golangci-lint-action"
	Text string `json:"text"`          // the line, trimmed
	Off  bool   `json:"off,omitempty"` // it cannot fail any more (|| true, || exit 0)
}

// CI is what a CI file checks.
type CI struct {
	Steps []Step `json:"steps,omitempty"`
	// Disabled are lines that let jobs or steps fail or not run:
	// continue-on-error: true, allow_failure: true, if: false, when: never.
	Disabled []string `json:"disabled,omitempty"`
}

// ReadCI reads the test and lint steps of a CI or git-hook configuration
// file (GitHub Actions, GitLab CI, CircleCI, Jenkinsfile, pre-commit,
// husky, …), line by line: every command line that runs a known test
// runner, linter or type checker, and every "uses:" of an action whose
// name says it tests or lints. Comment lines do not count.
func ReadCI(name string, src []byte) CI {
	hooks := strings.HasPrefix(path.Base(name), ".pre-commit-config.")
	if len(src) > maxCIFile {
		src = src[:maxCIFile]
	}
	var ci CI
	for len(src) > 0 && len(ci.Steps) < maxCISteps && len(ci.Disabled) < maxCISteps {
		var line []byte
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			line, src = src, nil
		}
		if len(line) > maxCILine {
			line = line[:maxCILine]
		}
		ciLine(strings.ToValidUTF8(string(line), "\uFFFD"), hooks, &ci)
	}
	return ci
}

// ciLine adds what one line of a CI file runs.
func ciLine(line string, hooks bool, ci *CI) {
	l := strings.Join(strings.Fields(line), " ") // one space between words: the step's text reads the same
	if l == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(l, "//") || strings.HasPrefix(l, "*") || strings.HasPrefix(l, "/*") {
		return
	}
	if d := disabler(l); d != "" {
		ci.Disabled = append(ci.Disabled, d)
		return
	}
	text := clip.String(l, 160)
	if key := usesStep(l); key != "" {
		ci.Steps = append(ci.Steps, Step{Key: key, Text: text})
		return
	}
	if id, ok := strings.CutPrefix(strings.TrimSpace(strings.TrimPrefix(l, "- ")), "id:"); ok && hooks {
		if id = strings.Trim(strings.TrimSpace(id), `"'`); id != "" {
			ci.Steps = append(ci.Steps, Step{Key: "pre-commit hook " + id, Text: text})
		}
		return
	}
	off := neutralised(l)
	toks := tokens(l)
	for i := 0; i < len(toks); i++ {
		for _, key := range stepKeys(toks, i) {
			ci.Steps = append(ci.Steps, Step{Key: key, Text: text, Off: off})
		}
	}
}

// disabler returns the canonical form of a line that lets a job or step
// fail or not run, or "".
func disabler(l string) string {
	l = strings.TrimSpace(strings.TrimPrefix(l, "- "))
	k, v, ok := strings.Cut(l, ":")
	if !ok {
		return ""
	}
	k = strings.ToLower(strings.Trim(strings.TrimSpace(k), `"'`))
	if i := strings.Index(v, " #"); i >= 0 {
		v = v[:i]
	}
	v = strings.ToLower(strings.Join(strings.Fields(strings.Trim(strings.TrimSpace(v), `"'`)), ""))
	switch {
	case k == "continue-on-error" && v == "true",
		k == "allow_failure" && v == "true",
		k == "if" && (v == "false" || v == "${{false}}" || v == "0"),
		k == "when" && v == "never":
		return k + ": " + v
	}
	return ""
}

// usesStep returns the key of a GitHub Actions "uses:" line whose action
// tests or lints, without its version.
func usesStep(l string) string {
	l = strings.TrimSpace(strings.TrimPrefix(l, "- "))
	v, ok := strings.CutPrefix(l, "uses:")
	if !ok {
		return ""
	}
	v = strings.Trim(strings.TrimSpace(v), `"'`)
	if i := strings.IndexByte(v, '@'); i >= 0 {
		v = v[:i]
	}
	if i := strings.Index(v, " #"); i >= 0 {
		v = strings.TrimSpace(v[:i])
	}
	lower := strings.ToLower(v)
	for _, w := range []string{"lint", "test", "pre-commit", "codeql"} {
		if strings.Contains(lower, w) {
			return "uses: " + lower
		}
	}
	for _, w := range strings.FieldsFunc(lower, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') }) {
		if w == "check" || w == "checks" || w == "checker" || w == "vet" {
			return "uses: " + lower
		}
	}
	return ""
}

// neutralised reports whether a command line can no longer fail.
func neutralised(l string) bool {
	c := strings.Join(strings.Fields(l), " ")
	for _, p := range []string{"|| true", "||true", "|| exit 0", "||exit 0", "|| :", "|| echo", "|| /bin/true"} {
		if strings.Contains(c, p) {
			return true
		}
	}
	return false
}

// tokens splits a line into words, with the quotes and brackets around
// them removed; separators (&&, ||, |, ;) are words of their own.
func tokens(l string) []string {
	var out []string
	for _, f := range strings.Fields(l) {
		sep := false
		if strings.HasSuffix(f, ";") && f != ";" {
			f, sep = strings.TrimRight(f, ";"), true
		}
		f = strings.Trim(f, "\"'`()[]{},")
		if f != "" {
			out = append(out, f)
		}
		if sep {
			out = append(out, ";")
		}
	}
	return out
}

func separator(t string) bool { return t == "&&" || t == "||" || t == "|" || t == ";" || t == "&" }

// stepKeys returns the steps that start at toks[i]: a test runner or
// checker on its own (pytest, eslint), one with a subcommand (go test,
// cargo clippy, mvn verify), or a task runner with a target whose name
// says it tests or lints (make test, npm run lint, yarn test:unit).
func stepKeys(toks []string, i int) []string {
	name := strings.ToLower(path.Base(toks[i]))
	switch name {
	case "pytest", "py.test", "tox", "nox", "mypy", "pyright", "ruff", "flake8", "pylint", "unittest",
		"jest", "vitest", "mocha", "ava", "karma", "playwright", "cypress", "eslint", "tsc", "biome",
		"golangci-lint", "staticcheck", "govulncheck", "gotestsum", "rspec", "rubocop", "phpunit", "phpstan",
		"ctest", "lint-staged", "shellcheck", "hadolint", "ginkgo", "nextest", "bats", "clippy-driver":
		if name == "py.test" {
			name = "pytest"
		}
		return []string{name}
	}
	var subs []string
	runner := false
	switch name {
	case "go":
		subs = []string{"test", "vet"}
	case "cargo":
		subs = []string{"test", "clippy", "nextest", "check"}
	case "dotnet", "swift", "mix", "sbt", "bun", "deno", "zig", "flutter", "dart":
		subs = []string{"test", "lint", "analyze"}
	case "mvn", "mvnw":
		name, subs = "mvn", []string{"test", "verify", "check"}
	case "gradle", "gradlew":
		name, subs = "gradle", []string{"test", "check", "build"}
	case "pre-commit":
		subs = []string{"run"}
	case "make", "just", "task", "rake", "invoke", "nx", "turbo", "npm", "yarn", "pnpm":
		runner = true
	default:
		return nil
	}
	var out []string
	script := name == "npm" || name == "yarn" || name == "pnpm"
	for j := i + 1; j < len(toks) && j <= i+maxStepWords && !separator(toks[j]); j++ {
		t := toks[j]
		if strings.HasPrefix(t, "-") {
			continue
		}
		if !runner {
			for _, s := range subs {
				if t == s {
					return []string{name + " " + s}
				}
			}
			continue
		}
		if script && (t == "run" || t == "run-script") {
			for k := j + 1; k < len(toks) && !separator(toks[k]); k++ {
				if !strings.HasPrefix(toks[k], "-") {
					if checkTarget(toks[k], true) {
						return []string{name + " run " + toks[k]}
					}
					return nil
				}
			}
			return nil
		}
		if checkTarget(t, script) {
			out = append(out, name+" "+t)
		}
		if script {
			break // npm test, yarn lint: the first word is the script
		}
	}
	return out
}

// checkTarget reports whether a task runner's target (or, for npm, yarn
// and pnpm, script) name says it tests or checks something.
func checkTarget(t string, script bool) bool {
	t = strings.ToLower(t)
	if script && t == "t" || !script && t == "ci" { // npm t; make ci (npm ci installs)
		return true
	}
	for _, w := range []string{"test", "lint", "check", "verify", "spec", "vet", "typecheck"} {
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}

// compareCI returns the steps of before that after no longer runs (a step
// counts by its key; one made unable to fail counts as gone) and the
// lines that let jobs fail or not run that after adds.
func compareCI(before, after CI) (removed []Step, disabled []string) {
	have := map[string]int{}
	for _, s := range after.Steps {
		if !s.Off {
			have[s.Key]++
		}
	}
	for _, s := range before.Steps {
		if s.Off {
			continue
		}
		if have[s.Key] > 0 {
			have[s.Key]--
			continue
		}
		removed = append(removed, s)
	}
	was := map[string]int{}
	for _, d := range before.Disabled {
		was[d]++
	}
	for _, d := range after.Disabled {
		if was[d] > 0 {
			was[d]--
			continue
		}
		disabled = append(disabled, d)
	}
	return removed, disabled
}
