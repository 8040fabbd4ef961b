package tamper

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// A tag or marker added to a test that ran (JUnit's @Tag("slow"),
// @Category(Slow.class), pytest's @pytest.mark.slow, RSpec's :slow) is
// harmless unless the project's runner leaves tests so tagged out: then
// the test no longer runs, as if skipped. The runner's settings are read
// from the project (Options.Excluded): Maven Surefire's excludedGroups,
// Gradle's excludeTags/excludeCategories, pytest's addopts -m "not slow",
// RSpec's --tag ~slow and filter_run_excluding.

var (
	javaTagRe = &lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
		return regexp.MustCompile(`@Tag\(\s*(?:value\s*=\s*)?"([^"]+)"\s*\)|@Category\(\s*\{?\s*([\w.]+)\.class`)
	}}
	pyMarkRe = &lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
		return regexp.MustCompile(`@pytest\.mark\.(\w+)`)
	}}
	rbTagRe = &lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:it|specify|example|scenario|describe|context)\b.*?,\s*(.*?)\s*(?:do\b.*|\{.*)$`)
	}}
	rbSymRe = &lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
		return regexp.MustCompile(`:(\w+)\b(?:\s*=>\s*true)?|\b(\w+):\s*true\b`)
	}}
)

// tagsOf returns the tags and markers of test text (its attributes and
// source), by name.
func tagsOf(lang, text string) map[string]bool {
	m := map[string]bool{}
	switch lang {
	case "java":
		for _, x := range javaTagRe.get().FindAllStringSubmatch(text, -1) {
			t := x[1]
			if t == "" {
				t = x[2][strings.LastIndexByte(x[2], '.')+1:]
			}
			m[t] = true
		}
	case "python":
		for _, x := range pyMarkRe.get().FindAllStringSubmatch(text, -1) {
			m[x[1]] = true
		}
	case "ruby":
		for l := range strings.Lines(text) {
			x := rbTagRe.get().FindStringSubmatch(strings.TrimSpace(l))
			if x == nil {
				continue
			}
			for _, s := range rbSymRe.get().FindAllStringSubmatch(quoted.get().ReplaceAllString(x[1], `""`), -1) {
				m[s[1]+s[2]] = true
			}
		}
	}
	return m
}

// tagged says how a change to a test (its text before and after) gave it
// a tag the project's runner leaves out, or "".
func tagged(lang, before, after string, excluded func() map[string]string) string {
	if excluded == nil || lang != "java" && lang != "python" && lang != "ruby" {
		return ""
	}
	was := tagsOf(lang, before)
	for t := range tagsOf(lang, after) {
		if was[t] {
			continue
		}
		if where, ok := excluded()[t]; ok {
			return "tags it `" + t + "`, which " + where + " leaves out of the run"
		}
	}
	return ""
}

// excludeRes read the tags a project's runner leaves out, by file.
var excludeRes = &lazy[map[string]*regexp.Regexp]{f: func() map[string]*regexp.Regexp {
	return map[string]*regexp.Regexp{
		"pom.xml":             regexp.MustCompile(`<(?:excludedGroups|excludeTags|excludedTags)>([^<]+)<`),
		"build.gradle":        regexp.MustCompile(`\bexclude(?:Tags|Categories)\s*\(?([^)\n]+)`),
		"build.gradle.kts":    regexp.MustCompile(`\bexclude(?:Tags|Categories)\s*\(?([^)\n]+)`),
		"pytest.ini":          regexp.MustCompile(`-m\s*=?\s*['"]?((?:not\s+)?\w[^'"\n]*)`),
		"pyproject.toml":      regexp.MustCompile(`-m\s*=?\s*\\?['"]?((?:not\s+)?\w[^'"\n\\]*)`),
		"setup.cfg":           regexp.MustCompile(`-m\s*=?\s*['"]?((?:not\s+)?\w[^'"\n]*)`),
		"tox.ini":             regexp.MustCompile(`-m\s*=?\s*['"]?((?:not\s+)?\w[^'"\n]*)`),
		".rspec":              regexp.MustCompile(`--tag\s+['"]?~(\w+)`),
		"spec/spec_helper.rb": regexp.MustCompile(`filter_run_excluding\s*\(?\s*((?::\w+|\w+:\s*true|:\w+\s*=>\s*true)(?:\s*,\s*(?::\w+|\w+:\s*true|:\w+\s*=>\s*true))*)`),
	}
}}

// tagWordRe finds the names in an exclusion's text.
var tagWordRe = &lazy[*regexp.Regexp]{f: func() *regexp.Regexp { return regexp.MustCompile(`[A-Za-z_][\w.-]*`) }}

// ExcludedTags returns the tags and markers the test runners of the
// project at root leave out, each with the file that says so: JUnit tags
// and categories (pom.xml, build.gradle), pytest markers deselected by
// addopts' -m "not …", RSpec tags (.rspec's --tag ~x, spec_helper's
// filter_run_excluding).
func ExcludedTags(root string) map[string]string {
	out := map[string]string{}
	for file, re := range excludeRes.get() {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(file)))
		if err != nil || len(b) > 1<<20 {
			continue
		}
		for _, m := range re.FindAllStringSubmatch(string(b), -1) {
			text := m[1]
			pytest := file == "pytest.ini" || file == "pyproject.toml" || file == "setup.cfg" || file == "tox.ini"
			words := tagWordRe.get().FindAllString(text, -1)
			for i, w := range words {
				switch {
				case pytest && (i == 0 || words[i-1] != "not"):
					continue // -m "slow" selects; only "not slow" leaves out
				case w == "not" || w == "and" || w == "or" || w == "true" || w == "class":
					continue
				}
				out[w[strings.LastIndexByte(w, '.')+1:]] = file
			}
		}
	}
	return out
}
