// Package initcfg is `ralph init`: it looks at what a project is (go.mod,
// package.json and its test runner, pyproject.toml and pytest, Cargo.toml,
// Maven or Gradle, a Gemfile, a Makefile's test target) and writes the
// project's aiwg.yml for it: the completion command a loop is judged by,
// the globs of its test files, and a coverage metric where the runner
// gives one, each with a comment that says why.
//
// Detection only reads files at the project's root; nothing is run.
package initcfg

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/ralph-hooks/ralph-hooks/internal/config"
)

// Runner is one test runner found in the project.
type Runner struct {
	Name       string   // what it is, for the comment: "Go (go test)"
	Found      string   // the file that says so: "go.mod"
	Completion string   // the command whose success means done
	Why        string   // a note on the command, for the comment ("" for none)
	TestFiles  []string // doublestar globs of its test files
	Coverage   *Metric  // a coverage metric, when the runner gives one
	NoCoverage string   // else why not, and how to add one
}

// Metric is a metric for aiwg.yml's metrics list.
type Metric struct {
	Name, Command, Regex, Direction string
}

// Detect returns the test runners of the project at root, in a fixed
// order. It reads files; a file it cannot read counts as absent.
func Detect(root string) []Runner {
	var rs []Runner
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			return ""
		}
		return string(data)
	}
	exists := func(name string) bool {
		_, err := os.Stat(filepath.Join(root, name))
		return err == nil
	}
	if exists("go.mod") {
		rs = append(rs, goRunner())
	}
	if pkg := read("package.json"); pkg != "" {
		if r, ok := jsRunner(pkg); ok {
			rs = append(rs, r)
		}
	}
	if r, ok := pythonRunner(read, exists); ok {
		rs = append(rs, r)
	}
	if exists("Cargo.toml") {
		rs = append(rs, Runner{Name: "Rust (cargo test)", Found: "Cargo.toml", Completion: "cargo test",
			TestFiles:  []string{"**/tests/**", "**/benches/**"},
			NoCoverage: "cargo test measures no coverage; with cargo-llvm-cov installed: cargo llvm-cov --summary-only, regex 'TOTAL.*\\s([0-9.]+)%'"})
	}
	if r, ok := jvmRunner(read, exists); ok {
		rs = append(rs, r)
	}
	if gem := read("Gemfile"); gem != "" {
		rs = append(rs, rubyRunner(gem, exists))
	}
	if len(rs) == 0 {
		if mk := read("Makefile"); regexp.MustCompile(`(?m)^test\s*:`).MatchString(mk) {
			rs = append(rs, Runner{Name: "make", Found: "Makefile (a test target)", Completion: "make test",
				NoCoverage: "add a metric whose command prints your coverage"})
		}
	}
	return rs
}

func goRunner() Runner {
	return Runner{
		Name: "Go (go test)", Found: "go.mod", Completion: "go test -v ./...",
		Why:       "-v names every test, so the stop hook counts the passing ones too",
		TestFiles: []string{"**/*_test.go", "**/testdata/**"},
		Coverage: &Metric{Name: "coverage",
			Command:   `f=$(mktemp) && go test -coverprofile="$f" ./... >/dev/null 2>&1; go tool cover -func="$f" | tail -n 1; rm -f "$f"`,
			Regex:     `total:\s+\(statements\)\s+([0-9.]+)%`,
			Direction: "higher"},
	}
}

// jsTests are the test globs of JavaScript and TypeScript.
var jsTests = []string{"**/*.{test,spec}.{js,jsx,ts,tsx,mjs,cjs,mts,cts}", "**/__tests__/**"}

// npmDefault is the test script npm init writes.
const npmDefault = `echo "Error: no test specified" && exit 1`

// jsRunner reads package.json: its test script and which of jest, vitest
// and mocha it depends on.
func jsRunner(data string) (Runner, bool) {
	var pkg struct {
		Scripts map[string]string `json:"scripts"`
		Deps    map[string]string `json:"dependencies"`
		DevDeps map[string]string `json:"devDependencies"`
	}
	if json.Unmarshal([]byte(data), &pkg) != nil {
		return Runner{}, false
	}
	has := func(name string) bool { _, a := pkg.Deps[name]; _, b := pkg.DevDeps[name]; return a || b }
	script := strings.TrimSpace(pkg.Scripts["test"])
	if script == npmDefault {
		script = ""
	}
	uses := func(tool string) bool {
		return has(tool) || regexp.MustCompile(`(^|[\s;&|/])`+tool+`(\s|$)`).MatchString(script)
	}
	r := Runner{Found: "package.json", TestFiles: jsTests}
	summary := `Statements\s*:\s*([0-9.]+)%`
	switch {
	case uses("vitest"):
		r.Name = "JavaScript (vitest)"
		r.Completion = "npx vitest run"
		r.Why = "vitest run, not the test script: plain vitest may start in watch mode and never end"
		if has("@vitest/coverage-v8") || has("@vitest/coverage-istanbul") {
			r.Coverage = &Metric{Name: "coverage", Command: "npx vitest run --coverage --coverage.reporter=text-summary 2>&1", Regex: summary, Direction: "higher"}
		} else {
			r.NoCoverage = "vitest needs @vitest/coverage-v8 for coverage (npm i -D @vitest/coverage-v8), then: npx vitest run --coverage --coverage.reporter=text-summary, regex 'Statements\\s*:\\s*([0-9.]+)%'"
		}
	case uses("jest"):
		r.Name = "JavaScript (jest)"
		r.Completion = "npx jest"
		if script != "" {
			r.Completion = "npm test"
		}
		r.Coverage = &Metric{Name: "coverage", Command: "npx jest --coverage --coverageReporters=text-summary 2>&1", Regex: summary, Direction: "higher"}
	case uses("mocha"):
		r.Name = "JavaScript (mocha)"
		r.Completion = "npx mocha"
		if script != "" {
			r.Completion = "npm test"
		}
		r.TestFiles = append(append([]string(nil), jsTests...), "**/test/**")
		switch {
		case has("c8"):
			r.Coverage = &Metric{Name: "coverage", Command: "npx c8 --reporter=text-summary mocha 2>&1", Regex: summary, Direction: "higher"}
		case has("nyc"):
			r.Coverage = &Metric{Name: "coverage", Command: "npx nyc --reporter=text-summary mocha 2>&1", Regex: summary, Direction: "higher"}
		default:
			r.NoCoverage = "mocha measures no coverage; with c8 (npm i -D c8): npx c8 --reporter=text-summary mocha, regex 'Statements\\s*:\\s*([0-9.]+)%'"
		}
	case script != "":
		r.Name = "JavaScript (npm test)"
		r.Completion = "npm test"
		r.NoCoverage = "add a metric whose command prints your coverage"
	default:
		return Runner{}, false
	}
	return r, true
}

// pythonRunner finds a Python project (pyproject.toml, setup.py,
// setup.cfg, requirements, pytest.ini, tox.ini, conftest.py) and whether
// it uses pytest and pytest-cov.
func pythonRunner(read func(string) string, exists func(string) bool) (Runner, bool) {
	var found []string
	var text strings.Builder
	for _, f := range []string{"pyproject.toml", "setup.py", "setup.cfg", "requirements.txt", "requirements-dev.txt", "requirements_dev.txt", "pytest.ini", "tox.ini", "conftest.py"} {
		if exists(f) {
			found = append(found, f)
			text.WriteString(read(f))
			text.WriteByte('\n')
		}
	}
	if len(found) == 0 {
		return Runner{}, false
	}
	all := text.String()
	r := Runner{Found: strings.Join(found, ", "), TestFiles: []string{"**/test_*.py", "**/*_test.py", "**/conftest.py", "**/tests/**"}}
	if strings.Contains(all, "pytest") || exists("pytest.ini") || exists("conftest.py") {
		r.Name = "Python (pytest)"
		r.Completion = "python -m pytest"
		if strings.Contains(all, "pytest-cov") || strings.Contains(all, "pytest_cov") {
			r.Coverage = &Metric{Name: "coverage", Command: "python -m pytest -q --cov --cov-report=term 2>&1 | grep '^TOTAL'", Regex: `([0-9.]+)%\s*$`, Direction: "higher"}
		} else {
			r.NoCoverage = "with pytest-cov installed: python -m pytest -q --cov --cov-report=term | grep '^TOTAL', regex '([0-9.]+)%\\s*$'"
		}
		return r, true
	}
	r.Name = "Python (unittest)"
	r.Completion = "python -m unittest discover -v"
	r.Why = "no pytest found; -v names each test, so the stop hook can count them"
	r.NoCoverage = "with coverage installed: coverage run -m unittest discover >/dev/null 2>&1; coverage report | tail -n 1, regex '([0-9.]+)%\\s*$'"
	return r, true
}

// jvmRunner finds Maven (pom.xml) or Gradle (build.gradle[.kts]).
func jvmRunner(read func(string) string, exists func(string) bool) (Runner, bool) {
	tests := []string{"**/src/test/**", "**/*{Test,Tests,IT}.java", "**/*{Test,Tests}.kt"}
	switch {
	case exists("pom.xml"):
		r := Runner{Name: "Java (Maven)", Found: "pom.xml", Completion: "mvn test", TestFiles: tests,
			Why: "not mvn -q: the stop hook reads Surefire's \"Tests run:\" summary"}
		if exists("mvnw") {
			r.Completion = "./mvnw test"
		}
		if strings.Contains(read("pom.xml"), "jacoco") {
			r.NoCoverage = "JaCoCo is in pom.xml: a metric can read target/site/jacoco/jacoco.csv after mvn verify"
		} else {
			r.NoCoverage = "Maven measures no coverage without a plugin such as JaCoCo"
		}
		return r, true
	case exists("build.gradle") || exists("build.gradle.kts"):
		found := "build.gradle"
		if exists("build.gradle.kts") {
			found = "build.gradle.kts"
		}
		r := Runner{Name: "Java (Gradle)", Found: found, Completion: "gradle test", TestFiles: tests,
			NoCoverage: "Gradle measures no coverage without a plugin such as JaCoCo"}
		if exists("gradlew") {
			r.Completion = "./gradlew test"
		}
		return r, true
	}
	return Runner{}, false
}

// rubyRunner reads the Gemfile: RSpec, else minitest through rake.
func rubyRunner(gem string, exists func(string) bool) Runner {
	r := Runner{Found: "Gemfile", TestFiles: []string{"**/*_spec.rb", "**/spec/**", "**/*_test.rb", "**/test/**"}}
	if strings.Contains(gem, "rspec") || exists("spec") || exists(".rspec") {
		r.Name, r.Completion = "Ruby (RSpec)", "bundle exec rspec"
	} else {
		r.Name, r.Completion = "Ruby (minitest)", "bundle exec rake test"
	}
	if strings.Contains(gem, "simplecov") {
		r.NoCoverage = "SimpleCov is in the Gemfile: a metric can read coverage/.last_run.json with json_path result.line"
	} else {
		r.NoCoverage = "add SimpleCov for coverage, then a metric reading coverage/.last_run.json (json_path result.line)"
	}
	return r
}

// Generate returns the aiwg.yml for runners, with comments. With no
// runner it is a commented skeleton with no completion command.
func Generate(runners []Runner) []byte {
	var b bytes.Buffer
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	w("# aiwg.yml: ralph-hooks configuration for this project, written by ralph init\n")
	if len(runners) == 0 {
		w("# (it found no go.mod, package.json, pyproject.toml, Cargo.toml, pom.xml,\n# build.gradle, Gemfile or Makefile test target here).\n")
	} else {
		var found []string
		for _, r := range runners {
			found = append(found, r.Found+" → "+r.Name)
		}
		w("# from what it found: %s.\n", strings.Join(found, "; "))
	}
	w("# Every key is optional; README.md's Configuration lists them all, with\n# their defaults. An unknown key or a bad value is an error naming the line.\n\n")

	w("# A loop is done when this command passes (exit 0) with no test deleted or\n# skipped. ralph start --completion overrides it for one loop.\n")
	var cmds []string
	for _, r := range runners {
		if r.Why != "" {
			w("# %s: %s.\n", r.Completion, r.Why)
		}
		cmds = append(cmds, r.Completion)
	}
	if len(runners) > 1 {
		w("# Every runner found, one after the other.\n")
	}
	w("completion:\n")
	if len(cmds) == 0 {
		w("  command: \"\"             # set it: the command that says the task is done\n")
	} else {
		w("  command: %s\n", scalar(strings.Join(cmds, " && ")))
	}
	w("  timeout: 5m              # ralph install sizes the Stop hook's timeout from it\n\n")

	var globs []string
	seen := map[string]bool{}
	for _, r := range runners {
		for _, g := range r.TestFiles {
			if !seen[g] {
				seen[g] = true
				globs = append(globs, g)
			}
		}
	}
	if len(globs) > 0 {
		w("# The test files: the guard refuses deleting, skipping or weakening their\n# tests, and the stop hook counts their tests, skips and assertions against\n# the loop's start. This list replaces the default one (every language's).\n")
		w("test_files:\n")
		for _, g := range globs {
			w("  - %s\n", scalar(g))
		}
		w("\n")
	}

	w("# Measured at the start of a loop (its baseline) and after every iteration;\n# worse than at the start is a regression the agent is told about.\n")
	var ms []*Metric
	for _, r := range runners {
		if r.Coverage != nil {
			ms = append(ms, r.Coverage)
		}
	}
	for _, r := range runners {
		if r.Coverage == nil && r.NoCoverage != "" {
			w("# %s: %s.\n", r.Name, r.NoCoverage)
		}
	}
	if len(ms) == 0 {
		w("metrics: []\n")
	} else {
		w("metrics:\n")
		names := map[string]int{}
		for _, m := range ms {
			name := m.Name
			if names[m.Name]++; names[m.Name] > 1 {
				name = fmt.Sprintf("%s-%d", m.Name, names[m.Name])
			}
			w("  - name: %s\n    command: %s\n    parser:\n      regex: %s\n    direction: %s\n    timeout: 10m\n", scalar(name), literal(m.Command), literal(m.Regex), m.Direction)
		}
	}
	return b.Bytes()
}

// scalar renders s as a one-line YAML scalar, quoted when it needs to be.
func scalar(s string) string {
	out, err := yaml.Marshal(s)
	if err != nil || bytes.Count(bytes.TrimSpace(out), []byte("\n")) > 0 {
		return fmt.Sprintf("%q", s)
	}
	return string(bytes.TrimSpace(out))
}

// literal renders s as a single-quoted YAML scalar: nothing in it is an
// escape, which suits commands and regular expressions.
func literal(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// Check loads data as aiwg.yml, as every hook would: a generated file
// that does not load is a bug of ralph init.
func Check(data []byte) (*config.Config, error) {
	return config.Parse("aiwg.yml", data)
}

// Summary says in one line each what the runners give.
func Summary(runners []Runner) []string {
	var out []string
	for _, r := range runners {
		s := fmt.Sprintf("%s (%s): completion %q, %d test globs", r.Name, r.Found, r.Completion, len(r.TestFiles))
		if r.Coverage != nil {
			s += ", coverage metric"
		}
		out = append(out, s)
	}
	return out
}
