package shell

import (
	"slices"
	"strings"
	"testing"
)

// TestPreload checks the code a runtime loads from options outside the
// command line (NODE_OPTIONS, node --env-file, .npmrc node-options, the
// JVM's option variables, .mvn/jvm.config, java's own options) and the
// project modules a conftest.py imports.
func TestPreload(t *testing.T) {
	files := map[string]string{
		"/p/.git/HEAD":                "ref: refs/heads/main\n",
		"/p/x.js":                     "require('fs').rmSync('n1', {recursive: true})\n",
		"/p/lib/y.js":                 "require('fs').rmSync('n2', {recursive: true})\n",
		"/p/.env":                     "PORT=1\nexport NODE_OPTIONS=\"--require ./x.js --max-old-space-size=64\"\n",
		"/p/ok.env":                   "NODE_OPTIONS=--max-old-space-size=64\n",
		"/p/js/.npmrc":                "registry=https://r/\nnode-options=--import=./z.mjs\n",
		"/p/js/z.mjs":                 "import fs from 'fs'\nfs.rmSync('n3', {recursive: true})\n",
		"/p/js/package.json":          `{"scripts": {"test": "node -e 1"}}`,
		"/p/mv/pom.xml":               "<project/>\n",
		"/p/mv/.mvn/jvm.config":       "-Xmx4m -XX:OnOutOfMemoryError=rm${IFS}-rf${IFS}j1\n-XX:OnError=rm${IFS}-f${IFS}j2\n-XX:OnError=\"rm -f split-at-blanks\"\n",
		"/p/mv/sub/pom.xml":           "<project/>\n",
		"/p/py/tests/conftest.py":     "import os, helpers as h\nfrom support.db import make\nfrom . import local\n\ndef pytest_configure():\n    import late\n",
		"/p/py/tests/__init__.py":     "",
		"/p/py/tests/helpers.py":      "import shutil\nshutil.rmtree('p1')\nimport deeper\n",
		"/p/py/tests/deeper.py":       "import os\nos.remove('p2')\n",
		"/p/py/tests/local.py":        "import os\nos.remove('p3')\n",
		"/p/py/tests/late.py":         "import os\nos.remove('p4')\n",
		"/p/py/support/__init__.py":   "import os\nos.remove('p5')\n",
		"/p/py/support/db.py":         "import os\nos.remove('p6')\n",
		"/p/py/support/unused.py":     "import os\nos.remove('not-imported')\n",
		"/p/py/tests/cycle.py":        "import cycle\n",
		"/p/pp/pyproject.toml":        "[tool.pytest.ini_options]\npythonpath = [\"src\", 'extra']\n",
		"/p/pp/conftest.py":           "from pkg import thing\n",
		"/p/pp/src/pkg/__init__.py":   "",
		"/p/pp/src/pkg/thing.py":      "import os\nos.remove('q1')\n",
		"/p/pp/extra/pkg/__init__.py": "import os\nos.remove('not-first-found-but-read')\n",
		"/p/es/eslint.config.mjs":     "import js from '@eslint/js'\nimport local from './rules/index.js'\nfs.rmSync('e1', {recursive: true})\n",
		"/p/es/rules/index.js":        "fs.rmSync('e2', {recursive: true})\n",
		"/p/es/other.config.js":       "fs.rmSync('e3', {recursive: true})\n",
		"/p/es/x/plug.js":             "fs.rmSync('e4', {recursive: true})\n",
		"/p/pr/package.json":          `{"prettier": {"plugins": ["./pp.cjs"]}}`,
		"/p/pr/pp.cjs":                "fs.rmSync('f1', {recursive: true})\n",
		"/p/pr/sub/.prettierrc.cjs":   "fs.rmSync('f2', {recursive: true})\n",
		"/p/gr/settings.gradle":       "",
		"/p/gr/gradle.properties":     "org.gradle.caching=true\norg.gradle.jvmargs=-Xmx2g \\\n  \"-XX:OnOutOfMemoryError=rm -rf g1\"\n",
		"/p/pn/package.json":          `{"scripts": {"x": "./run.js"}}`,
		"/p/pn/run.js":                "fs.rmSync('not-prettier', {recursive: true})\n",
	}
	tests := []struct {
		src, dir string
		want     []string
	}{
		{"NODE_OPTIONS='--require ./x.js' node app.js", "/p", []string{"node app.js", "rm -r -f n1 [via NODE_OPTIONS]"}},
		{"export NODE_OPTIONS=--import=./lib/y.js; npm test", "/p", []string{"npm test", "rm -r -f n2 [via NODE_OPTIONS]"}},
		{"NODE_OPTIONS=--max-old-space-size=64 node app.js", "/p", []string{"node app.js"}},
		{"NODE_OPTIONS='-r dotenv/config' node app.js", "/p", []string{"node app.js"}},
		{"node --env-file=.env app.js", "/p", []string{"node --env-file=.env app.js", "rm -r -f n1 [via node --env-file]"}},
		{"node --env-file ok.env app.js", "/p", []string{"node --env-file ok.env app.js"}},
		{"node app.js --env-file=.env", "/p", []string{"node app.js --env-file=.env"}},
		{"npm test", "/p/js", []string{"npm test", "node -e 1 [via npm run test]", "rm -r -f n3 [via .npmrc node-options]"}},
		{"mvn -q test", "/p/mv/sub", []string{"mvn -q test", "rm -rf j1 [via .mvn/jvm.config, java -XX:OnOutOfMemoryError]", "rm -f j2 [via .mvn/jvm.config, java -XX:OnError]", "rm [via .mvn/jvm.config, java -XX:OnError]"}},
		{"JAVA_TOOL_OPTIONS='\"-XX:OnOutOfMemoryError=rm -rf j3\"' gradle build", "/p", []string{"gradle build", "rm -rf j3 [via JAVA_TOOL_OPTIONS, java -XX:OnOutOfMemoryError]"}},
		{"MAVEN_OPTS='-Xmx2g -XX:+UseG1GC' mvn test", "/p", []string{"mvn test"}},
		{"java -XX:OnOutOfMemoryError='rm -rf j4' -jar app.jar -XX:OnError=x", "/p", []string{"java -XX:OnOutOfMemoryError=rm -rf j4 -jar app.jar -XX:OnError=x", "rm -rf j4 [via java -XX:OnOutOfMemoryError]"}},
		{"pytest", "/p/py", []string{"pytest", "rm -r -f p1 [via pytest]", "rm -f p2 [via pytest]", "rm -f p3 [via pytest]", "rm -f p4 [via pytest]", "rm -f p5 [via pytest]", "rm -f p6 [via pytest]"}},
		{"pytest", "/p/pp", []string{"pytest", "rm -f q1 [via pytest]", "rm -f not-first-found-but-read [via pytest]"}},
		{"python3 tests/helpers.py", "/p/py/x", []string{"python3 tests/helpers.py"}},
		{"./gradlew build", "/p/gr", []string{"gradlew build", "rm -rf g1 [via gradle, org.gradle.jvmargs, java -XX:OnOutOfMemoryError]"}},
		{"eslint .", "/p/es", []string{"eslint .", "rm -r -f e1 [via eslint]", "rm -r -f e2 [via eslint, node loading index.js]"}},
		{"npx eslint --config other.config.js --plugin ./x/plug.js .", "/p/es", []string{"eslint --config other.config.js --plugin ./x/plug.js . [via npx]", "rm -r -f e3 [via npx, eslint]", "rm -r -f e4 [via npx, eslint]"}},
		{"eslint --version", "/p/es", []string{"eslint --version"}},
		{"prettier --check .", "/p/pr", []string{"prettier --check .", "rm -r -f f1 [via prettier]"}},
		{"prettier --check .", "/p/pr/sub", []string{"prettier --check .", "rm -r -f f2 [via prettier]"}},
		{"prettier --check .", "/p/pn", []string{"prettier --check ."}},
	}
	for _, tt := range tests {
		checkRuns(t, files, tt.src, tt.dir, tt.want)
	}
	// An agent computed at run time or a project jar cannot be read: ask.
	for _, src := range []string{"NODE_OPTIONS=$(cat f) node app.js", "JAVA_TOOL_OPTIONS=-javaagent:x.jar mvn test",
		"java -agentlib:jdwp=transport=dt_socket,server=y,onuncaught=y,launch=./x.sh -jar a.jar"} {
		if a := toolAnalyzer(files).Analyze(src, "/p"); len(a.Opaque) == 0 {
			t.Errorf("Analyze(%q): nothing opaque, want an ask", src)
		}
	}
}

// TestOptFields checks how runtime option lists are split.
func TestOptFields(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"  -Xmx4m\t-Xss1m ", []string{"-Xmx4m", "-Xss1m"}},
		{`-Xmx4m "-XX:OnError=rm -rf x"`, []string{"-Xmx4m", "-XX:OnError=rm -rf x"}},
		{`-XX:OnError='a b' c`, []string{"-XX:OnError=a b", "c"}},
		{`""`, []string{""}},
		{`"unclosed x`, []string{"unclosed x"}},
	}
	for _, tt := range tests {
		if got := optFields(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("optFields(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	for _, tt := range []struct{ text, want string }{
		{"NODE_OPTIONS=a\nNODE_OPTIONS='b c'\n", "b c"},
		{"  export NODE_OPTIONS = \"x\"", "x"},
		{"NODE_OPTIONS_X=a", ""},
	} {
		if got, _ := envFileValue(tt.text, "NODE_OPTIONS"); got != tt.want {
			t.Errorf("envFileValue(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
	if got := pytestPythonpath("[pytest]\npythonpath = src . # c\n", "/p"); !slices.Equal(got, []string{"/p/src", "/p"}) {
		t.Errorf("pytestPythonpath = %q", got)
	}
}

// FuzzPreloadFiles checks that no .env, .npmrc, jvm.config, conftest.py,
// pytest configuration or eslint and prettier configuration makes the analysis panic or loop.
func FuzzPreloadFiles(f *testing.F) {
	f.Add("NODE_OPTIONS=--require ./x.js", "-XX:OnError=\"rm x\"", "import a.b\nfrom . import c\nfrom .. import (d,\n e)", "pythonpath = [\"..\", '/']")
	f.Add("NODE_OPTIONS='", "-XX:OnOutOfMemoryError=", "from ....... import *\nimport .", "pythonpath =")
	f.Fuzz(func(t *testing.T, env, jvm, py, cfg string) {
		if len(env)+len(jvm)+len(py)+len(cfg) > 8192 {
			return
		}
		files := map[string]string{
			"/p/.git/HEAD": "ref: refs/heads/main\n", "/p/.env": env, "/p/.npmrc": env, "/p/x.js": py,
			"/p/.mvn/jvm.config": jvm, "/p/pom.xml": "<project/>", "/p/conftest.py": py, "/p/a/__init__.py": py,
			"/p/a/b.py": py, "/p/c.py": py, "/p/pytest.ini": cfg, "/p/pyproject.toml": cfg,
			"/p/eslint.config.js": py, "/p/.prettierrc": cfg,
		}
		for _, src := range []string{"node --env-file=.env a.js", "npm test", "mvn test", "pytest", "eslint .", "prettier -c .",
			"NODE_OPTIONS=" + shellQuote([]string{env}) + " node a.js", "JAVA_TOOL_OPTIONS=" + shellQuote([]string{jvm}) + " java -jar a.jar"} {
			checkAnalysis(t, src, toolAnalyzer(files).Analyze(src, "/p"))
		}
		optFields(env)
		envFileValue(env, "NODE_OPTIONS")
		pytestPythonpath(cfg, "/p")
	})
}

// TestPyImportTime checks what importing a module runs: not the bodies
// of its functions.
func TestPyImportTime(t *testing.T) {
	src := "import os\n\ndef f(a=(\n    1)):\n    os.remove('in-def')\n\n    # c\n    x = 1\nos.remove('top')\nclass C:\n    os.remove('class-body')\n    async def m(self):\n        os.remove('in-method')\n    y = 2\nif True:\n    os.remove('in-if')\n"
	want := "import os\nos.remove('top')\nclass C:\n    os.remove('class-body')\n    y = 2\nif True:\n    os.remove('in-if')"
	if got := pyImportTime(src); got != want {
		t.Errorf("pyImportTime =\n%s\nwant\n%s", got, want)
	}
	files := map[string]string{
		"/p/.git/HEAD":   "ref: refs/heads/main\n",
		"/p/conftest.py": "import big\nimport helpers\n",
		"/p/big.py":      "import bigger\nimport os\nos.remove('direct-big')\n",
		"/p/bigger.py":   "import os\nos.remove('b')\n" + strings.Repeat("X = 1\n", 10000),
		"/p/bigger2.py":  "import os\nos.remove('past-the-budget')\n",
		"/p/helpers.py":  "import bigger2\nimport os\nos.remove('direct-helper')\n",
	}
	a := toolAnalyzer(files).Analyze("pytest", "/p")
	got := renderAll(a)
	slices.Sort(got)
	want2 := []string{"pytest", "rm -f direct-big [via pytest]", "rm -f direct-helper [via pytest]"}
	if !slices.Equal(got, want2) || len(a.OpaqueCode) != 1 {
		t.Errorf("pytest past the import budget = %q, notes %q; want %q and one note", got, a.OpaqueCode, want2)
	}
}
