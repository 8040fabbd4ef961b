package loop

import "testing"

func TestCheck(t *testing.T) {
	for _, c := range []struct {
		name string
		st   State
		want string // "" for no error
	}{
		{"fresh", State{Version: StateVersion, LoopID: "ralph-a-00000000", Status: Running}, ""},
		{"ended with --force", State{LoopID: "ralph-a-00000000", Status: Aborted}, ""},
		{"every status", State{Version: 1, Status: Completing, Iteration: 3}, ""},
		{"future version", State{Version: 2, Status: Running}, "s.json: version 2 is newer than this ralph reads (1); it was left as is: use the ralph that started the loop (ralph version)"},
		{"unknown status", State{Version: 1, Status: "RUNNING"}, `s.json: status "RUNNING" is not a loop status (want one of running, paused, waiting, completing, completed, failed, aborted); it was left as is`},
		{"negative iteration", State{Version: 1, Status: Paused, Iteration: -1}, "s.json: iteration -1: want 0 or more; it was left as is"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := ""
			if err := c.st.Check("s.json"); err != nil {
				got = err.Error()
			}
			if got != c.want {
				t.Errorf("Check:\n got %q\nwant %q", got, c.want)
			}
		})
	}
}
