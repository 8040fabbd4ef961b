package completion

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzReader: any output reads without panicking, the same whole or in
// pieces, and what it reports encodes and decodes as a baseline does;
// every test it names is in a unit it names.
func FuzzReader(f *testing.F) {
	for _, s := range []string{
		"--- PASS: TestA (0.00s)\nok  \tp\t0.1s\n",
		"--- FAIL: TestA (0.00s)\nFAIL\tp [build failed]\n",
		`{"Action":"pass","Package":"p","Test":"TestA"}` + "\n",
		"== short test summary info ==\nPASSED a.py::t[1]\nERROR b.py\n",
		"test a::b ... ok\ntest result: ok.\n",
		"\x1b[32m--- PASS: T (0s)\x1b[0m\r\n?   \tq\t[no test files]",
	} {
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, out string, cut int) {
		whole := ReadOutput(out)
		var r Reader
		if cut < 0 {
			cut = -cut
		}
		cut = cut % (len(out) + 1)
		r.Write([]byte(out[:cut]))
		r.Write([]byte(out[cut:]))
		if got := r.Results(); len(got.Tests) != len(whole.Tests) || len(got.Units) != len(whole.Units) {
			t.Fatalf("in pieces %+v, whole %+v", got, whole)
		}
		for u := range whole.Tests {
			if _, ok := whole.Units[u]; !ok {
				t.Fatalf("tests of unit %q, which is not in Units %v", u, whole.Units)
			}
		}
		data, err := json.Marshal(Baseline{Results: whole})
		if err != nil {
			t.Fatal(err)
		}
		var back Baseline
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzReports: any report file, read as each runner's, never panics, and
// every test it names is in a unit it names, with one of the outcomes.
func FuzzReports(f *testing.F) {
	for _, name := range []string{"jest.json", "vitest.json", "mocha.json", "rspec.json", "rspec-load-error.json", "surefire/TEST-com.example.CalcTest.xml", "gradle/TEST-com.example.app.GreeterTest.xml"} {
		data, err := os.ReadFile(filepath.Join("testdata", "reports", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"testResults":[{"name":"/p/a.test.js","assertionResults":[{"ancestorTitles":["",""],"title":""}]}]}`))
	f.Add([]byte(`<testsuite><testcase classname="$" name="("><skipped/><failure/></testcase></testsuite>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var res Results
		res.readJestJSON("/p", "jest", data)
		res.readMochaJSON("/p", data)
		res.readRSpecJSON(data)
		res.readJUnitXML("maven", data)
		for u, ts := range res.Tests {
			if _, ok := res.Units[u]; !ok {
				t.Fatalf("tests of unit %q, which is not in Units %v", u, res.Units)
			}
			for n, o := range ts {
				if o != Pass && o != Fail && o != Skip {
					t.Fatalf("%s %s: outcome %q", u, n, o)
				}
			}
		}
	})
}

// FuzzJSCall: any JavaScript source, searched for any title, never
// panics; what is found is a piece of the source, and so is what lies
// outside the tests.
func FuzzJSCall(f *testing.F) {
	f.Add("describe('a', () => {\n  test('b', () => { expect(1).toBe(1) });\n});\n", "b")
	f.Add("it(\"x \\\"y\\\"\", function () { /* ) */ const s = `}`; // (\n});", `x "y"`)
	f.Add("test('open', () => {", "open")
	f.Fuzz(func(t *testing.T, src, title string) {
		if got := jsCall(src, title); got != "" && !strings.Contains(src, got) {
			t.Fatalf("jsCall = %q, not in the source", got)
		}
		if got := jsOutside(src); len(got) > len(src) {
			t.Fatalf("jsOutside longer than the source: %q", got)
		}
	})
}

// FuzzSources: the readers of test and code sources that the checks of
// branch atk added take any text without panicking: Go's start code and
// test checks, a Ruby example, a Python module outside its tests, the
// lines above a test, the files a configuration names.
func FuzzSources(f *testing.F) {
	for _, s := range []string{
		"package p\nimport \"os\"\nvar _ = func() int { os.Exit(0); return 0 }()\nfunc init() { h() }\nfunc h() { os.Exit(1) }\n",
		"package p\nfunc TestMain(m *testing.M) { flag.Set(\"test.run\", \"X\") }",
		"RSpec.describe C do\n  it 'a' do\n    x\n  end\n  it(\"b\") { y }\nend\n",
		"@pytest.mark.parametrize(\n  'a', [1],\n)\ndef test_a(a):\n    pass\nx = 1\n",
		"module.exports = { setupFiles: ['./s.js'], collectCoverageFrom: ['src/a.js'] };",
		"if (process.env.JEST_WORKER_ID) {}\nif 'PYTEST_CURRENT_TEST' in os.environ:",
		"package p\n// static void q(void) {}\nimport \"C\"\n//go:linkname quit runtime.exit\nfunc quit(int32)\n",
	} {
		f.Add(s, "a")
	}
	root := f.TempDir()
	f.Fuzz(func(t *testing.T, src, name string) {
		goStartCode([]byte(src))
		goNative("x.go", []byte(src))
		for _, rel := range []string{"x.py", "x.rb", "x.rs"} {
			exitLines(rel, []byte(src))
		}
		for _, rel := range []string{"x.go", "x.py", "x.js", "x.rs", "X.java", "x.rb"} {
			testCheckLines(rel, []byte(src))
		}
		if body := rbSource(src, name); body != "" && !strings.Contains(src, strings.SplitN(body, "\n", 2)[0]) {
			t.Fatalf("rbSource(%q) = %q: its first line is not in the source", name, body)
		}
		pyOutside(src)
		if body := strings.TrimSpace(name); body != "" && strings.Contains(src, body) {
			if got := withAbove(src, body); !strings.HasSuffix(got, body) {
				t.Fatalf("withAbove(%q) = %q, does not end with the body", body, got)
			}
		}
		namedFiles(root, map[string][]byte{"jest.config.js": []byte(src), "pytest.ini": []byte(src), ".rspec": []byte(src)}, Inputs{})
	})
}

// FuzzBuildConfig: the readers of build files that branch cfg added take
// any text without panicking, and what they keep is one directive a line:
// go.mod's replace and godebug lines, Cargo.toml's [patch] and workspace
// members, a pom's and a Gradle script's test configuration, .npmrc's and
// .yarnrc.yml's lines.
func FuzzBuildConfig(f *testing.F) {
	for _, s := range []string{
		"module m\n\ngo 1.22\n\nreplace (\n\tx => ../x // c\n)\ngodebug panicnil=1\n",
		"[workspace]\nmembers = [\"a\", 'b/*']\n[patch.crates-io]\nx = { path = \"y\" }\n",
		"<project><properties><skipTests>true</skipTests></properties><build><plugins><plugin><artifactId>maven-surefire-plugin</artifactId></plugin></plugins></build><modules><module>a</module></modules></project>",
		"test {\n  exclude '**/A*'\n  filter { excludeTestsMatching 'x' }\n}\ntasks.withType<Test>().configureEach { ignoreFailures = true\ntest.enabled = false\n",
		"script-shell=./x.sh\n//r/:_authToken=x\nyarnPath: a\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		lines, _ := goModDirectives([]byte(src))
		for _, l := range lines {
			if strings.Contains(l, "\n") {
				t.Fatalf("goModDirectives kept a line with a newline: %q", l)
			}
		}
		for _, s := range tomlSections([]byte(src), cargoPatch) {
			workspaceMembers().FindStringSubmatch(s)
		}
		pomTestConfig([]byte(src))
		gradleTestConfig([]byte(src))
		for _, l := range packageManagerLines([]byte(src)) {
			if strings.TrimSpace(l) == "" {
				t.Fatalf("packageManagerLines kept a blank line")
			}
		}
	})
}

// FuzzModKey: any go.sum (the agent's to write) makes a key without
// panicking, and walks nothing outside the module cache: a cache holding
// no module gives no key, whatever the lines name.
func FuzzModKey(f *testing.F) {
	for _, s := range []string{
		"example.com/Dep v1.0.0 h1:x=\nexample.com/Dep v1.0.0/go.mod h1:y=\n",
		"../../e v1 h1:x\n/etc v1 h1:x\nx/../../../e v1 h1:x\n",
		"a b c d\n\n\x00 v h1:\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, sum []byte) {
		outside := t.TempDir()
		cache := filepath.Join(outside, "cache", "mod")
		if err := os.MkdirAll(cache, 0o755); err != nil {
			t.Fatal(err)
		}
		// A module-like directory outside the cache, that "../../e v1" names.
		if err := os.MkdirAll(filepath.Join(outside, "e@v1"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(outside, "e@v1", "e.go"), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		if key, _ := modKey(sum, cache); key != "" {
			t.Errorf("a key %q from an empty module cache for go.sum %q", key, sum)
		}
	})
}
