package proc

import (
	"os/exec"
	"testing"
	"time"
)

// A child that has exited but is not yet reaped answers signal 0; Alive
// must still call it gone, or a stop hook killed mid-judgement would hold
// its loop's lease until it expires.
func TestAliveZombie(t *testing.T) {
	cmd := exec.Command("true")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	defer cmd.Wait()
	// Wait until the child has exited and is a zombie (a bound of
	// minutes: only a broken system gets there).
	for i := 0; !zombie(pid); i++ {
		time.Sleep(time.Millisecond)
		if i > 300_000 {
			t.Fatalf("pid %d never became a zombie", pid)
		}
		if _, _, ok := stat(pid); !ok {
			t.Fatalf("pid %d vanished before it was reaped", pid)
		}
	}
	if Alive(pid) {
		t.Errorf("Alive(%d) = true for a zombie, want false", pid)
	}
}
