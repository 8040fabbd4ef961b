package completion

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/testindex"
)

func readFixture(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "reports", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// The reports the runners wrote (testdata/reports, captured from the real
// runners), read as the census names their tests.
func TestReadReports(t *testing.T) {
	calc := map[string]string{"calc > adds": Pass, "calc > subs": Fail, "calc > later": Skip, "calc > one day": Skip, "top": Pass}
	tests := []struct {
		name    string
		read    func(*Results)
		runners []string
		units   map[string]string
		tests   map[string]map[string]string
	}{
		{
			name:    "jest --json",
			read:    func(r *Results) { r.readJestJSON("/tmp/h12p", "jest", readFixture(t, "jest.json")) },
			runners: []string{"jest"},
			units:   map[string]string{"js:test/calc.test.js": "ran", "js:test/broken.test.js": "collection error"},
			tests:   map[string]map[string]string{"js:test/calc.test.js": calc},
		},
		{
			name:    "vitest's json reporter",
			read:    func(r *Results) { r.readJestJSON("/tmp/h12p", "vitest", readFixture(t, "vitest.json")) },
			runners: []string{"vitest"},
			units:   map[string]string{"js:test/calc.test.js": "ran", "js:test/broken.test.js": "collection error"},
			tests:   map[string]map[string]string{"js:test/calc.test.js": calc},
		},
		{
			name:    "mocha, through ralph's root hook plugin",
			read:    func(r *Results) { r.readMochaJSON("/tmp/h12p", readFixture(t, "mocha.json")) },
			runners: []string{"mocha"},
			units:   map[string]string{"js:test/calc.test.js": "ran"},
			tests:   map[string]map[string]string{"js:test/calc.test.js": {"calc > adds": Pass, "calc > subs": Fail, "top": Pass}},
		},
		{
			name:    "a report of a file outside the project: nothing of it",
			read:    func(r *Results) { r.readJestJSON("/elsewhere", "jest", readFixture(t, "jest.json")) },
			runners: []string{"jest"},
		},
		{
			name:    "rspec's json formatter",
			read:    func(r *Results) { r.readRSpecJSON(readFixture(t, "rspec.json")) },
			runners: []string{"rspec"},
			units:   map[string]string{"rspec:spec/calc_spec.rb": "ran"},
			tests:   map[string]map[string]string{"rspec:spec/calc_spec.rb": {"Calc#add adds": Pass, "Calc#sub subtracts": Fail, "Calc later is pending": Skip}},
		},
		{
			name:    "rspec, a spec file that does not load",
			read:    func(r *Results) { r.readRSpecJSON(readFixture(t, "rspec-load-error.json")) },
			runners: []string{"rspec"},
			units:   map[string]string{"rspec:spec/broken_spec.rb": "collection error"},
		},
		{
			name: "not JSON: nothing",
			read: func(r *Results) { r.readJestJSON("/tmp/h12p", "jest", []byte("{")); r.readRSpecJSON([]byte("")) },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got Results
			tt.read(&got)
			if !reflect.DeepEqual(got.Runners, tt.runners) {
				t.Errorf("runners = %v, want %v", got.Runners, tt.runners)
			}
			if len(got.Units)+len(tt.units) > 0 && !reflect.DeepEqual(got.Units, tt.units) {
				t.Errorf("units = %v, want %v", got.Units, tt.units)
			}
			if len(got.Tests)+len(tt.tests) > 0 && !reflect.DeepEqual(got.Tests, tt.tests) {
				t.Errorf("tests = %v, want %v", got.Tests, tt.tests)
			}
		})
	}
}

func TestRSpecName(t *testing.T) {
	for census, want := range map[string]string{
		"Calc > #add > adds":       "Calc#add adds",
		"Calc > .build > works":    "Calc.build works",
		"Calc > ::Inner > is fine": "Calc::Inner is fine",
		"adds":                     "adds",
		"a list > when empty > is": "a list when empty is",
	} {
		if got := rspecName(census); got != want {
			t.Errorf("rspecName(%q) = %q, want %q", census, got, want)
		}
	}
}

// Maven's and gradle's JUnit XML: the reports written during the run are
// read, older ones only for a gradle task the output called up to date.
func TestJUnitReports(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"pom.xml": "<project/>",
		"target/surefire-reports/TEST-com.example.CalcTest.xml":              string(readFixture(t, "surefire/TEST-com.example.CalcTest.xml")),
		"app/build/test-results/test/TEST-com.example.app.GreeterTest.xml":   string(readFixture(t, "gradle/TEST-com.example.app.GreeterTest.xml")),
		"lib/build/test-results/test/TEST-com.example.app.GreeterTest.xml":   string(readFixture(t, "gradle/TEST-com.example.app.GreeterTest.xml")),
		"target/surefire-reports/com.example.CalcTest.txt":                   "not a report",
		"old/target/surefire-reports/TEST-com.example.old.OldTest.xml":       string(readFixture(t, "surefire/TEST-com.example.CalcTest.xml")),
		"node_modules/x/target/surefire-reports/TEST-com.example.NoTest.xml": "<testsuite/>",
	})
	old := time.Now().Add(-time.Hour)
	for _, p := range []string{"old/target/surefire-reports/TEST-com.example.old.OldTest.xml", "app/build/test-results/test/TEST-com.example.app.GreeterTest.xml", "lib/build/test-results/test/TEST-com.example.app.GreeterTest.xml"} {
		if err := os.Chtimes(filepath.Join(root, p), old, old); err != nil {
			t.Fatal(err)
		}
	}
	r := &Reports{root: root, dir: t.TempDir(), start: time.Now().Add(-time.Minute)}
	var got Results
	r.Read(&got, []string{":app:test"})
	want := Results{
		Runners: []string{"gradle", "maven"},
		Units:   map[string]string{"junit:com.example": "ran", "junit:com.example.app": "ran"},
		Tests: map[string]map[string]string{
			"junit:com.example":     {"CalcTest.adds": Pass, "CalcTest.subtracts": Fail, "CalcTest.later": Skip, "CalcTest.divides": Fail, "CalcTest.Nested1.works": Pass, "CalcTest.sums": Pass},
			"junit:com.example.app": {"GreeterTest.greets": Pass, "GreeterTest.shouts": Fail, "GreeterTest.whispers": Skip, "GreeterTest.counts": Pass},
		},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Read =\n%+v\nwant\n%+v", got, want)
	}
	// Without pom.xml or a gradle build, no walk.
	os.Remove(filepath.Join(root, "pom.xml"))
	if fs := junitFiles(root, time.Time{}, nil); fs != nil {
		t.Errorf("junitFiles without a build = %v", fs)
	}
}

// The census's JavaScript, Java and RSpec tests meet the reports' names.
func TestInventoryReports(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"src/test/java/com/example/CalcTest.java": "// the calculator\npackage com.example;\n\nclass CalcTest {}\n",
		"src/test/java/DefaultTest.java":          "class DefaultTest {}\n",
	})
	idx := testindexOf(map[string][]string{
		"test/calc.test.js":                       {"calc > adds", "calc > subs", "calc > later", "adds %i", "top"},
		"test/other.test.ts":                      {"other"},
		"spec/calc_spec.rb":                       {"Calc > #add > adds", "Calc > #sub > subtracts"},
		"test/calc_test.rb":                       {"test_adds"},
		"src/test/java/com/example/CalcTest.java": {"CalcTest.adds", "CalcTest.subtracts", "CalcTest.Nested.works"},
		"src/test/java/DefaultTest.java":          {"DefaultTest.runs"},
	})
	base := Results{
		Runners: []string{"jest", "rspec", "maven"},
		Units:   map[string]string{"js:test/calc.test.js": "ran", "rspec:spec/calc_spec.rb": "ran", "junit:com.example": "ran", "junit:": "ran"},
		Tests: map[string]map[string]string{
			"js:test/calc.test.js":    {"calc > adds": Pass, "calc > subs": Fail, "calc > later": Skip, "adds 1": Pass, "top": Pass},
			"rspec:spec/calc_spec.rb": {"Calc#add adds": Pass, "Calc#sub subtracts": Fail},
			"junit:com.example":       {"CalcTest.adds": Pass, "CalcTest.subtracts": Fail, "CalcTest.Nested.works": Pass},
			"junit:":                  {"DefaultTest.runs": Pass},
		},
	}
	inv := Inventory(root, idx, base)
	want := []Test{
		{"spec/calc_spec.rb", "Calc > #add > adds", "rspec:spec/calc_spec.rb"},
		{"spec/calc_spec.rb", "Calc > #sub > subtracts", "rspec:spec/calc_spec.rb"},
		{"src/test/java/DefaultTest.java", "DefaultTest.runs", "junit:"},
		{"src/test/java/com/example/CalcTest.java", "CalcTest.adds", "junit:com.example"},
		{"src/test/java/com/example/CalcTest.java", "CalcTest.subtracts", "junit:com.example"},
		{"src/test/java/com/example/CalcTest.java", "CalcTest.Nested.works", "junit:com.example"},
		{"test/calc.test.js", "calc > adds", "js:test/calc.test.js"},
		{"test/calc.test.js", "calc > subs", "js:test/calc.test.js"},
		{"test/calc.test.js", "top", "js:test/calc.test.js"},
	}
	if !reflect.DeepEqual(inv, want) {
		t.Fatalf("Inventory =\n%v\nwant\n%v", inv, want)
	}
	// A later run: subs skipped (test.skip), subtracts not run, the Java
	// nested class filtered out.
	cur := Results{
		Runners: []string{"jest", "rspec", "maven"},
		Units:   map[string]string{"js:test/calc.test.js": "ran", "rspec:spec/calc_spec.rb": "ran", "junit:com.example": "ran", "junit:": "ran"},
		Tests: map[string]map[string]string{
			"js:test/calc.test.js":    {"calc > adds": Pass, "calc > subs": Skip, "top": Pass},
			"rspec:spec/calc_spec.rb": {"Calc#add adds": Pass},
			"junit:com.example":       {"CalcTest.adds": Pass, "CalcTest.subtracts": Pass},
			"junit:":                  {"DefaultTest.runs": Pass},
		},
	}
	got := NotRun(inv, cur, idx)
	wantNR := []string{"spec/calc_spec.rb: Calc > #sub > subtracts", "src/test/java/com/example/CalcTest.java: CalcTest.Nested.works", "test/calc.test.js: calc > subs"}
	if !reflect.DeepEqual(got, wantNR) {
		t.Errorf("NotRun = %q, want %q", got, wantNR)
	}
}

func testindexOf(m map[string][]string) testindex.Index {
	idx := testindex.Index{}
	for p, ts := range m {
		idx[p] = testindex.File{Tests: ts}
	}
	return idx
}

// The reports' directory is never inside the project, even where the
// temporary directory is (testscript's $WORK/.tmp).
func TestReportDirOutside(t *testing.T) {
	root := t.TempDir()
	t.Setenv("TMPDIR", filepath.Join(root, ".tmp"))
	os.Mkdir(filepath.Join(root, ".tmp"), 0o755)
	t.Setenv("XDG_CACHE_HOME", filepath.Join(root, "cache"))
	r, err := NewReports(root)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if inside(root, r.dir) {
		t.Errorf("the reports' directory %s is inside the project %s", r.dir, root)
	}
	for _, tt := range []struct {
		root, p string
		want    bool
	}{{"/a/b", "/a/b", true}, {"/a/b", "/a/b/c", true}, {"/a/b", "/a/bc", false}, {"/a/b", "/a", false}, {"/a/b", "/a/b/..x", true}} {
		if got := inside(tt.root, tt.p); got != tt.want {
			t.Errorf("inside(%q, %q) = %v, want %v", tt.root, tt.p, got, tt.want)
		}
	}
}

// gradle's plain console names each task with its outcome; the test tasks
// that did not run because nothing changed are those whose reports stand.
func TestReaderGradle(t *testing.T) {
	out := "> Task :compileJava UP-TO-DATE\n> Task :test UP-TO-DATE\n> Task :app:test FROM-CACHE\n> Task :lib:test\n> Task :x:test FAILED\n\nBUILD SUCCESSFUL in 1s\n"
	var r Reader
	r.Write([]byte(out))
	if got, want := r.Gradle(), []string{":compileJava", ":test", ":app:test"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Gradle = %q, want %q", got, want)
	}
	if res := r.Results(); res.Known() {
		t.Errorf("gradle's task lines alone report tests: %+v", res)
	}
}
