package risk

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/event"
)

// TestRunnerConfig checks that an edit of the runner's configuration
// inside package.json, pyproject.toml or setup.cfg asks, and that every
// other edit of those files does not.
func TestRunnerConfig(t *testing.T) {
	root := sample(t)
	files := map[string]string{
		"package.json":   "{\n  \"name\": \"x\",\n  \"scripts\": {\n    \"test\": \"jest\"\n  }\n}\n",
		"pyproject.toml": "[project]\nname = \"x\"\n\n[tool.pytest.ini_options]\naddopts = \"-q\"\n",
		"setup.cfg":      "[metadata]\nname = x\n\n[tool:pytest]\ntestpaths = tests\n",
		"Cargo.toml":     "[package]\nname = \"x\"\nversion = \"0.1.0\"\n\n[lib]\npath = \"src/lib.rs\"\n\n[[test]]\nname = \"calc\"\n\n[dependencies]\nserde = \"1\"\n",
		"pom.xml": "<project>\n  <version>1.0</version>\n  <properties>\n    <java.version>21</java.version>\n  </properties>\n  <dependencies>\n    <dependency><artifactId>gson</artifactId><version>2.10</version></dependency>\n  </dependencies>\n" +
			"  <build>\n    <plugins>\n      <plugin>\n        <artifactId>maven-surefire-plugin</artifactId>\n        <version>3.2.5</version>\n      </plugin>\n      <plugin>\n        <artifactId>maven-jar-plugin</artifactId>\n      </plugin>\n    </plugins>\n  </build>\n</project>\n",
		"build.gradle": "plugins {\n    id 'java'\n}\n\ndependencies {\n    testImplementation 'org.junit.jupiter:junit-jupiter:5.10.0'\n}\n\ntest {\n    useJUnitPlatform()\n}\n",
	}
	for f, text := range files {
		if err := os.WriteFile(filepath.Join(root, f), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	g := newGuard(t, root, nil)
	edit := func(f, old, new string) (string, string) {
		in, _ := json.Marshal(map[string]string{"file_path": filepath.Join(root, f), "old_string": old, "new_string": new})
		return "Edit", string(in)
	}
	write := func(f, content string) (string, string) {
		in, _ := json.Marshal(map[string]string{"file_path": filepath.Join(root, f), "content": content})
		return "Write", string(in)
	}
	for _, tt := range []struct {
		name string
		tool func() (string, string)
		want answer.Decision
	}{
		{"test script to echo", func() (string, string) { return edit("package.json", `"test": "jest"`, `"test": "echo ok"`) }, answer.Ask},
		{"jest key added", func() (string, string) {
			return edit("package.json", `"name": "x",`, `"name": "x", "jest": {"testPathIgnorePatterns": ["calc"]},`)
		}, answer.Ask},
		{"addopts deselecting", func() (string, string) {
			return edit("pyproject.toml", `addopts = "-q"`, `addopts = "-q -k 'not add'"`)
		}, answer.Ask},
		{"testpaths elsewhere", func() (string, string) { return edit("setup.cfg", "testpaths = tests", "testpaths = docs") }, answer.Ask},
		{"pytest section removed", func() (string, string) { return write("pyproject.toml", "[project]\nname = \"x\"\n") }, answer.Ask},
		{"cargo: the lib's unit tests off", func() (string, string) {
			return edit("Cargo.toml", "path = \"src/lib.rs\"\n", "path = \"src/lib.rs\"\ntest = false\n")
		}, answer.Ask},
		{"cargo: autotests off", func() (string, string) {
			return edit("Cargo.toml", "version = \"0.1.0\"\n", "version = \"0.1.0\"\nautotests = false\n")
		}, answer.Ask},
		{"cargo: an integration test without its harness", func() (string, string) {
			return edit("Cargo.toml", "name = \"calc\"\n", "name = \"calc\"\nharness = false\n")
		}, answer.Ask},
		{"cargo: an integration test target removed", func() (string, string) {
			return edit("Cargo.toml", "[[test]]\nname = \"calc\"\n", "")
		}, answer.Ask},
		{"cargo: a binary's tests off", func() (string, string) {
			return edit("Cargo.toml", "[dependencies]", "[[bin]]\nname = \"cli\"\ntest = false\n\n[dependencies]")
		}, answer.Ask},
		{"cargo: a dependency added", func() (string, string) {
			return edit("Cargo.toml", "serde = \"1\"\n", "serde = \"1\"\nanyhow = \"1\"\n")
		}, answer.Allow},
		{"cargo: a binary added", func() (string, string) {
			return edit("Cargo.toml", "[dependencies]", "[[bin]]\nname = \"cli\"\npath = \"src/main.rs\"\n\n[dependencies]")
		}, answer.Allow},
		{"cargo: the version bumped", func() (string, string) { return edit("Cargo.toml", "0.1.0", "0.2.0") }, answer.Allow},
		{"a dependency added", func() (string, string) {
			return edit("package.json", `"name": "x",`, `"name": "x", "dependencies": {"left-pad": "1"},`)
		}, answer.Allow},
		{"surefire: reruns of failing tests", func() (string, string) {
			return edit("pom.xml", "<version>3.2.5</version>\n", "<version>3.2.5</version>\n        <configuration><rerunFailingTestsCount>3</rerunFailingTestsCount></configuration>\n")
		}, answer.Ask},
		{"surefire: a group excluded", func() (string, string) {
			return edit("pom.xml", "<version>3.2.5</version>\n", "<version>3.2.5</version>\n        <configuration><excludedGroups>slow</excludedGroups></configuration>\n")
		}, answer.Ask},
		{"maven: tests skipped by a property", func() (string, string) {
			return edit("pom.xml", "<java.version>21</java.version>\n", "<java.version>21</java.version>\n    <skipTests>true</skipTests>\n")
		}, answer.Ask},
		{"maven: failures ignored by a property", func() (string, string) {
			return edit("pom.xml", "<java.version>21</java.version>\n", "<java.version>21</java.version>\n    <maven.test.failure.ignore>true</maven.test.failure.ignore>\n")
		}, answer.Ask},
		{"maven: a dependency bumped", func() (string, string) { return edit("pom.xml", "<version>2.10</version>", "<version>2.11</version>") }, answer.Allow},
		{"maven: another plugin configured", func() (string, string) {
			return edit("pom.xml", "<artifactId>maven-jar-plugin</artifactId>\n", "<artifactId>maven-jar-plugin</artifactId>\n        <configuration><archive/></configuration>\n")
		}, answer.Allow},
		{"maven: the java version", func() (string, string) {
			return edit("pom.xml", "<java.version>21</java.version>", "<java.version>22</java.version>")
		}, answer.Allow},
		{"gradle: tags excluded", func() (string, string) {
			return edit("build.gradle", "useJUnitPlatform()", "useJUnitPlatform {\n        excludeTags 'slow'\n    }")
		}, answer.Ask},
		{"gradle: failures ignored", func() (string, string) {
			return edit("build.gradle", "    useJUnitPlatform()\n", "    useJUnitPlatform()\n    ignoreFailures = true\n")
		}, answer.Ask},
		{"gradle: test-retry's retries", func() (string, string) {
			return edit("build.gradle", "    useJUnitPlatform()\n", "    useJUnitPlatform()\n    retry {\n        maxRetries = 3\n    }\n")
		}, answer.Ask},
		{"gradle: a dependency added", func() (string, string) {
			return edit("build.gradle", "junit-jupiter:5.10.0'\n", "junit-jupiter:5.10.0'\n    implementation 'com.google.guava:guava:33.0.0-jre'\n")
		}, answer.Allow},
		{"the project renamed", func() (string, string) { return edit("pyproject.toml", `name = "x"`, `name = "y"`) }, answer.Allow},
		{"reformatted", func() (string, string) {
			return write("package.json", "{\"name\": \"x\", \"scripts\": {\"test\": \"jest\"}}\n")
		}, answer.Allow},
		{"an old text not there", func() (string, string) { return edit("package.json", `"test": "nope"`, `"test": "echo"`) }, answer.Allow},
	} {
		tool, in := tt.tool()
		v, err := g.Event(&event.Event{Agent: "claude", Name: event.PreToolUse, Tool: tool, Input: json.RawMessage(in), Cwd: root})
		if err != nil {
			t.Fatal(err)
		}
		if v.Decision != tt.want {
			t.Errorf("%s: %s, want %s (%v)", tt.name, v.Decision, tt.want, v.Findings)
		}
	}
}
