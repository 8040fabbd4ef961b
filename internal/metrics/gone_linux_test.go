package metrics

import (
	"errors"
	"testing"

	"golang.org/x/sys/unix"
)

// waitGone returns once the process pid has exited, however long that
// takes: its pidfd becomes readable then. No polling, no clock.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	fd, err := unix.PidfdOpen(pid, 0)
	if errors.Is(err, unix.ESRCH) {
		return // gone already
	}
	if err != nil {
		t.Skipf("pidfd_open: %v", err)
	}
	defer unix.Close(fd)
	for {
		_, err := unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, -1)
		if !errors.Is(err, unix.EINTR) {
			if err != nil {
				t.Fatalf("poll pidfd of %d: %v", pid, err)
			}
			return
		}
	}
}
