package completion

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// benchTests is the size of the suite the per-runner benchmarks read: 10
// files of 100 tests.
const benchFiles, benchPerFile = 10, 100

// runnerOutputs returns, per runner, what ralph reads of a run of
// benchFiles×benchPerFile tests: the output (go, pytest, cargo) or the
// report file (the others), in the runner's own format.
func runnerOutputs() map[string]string {
	var gov, py, cargo strings.Builder
	type assertion struct {
		Ancestor []string `json:"ancestorTitles"`
		Title    string   `json:"title"`
		FullName string   `json:"fullName"`
		Status   string   `json:"status"`
		Failures []string `json:"failureMessages"`
	}
	type file struct {
		Name       string      `json:"name"`
		Status     string      `json:"status"`
		Assertions []assertion `json:"assertionResults"`
	}
	var jest struct {
		TestResults []file `json:"testResults"`
	}
	type mochaTest struct {
		File   string   `json:"file"`
		Titles []string `json:"titles"`
		State  string   `json:"state"`
	}
	var mocha struct {
		Tests []mochaTest `json:"tests"`
	}
	var rspec struct {
		Examples []map[string]any `json:"examples"`
	}
	var junit strings.Builder
	junit.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	for f := range benchFiles {
		fmt.Fprintf(&py, "tests/test_m%d.py %s\n", f, strings.Repeat(".", benchPerFile))
		jf := file{Name: fmt.Sprintf("/proj/test/m%d.test.js", f), Status: "passed"}
		fmt.Fprintf(&junit, `<testsuite name="com.example.M%dTest" tests="%d" skipped="0" failures="0" errors="0" time="0.1">`+"\n", f, benchPerFile)
		for t := range benchPerFile {
			fmt.Fprintf(&gov, "=== RUN   Test%d\n--- PASS: Test%d (0.00s)\n", t, t)
			fmt.Fprintf(&cargo, "test m%d::tests::t%d ... ok\n", f, t)
			jf.Assertions = append(jf.Assertions, assertion{Ancestor: []string{"m", "group"}, Title: fmt.Sprintf("test %d", t), FullName: fmt.Sprintf("m group test %d", t), Status: "passed", Failures: []string{}})
			mocha.Tests = append(mocha.Tests, mochaTest{File: jf.Name, Titles: []string{"m", "group", fmt.Sprintf("test %d", t)}, State: "passed"})
			rspec.Examples = append(rspec.Examples, map[string]any{"id": fmt.Sprintf("./spec/m%d_spec.rb[1:%d]", f, t), "description": fmt.Sprintf("test %d", t),
				"full_description": fmt.Sprintf("M%d#group test %d", f, t), "status": "passed", "file_path": fmt.Sprintf("./spec/m%d_spec.rb", f), "line_number": t, "run_time": 0.0001, "pending_message": nil})
			fmt.Fprintf(&junit, `  <testcase name="test%d()" classname="com.example.M%dTest" time="0.001"/>`+"\n", t, f)
		}
		fmt.Fprintf(&gov, "PASS\nok  \tm/p%d\t0.01s\n", f)
		junit.WriteString("</testsuite>\n")
		jest.TestResults = append(jest.TestResults, jf)
	}
	py.WriteString("=========================== short test summary info ============================\n")
	for f := range benchFiles {
		for t := range benchPerFile {
			fmt.Fprintf(&py, "PASSED tests/test_m%d.py::test_%d\n", f, t)
		}
	}
	fmt.Fprintf(&cargo, "test result: ok. %d passed; 0 failed; 0 ignored; 0 measured; 0 filtered out\n", benchFiles*benchPerFile)
	j, _ := json.Marshal(jest)
	m, _ := json.Marshal(mocha)
	r, _ := json.Marshal(rspec)
	return map[string]string{"go": gov.String(), "pytest": py.String(), "cargo": cargo.String(),
		"jest": string(j), "vitest": string(j), "mocha": string(m), "rspec": string(r), "junit": junit.String()}
}

// BenchmarkReports is what per-test reporting costs per runner, the run
// excluded: reading a run of 1,000 tests into Results, from the output
// (go, pytest, cargo) or the report file (jest, vitest, mocha, rspec,
// maven/gradle's JUnit XML); and, once per run, preparing the report
// directory (the shim written, the variables) and reading it back.
func BenchmarkReports(b *testing.B) {
	outs := runnerOutputs()
	for _, runner := range []string{"go", "pytest", "cargo", "jest", "vitest", "mocha", "rspec", "junit"} {
		out := outs[runner]
		b.Run("runner="+runner, func(b *testing.B) {
			b.SetBytes(int64(len(out)))
			b.ReportAllocs()
			for range b.N {
				var res Results
				switch runner {
				case "go", "pytest", "cargo":
					res = ReadOutput(out)
				case "jest", "vitest":
					res.readJestJSON("/proj", runner, []byte(out))
				case "mocha":
					res.readMochaJSON("/proj", []byte(out))
				case "rspec":
					res.readRSpecJSON([]byte(out))
				case "junit":
					res.readJUnitXML("maven", []byte(out))
				}
				if p, _, _ := res.Count(); p != benchFiles*benchPerFile {
					b.Fatalf("%s: %d passed, want %d", runner, p, benchFiles*benchPerFile)
				}
			}
		})
	}
	// The fixed cost of a run: the directory and shim, the variables, the
	// search for JUnit reports in a maven project of 5 modules, the reading
	// of a jest report, the removal.
	b.Run("per-run/no-build", func(b *testing.B) {
		root := b.TempDir()
		b.ReportAllocs()
		for range b.N {
			reps, err := NewReports(root)
			if err != nil {
				b.Fatal(err)
			}
			_ = reps.Env()
			var res Results
			reps.Read(&res, nil)
			reps.Close()
		}
	})
	b.Run("per-run/maven", func(b *testing.B) {
		root := b.TempDir()
		writeB(b, filepath.Join(root, "pom.xml"), "<project/>")
		for m := range 5 {
			writeB(b, filepath.Join(root, fmt.Sprintf("mod%d", m), "src", "main", "java", "A.java"), "class A {}")
			writeB(b, filepath.Join(root, fmt.Sprintf("mod%d", m), "target", "surefire-reports", "TEST-A.xml"), "<testsuite/>")
		}
		old := time.Now().Add(-time.Hour)
		filepath.Walk(root, func(p string, _ os.FileInfo, _ error) error { return os.Chtimes(p, old, old) })
		b.ReportAllocs()
		for range b.N {
			reps, err := NewReports(root)
			if err != nil {
				b.Fatal(err)
			}
			_ = reps.Env()
			os.WriteFile(filepath.Join(reps.dir, "out", "jest-1.json"), []byte(outs["jest"]), 0o644)
			var res Results
			reps.Read(&res, nil)
			reps.Close()
			if !res.Known() {
				b.Fatal("no results")
			}
		}
	})
}
