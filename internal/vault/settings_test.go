package vault

import "testing"

func TestSameRalphs(t *testing.T) {
	sealed := `{"hooks":{"Stop":[1]},"env":{"CLAUDE_CODE_STOP_HOOK_BLOCK_CAP":"0","EDITOR":"vi"}}`
	for _, c := range []struct {
		name, cur string
		same      bool
	}{
		{"as sealed", sealed, true},
		{"spacing and the human's keys", `{"permissions":{"allow":["Bash(ls)"]}, "hooks": {"Stop": [1]}, "env":{"EDITOR":"nano","CLAUDE_CODE_STOP_HOOK_BLOCK_CAP":"0"}}`, true},
		{"hooks changed", `{"hooks":{},"env":{"CLAUDE_CODE_STOP_HOOK_BLOCK_CAP":"0"}}`, false},
		{"all hooks off", `{"disableAllHooks":true,"hooks":{"Stop":[1]},"env":{"CLAUDE_CODE_STOP_HOOK_BLOCK_CAP":"0"}}`, false},
		{"disableAllHooks false", `{"disableAllHooks":false,"hooks":{"Stop":[1]},"env":{"CLAUDE_CODE_STOP_HOOK_BLOCK_CAP":"0"}}`, true},
		{"cap lowered", `{"hooks":{"Stop":[1]},"env":{"CLAUDE_CODE_STOP_HOOK_BLOCK_CAP":"1"}}`, false},
		{"cap removed", `{"hooks":{"Stop":[1]}}`, false},
		{"state moved", `{"hooks":{"Stop":[1]},"env":{"CLAUDE_CODE_STOP_HOOK_BLOCK_CAP":"0","RALPH_STATE_HOME":"/tmp/x"}}`, false},
		{"loop chosen", `{"hooks":{"Stop":[1]},"env":{"CLAUDE_CODE_STOP_HOOK_BLOCK_CAP":"0","RALPH_LOOP_ID":"x"}}`, false},
		{"xdg moved", `{"hooks":{"Stop":[1]},"env":{"CLAUDE_CODE_STOP_HOOK_BLOCK_CAP":"0","XDG_STATE_HOME":"/tmp"}}`, false},
	} {
		if got := sameRalphs([]byte(c.cur), []byte(sealed)); got != c.same {
			t.Errorf("%s: sameRalphs = %v, want %v", c.name, got, c.same)
		}
		if c.same {
			continue
		}
		fixed, err := putRalphs([]byte(c.cur), []byte(sealed))
		if err != nil {
			t.Fatalf("%s: putRalphs: %v", c.name, err)
		}
		if !sameRalphs(fixed, []byte(sealed)) {
			t.Errorf("%s: putRalphs left %s", c.name, fixed)
		}
	}
}
