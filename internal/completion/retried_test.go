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
