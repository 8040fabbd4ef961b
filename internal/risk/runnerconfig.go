package risk

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/tidwall/gjson"

	"github.com/ralph-hooks/ralph-hooks/internal/event"
)

// Some of what decides whether the completion command passes lives inside
// files the agent edits all day: package.json's scripts and its jest,
// vitest and mocha keys ("test": "echo ok" makes npm test pass),
// pyproject.toml's [tool.pytest.ini_options] and setup.cfg's
// [tool:pytest] (addopts = -k "not test_add"), Cargo.toml's test targets
// ([lib] test = false, autotests = false), pom.xml's Surefire and Failsafe
// blocks and test properties (excludedGroups, rerunFailingTestsCount,
// skipTests), build.gradle's test task (excludeTags, ignoreFailures,
// retry). The stop hook digests
// them (package completion); runnerConfig asks before a Write, Edit or
// MultiEdit changes them (rule completion-config), and lets every other
// change of those files through.

// runnerSections returns the parts of a runner's configuration in the
// file named name, by label; nil for a file that holds none.
func runnerSections(name string, src []byte) map[string]string {
	out := map[string]string{}
	switch name {
	case "package.json":
		for _, k := range []string{"scripts", "jest", "vitest", "mocha"} {
			if v := gjson.GetBytes(src, k+"|@ugly"); v.Exists() {
				out[k] = v.Raw
			}
		}
	case "pyproject.toml", "setup.cfg", "tox.ini":
		var cur string
		for l := range strings.Lines(string(src)) {
			t := strings.TrimSpace(l)
			if strings.HasPrefix(t, "[") {
				cur = ""
				switch t {
				case "[tool.pytest.ini_options]", "[tool.pytest]", "[tool:pytest]", "[pytest]":
					cur = t
				}
				continue
			}
			if cur != "" && t != "" && !strings.HasPrefix(t, "#") && !strings.HasPrefix(t, ";") {
				out[cur] += t + "\n"
			}
		}
	case "Cargo.toml":
		cargoSections(src, out)
	case "pom.xml":
		pomSections(src, out)
	case "build.gradle", "build.gradle.kts":
		gradleSections(src, out)
	default:
		return nil
	}
	return out
}

// pomPluginRe finds a Maven plugin's block; pomTestPropRe a property that
// says whether and how tests run (skipTests, maven.test.skip,
// maven.test.failure.ignore, surefire.*, failsafe.*, groups).
var (
	pomPluginRe   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?s)<plugin>.*?</plugin>`) })
	pomTestPropRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`<((?:skipTests|skipITs|maven\.test\.[\w.]+|surefire\.[\w.]+|failsafe\.[\w.]+|groups|excludedGroups|testFailureIgnore|rerunFailingTestsCount|junit\.[\w.]+))>([^<]*)<`)
	})
)

// pomSections adds to out the parts of a pom.xml that choose which tests
// Maven runs and whether their failures fail the build: the Surefire and
// Failsafe plugins' blocks (excludedGroups, excludes,
// rerunFailingTestsCount, testFailureIgnore, skipTests) and the
// properties they read. Dependencies and other plugins are not.
func pomSections(src []byte, out map[string]string) {
	for _, m := range pomPluginRe().FindAll(src, -1) {
		for _, p := range []string{"maven-surefire-plugin", "maven-failsafe-plugin"} {
			if bytes.Contains(m, []byte("<artifactId>"+p+"</artifactId>")) {
				out[p] += strings.Join(strings.Fields(string(m)), " ") + "\n"
			}
		}
	}
	for _, m := range pomTestPropRe().FindAllSubmatch(src, -1) {
		out["the test properties"] += string(m[1]) + "=" + strings.TrimSpace(string(m[2])) + "\n"
	}
}

// gradleTestRe finds the opening of a Gradle block that configures the
// test task: test {, tasks.test {, tasks.named('test') {,
// tasks.withType(Test) {, tasks.withType<Test> {, test.configure {.
var gradleTestRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(?:test|tasks\.test|tasks\.named\(\s*["']test["']\s*(?:,\s*Test(?:::class(?:\.java)?)?\s*)?\)|tasks\.withType\(\s*Test(?:::class(?:\.java)?)?\s*\)|tasks\.withType<Test>\(\)|tasks\.withType<Test>|test\.configure|tasks\.getByName\(\s*["']test["']\s*\))\s*(?:\{|\.configure\s*\{|\.configureEach\s*\{)`)
})

// gradleSections adds to out the blocks of a build.gradle(.kts) that
// configure its test task (useJUnitPlatform's tags, filters, excludes,
// ignoreFailures, the test-retry plugin's retry block), brace counted.
func gradleSections(src []byte, out map[string]string) {
	depth := 0
	for l := range strings.Lines(string(src)) {
		if depth == 0 && gradleTestRe().MatchString(l) {
			depth = 1
			out["the test task"] += strings.TrimSpace(l) + "\n"
			depth += strings.Count(l, "{") - 1 - strings.Count(l, "}")
			continue
		}
		if depth > 0 {
			if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "//") {
				out["the test task"] += t + "\n"
			}
			depth += strings.Count(l, "{") - strings.Count(l, "}")
			if depth < 0 {
				depth = 0
			}
		}
	}
}

// cargoSections adds to out the parts of a Cargo.toml that choose which
// tests cargo test builds and how they run: [lib] and [[test]] targets
// (test = false, harness = false, a path moved), the test and harness
// keys of [[bin]], [[bench]] and [[example]] targets, [package]'s
// autotests, autobins and kin, and [workspace] (a member excluded is not
// tested). Its dependencies, which the agent edits all day, are not.
func cargoSections(src []byte, out map[string]string) {
	var cur string
	all := false // every line of the section, or only its test keys
	for l := range strings.Lines(string(src)) {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "[") {
			cur, all = "", false
			switch t {
			case "[lib]", "[[test]]", "[workspace]":
				cur, all = t, true
			case "[[bin]]", "[[bench]]", "[[example]]", "[package]":
				cur = t
			}
			if t == "[[test]]" {
				out[cur] += "--\n" // a target added or removed
			}
			continue
		}
		if cur == "" || t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		k, _, _ := strings.Cut(t, "=")
		k = strings.TrimSpace(k)
		if all || k == "test" || k == "harness" || strings.HasPrefix(k, "auto") && cur == "[package]" {
			out[cur] += t + "\n"
		}
	}
}

// runnerConfig returns what part of a test runner's configuration the
// Write, Edit or MultiEdit ev makes of file p changes, or "".
func runnerConfig(ev *event.Event, p string) string {
	name := filepath.Base(p)
	if runnerSections(name, nil) == nil {
		return ""
	}
	before, err := os.ReadFile(p)
	if err != nil || len(before) > 4<<20 {
		return "" // a new file: it changes nothing the last run read
	}
	var after string
	switch ev.Tool {
	case "Write":
		if after, err = ev.Str("content"); err != nil {
			return ""
		}
	case "Edit", "MultiEdit":
		edits, err := ev.Edits()
		if err != nil {
			return ""
		}
		after = string(before)
		for _, e := range edits {
			if e.Old == "" || !strings.Contains(after, e.Old) {
				return "" // the tool refuses the edit
			}
			n := 1
			if e.ReplaceAll {
				n = -1
			}
			after = strings.Replace(after, e.Old, e.New, n)
		}
	default:
		return ""
	}
	b, a := runnerSections(name, before), runnerSections(name, []byte(after))
	for k, v := range a {
		if b[k] != v {
			return k
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			return k
		}
	}
	return ""
}

// runnerConfigFinding adds to v the finding of rule completion-config for
// a change of section part of file p, unless aiwg.yml has no such rule.
func (g *Guard) runnerConfigFinding(v *Verdict, tool, p, part string) {
	for _, r := range g.rules {
		if r.Name != "completion-config" {
			continue
		}
		reason := r.msg(tool, g.rel(p), "") + " (" + tool + " changes " + part + " of " + g.rel(p) + ")"
		g.add(v, g.finding(r, reason, "", []string{p}))
		g.decide(v)
		return
	}
}
