package completion

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// jsRunners returns the node_modules that holds the pinned jest, vitest
// and mocha (testdata/js, which .ci/run installs with npm ci; or
// RALPH_JS_RUNNERS). Without them the test is skipped, saying why, except
// in CI (CI=true), where they must be there.
func jsRunners(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("RALPH_JS_RUNNERS")
	if dir == "" {
		dir, _ = filepath.Abs(filepath.Join("..", "..", "testdata", "js"))
	}
	nm := filepath.Join(dir, "node_modules")
	_, err := os.Stat(filepath.Join(nm, ".bin", "jest"))
	if err == nil {
		_, err = exec.LookPath("node")
	}
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the JavaScript runners are missing in CI (npm ci --prefix testdata/js): %v", err)
		}
		t.Skipf("no JavaScript runners (npm ci --prefix testdata/js): %v", err)
	}
	return nm
}

// runWithReports runs command in root as a completion command's run is
// run (Environ, then the reports' variables) and reads its results.
func runWithReports(t *testing.T, root, command string) Results {
	t.Helper()
	reps, err := NewReports(root)
	if err != nil {
		t.Fatal(err)
	}
	defer reps.Close()
	cmd := exec.CommandContext(context.Background(), "sh", "-c", command)
	cmd.Dir = root
	// The agent's own NODE_OPTIONS and report directory never reach it.
	cmd.Env = append(Environ(append(os.Environ(), "NODE_OPTIONS=--require /nonexistent.js", ReportDirVar+"=/tmp")), reps.Env()...)
	var r Reader
	cmd.Stdout, cmd.Stderr = &r, &r
	cmd.Run() // a failing test fails the command
	res := r.Results()
	reps.Read(&res, r.Gradle())
	return res
}

// The real jest, vitest and mocha, run by the user's own command lines
// (npm test, npx, the binary, a make-like wrapper), each report every
// test they ran, in the unit of its file, named as the census names it.
func TestReportsJS(t *testing.T) {
	nm := jsRunners(t)
	calc := "exports.add = (a, b) => a + b;\nexports.sub = (a, b) => a + b;\n"
	jestTest := "const { add, sub } = require('../calc');\ndescribe('calc', () => {\n  test('adds', () => {\n    expect(add(2, 3)).toBe(5);\n  });\n  test('subs', () => {\n    expect(sub(5, 3)).toBe(2);\n  });\n  test.skip('later', () => {});\n});\ntest('top', () => { expect(1).toBe(1); });\n" +
		"test('sees no report directory', () => { expect(process.env.RALPH_REPORT_DIR).toBeUndefined(); expect(process.env.NODE_OPTIONS).toBeUndefined(); });\n"
	vitestTest := "import { describe, test, expect } from 'vitest';\n" + jestTest
	mochaTest := "const assert = require('assert');\nconst { add, sub } = require('../calc');\ndescribe('calc', () => {\n  it('adds', () => assert.strictEqual(add(2, 3), 5));\n  it('subs', () => assert.strictEqual(sub(5, 3), 2));\n  it.skip('later', () => {});\n});\nit('top', () => {});\n"
	want := map[string]string{"calc > adds": Pass, "calc > subs": Fail, "calc > later": Skip, "top": Pass, "sees no report directory": Pass}
	tests := []struct {
		name, runner, command, script, test string
		want                                map[string]string
	}{
		{"jest by npm test", "jest", "npm test", "jest", jestTest, want},
		{"jest by npx, in band", "jest", "npx jest --runInBand", "jest", jestTest, want},
		{"vitest run by npm test", "vitest", "npm test", "vitest run", vitestTest, want},
		{"vitest with its own reporter", "vitest", "./node_modules/.bin/vitest run --reporter=dot", "vitest", vitestTest, want},
		{"mocha by npm test", "mocha", "npm test", "mocha", mochaTest, map[string]string{"calc > adds": Pass, "calc > subs": Fail, "top": Pass}},
		{"mocha --parallel", "mocha", "npx mocha --parallel", "mocha", mochaTest, map[string]string{"calc > adds": Pass, "calc > subs": Fail, "top": Pass}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			write(t, root, map[string]string{
				"package.json":      `{"name":"p","private":true,"scripts":{"test":"` + tt.script + `"}}`,
				"calc.js":           calc,
				"test/calc.test.js": tt.test,
				".mocharc.json":     `{"spec": ["test/*.test.js"]}`,
			})
			if err := os.Symlink(nm, filepath.Join(root, "node_modules")); err != nil {
				t.Fatal(err)
			}
			got := runWithReports(t, root, tt.command)
			if !reflect.DeepEqual(got.Runners, []string{tt.runner}) {
				t.Errorf("runners = %v, want [%s]", got.Runners, tt.runner)
			}
			if !reflect.DeepEqual(got.Tests["js:test/calc.test.js"], tt.want) {
				t.Errorf("tests = %v, want %v", got.Tests, tt.want)
			}
		})
	}
}

// The real rspec, where it is installed (Debian: ruby-rspec; .ci/run
// installs it), reports through SPEC_OPTS.
func TestReportsRSpec(t *testing.T) {
	if _, err := exec.LookPath("rspec"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("rspec is missing in CI (apt-get install ruby-rspec): %v", err)
		}
		t.Skipf("no rspec (Debian: apt-get install ruby-rspec): %v", err)
	}
	root := t.TempDir()
	write(t, root, map[string]string{
		"calc.rb":           "class Calc\n  def add(a, b) = a + b\n  def sub(a, b) = a + b\nend\n",
		"spec/calc_spec.rb": "require_relative '../calc'\nRSpec.describe Calc do\n  describe '#add' do\n    it('adds') { expect(Calc.new.add(2, 3)).to eq(5) }\n  end\n  describe '#sub' do\n    it('subtracts') { expect(Calc.new.sub(5, 3)).to eq(2) }\n  end\nend\n",
		".rspec":            "--format documentation\n",
	})
	got := runWithReports(t, root, "rspec")
	want := map[string]string{"Calc#add adds": Pass, "Calc#sub subtracts": Fail}
	if !reflect.DeepEqual(got.Tests["rspec:spec/calc_spec.rb"], want) {
		t.Errorf("tests = %v, want %v", got.Tests, want)
	}
	idx := testindexOf(map[string][]string{"spec/calc_spec.rb": {"Calc > #add > adds", "Calc > #sub > subtracts"}})
	if inv := Inventory(root, idx, got); len(inv) != 2 {
		t.Errorf("Inventory = %v, want both tests", inv)
	}
}

// TestReportsMochaRetried: a mocha test that fails its first try and
// passes on a retry (this.retries, or retries in .mocharc) is known as
// retried, from the real mocha's run; one that passes at once is not.
func TestReportsMochaRetried(t *testing.T) {
	nm := jsRunners(t)
	// sub fails while a file is missing, and writes it: it passes on its
	// second try, as a test of stale state does.
	test := "const assert = require('assert');\nconst fs = require('fs');\n" +
		"describe('calc', function () {\n  it('adds', () => assert.strictEqual(1 + 1, 2));\n" +
		"  it('subs', function () {\n    this.retries(2);\n    const seen = fs.existsSync('seen');\n    fs.writeFileSync('seen', '');\n    assert.ok(seen, 'first try');\n  });\n});\n"
	for _, tt := range []struct{ name, rc, test string }{
		{"this.retries", `{"spec": ["test/*.test.js"]}`, test},
		{".mocharc retries", `{"spec": ["test/*.test.js"], "retries": 2}`, strings.Replace(test, "    this.retries(2);\n", "", 1)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			write(t, root, map[string]string{
				"package.json":      `{"name":"p","private":true,"scripts":{"test":"mocha"}}`,
				"test/calc.test.js": tt.test,
				".mocharc.json":     tt.rc,
			})
			if err := os.Symlink(nm, filepath.Join(root, "node_modules")); err != nil {
				t.Fatal(err)
			}
			got := runWithReports(t, root, "npm test")
			if want := map[string]string{"calc > adds": Pass, "calc > subs": Pass}; !reflect.DeepEqual(got.Tests["js:test/calc.test.js"], want) {
				t.Errorf("tests = %v, want %v", got.Tests, want)
			}
			if r, want := got.RetriedTests(), []string{"js:test/calc.test.js calc > subs"}; !reflect.DeepEqual(r, want) {
				t.Errorf("RetriedTests = %q, want %q", r, want)
			}
		})
	}
}
