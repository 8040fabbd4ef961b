package completion

import (
	"reflect"
	"testing"
)

// TestRetried checks that a test a runner ran again after it failed, and
// that passed on a later try, is known as retried: from jest's and
// vitest's reports (recorded from jest 30.5 with jest.retryTimes(2) and
// vitest 4.1 with { retry: 2 }, a test whose first try fails) and from
// pytest-rerunfailures' RERUN lines; a test that passed on its first try,
// or failed on every try, is not.
func TestRetried(t *testing.T) {
	tests := []struct {
		name string
		read func(*Results)
		want []string
	}{
		{"jest: invocations 2", func(r *Results) { r.readJestJSON("/tmp/r12p", "jest", readFixture(t, "jest-retried.json")) }, []string{"js:calc.test.js subs"}},
		{"vitest: passed with the first try's error", func(r *Results) { r.readJestJSON("/tmp/r12p", "vitest", readFixture(t, "vitest-retried.json")) }, []string{"js:calc.vt.test.js subs"}},
		{"jest: no retry", func(r *Results) { r.readJestJSON("/tmp/h12p", "jest", readFixture(t, "jest.json")) }, nil},
		{"vitest: no retry", func(r *Results) { r.readJestJSON("/tmp/h12p", "vitest", readFixture(t, "vitest.json")) }, nil},
		{"pytest -v with reruns", func(r *Results) {
			*r = ReadOutput("tests/test_calc.py::test_sub RERUN                          [ 50%]\ntests/test_calc.py::test_sub PASSED                          [ 50%]\n" +
				"tests/test_calc.py::test_add[1-2] RERUN                     [100%]\ntests/test_calc.py::test_add[1-2] RERUN                     [100%]\ntests/test_calc.py::test_add[1-2] FAILED                     [100%]\n" +
				"tests/test_calc.py::test_mul PASSED                          [100%]\n")
		}, []string{"pytest:tests/test_calc.py test_sub"}},
		{"pytest -rR summary", func(r *Results) {
			*r = ReadOutput("tests/test_calc.py R.\n=========================== short test summary info ============================\n" +
				"RERUN tests/test_calc.py::test_sub - assert 0 == 2\nPASSED tests/test_calc.py::test_sub\nPASSED tests/test_calc.py::test_add\n" +
				"================== 2 passed, 1 rerun in 0.01s ==================\n")
		}, []string{"pytest:tests/test_calc.py test_sub"}},
		{"RERUN of no pytest node: nothing", func(r *Results) { *r = ReadOutput("RERUN the job\nx RERUN\n") }, nil},
		// cargo nextest's output with --retries (its docs' example, nexte.st/docs/features/retries).
		{"nextest TRY 2 PASS and FLAKY", func(r *Results) {
			*r = ReadOutput("    Starting 2 tests across 2 binaries\n  TRY 1 FAIL [   0.003s] calc::basic tests::flaky\n  stdout ---\n\n    running 1 test\n    test tests::flaky ... FAILED\n" +
				"  TRY 2 PASS [   0.002s] calc::basic tests::flaky\n        PASS [   0.001s] calc::basic tests::adds\n────────────\n     Summary [   0.021s] 2 tests run: 2 passed (1 flaky), 0 skipped\n   FLAKY 2/3 [   0.002s] calc::basic tests::flaky\n")
		}, []string{"cargo tests::flaky"}},
		{"nextest: a first try, a failure on every try", func(r *Results) {
			*r = ReadOutput("  TRY 1 FAIL [   0.003s] calc::basic tests::broken\n  TRY 2 FAIL [   0.003s] calc::basic tests::broken\n  TRY 1 PASS [   0.001s] calc::basic tests::adds\nFLAKY is a word\n")
		}, nil},
		// surefire with rerunFailingTestsCount: the failed try is a flakyFailure of the passing testcase
		// (maven-surefire's report format, not run here).
		{"surefire flakyFailure", func(r *Results) {
			r.readJUnitXML("maven", []byte(`<testsuite name="shop.OrderTest" tests="2" failures="0" flakes="1">`+
				`<testcase name="fetches" classname="shop.OrderTest" time="0.01"><flakyFailure message="expected: &lt;a&gt;" type="org.opentest4j.AssertionFailedError"/></testcase>`+
				`<testcase name="totals" classname="shop.OrderTest" time="0"/></testsuite>`))
		}, []string{"junit:shop OrderTest.fetches"}},
		{"surefire: a failure on every try is no retry", func(r *Results) {
			r.readJUnitXML("maven", []byte(`<testsuite name="shop.OrderTest"><testcase name="fetches" classname="shop.OrderTest"><failure message="x"/><rerunFailure message="x"/></testcase></testsuite>`))
		}, nil},
		{"rspec-retry verbose_retry, named by rspec's json", func(r *Results) {
			*r = ReadOutput("RSpec::Retry: 2nd try ./spec/calc_spec.rb:3\n.\n\nFinished in 0.01 seconds\nRSpec::Retry: 1st try ./spec/x_spec.rb:9\n")
			r.readRSpecJSON([]byte(`{"examples":[{"file_path":"./spec/calc_spec.rb","line_number":3,"full_description":"Calc#sub subtracts","status":"passed"},` +
				`{"file_path":"./spec/x_spec.rb","line_number":9,"full_description":"X works","status":"passed"}]}`))
		}, []string{"rspec:spec/calc_spec.rb Calc#sub subtracts"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got Results
			tt.read(&got)
			if r := got.RetriedTests(); !reflect.DeepEqual(r, tt.want) {
				t.Errorf("RetriedTests = %q, want %q", r, tt.want)
			}
		})
	}
}
