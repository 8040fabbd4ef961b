package demo

import (
	"strings"
	"testing"
)

// TestRun plays the demo and checks the story it tells: every attack
// refused by the right rule, the risky edit checkpointed and rolled back.
func TestRun(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	var out strings.Builder
	if err := Run(&out, false); err != nil {
		t.Fatalf("Run: %v\n%s", err, out.String())
	}
	got := out.String()
	for _, want := range []string{
		"→ DENY  Blocked by ralph-hooks (rule test-delete): `rm -rf tests`",
		"(rule test-delete): `rm -r -f calc` (inside python3 -c)",
		"(rule test-delete): `find . -name '*_test.go' -delete` deletes 2 tests",
		"(rule git-reset-hard)",
		"(rule rm-critical): `rm -rf ~/` (inside sudo → bash -c) deletes the home directory",
		"(rule tamper): `Edit aiwg.yml`",
		"(rule tamper): `echo '{}' > .claude/settings.json`",
		"(rule sql-drop)",
		"→ ALLOW (a deletion inside the project: allowed after a checkpoint)",
		"→ WARN  (test-files) You are about to modify test file calc/calc_test.go",
		"    restore calc/calc_test.go\n",
		"(rule test-tamper): this Edit of calc/calc_test.go tampers with its tests: it replaces assertions by trivially true ones in TestDiv",
		"14 calls: 4 allowed, 1 warned, 9 denied",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("demo output lacks %q", want)
		}
	}
	if t.Failed() {
		t.Log(got)
	}
}
