package completion

import (
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// jvmFiles are Maven's and Gradle's files that decide a build as a whole
// and are digested whole: the options and JVM arguments every mvn run
// takes, gradle's properties and the projects settings includes.
var jvmFiles = []string{".mvn/maven.config", ".mvn/jvm.config", ".mvn/extensions.xml",
	"gradle.properties", "settings.gradle", "settings.gradle.kts"}

// maxJVMModules bounds the modules whose build files are read.
const maxJVMModules = 200

// pomPlugin matches a <plugin> element of a pom.
var pomPlugin = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?s)<plugin>.*?</plugin>`) })

// pomElement matches an element with a text value: <skipTests>true</skipTests>.
var pomElement = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`<([A-Za-z][\w.-]*)(?:\s[^>]*)?>([^<]*)</([A-Za-z][\w.-]*)>`)
})

// pomModule matches a <module> of a pom's <modules>.
var pomModule = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<module>\s*([^<]+?)\s*</module>`) })

// xmlComment matches an XML comment.
var xmlComment = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?s)<!--.*?-->`) })

// pomTestKey reports whether the pom element or property named k decides
// which tests run, where from or how they fail: skipTests, maven.test.skip,
// maven.test.failure.ignore, surefire.* and failsafe.*, test, groups,
// argLine (the test JVM's arguments: a -javaagent), the source and test
// source directories.
func pomTestKey(k string) bool {
	k = strings.ToLower(k)
	for _, w := range []string{"test", "skip", "surefire", "failsafe", "argline", "groups", "junit", "sourcedirectory", "outputdirectory"} {
		if strings.Contains(k, w) {
			return true
		}
	}
	return false
}

// pomTestConfig returns what of the pom src decides its tests: the
// surefire and failsafe plugins' elements (with their configuration:
// skipTests, testFailureIgnore, includes, excludes, …) wherever they are
// (build, pluginManagement, a profile), and the other elements of
// [pomTestKey] (properties, build directories), one a line, whitespace
// and comments left out. A dependency is not one of them.
func pomTestConfig(src []byte) string {
	s := xmlComment().ReplaceAllString(string(src), "")
	var out []string
	for _, p := range pomPlugin().FindAllString(s, -1) {
		if strings.Contains(p, "maven-surefire-plugin") || strings.Contains(p, "maven-failsafe-plugin") {
			out = append(out, strings.Join(strings.Fields(p), " "))
		}
	}
	rest := pomPlugin().ReplaceAllString(s, "")
	for _, m := range pomElement().FindAllStringSubmatch(rest, -1) {
		if m[1] == m[3] && pomTestKey(m[1]) {
			out = append(out, m[1]+"="+strings.TrimSpace(m[2]))
		}
	}
	return strings.Join(out, "\n")
}

// gradleTestStart matches the start of a Gradle block that configures the
// test tasks or the sources they build: test { , tasks.test { ,
// tasks.named("test") { , tasks.withType(Test) { , tasks.withType<Test> { ,
// tasks.register("it", Test) { , sourceSets { , testing { , with an
// optional .configure.
var gradleTestStart = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)(?:^|[\s;])(?:tasks\.)?(?:test|named\(\s*["']test["']\s*(?:,\s*Test(?:::class)?\s*)?\)|getByName\(\s*["']test["']\s*\)|withType\(\s*Test(?:::class(?:\.java)?)?\s*\)(?:\.configureEach)?|withType<Test>\s*(?:\(\s*\))?(?:\.configureEach)?|register\(\s*["'][^"']*["']\s*,\s*Test(?:::class)?\s*\)|create\(\s*["'][^"']*["']\s*,\s*Test(?:::class)?\s*\)|sourceSets|testing)\s*(?:\.configure\s*)?\{`)
})

// gradleTestLine matches a statement on the test task by property
// (test.ignoreFailures = true, tasks.test.get().enabled = false).
var gradleTestLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^\s*(?:tasks\.)?test(?:\.get\(\))?\.\S.*$`)
})

// maxGradleBlocks bounds the blocks read from one Gradle script (each is
// read to its closing brace).
const maxGradleBlocks = 200

// gradleTestConfig returns what of the Gradle build script src decides
// its tests: the blocks that configure the test tasks or the source sets
// (exclude, filter, ignoreFailures, enabled, onlyIf, jvmArgs, srcDirs …)
// and the statements on the test task by property, whitespace left out.
// The dependencies block is not one of them.
func gradleTestConfig(src []byte) string {
	s := string(src)
	var out []string
	for _, ix := range gradleTestStart().FindAllStringIndex(s, maxGradleBlocks) {
		open := ix[1] - 1 // the {
		depth, end := 0, len(s)
		for i := open; i < len(s); i++ {
			switch s[i] {
			case '{':
				depth++
			case '}':
				depth--
			}
			if depth == 0 {
				end = i + 1
				break
			}
		}
		out = append(out, strings.Join(strings.Fields(s[ix[0]:end]), " "))
	}
	for _, l := range gradleTestLine().FindAllString(s, -1) {
		out = append(out, strings.TrimSpace(l))
	}
	return strings.Join(out, "\n")
}

// gradleInclude matches the project paths of settings.gradle's include.
var gradleInclude = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^\s*include\b(.*)$`)
})

// jvmInputs digests what decides the outcome of Maven's and Gradle's test
// runs in the project at root: [jvmFiles] whole; the test configuration
// of pom.xml ([pomTestConfig]) and of build.gradle(.kts)
// ([gradleTestConfig]), at the root and in each module the pom's
// <modules> or settings.gradle's include name.
func jvmInputs(root string, file func(rel string), in Inputs) {
	for _, f := range jvmFiles {
		file(f)
	}
	n := 0
	var pom func(dir string)
	pom = func(dir string) {
		rel := path.Join(dir, "pom.xml")
		src, _ := readSmall(filepath.Join(root, filepath.FromSlash(rel)))
		if src == nil {
			return
		}
		if c := pomTestConfig(src); c != "" {
			in.add(rel+" test configuration", []byte(c))
		}
		for _, m := range pomModule().FindAllStringSubmatch(xmlComment().ReplaceAllString(string(src), ""), -1) {
			sub := path.Clean(path.Join(dir, m[1]))
			if sub == "." || strings.HasPrefix(sub, "..") || n >= maxJVMModules {
				continue
			}
			n++
			pom(sub)
		}
	}
	pom("")
	dirs := []string{""}
	for _, f := range []string{"settings.gradle", "settings.gradle.kts"} {
		src, _ := readSmall(filepath.Join(root, f))
		if len(src) == 0 {
			continue // none: nothing for the pattern to match
		}
		for _, m := range gradleInclude().FindAllStringSubmatch(string(src), -1) {
			for _, q := range quoted().FindAllStringSubmatch(m[1], -1) {
				d := path.Clean(strings.ReplaceAll(strings.TrimPrefix(q[1], ":"), ":", "/"))
				if d != "." && !strings.HasPrefix(d, "..") && len(dirs) < maxJVMModules {
					dirs = append(dirs, d)
				}
			}
		}
	}
	for _, d := range dirs {
		for _, f := range []string{"build.gradle", "build.gradle.kts"} {
			rel := path.Join(d, f)
			src, _ := readSmall(filepath.Join(root, filepath.FromSlash(rel)))
			if src == nil {
				continue
			}
			if c := gradleTestConfig(src); c != "" {
				in.add(rel+" test configuration", []byte(c))
			}
		}
	}
}
