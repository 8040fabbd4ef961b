package procscan

import (
	"strings"
	"testing"
)

// FuzzParse: the /proc parsers take any bytes without panicking, and a
// parsed stat is one a process could have.
func FuzzParse(f *testing.F) {
	f.Add([]byte("12 (sleep) S 7 1 1 0 -1 4194304 0 0 0 0 0 0 0 0 20 0 1 0 4242 1000 100"))
	f.Add([]byte("12 (a) (b)) R 7 1 1 0 -1 4194304 0 0 0 0 0 0 0 0 20 0 1 0 4242"))
	f.Add([]byte("cpu 1\nbtime 1700000000\n"))
	f.Add([]byte("sh\x00-c\x00sleep 1\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if p, err := ParseStat(b); err == nil && (p.PID <= 0 || p.PPID < 0 || strings.ContainsRune(string(p.State), ' ')) {
			t.Errorf("ParseStat(%q) = %+v", b, p)
		}
		ParseBootTime(b)
		ParseCmdline(b)
		hasEnv(b, "RALPH_LOOP_ID=x")
	})
}
