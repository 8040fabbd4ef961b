package completion

import (
	"reflect"
	"testing"
)

func TestReadOutput(t *testing.T) {
	tests := []struct {
		name    string
		out     string
		runners []string
		units   map[string]string
		tests   map[string]map[string]string
	}{
		{
			name: "go test -v, two packages, a subtest, a skip",
			out: "=== RUN   TestAdd\n=== RUN   TestAdd/two_words\n--- PASS: TestAdd (0.00s)\n    --- PASS: TestAdd/two_words (0.00s)\n" +
				"=== RUN   TestSub\n    a_test.go:4: got 8\n--- FAIL: TestSub (0.00s)\nFAIL\nFAIL\texample.com/calc/a\t0.055s\n" +
				"--- PASS: TestB (0.00s)\n--- SKIP: TestSkip (0.00s)\nPASS\nok  \texample.com/calc/b\t0.053s\nFAIL\n",
			runners: []string{"go"},
			units:   map[string]string{"go:example.com/calc/a": "ran", "go:example.com/calc/b": "ran"},
			tests: map[string]map[string]string{
				"go:example.com/calc/a": {"TestAdd": Pass, "TestSub": Fail},
				"go:example.com/calc/b": {"TestB": Pass, "TestSkip": Skip},
			},
		},
		{
			name:    "go test without tests: a TestMain that exits, a build constraint",
			out:     "ok  \texample.com/calc\t0.01s\n?   \texample.com/calc/b\t[no test files]\nFAIL\texample.com/calc/c [build failed]\n",
			runners: []string{"go"},
			units:   map[string]string{"go:example.com/calc": "ran", "go:example.com/calc/b": "no test files", "go:example.com/calc/c": "build failed"},
		},
		{
			name: "go test -json",
			out: `{"Action":"run","Package":"p","Test":"TestA"}` + "\n" + `{"Action":"pass","Package":"p","Test":"TestA"}` + "\n" +
				`{"Action":"fail","Package":"p","Test":"TestA/sub"}` + "\n" + `{"Action":"fail","Package":"p","Test":"TestB"}` + "\n" +
				`{"Action":"fail","Package":"p"}` + "\n" + `{"Action":"fail","Package":"q","FailedBuild":"q.test"}` + "\n",
			runners: []string{"go"},
			units:   map[string]string{"go:p": "ran", "go:q": "build failed"},
			tests:   map[string]map[string]string{"go:p": {"TestA": Pass, "TestB": Fail}},
		},
		{
			name: "pytest -rA",
			out: "tests/test_calc.py .F\n=========================== short test summary info ============================\n" +
				"PASSED tests/test_calc.py::test_add\nPASSED tests/test_calc.py::TestCalc::test_mul[2-4]\nFAILED tests/test_calc.py::test_sub - assert 8 == 2\n" +
				"SKIPPED [1] tests/test_calc.py:9: no\nERROR tests/test_io.py - ImportError\n========================= 1 failed, 2 passed in 0.01s =========================\n",
			runners: []string{"pytest"},
			units:   map[string]string{"pytest:tests/test_calc.py": "ran", "pytest:tests/test_io.py": "collection error"},
			tests:   map[string]map[string]string{"pytest:tests/test_calc.py": {"test_add": Pass, "TestCalc::test_mul": Pass, "test_sub": Fail}},
		},
		{
			name:    "pytest -v",
			out:     "tests/test_calc.py::test_add PASSED                         [ 50%]\ntests/test_calc.py::test_sub FAILED                         [100%]\n",
			runners: []string{"pytest"},
			units:   map[string]string{"pytest:tests/test_calc.py": "ran"},
			tests:   map[string]map[string]string{"pytest:tests/test_calc.py": {"test_add": Pass, "test_sub": Fail}},
		},
		{
			name:  "pytest-like lines without pytest's summary header: not pytest",
			out:   "FAILED tests/test_calc.py::test_add - assert add(2, 2) == 4\n===== 1 failed, 2 passed in 0.01s =====\n",
			units: nil,
		},
		{
			name: "cargo test",
			out: "     Running unittests src/lib.rs (target/debug/deps/calc-1)\n\nrunning 2 tests\ntest tests::adds ... ok\ntest tests::subs ... FAILED\ntest tests::slow ... ignored, too slow\n" +
				"test result: FAILED. 1 passed; 1 failed; 1 ignored; 0 measured; 0 filtered out\n   Doc-tests calc\ntest src/lib.rs - add (line 3) ... ok\n",
			runners: []string{"cargo"},
			units:   map[string]string{"cargo": "ran"},
			tests:   map[string]map[string]string{"cargo": {"tests::adds": Pass, "tests::subs": Fail, "tests::slow": Skip}},
		},
		{
			name:    "cargo build failure",
			out:     "error[E0425]: cannot find function `sub`\nerror: could not compile `calc` (lib test) due to 1 previous error\n",
			runners: []string{"cargo"},
			units:   map[string]string{"cargo": "build failed"},
		},
		{name: "nothing usable", out: "all good\n3 passed\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ReadOutput(tt.out)
			if !reflect.DeepEqual(got.Runners, tt.runners) {
				t.Errorf("runners = %v, want %v", got.Runners, tt.runners)
			}
			if len(got.Units)+len(tt.units) > 0 && !reflect.DeepEqual(got.Units, tt.units) {
				t.Errorf("units = %v, want %v", got.Units, tt.units)
			}
			if len(got.Tests)+len(tt.tests) > 0 && !reflect.DeepEqual(got.Tests, tt.tests) {
				t.Errorf("tests = %v, want %v", got.Tests, tt.tests)
			}
			// Streamed a byte at a time, the same.
			var r Reader
			for i := 0; i < len(tt.out); i++ {
				r.Write([]byte{tt.out[i]})
			}
			if s := r.Results(); !reflect.DeepEqual(s, got) {
				t.Errorf("streamed: %+v, want %+v", s, got)
			}
		})
	}
}

func TestEnviron(t *testing.T) {
	t.Setenv("GOENV", "off")
	got := Environ([]string{"PATH=/bin", "GOFLAGS=-run=TestAdd", "PYTEST_ADDOPTS=-k add", "JEST_X=1", "NODE_OPTIONS=--require x", "GOENV=off", "HOME=/h", "CARGO_BUILD_RUSTFLAGS=--cfg x", "CARGO_HOME=/c",
		"npm_config_script_shell=./swap.sh", "NPM_CONFIG_NODE_OPTIONS=--require x", "npm_config_userconfig=/tmp/npmrc", "npm_config_registry=https://r/"})
	want := []string{"PATH=/bin", "GOENV=off", "HOME=/h", "CARGO_HOME=/c", "npm_config_registry=https://r/", "GOFLAGS=-count=1 -v", "PYTEST_ADDOPTS=-rAR -p no:cacheprovider"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Environ = %q\nwant %q", got, want)
	}
}
