package shell

import (
	"strings"
	"testing"
)

// TestChangedToolCode: the code a tool runs from the project's files (a
// jest setup file its configuration names, spec_helper.rb, a Rakefile, a
// conftest.py), changed earlier in the line in a way ralph cannot read
// (sed -i, cp over it) or written where the disk has none yet, then run
// by the tool: the disk's text is not what runs, so the run is opaque.
// A file the line writes with literal text is read as written.
func TestChangedToolCode(t *testing.T) {
	files := map[string]string{
		"/p/.git/HEAD":              "ref: refs/heads/main\n",
		"/p/js/package.json":        `{"jest": {"setupFiles": ["<rootDir>/setup"], "testEnvironment": "node"}}`,
		"/p/js/setup.js":            "global.x = 1\n",
		"/p/rb/.rspec":              "--require spec_helper\n",
		"/p/rb/spec/spec_helper.rb": "require 'x'\n",
		"/p/rb/Rakefile":            "task :test do\n  sh 'true'\nend\n",
		"/p/tests/test_a.py":        "def test_a(): pass\n",
		"/p/go/go.mod":              "module x\n",
		"/p/go/x_test.go":           "package x\n\nfunc TestX(t *testing.T) {}\n",
		"/p/rs/Cargo.toml":          "[package]\nname = \"x\"\n",
		"/p/rs/build.rs":            "fn main() {}\n",
	}
	for _, tt := range []struct {
		src, dir string
		opaque   bool
		runs     string // a command the analysis must find, or ""
	}{
		{"sed -i 's/1/2/' setup.js && npx jest", "/p/js", true, ""},
		{"cp /tmp/s.js setup.js; jest", "/p/js", true, ""},
		{"perl -pi -e 's/x/y/' spec/spec_helper.rb && rspec", "/p/rb", true, ""},
		{"cp /tmp/R Rakefile && rake test", "/p/rb", true, ""},
		{"cp /tmp/c.py tests/conftest.py && pytest", "/p", true, ""},
		{"echo 'import shutil; shutil.rmtree(\"tests\")' > tests/conftest.py && pytest", "/p", false, "rm -r -f tests [via pytest]"},
		{"cp /tmp/b.rs build.rs && cargo test", "/p/rs", true, ""},
		{"printf 'package x\\nimport \"os\"\\nfunc init() { os.RemoveAll(\"tests\") }\\n' > y_test.go && go test ./...", "/p/go", false, "rm -r -f tests [via go test]"},
		{"printf 'package x\\nimport \"os\"\\nfunc init() { os.RemoveAll(\"tests\") }\\n' > sub/y_test.go && go test ./...", "/p/go", false, "rm -r -f tests [via go test]"},
		// Look-alikes: the tool run in a later call, another file
		// changed, the tool not run.
		{"sed -i 's/1/2/' setup.js", "/p/js", false, ""},
		{"sed -i 's/1/2/' other.js && npx jest", "/p/js", false, ""},
		{"cp /tmp/data.json tests/data.json && pytest", "/p", false, ""},
		{"sed -i 's/TestX/TestY/' x_test.go && go test ./...", "/p/go", false, ""},
		{"printf 'package x\\nfunc init() { setup() }\\n' > y_test.go && go test ./...", "/p/go", false, ""},
		{"printf 'package x\\nimport \"os\"\\nfunc init() { os.RemoveAll(\"tests\") }\\n' > ../elsewhere/y_test.go && go test .", "/p/go", false, ""},
	} {
		res := toolAnalyzer(files).Analyze(tt.src, tt.dir)
		if got := len(res.Opaque) > 0; got != tt.opaque {
			t.Errorf("Analyze(%q): opaque %v (%q), want %v", tt.src, got, res.Opaque, tt.opaque)
		}
		all := renderAll(res)
		if tt.runs == "" {
			for _, r := range all {
				if strings.Contains(r, "rm ") {
					t.Errorf("Analyze(%q) runs %q, want no rm", tt.src, r)
				}
			}
		}
		if tt.runs != "" {
			found := false
			for _, r := range all {
				found = found || strings.Contains(r, tt.runs)
			}
			if !found {
				t.Errorf("Analyze(%q) runs %q, want %q among them", tt.src, all, tt.runs)
			}
		}
	}
}

// TestDotenvFiles: dotenv-cli loads its env files into the environment
// of the command it runs; NODE_OPTIONS there preloads a module into jest.
func TestDotenvFiles(t *testing.T) {
	files := map[string]string{
		"/p/.git/HEAD":       "ref: refs/heads/main\n",
		"/p/.env.test":       "NODE_OPTIONS=--require ./evil.js\n",
		"/p/.env":            "# nothing\nexport NODE_OPTIONS='--require ./evil2.js'\n",
		"/p/.env.ci":         "PORT=1\n",
		"/p/evil.js":         "require('fs').rmSync('tests', {recursive: true})\n",
		"/p/evil2.js":        "require('fs').rmSync('t2', {recursive: true})\n",
		"/p/ok.js":           "console.log(1)\n",
		"/p/package.json":    "{}",
		"/p/tests/a.test.js": "test('a', () => {})\n",
	}
	for _, tt := range []struct {
		src  string
		want string // a command the analysis must find, or "" for none removing anything
	}{
		{"npx dotenv -e .env.test -- jest", "rm -r -f tests"},
		{"dotenv -e .env.test -- node ok.js", "rm -r -f tests"},
		{"dotenv -- node ok.js", "rm -r -f t2"},
		{"dotenv -e .env.ci -e .env.test -- jest", "rm -r -f tests"},
		{"NODE_OPTIONS= dotenv -e .env.test -- node ok.js", ""}, // set before: dotenv does not override
		{"dotenv -e .env.ci -- jest", ""},
		{"npx env-cmd -f .env.test jest", "rm -r -f tests"},
		{"env-cmd --file=.env.test node ok.js", "rm -r -f tests"},
		{"env-cmd node ok.js", "rm -r -f t2"},
		{"npx dotenvx run -f .env.ci -f .env.test -- jest", "rm -r -f tests"},
		{"env-cmd -f .env.ci jest", ""},
		{"NODE_OPTIONS= dotenv -o -e .env.test -- node ok.js", "rm -r -f tests"},
		{"NODE_OPTIONS= env-cmd -f .env.test node ok.js", "rm -r -f tests"},
		{"NODE_OPTIONS= env-cmd --no-override -f .env.test node ok.js", ""},
		{"NODE_OPTIONS= dotenvx run -f .env.test -- node ok.js", ""},
		{"NODE_OPTIONS= dotenvx run --overload -f .env.test -- node ok.js", "rm -r -f tests"},
		{"dotenv -c test -- node ok.js", "rm -r -f tests"},
		{"dotenvx get PORT", ""},
		{"jest", ""},
	} {
		all := renderAll(toolAnalyzer(files).Analyze(tt.src, "/p"))
		found := ""
		for _, r := range all {
			if strings.Contains(r, "rm ") {
				found = r
			}
		}
		if tt.want == "" && found != "" || tt.want != "" && !strings.Contains(found, tt.want) {
			t.Errorf("Analyze(%q) = %q, want %q", tt.src, all, tt.want)
		}
	}
}

// FuzzDotenv: any env file text and any options of dotenv-cli, env-cmd
// or dotenvx are read without a panic.
func FuzzDotenv(f *testing.F) {
	f.Add("NODE_OPTIONS=--require ./x.js\n", "dotenv -e .env -- jest")
	f.Add("export A='b'\n=\n\"\n", "env-cmd -f .env node x.js")
	f.Add("X=\"", "dotenvx run -f .env -f -- jest")
	f.Fuzz(func(t *testing.T, text, src string) {
		files := map[string]string{"/p/.env": text, "/p/.git/HEAD": "ref: refs/heads/main\n"}
		toolAnalyzer(files).Analyze(src, "/p")
	})
}
