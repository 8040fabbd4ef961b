package procscan

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// parseStatFields is ParseStat as it was before statFields: every field
// split out with strings.Fields. ParseStat must give what it gives.
func parseStatFields(b []byte) (Proc, error) {
	var p Proc
	open, close := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if open < 1 || close < open {
		return p, errors.New("no (comm)")
	}
	pid, err := strconv.Atoi(string(bytes.TrimSpace(b[:open])))
	if err != nil || pid <= 0 {
		return p, fmt.Errorf("bad pid %q", bytes.TrimSpace(b[:open]))
	}
	f := strings.Fields(string(b[close+1:]))
	if len(f) < 20 || len(f[0]) != 1 {
		return p, fmt.Errorf("pid %d: %d fields after comm, want 20 or more", pid, len(f))
	}
	ppid, err := strconv.Atoi(f[1])
	if err != nil || ppid < 0 {
		return p, fmt.Errorf("pid %d: bad ppid %q", pid, f[1])
	}
	start, err := strconv.ParseUint(f[19], 10, 64)
	if err != nil {
		return p, fmt.Errorf("pid %d: bad start time %q", pid, f[19])
	}
	p.PID, p.PPID, p.Comm, p.State, p.Start = pid, ppid, string(b[open+1:close]), f[0][0], start
	return p, nil
}

// FuzzParse: the /proc parsers take any bytes without panicking, and a
// parsed stat is one a process could have.
func FuzzParse(f *testing.F) {
	f.Add([]byte("12 (sleep) S 7 1 1 0 -1 4194304 0 0 0 0 0 0 0 0 20 0 1 0 4242 1000 100"))
	f.Add([]byte("12 (a) (b)) R 7 1 1 0 -1 4194304 0 0 0 0 0 0 0 0 20 0 1 0 4242"))
	f.Add([]byte("cpu 1\nbtime 1700000000\n"))
	f.Add([]byte("sh\x00-c\x00sleep 1\x00"))
	f.Add([]byte("12 (sleep) S\u00a07 1 1 0 -1 4194304 0 0 0 0 0 0 0 0 20 0 1 0 4242 1000 100"))
	f.Add([]byte("12 (sleep) S 7\v1\f1\r0 -1\t4194304 0 0 0 0 0 0 0 0 20 0 1 0 4242\n"))
	f.Add([]byte("12 (sleep) \xffS 7 1 1 0 -1 4194304 0 0 0 0 0 0 0 0 20 0 1 0 4242 1000 100"))
	f.Add([]byte("12 (sleep) S 7 1 1 0 -1 4194304 0 0 0 0 0 0 0 0 20 0 1 0 4242\u00a0 1000 \u3000x\xff"))
	f.Add([]byte("12 (sleep) SS 7 1 1 0 -1 4194304 0 0 0 0 0 0 0 0 20 0 1 0 4242 1000 100 7 7 7"))
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := ParseStat(b)
		if err == nil && (p.PID <= 0 || p.PPID < 0 || strings.ContainsRune(string(p.State), ' ')) {
			t.Errorf("ParseStat(%q) = %+v", b, p)
		}
		if q, qerr := parseStatFields(b); p != q || fmt.Sprint(err) != fmt.Sprint(qerr) {
			t.Errorf("ParseStat(%q) = %+v, %v; with every field split: %+v, %v", b, p, err, q, qerr)
		}
		ParseBootTime(b)
		ParseCmdline(b)
		hasEnv(b, "RALPH_LOOP_ID=x")
	})
}
