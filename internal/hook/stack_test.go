package hook

import (
	"os"
	"os/exec"
	"runtime/debug"
	"strings"
	"testing"
)

// GrowStack must ask for its 64 KiB in fact: were its frame optimised away,
// the hooks would grow their stacks step by step again, deep in the call,
// and nothing else would fail. Under a 32 KiB limit on stacks it must
// therefore end the process; it runs in a child process, since a stack
// over the limit is fatal.
func TestGrowStackAsksForItsRoom(t *testing.T) {
	if os.Getenv("HOOK_TEST_GROW_STACK") == "1" {
		debug.SetMaxStack(32 << 10)
		GrowStack()
		os.Exit(0)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestGrowStackAsksForItsRoom$")
	cmd.Env = append(os.Environ(), "HOOK_TEST_GROW_STACK=1")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "stack exceeds 32768-byte limit") {
		t.Fatalf("GrowStack under a 32 KiB limit on stacks: %v\n%s\nwant the process ended for a stack over the limit", err, out)
	}
}

// Once grown, a call that stays within the 64 KiB never grows the stack
// again: under a 32 KiB limit set after GrowStack, a 40 KiB call goes
// through, where without it the stack would grow to 64 KiB and end the
// process.
func TestGrowStackIsEnough(t *testing.T) {
	if os.Getenv("HOOK_TEST_GROW_STACK") == "2" {
		GrowStack()
		debug.SetMaxStack(32 << 10)
		if deep(200) == 0 { // 200 frames of about 200 bytes
			os.Exit(3)
		}
		os.Exit(0)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestGrowStackIsEnough$")
	cmd.Env = append(os.Environ(), "HOOK_TEST_GROW_STACK=2")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("a 40 KiB call after GrowStack: %v\n%s", err, out)
	}
}

//go:noinline
func deep(n int) int {
	var b [160]byte
	b[n%len(b)] = byte(n)
	if n == 0 {
		return int(b[0]) + 1
	}
	return deep(n-1) + int(b[n%len(b)])
}
