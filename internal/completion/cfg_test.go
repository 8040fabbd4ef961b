package completion

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/testindex"
)

const pom = `<project>
  <modelVersion>4.0.0</modelVersion>
  <properties>
    <java.version>17</java.version>
  </properties>
  <modules>
    <module>core</module>
  </modules>
  <dependencies>
    <dependency>
      <groupId>org.junit.jupiter</groupId>
      <artifactId>junit-jupiter</artifactId>
      <version>5.10.0</version>
      <scope>test</scope>
    </dependency>
  </dependencies>
  <build>
    <plugins>
      <plugin>
        <artifactId>maven-surefire-plugin</artifactId>
        <version>3.2.5</version>
      </plugin>
    </plugins>
  </build>
</project>
`

const gradle = `plugins { id 'java' }

dependencies {
    testImplementation 'org.junit.jupiter:junit-jupiter:5.10.0'
}

test {
    useJUnitPlatform()
}
`

const gradleKts = `plugins { java }

dependencies {
    testImplementation("org.junit.jupiter:junit-jupiter:5.10.0")
}

tasks.withType<Test>().configureEach {
    useJUnitPlatform()
}
`

// Each input the completion command's outcome depends on that the
// previous attack round found untracked: a change that decides the
// outcome is reported, one that does not (a dependency, a registry) is
// not.
func TestCollectConfig(t *testing.T) {
	replaceMod := "module m\n\ngo 1.22\n\nrequire example.com/lib v0.0.0\n\nreplace example.com/lib => ./lib\n"
	cargo := "[package]\nname = \"c\"\nversion = \"0.1.0\"\n\n[dependencies]\nrand = \"1\"\n"
	ws := "[workspace]\nmembers = [\n  \"crates/*\",\n]\n"
	member := "[package]\nname = \"a\"\nversion = \"0.1.0\"\n\n[dependencies]\nrand = \"1\"\n"
	for _, c := range []struct {
		name     string
		command  string
		idx      []string
		base, to map[string]string
		want     []string
	}{
		{"go.mod replace changed", "go test ./...", nil,
			map[string]string{"go.mod": replaceMod},
			map[string]string{"go.mod": "module m\n\ngo 1.22\n\nrequire example.com/lib v0.0.0\n\nreplace example.com/lib => ./fake\n"},
			[]string{"go.mod replace and godebug lines changed"}},
		{"go.mod replace block added", "go test ./...", nil,
			map[string]string{"go.mod": "module m\n\ngo 1.22\n"},
			map[string]string{"go.mod": "module m\n\ngo 1.22\n\nreplace (\n\tx => ./x // fork\n)\n"},
			[]string{"go.mod replace and godebug lines added"}},
		{"go.mod godebug block", "go test ./...", nil,
			map[string]string{"go.mod": "module m\n\ngo 1.22\n"},
			map[string]string{"go.mod": "module m\n\ngo 1.22\n\ngodebug (\n\tpanicnil=1\n)\n"},
			[]string{"go.mod replace and godebug lines added"}},
		{"go.mod require and comments: no change", "go test ./...", nil,
			map[string]string{"go.mod": replaceMod},
			map[string]string{"go.mod": "module m\n\ngo 1.22\n\n// deps\nrequire (\n\texample.com/lib v0.1.0\n\texample.com/z v1.0.0\n)\n\nreplace   example.com/lib   =>   ./lib // the copy\n"},
			nil},
		{"go.mod replace target outside the project edited", "go test ./...", nil,
			map[string]string{"p/go.mod": "module m\n\ngo 1.22\n\nreplace x => ../out\n", "out/x.go": "package x\n", "out/go.mod": "module x\n"},
			map[string]string{"out/x.go": "package x\n\nfunc Sub() int { return 2 }\n", "out/README": "free"},
			[]string{"../out/x.go (a replace target of go.mod) changed"}},
		{"go.mod replace target in the project: the project's own code", "go test ./...", nil,
			map[string]string{"p/go.mod": replaceMod, "p/lib/lib.go": "package lib\n"},
			map[string]string{"p/lib/lib.go": "package lib\n\nfunc Sub() int { return 2 }\n"},
			nil},
		{"Cargo.toml [patch] added", "cargo test", nil,
			map[string]string{"Cargo.toml": cargo},
			map[string]string{"Cargo.toml": cargo + "\n[patch.crates-io]\nrand = { path = \"fake\" }\n"},
			[]string{"Cargo.toml [patch] and [replace] added"}},
		{"Cargo.toml [replace] changed", "cargo test", nil,
			map[string]string{"Cargo.toml": cargo + "[replace]\n\"rand:1.0.0\" = { path = \"a\" }\n"},
			map[string]string{"Cargo.toml": cargo + "[replace]\n\"rand:1.0.0\" = { path = \"fake\" }\n"},
			[]string{"Cargo.toml [patch] and [replace] changed"}},
		{"Cargo.toml dependencies: no change", "cargo test", nil,
			map[string]string{"Cargo.toml": cargo + "\n[patch.crates-io]\nrand = { path = \"r\" }\n"},
			map[string]string{"Cargo.toml": "[package]\nname = \"c\"\nversion = \"0.1.0\"\n\n[dependencies]\nrand = \"2\"\nserde = \"1\"\n\n# patched\n[patch.crates-io]\nrand = { path = \"r\" }\n"},
			nil},
		{"workspace member list changed", "cargo test", nil,
			map[string]string{"Cargo.toml": ws, "crates/a/Cargo.toml": member},
			map[string]string{"Cargo.toml": "[workspace]\nmembers = [\"crates/a\"]\nexclude = [\"crates/b\"]\n"},
			[]string{"Cargo.toml package and targets changed"}},
		{"workspace member's targets changed", "cargo test", nil,
			map[string]string{"Cargo.toml": ws, "crates/a/Cargo.toml": member},
			map[string]string{"crates/a/Cargo.toml": "[package]\nname = \"a\"\nversion = \"0.1.0\"\nautotests = false\n"},
			[]string{"crates/a/Cargo.toml package and targets changed"}},
		{"workspace member's [patch] added, dependencies changed", "cargo test", nil,
			map[string]string{"Cargo.toml": ws, "crates/a/Cargo.toml": member},
			map[string]string{"crates/a/Cargo.toml": "[package]\nname = \"a\"\nversion = \"0.1.0\"\n\n[dependencies]\nrand = \"2\"\n\n[patch.crates-io]\nx = { path = \"y\" }\n"},
			[]string{"crates/a/Cargo.toml [patch] and [replace] added"}},
		{"tests/pytest.ini added", "pytest tests", []string{"tests/unit/test_a.py"}, nil,
			map[string]string{"tests/pytest.ini": "[pytest]\npythonpath = fake\n"},
			[]string{"tests/pytest.ini added"}},
		{"tests/unit/.pytest.ini added", "pytest tests/unit", []string{"tests/unit/test_a.py"}, nil,
			map[string]string{"tests/unit/.pytest.ini": "[pytest]\naddopts = -p no:x\n"},
			[]string{"tests/unit/.pytest.ini added"}},
		{"tests/tox.ini [pytest], setup.cfg, pyproject.toml", "pytest tests", []string{"tests/test_a.py"}, nil,
			map[string]string{"tests/tox.ini": "[tox]\n[pytest]\naddopts = -x\n", "tests/setup.cfg": "[tool:pytest]\npythonpath = f\n",
				"tests/pyproject.toml": "[tool.pytest.ini_options]\npythonpath = [\"f\"]\n"},
			[]string{"tests/pyproject.toml [tool.pytest] added", "tests/setup.cfg [tool:pytest] added", "tests/tox.ini [pytest] added"}},
		{"a plugin tests/pytest.ini names, edited", "pytest tests", []string{"tests/test_a.py"},
			map[string]string{"tests/pytest.ini": "[pytest]\naddopts = -p forge\n", "tests/forge.py": ""},
			map[string]string{"tests/forge.py": "def pytest_runtest_makereport(): pass\n"},
			[]string{"tests/forge.py (named by the tests' configuration) changed"}},
		{"conftest.py above the tests, not in the census", "pytest tests", []string{"tests/unit/test_a.py"}, nil,
			map[string]string{"tests/conftest.py": "import calc\ncalc.sub = lambda a, b: a - b\n"},
			[]string{"tests/conftest.py added"}},
		{"other tools' sections below the root: no change", "pytest tests", []string{"tests/test_a.py"}, nil,
			map[string]string{"tests/setup.cfg": "[flake8]\nmax-line-length = 100\n", "tests/tox.ini": "[tox]\nenvlist = py3\n",
				"tests/pyproject.toml": "[tool.black]\nline-length = 100\n"},
			nil},
		{"pytest configuration of a directory without Python tests: no change", "pytest tests", []string{"tests/test_a.py"}, nil,
			map[string]string{"docs/pytest.ini": "[pytest]\n"},
			nil},
		{".npmrc script-shell", "npm test", nil,
			map[string]string{"package.json": `{"scripts":{"test":"jest"}}`},
			map[string]string{".npmrc": "script-shell=./swap.sh\n"},
			[]string{".npmrc added"}},
		{".npmrc node-options changed", "npm test", nil,
			map[string]string{"package.json": `{"scripts":{"test":"jest"}}`, ".npmrc": "registry=https://r.example/\n"},
			map[string]string{".npmrc": "registry=https://r.example/\nnode-options=--require ./patch.js\n"},
			[]string{".npmrc added"}},
		{".yarnrc.yml yarnPath", "yarn test", nil,
			map[string]string{"package.json": `{"scripts":{"test":"jest"}}`, ".yarnrc.yml": "yarnPath: .yarn/releases/yarn-4.1.0.cjs\n"},
			map[string]string{".yarnrc.yml": "yarnPath: .yarn/fake.cjs\n"},
			[]string{".yarnrc.yml changed"}},
		{".npmrc and .yarnrc.yml registries and credentials: no change", "npm test", nil,
			map[string]string{"package.json": `{"scripts":{"test":"jest"}}`, ".npmrc": "save-exact=true\n", ".yarnrc.yml": "nodeLinker: node-modules\n"},
			map[string]string{".npmrc": "save-exact=true\n; mirror\nregistry=https://r.example/\n//r.example/:_authToken=x\nstrict-ssl=false\nca=\"x\"\n",
				".yarnrc.yml": "nodeLinker: node-modules\nnpmRegistryServer: \"https://r.example\"\nnpmAuthToken: x\n"},
			nil},
		{".npmrc in a project without package.json: no digest", "pytest", nil, nil,
			map[string]string{".npmrc": "script-shell=x\n"},
			nil},
		{"pom.xml skipTests property", "mvn test", nil,
			map[string]string{"pom.xml": pom},
			map[string]string{"pom.xml": replaceOnce(pom, "<java.version>17</java.version>", "<java.version>17</java.version>\n    <skipTests>true</skipTests>")},
			[]string{"pom.xml test configuration changed"}},
		{"pom.xml surefire testFailureIgnore and excludes", "mvn test", nil,
			map[string]string{"pom.xml": pom},
			map[string]string{"pom.xml": replaceOnce(pom, "<version>3.2.5</version>", "<version>3.2.5</version>\n<configuration><testFailureIgnore>true</testFailureIgnore><excludes><exclude>**/CalcTest.java</exclude></excludes></configuration>")},
			[]string{"pom.xml test configuration changed"}},
		{"pom.xml failsafe added in a profile", "mvn verify", nil,
			map[string]string{"pom.xml": pom},
			map[string]string{"pom.xml": replaceOnce(pom, "</project>", "<profiles><profile><id>x</id><build><plugins><plugin><artifactId>maven-failsafe-plugin</artifactId><configuration><skipITs>true</skipITs></configuration></plugin></plugins></build></profile></profiles>\n</project>")},
			[]string{"pom.xml test configuration changed"}},
		{"a module's pom.xml includes", "mvn test", nil,
			map[string]string{"pom.xml": pom, "core/pom.xml": pom},
			map[string]string{"core/pom.xml": replaceOnce(pom, "<version>3.2.5</version>", "<version>3.2.5</version><configuration><includes><include>**/AddTest.java</include></includes></configuration>")},
			[]string{"core/pom.xml test configuration changed"}},
		{"pom.xml sourceDirectory to a copy", "mvn test", nil,
			map[string]string{"pom.xml": pom},
			map[string]string{"pom.xml": replaceOnce(pom, "<build>", "<build>\n<sourceDirectory>fake/src</sourceDirectory>")},
			[]string{"pom.xml test configuration changed"}},
		{"pom.xml dependencies and comments: no change", "mvn test", nil,
			map[string]string{"pom.xml": pom},
			map[string]string{"pom.xml": replaceOnce(replaceOnce(pom, "5.10.0", "5.11.0"), "<build>", "<!-- the build -->\n<build>") + "\n"},
			nil},
		{".mvn/maven.config and jvm.config", "mvn test", nil, nil,
			map[string]string{".mvn/maven.config": "-DskipTests\n", ".mvn/jvm.config": "-javaagent:x.jar\n"},
			[]string{".mvn/jvm.config added", ".mvn/maven.config added"}},
		{"build.gradle test block exclude", "gradle test", nil,
			map[string]string{"build.gradle": gradle},
			map[string]string{"build.gradle": replaceOnce(gradle, "useJUnitPlatform()", "useJUnitPlatform()\n    exclude '**/CalcTest*'")},
			[]string{"build.gradle test configuration changed"}},
		{"build.gradle ignoreFailures by property", "gradle test", nil,
			map[string]string{"build.gradle": gradle},
			map[string]string{"build.gradle": gradle + "test.ignoreFailures = true\n"},
			[]string{"build.gradle test configuration changed"}},
		{"build.gradle.kts filter in withType<Test>", "./gradlew test", nil,
			map[string]string{"build.gradle.kts": gradleKts},
			map[string]string{"build.gradle.kts": replaceOnce(gradleKts, "useJUnitPlatform()", "useJUnitPlatform()\n    filter { excludeTestsMatching(\"*Sub*\") }")},
			[]string{"build.gradle.kts test configuration changed"}},
		{"build.gradle.kts tasks.test and sourceSets", "./gradlew test", nil,
			map[string]string{"build.gradle.kts": gradleKts},
			map[string]string{"build.gradle.kts": gradleKts + "tasks.test { enabled = false }\nsourceSets { main { java.srcDirs(\"fake\") } }\n"},
			[]string{"build.gradle.kts test configuration changed"}},
		{"a subproject's build.gradle, gradle.properties, settings.gradle", "./gradlew test", nil,
			map[string]string{"settings.gradle": "include 'app', ':lib:core'\n", "build.gradle": gradle, "lib/core/build.gradle": gradle},
			map[string]string{"lib/core/build.gradle": gradle + "test { ignoreFailures = true }\n", "gradle.properties": "org.gradle.jvmargs=-javaagent:x.jar\n"},
			[]string{"gradle.properties added", "lib/core/build.gradle test configuration changed"}},
		{"build.gradle dependencies and plugins: no change", "gradle test", nil,
			map[string]string{"build.gradle": gradle},
			map[string]string{"build.gradle": replaceOnce(replaceOnce(gradle, "5.10.0", "5.11.0"), "id 'java'", "id 'java'\n    id 'jacoco'") + "\n// end\n"},
			nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			work := t.TempDir()
			t.Setenv("GOENV", "off")
			root := work
			if c.base["p/go.mod"] != "" {
				root = filepath.Join(work, "p")
			}
			rel := func(files map[string]string) map[string]string {
				out := map[string]string{}
				for p, s := range files {
					if root != work {
						if r, ok := strings.CutPrefix(p, "p/"); ok {
							p = r
						} else {
							p = "../" + p
						}
					}
					out[p] = s
				}
				return out
			}
			write(t, root, rel(c.base))
			idx := testindex.Index{}
			for _, p := range c.idx {
				idx[p] = testindex.File{}
				write(t, root, map[string]string{p: "def test_a():\n    pass\n"})
			}
			base := Collect(root, c.command, idx, nil, time.Time{})
			write(t, root, rel(c.to))
			got := Changed(base, Collect(root, c.command, idx, nil, time.Time{}))
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("Changed = %q, want %q\nbase: %v", got, c.want, base)
			}
		})
	}
}

// replaceOnce replaces the first old in s, which must hold it.
func replaceOnce(s, old, new string) string {
	if !strings.Contains(s, old) {
		panic("replaceOnce: no " + old)
	}
	return strings.Replace(s, old, new, 1)
}
