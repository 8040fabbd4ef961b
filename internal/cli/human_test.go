package cli

import (
	"errors"
	"testing"
)

func TestCheckHuman(t *testing.T) {
	agent := func() string { return "claude (pid 7) runs it" }
	for _, c := range []struct {
		verb    string
		args    []string
		refused bool
	}{
		{"abort", []string{"ralph-fix-1234abcd"}, true},
		{"pause", []string{"--loop-id", "x"}, true},
		{"resume", nil, true},
		{"gate", []string{"x", "approve"}, true},
		{"ui", nil, true},
		{"config", []string{"accept"}, true},
		{"install", []string{"--scope", "user"}, true},
		{"install", []string{"--dry-run"}, false},
		{"uninstall", []string{"--dry-run=true"}, false},
		{"uninstall", nil, true},
		{"init", []string{"--force"}, true},
		{"init", []string{"-dry-run"}, false},
		{"run", []string{"tasks"}, false},
		{"run", []string{"--stop"}, true},
		{"run", []string{"--", "--stop"}, false},
		{"abort", []string{"--help"}, false},
		{"abort", []string{"-h"}, false},
		{"status", nil, false},
		{"start", []string{"task"}, false},
		{"rollback", []string{"--last"}, false},
	} {
		err := checkHuman(&env{agent: agent}, c.verb, c.args)
		if got := errors.Is(err, errAgent); got != c.refused {
			t.Errorf("%s %q: refused = %v (%v), want %v", c.verb, c.args, got, err, c.refused)
		}
		if err := checkHuman(&env{agent: func() string { return "" }}, c.verb, c.args); err != nil {
			t.Errorf("%s %q by the human: %v", c.verb, c.args, err)
		}
	}
}
