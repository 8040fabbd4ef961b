package shell

import (
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// toolAnalyzer reads files and lists directories from a map of absolute
// paths, as the guard reads the project.
func toolAnalyzer(files map[string]string) *Analyzer {
	m := fstest.MapFS{}
	for p, t := range files {
		m[strings.TrimPrefix(p, "/")] = &fstest.MapFile{Data: []byte(t)}
	}
	a := filesAnalyzer(files, nil)
	a.ReadDir = func(dir string) ([]fs.DirEntry, error) { return fs.ReadDir(m, strings.TrimPrefix(dir, "/")) }
	return a
}

// TestToolCode checks what a tool runs from the project's files, as the
// commands read from them.
func TestToolCode(t *testing.T) {
	files := map[string]string{
		"/p/.git/HEAD":                              "ref: refs/heads/main\n",
		"/p/conftest.py":                            "import shutil\nshutil.rmtree('tests')\n",
		"/p/sub/conftest.py":                        "import os\nos.remove('sub/x.txt')\n",
		"/p/.venv/conftest.py":                      "import shutil\nshutil.rmtree('venv-is-not-read')\n",
		"/p/pytest.ini":                             "[pytest]\naddopts = -q -p plug\n",
		"/p/plug.py":                                "import subprocess\nsubprocess.run('rm -rf plugged', shell=True)\n",
		"/p/go/x_test.go":                           "package x\n\nfunc TestMain(m *testing.M) {\n\tos.RemoveAll(\"gone\") // }\n\ts := \"}\"\n\tos.Exit(m.Run())\n}\n\nfunc TestX(t *testing.T) { os.RemoveAll(\"not-read\") }\n",
		"/p/go/x.go":                                "package x\n\nfunc init() { os.RemoveAll(\"init-runs-too\") }\n",
		"/p/rs/Cargo.toml":                          "[package]\nname = \"x\"\n[workspace]\nmembers = [\"m\"]\n",
		"/p/rs/build.rs":                            "fn main() { std::fs::remove_dir_all(\"a\").ok(); Command::new(\"rm\").arg(\"-f\").args(&[\"b\", \"c\"]).status(); fs::write(out.join(\"gen.rs\"), x); fs::write(\"tests/w.rs\", x); fs::write(; }\n",
		"/p/rs/m/Cargo.toml":                        "[package]\nname = \"m\"\nbuild = false\n[lib]\nproc-macro = true\n",
		"/p/rs/m/build.rs":                          "fn main() { std::fs::remove_dir_all(\"not-built\").ok(); }\n",
		"/p/rs/m/src/lib.rs":                        "fn f() { std::fs::remove_file(\"macro\").ok(); }\n",
		"/p/rb/Rakefile":                            "task :test do\n  sh 'rm -rf r1'\n  FileUtils.rm_rf('r2')\nend\n",
		"/p/rb/rakelib/x.rake":                      "task :x do\n  sh \"rm\", \"r3\"\nend\n",
		"/p/rb/.rspec":                              "--require spec_helper\n",
		"/p/rb/spec/spec_helper.rb":                 "FileUtils.rm_rf('s1')\n",
		"/p/nx/noxfile.py":                          "import nox\n\ndef helper(session):\n    session.run('rm', '-rf', 'h')\n\n@nox.session(\n    python='3',\n)\ndef tests(session):\n    helper(session)\n\n@nox.session\ndef lint(session):\n    session.run('rm', '-rf', 'l')\n",
		"/p/nx/tasks.py":                            "from invoke import task\n\n@task\ndef clean(c):\n    c.run('rm -rf c')\n\n@task(pre=[clean])\ndef build(c):\n    c.run('make')\n\n@task\ndef other(c):\n    c.run('rm -rf o')\n",
		"/p/tx/tox.ini":                             "[tox]\nskipsdist = true\n[base]\ncmds = rm -rf {envtmpdir}\n[testenv]\ncommands =\n    pytest {posargs:tests}\n    - rm -rf t1\n[testenv:lint]\ncommands = {[base]cmds}\n",
		"/p/cm/CMakeLists.txt":                      "execute_process(COMMAND rm -rf c1 WORKING_DIRECTORY .)\nadd_custom_target(t ALL COMMAND ${CMAKE_COMMAND} -E rm -rf c2 # x\n  COMMAND echo \"a b\")\nfile(REMOVE_RECURSE c3)\n",
		"/p/js/package.json":                        `{"jest": {"setupFiles": ["<rootDir>/setup"], "testEnvironment": "node"}}`,
		"/p/js/setup.js":                            "require('fs').rmSync('j1', {recursive: true})\n",
		"/p/mk/Makefile.toml":                       "[tasks.default]\ndependencies = [\"clean\"]\n[tasks.clean]\nscript = [\"rm -rf m1\"]\n",
		"/p/tp/pytest.ini":                          "[pytest]\ntestpaths =\n    tests\n",
		"/p/tp/tests/conftest.py":                   "import os\nos.remove('t1')\n",
		"/p/tp/other/conftest.py":                   "import os\nos.remove('not-collected')\n",
		"/p/gr/settings.gradle":                     "rootProject.name = 'x'\n",
		"/p/gr/app/build.gradle":                    "tasks.register('gen', Exec) {\n  commandLine 'rm', '-rf', 'a1'\n}\ndef s = \"rm -rf a2\".execute()\nfile('a3').deleteDir()\n",
		"/p/gr/build.gradle.kts":                    "tasks.register<Delete>(\"c\") { delete(rootProject.buildDir); delete(\"a4\") }\n",
		"/p/mv/pom.xml":                             "<project><configuration><executable>rm</executable><arguments><argument>-rf</argument><argument>m2</argument></arguments></configuration>\n<target><delete dir=\"m3\"/><exec executable=\"rm\"><arg value=\"m4\"/></exec></target></project>\n",
		"/p/pm/package.json":                        "{}",
		"/p/pm/.pnpmfile.cjs":                       "module.exports = {hooks: {readPackage(p) { require('fs').rmSync('n1', {recursive: true}); return p }}}\n",
		"/p/pm/.yarnrc.yml":                         "yarnPath: .yarn/releases/yarn.cjs\nplugins:\n  - path: .yarn/plugins/p.cjs\n  - .yarn/plugins/@yarnpkg/plugin-x.cjs\n",
		"/p/pm/.yarn/releases/yarn.cjs":             "fs.rmSync('not-read-release')\n",
		"/p/pm/.yarn/plugins/p.cjs":                 "fs.rmSync('n2')\n",
		"/p/pm/.yarn/plugins/@yarnpkg/plugin-x.cjs": "fs.rmSync('not-read-plugin')\n",
		"/p/pm/bunfig.toml":                         "preload = [\"./pre.ts\"]\n[test]\npreload = [\"./t.ts\", \"some-package\"]\n",
		"/p/pm/pre.ts":                              "fs.rmSync('n3')\n",
		"/p/pm/t.ts":                                "fs.rmSync('n4')\n",
		"/p/py/.venv/lib/python3.12/site-packages/x.pth":            "/some/path\nimport os; os.remove('v1')\n",
		"/p/py/.venv/lib/python3.12/site-packages/sitecustomize.py": "import os\nos.remove('v2')\n",
		"/p/py/lib/sitecustomize.py":                                "import os\nos.remove('v3')\n",
		"/p/gh/.git/HEAD":                                           "ref: refs/heads/main\n",
		"/p/gh/.git/config":                                         "[core]\n\tbare = false\n\thooksPath = .husky/_\n",
		"/p/gh/.husky/pre-commit":                                   "rm -rf g1\n",
		"/p/gh/.husky/_/pre-commit":                                 "#!/usr/bin/env sh\n. \"$(dirname \"$0\")/h\"\nrm -rf g5\n",
		"/p/gh/.husky/pre-push":                                     "rm -rf g2\n",
		"/p/gh/lefthook.yml":                                        "pre-commit:\n  commands:\n    a:\n      run: rm -rf g3\n",
		"/p/gh/.pre-commit-config.yaml":                             "repos:\n- repo: local\n  hooks:\n  - id: a\n    entry: rm\n    args: [-rf, g4]\n    language: system\n  - id: b\n    entry: rm -rf not-system\n    language: python\n- repo: https://x\n  hooks:\n  - id: c\n",
	}
	tests := []struct {
		src, dir string
		want     []string
	}{
		{"pytest", "/p", []string{"pytest", "rm -f t1 [via pytest]", "rm -f not-collected [via pytest]", "rm -r -f tests [via pytest]", "rm -f sub/x.txt [via pytest]", "rm -rf plugged [via pytest]"}},
		{"python3 -m pytest -p no:cacheprovider", "/p/sub", []string{"python3 -m pytest -p no:cacheprovider", "rm -r -f tests [via pytest]", "rm -f sub/x.txt [via pytest]", "rm -rf plugged [via pytest]"}},
		{"pytest", "/p/tp", []string{"pytest", "rm -f t1 [via pytest]", "rm -r -f tests [via pytest]", "rm -rf plugged [via pytest]"}},
		{"./gradlew test", "/p/gr/app", []string{"gradlew test", "rm -rf a1 [via gradle]", "rm -rf a2 [via gradle]", "rm -r -f a3 [via gradle]", "rm -r -f a4 [via gradle]"}},
		{"gradle --version", "/p/gr", []string{"gradle --version"}},
		{"mvn -q test", "/p/mv", []string{"mvn -q test", "rm -rf m2 [via mvn]", "rm -r -f m3 [via mvn]", "rm m4 [via mvn]"}},
		{"go test ./...", "/p", []string{"go test ./...", "rm -r -f gone [via go test]", "rm -r -f init-runs-too [via go test]"}},
		{"go vet ./...", "/p", []string{"go vet ./..."}},
		{"cargo test", "/p/rs", []string{"cargo test", "tee tests/w.rs [via cargo test]", "rm -r -f a [via cargo test]", "rm -f b c [via cargo test]", "rm -f macro [via cargo test]"}},
		{"cargo fmt", "/p/rs", []string{"cargo fmt"}},
		{"rake test", "/p/rb", []string{"rake test", "rm -rf r1 [via rake]", "rm -r -f r2 [via rake]", "rm r3 [via rake]"}},
		{"rspec", "/p/rb", []string{"rspec", "rm -r -f s1 [via rspec]"}},
		{"nox -s tests", "/p/nx", []string{"nox -s tests", "rm -rf h [via nox]"}},
		{"nox", "/p/nx", []string{"nox", "rm -rf h [via nox]", "rm -rf l [via nox]"}},
		{"invoke build", "/p/nx", []string{"invoke build", "rm -rf c [via invoke]", "make [via invoke]"}},
		{"tox -e py", "/p/tx", []string{"tox -e py", "pytest tests [via tox, testenv]", "rm -r -f tests [via tox, testenv, pytest]", "rm -rf plugged [via tox, testenv, pytest]", "rm -rf t1 [via tox, testenv]", "rm -rf /p/tx/.tox/env [via tox, testenv:lint]"}},
		{"cmake -S . -B build", "/p/cm", []string{"cmake -S . -B build", "rm -rf c1 [via cmake]", "cmake -E rm -rf c2 [via cmake]", "rm -rf c2 [via cmake, cmake, -E rm]", "echo a b [via cmake]", "rm -r -f c3 [via cmake]"}},
		{"npx jest", "/p/js", []string{"jest [via npx]", "rm -r -f j1 [via npx, jest]"}},
		{"cargo make", "/p/mk", []string{"cargo make", "rm -rf m1 [via cargo make clean]"}},
		{"pnpm install", "/p/pm", []string{"pnpm install", "rm -r -f n1 [via pnpm .pnpmfile]"}},
		{"pnpm test", "/p/pm", []string{"pnpm test"}},
		{"yarn build", "/p/pm", []string{"yarn build", "rm -r -f n2 [via yarn .yarnrc.yml]"}},
		{"bun test", "/p/pm", []string{"bun test", "rm -r -f n3 [via bun preload]", "rm -r -f n4 [via bun preload]"}},
		{"bun install", "/p/pm", []string{"bun install"}},
		{"python3 x.py; pytest", "/p/py", []string{"python3 x.py", "pytest", "rm -f v1 [via python start-up]", "rm -f v2 [via python start-up]", "rm -r -f tests [via pytest]", "rm -rf plugged [via pytest]"}},
		{"PYTHONPATH=lib python3 x.py", "/p/py", []string{"python3 x.py", "rm -f v1 [via python start-up]", "rm -f v2 [via python start-up]", "rm -f v3 [via python start-up]"}},
		{"git commit -m x", "/p/gh", []string{"git commit -m x", "rm -rf g1 [via git commit, hook pre-commit]", "rm -rf g5 [via git commit, hook pre-commit]"}},
		{"git -C /p/gh commit -m x", "/q", []string{"git -C /p/gh commit -m x", "rm -rf g1 [via git commit, hook pre-commit]", "rm -rf g5 [via git commit, hook pre-commit]"}},
		{"pytest /p/sub/test_x.py::test_a", "/q", []string{"pytest /p/sub/test_x.py::test_a", "rm -r -f tests [via pytest]", "rm -f sub/x.txt [via pytest]"}},
		{"go -C /p test ./...", "/q", []string{"go -C /p test ./...", "rm -r -f gone [via go test]", "rm -r -f init-runs-too [via go test]"}},
		{"rake -C /p/rb test", "/q", []string{"rake -C /p/rb test", "rm -rf r1 [via rake]", "rm -r -f r2 [via rake]", "rm r3 [via rake]"}},
		{"git commit --no-verify -m x", "/p/gh", []string{"git commit --no-verify -m x"}},
		{"git push", "/p/gh", []string{"git push", "rm -rf g2 [via git push, hook pre-push]"}},
		{"lefthook run pre-commit", "/p/gh", []string{"lefthook run pre-commit", "rm -rf g3 [via lefthook pre-commit, command a]"}},
		{"pre-commit run -a", "/p/gh", []string{"pre-commit run -a", "rm -rf g4 [via pre-commit, hook a]"}},
	}
	for _, tt := range tests {
		checkRuns(t, files, tt.src, tt.dir, tt.want)
	}
}

// TestManyCommands checks that a line of many commands that read no
// project file is not taken for runs of make past maxIndirect.
func TestManyCommands(t *testing.T) {
	src := strings.Repeat("echo x; ", 40)
	if a := toolAnalyzer(nil).Analyze(src, "/p"); len(a.OpaqueCode) > 0 {
		t.Errorf("40 echos: opaque code %q", a.OpaqueCode)
	}
}

// FuzzToolFiles checks that no project file a tool runs code from makes
// the analysis panic or loop: conftest.py, noxfile.py, tox.ini,
// CMakeLists.txt, Cargo.toml, build.rs, a _test.go file, lefthook.yml,
// .pre-commit-config.yaml, Makefile.toml, build.gradle, pom.xml and git's
// configuration.
func FuzzToolFiles(f *testing.F) {
	f.Add("import shutil\nshutil.rmtree('x')\n", "[testenv]\ncommands = {[a]b}\n", "execute_process(COMMAND rm \"x\" (a)\n", "[package]\nbuild = \"b.rs\"\n",
		"func TestMain(m *testing.M) { os.RemoveAll(\"x\") }", "pre-commit:\n  commands:\n    a:\n      run: rm x\n", "[core]\nhooksPath = h\n")
	f.Add("@task(\ndef\n@", "[testenv:x]\ncommands=\n {posargs:{x}}\n", "file(REMOVE", "[lib]\nproc-macro = true\npath = \"../x\"",
		"func init() { `", "repos: [{repo: local, hooks: [{entry: x, language: system, args: [1]}]}]", "[core")
	f.Fuzz(func(t *testing.T, py, tox, cmake, cargo, gotest, yml, gitcfg string) {
		if len(py)+len(tox)+len(cmake)+len(cargo)+len(gotest)+len(yml)+len(gitcfg) > 8192 {
			return
		}
		files := map[string]string{
			"/p/.git/HEAD": "ref: refs/heads/main\n", "/p/.git/config": gitcfg, "/p/.git/hooks/pre-commit": py,
			"/p/conftest.py": py, "/p/noxfile.py": py, "/p/tasks.py": py, "/p/Rakefile": py, "/p/tox.ini": tox,
			"/p/CMakeLists.txt": cmake, "/p/Cargo.toml": cargo, "/p/build.rs": cmake, "/p/x_test.go": gotest,
			"/p/build.gradle": cmake, "/p/pom.xml": tox,
			"/p/lefthook.yml": yml, "/p/.pre-commit-config.yaml": yml, "/p/Makefile.toml": cargo, "/p/h/pre-commit": tox,
		}
		for _, src := range []string{"pytest", "nox -s a", "invoke a", "rake", "tox", "cmake .", "cargo build", "cargo make a",
			"go test .", "lefthook run pre-commit", "pre-commit run", "git commit", "gradle build", "mvn test"} {
			checkAnalysis(t, src, toolAnalyzer(files).Analyze(src, "/p"))
		}
		pySelect(py, "task", []string{"a"})
		toxCommands(tox, "/p")
		cmakeCommands(cmake)
		goSetup(gotest)
		gitHooksPath(gitcfg)
		mavenCommands(tox)
	})
}

// checkRuns checks that src, run in dir of a project of files, runs want
// (renderAll's lines, in any order).
func checkRuns(t *testing.T, files map[string]string, src, dir string, want []string) {
	t.Helper()
	got := renderAll(toolAnalyzer(files).Analyze(src, dir))
	slices.Sort(got)
	want = slices.Clone(want)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("Analyze(%q) in %s =\n\t%q\nwant\n\t%q", src, dir, got, want)
	}
}
