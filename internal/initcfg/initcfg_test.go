package initcfg

import (
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/metrics"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// tree writes files (name → contents) into a new directory.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, data := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

const goTestsGlob = "**/*_test.go"

func TestDetect(t *testing.T) {
	for _, tt := range []struct {
		name       string
		files      map[string]string
		completion string // every runner's, joined as in aiwg.yml
		globs      []string
		coverage   string // the coverage metric's command, "" for none
	}{
		{"go", map[string]string{"go.mod": "module x\n"}, "go test -v ./...", []string{goTestsGlob, "**/testdata/**"}, "go test -coverprofile"},
		{"jest with a test script", map[string]string{"package.json": `{"scripts":{"test":"jest --ci"},"devDependencies":{"jest":"^29"}}`},
			"npm test", jsTests, "npx jest --coverage"},
		{"jest without a script", map[string]string{"package.json": `{"devDependencies":{"jest":"^29"}}`}, "npx jest", jsTests, "npx jest --coverage"},
		{"vitest, not in watch mode", map[string]string{"package.json": `{"scripts":{"test":"vitest"},"devDependencies":{"vitest":"^3","@vitest/coverage-v8":"^3"}}`},
			"npx vitest run", jsTests, "npx vitest run --coverage"},
		{"vitest without coverage", map[string]string{"package.json": `{"scripts":{"test":"vitest"}}`}, "npx vitest run", jsTests, ""},
		{"mocha with c8", map[string]string{"package.json": `{"scripts":{"test":"mocha"},"devDependencies":{"mocha":"^10","c8":"^9"}}`},
			"npm test", append(append([]string(nil), jsTests...), "**/test/**"), "npx c8"},
		{"npm's default test script is none", map[string]string{"package.json": `{"scripts":{"test":"echo \"Error: no test specified\" && exit 1"}}`}, "", nil, ""},
		{"a test script of its own", map[string]string{"package.json": `{"scripts":{"test":"node --test"}}`}, "npm test", jsTests, ""},
		{"package.json that is not JSON", map[string]string{"package.json": `{`}, "", nil, ""},
		{"pytest in pyproject", map[string]string{"pyproject.toml": "[tool.pytest.ini_options]\naddopts = \"-q\"\n"}, "python -m pytest",
			[]string{"**/test_*.py", "**/*_test.py", "**/conftest.py", "**/tests/**"}, ""},
		{"pytest-cov", map[string]string{"requirements-dev.txt": "pytest\npytest-cov\n"}, "python -m pytest",
			[]string{"**/test_*.py", "**/*_test.py", "**/conftest.py", "**/tests/**"}, "--cov"},
		{"plain python", map[string]string{"setup.py": "from setuptools import setup\n"}, "python -m unittest discover -v",
			[]string{"**/test_*.py", "**/*_test.py", "**/conftest.py", "**/tests/**"}, ""},
		{"rust", map[string]string{"Cargo.toml": "[package]\nname = \"x\"\n"}, "cargo test", []string{"**/tests/**", "**/benches/**"}, ""},
		{"maven", map[string]string{"pom.xml": "<project/>"}, "mvn test", []string{"**/src/test/**", "**/*{Test,Tests,IT}.java", "**/*{Test,Tests}.kt"}, ""},
		{"maven wrapper", map[string]string{"pom.xml": "<project/>", "mvnw": "#!/bin/sh\n"}, "./mvnw test", []string{"**/src/test/**", "**/*{Test,Tests,IT}.java", "**/*{Test,Tests}.kt"}, ""},
		{"gradle wrapper", map[string]string{"build.gradle.kts": "", "gradlew": ""}, "./gradlew test", []string{"**/src/test/**", "**/*{Test,Tests,IT}.java", "**/*{Test,Tests}.kt"}, ""},
		{"rspec", map[string]string{"Gemfile": "gem 'rspec'\n"}, "bundle exec rspec", []string{"**/*_spec.rb", "**/spec/**", "**/*_test.rb", "**/test/**"}, ""},
		{"minitest", map[string]string{"Gemfile": "gem 'rails'\n"}, "bundle exec rake test", []string{"**/*_spec.rb", "**/spec/**", "**/*_test.rb", "**/test/**"}, ""},
		{"makefile only", map[string]string{"Makefile": "build:\n\tcc x.c\n\ntest: build\n\t./run-tests\n"}, "make test", nil, ""},
		{"makefile without tests", map[string]string{"Makefile": "build:\n\tcc x.c\n"}, "", nil, ""},
		{"nothing", map[string]string{"README.md": "hi\n"}, "", nil, ""},
		{"go and a web front end", map[string]string{"go.mod": "module x\n", "package.json": `{"devDependencies":{"vitest":"^3"}}`},
			"go test -v ./... && npx vitest run", append([]string{goTestsGlob, "**/testdata/**"}, jsTests...), "go test -coverprofile"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rs := Detect(tree(t, tt.files))
			data := Generate(rs)
			cfg, err := Check(data)
			if err != nil {
				t.Fatalf("the generated aiwg.yml does not load: %v\n%s", err, data)
			}
			if cfg.Completion.Command != tt.completion {
				t.Errorf("completion %q, want %q", cfg.Completion.Command, tt.completion)
			}
			if tt.globs != nil && !reflect.DeepEqual(cfg.TestFiles, tt.globs) {
				t.Errorf("test_files %q, want %q", cfg.TestFiles, tt.globs)
			}
			if tt.globs == nil && len(cfg.TestFiles) < 10 {
				t.Errorf("with no test globs of its own, the default list stays: %q", cfg.TestFiles)
			}
			switch {
			case tt.coverage == "" && len(cfg.Metrics) > 0:
				t.Errorf("metrics %+v, want none", cfg.Metrics)
			case tt.coverage != "" && (len(cfg.Metrics) == 0 || !strings.Contains(cfg.Metrics[0].Command, tt.coverage)):
				t.Errorf("metrics %+v, want coverage by %q", cfg.Metrics, tt.coverage)
			case tt.coverage != "" && (cfg.Metrics[0].Direction != "higher" || cfg.Metrics[0].Parser.Regex == ""):
				t.Errorf("coverage metric %+v", cfg.Metrics[0])
			}
			if len(rs) == 0 && !strings.Contains(string(data), "it found no go.mod") {
				t.Errorf("an empty project's aiwg.yml does not say why it has no command:\n%s", data)
			}
		})
	}
}

// The file for a Go project, as README.md shows it.
func TestGenerateGo(t *testing.T) {
	got := Generate(Detect(tree(t, map[string]string{"go.mod": "module x\n"})))
	golden := filepath.Join("testdata", "go.golden")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("aiwg.yml for a Go project differs from %s (go test -update rewrites it):\n%s", golden, got)
	}
}

// The Go coverage metric really measures: its command and regex give the
// total coverage of a small module, with a failing test too.
func TestGoCoverageMeasures(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not on PATH")
	}
	root := tree(t, map[string]string{
		"go.mod":     "module x\n\ngo 1.21\n",
		"x.go":       "package x\n\nfunc A(b bool) int {\n\tif b {\n\t\treturn 1\n\t}\n\treturn 2\n}\n",
		"x_test.go":  "package x\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {\n\tif A(true) != 1 {\n\t\tt.Fatal(1)\n\t}\n}\n",
		"x2_test.go": "package x\n\nimport \"testing\"\n\nfunc TestFails(t *testing.T) { t.Fatal(\"no\") }\n",
	})
	cfg, err := Check(Generate(Detect(root)))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOTOOLCHAIN", "local")
	t.Setenv("GOWORK", "off")
	v := metrics.Measure(context.Background(), root, cfg.Metrics[0])
	if v.Err != "" || v.Value != 66.7 {
		t.Errorf("coverage of a module whose test covers 2 of 3 statements: %v (%s)", v.Value, v.Err)
	}
}

// FuzzJS: whatever package.json says, the aiwg.yml made from it loads.
func FuzzJS(f *testing.F) {
	for _, s := range []string{`{"scripts":{"test":"vitest"}}`, `{"devDependencies":{"jest":"1"}}`, `{"scripts":{"test":"mocha'\n"}}`, `[]`, `{"scripts":7}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, pkg string) {
		r, ok := jsRunner(pkg)
		if !ok {
			return
		}
		if data := Generate([]Runner{r}); !strings.Contains(string(data), "completion:") {
			t.Fatalf("no completion in:\n%s", data)
		} else if _, err := Check(data); err != nil {
			t.Fatalf("package.json %q gives an aiwg.yml that does not load: %v\n%s", pkg, err, data)
		}
	})
}
