package loop

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
)

// A stop hook killed mid-judgement leaves its lease behind, unexpired: its
// holder dead, or a zombie its parent has not reaped. The next Stop judges
// the iteration (and blocks: the task is not done) rather than let the
// session end (issue 13).
func TestEndTakesLeaseOfDeadHolder(t *testing.T) {
	for _, tt := range []struct {
		name   string
		holder func(t *testing.T) int
	}{
		{"dead", func(t *testing.T) int {
			cmd := exec.Command("true")
			if err := cmd.Run(); err != nil {
				t.Fatal(err)
			}
			return cmd.Process.Pid
		}},
		{"zombie", func(t *testing.T) int {
			cmd := exec.Command("true")
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { cmd.Wait() })
			pid := cmd.Process.Pid
			for i := 0; !isZombie(pid); i++ { // until it has exited, unreaped
				time.Sleep(time.Millisecond)
				if i > 300_000 {
					t.Fatalf("pid %d never became a zombie", pid)
				}
			}
			return pid
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, st := newLoop(t, "false", 5)
			pid := tt.holder(t)
			err := update(s.Scope, time.Now(), func(cur *State) error {
				cur.Lease = &Lease{PID: pid, Token: 99, Expires: time.Now().Add(time.Hour)}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			res, err := s.End(context.Background())
			if err != nil || res.Answer.Decision != answer.Block || strings.Contains(res.Answer.Reason, "still judging") {
				t.Errorf("Stop after a %s holder's lease: %+v, %v", tt.name, res.Answer, err)
			}
			if after, _, _ := Read(s.Scope.Root, st.LoopID); after.Iteration != 1 {
				t.Errorf("iteration = %d, want 1", after.Iteration)
			}
		})
	}
}

// isZombie reads pid's state from /proc.
func isZombie(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(data)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(f) > 0 && f[0] == "Z"
}
