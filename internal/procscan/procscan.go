// Package procscan lists the processes a loop's agent left running: those
// started since the loop began that work inside the project (their
// working directory is in it) or carry the loop's id in their environment
// (ralph run sets RALPH_LOOP_ID for its agent), other than ralph's own, the
// agent itself and the processes the agent keeps for itself (its MCP and
// language servers, and the other hooks of the same event). A process left
// running can change the tree while the Stop's completion command runs
// (swap a test for a passing one and put it back), so the Stop does not
// judge completion while one lives.
//
// It reads Linux's /proc: each process's stat (its parent, state and start
// time), and the working directory, environment and command line of the
// few started since the loop began. Where there is no /proc (macOS,
// Windows) it lists nothing and says so (Supported).
package procscan

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Proc is one process as /proc describes it.
type Proc struct {
	PID, PPID int
	Comm      string // the executable's name, as the kernel keeps it (15 bytes at most)
	State     byte   // R, S, D, T, Z, X, …
	Start     uint64 // start time, in clock ticks after boot
	Cwd       string // working directory, when read
	Cmdline   string // arguments joined by spaces, when read
}

// ticks is the kernel's USER_HZ, the unit of a stat's start time: 100 on
// every architecture Linux exposes to user space through /proc.
const ticks = 100

// ParseStat reads the text of /proc/PID/stat: pid (comm) state ppid … with
// the start time its 22nd field. comm may hold spaces and parentheses: it
// ends at the last ')'.
func ParseStat(b []byte) (Proc, error) {
	var p Proc
	open, close := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if open < 1 || close < open {
		return p, errors.New("no (comm)")
	}
	pid, err := strconv.Atoi(string(bytes.TrimSpace(b[:open])))
	if err != nil || pid <= 0 {
		return p, fmt.Errorf("bad pid %q", bytes.TrimSpace(b[:open]))
	}
	// state(3) ppid(4) … starttime(22): f[0] is field 3.
	f, n := statFields(b[close+1:])
	if n < 20 || len(f[0]) != 1 {
		return p, fmt.Errorf("pid %d: %d fields after comm, want 20 or more", pid, n)
	}
	ppid, err := strconv.Atoi(string(f[1]))
	if err != nil || ppid < 0 {
		return p, fmt.Errorf("pid %d: bad ppid %q", pid, f[1])
	}
	start, err := strconv.ParseUint(string(f[2]), 10, 64)
	if err != nil {
		return p, fmt.Errorf("pid %d: bad start time %q", pid, f[2])
	}
	p.PID, p.PPID, p.Comm, p.State, p.Start = pid, ppid, string(b[open+1:close]), f[0][0], start
	return p, nil
}

// statFields finds, in the fields of t after a stat's comm (split as
// strings.Fields splits them), the 1st (state), 2nd (ppid) and 20th
// (start time), and counts the fields, without copying t: the listing
// parses one stat per process on the machine. It reads t only up to the
// 20th field, which is all a well-formed stat needs; n is then 20 (the
// fields after it do not change the first 20, whatever they hold). The
// count of the rest, for the error that names it, and text that is not
// ASCII before the 20th field end are left to strings.Fields, whose idea of a
// space is Unicode's.
func statFields(t []byte) (f [3][]byte, n int) {
	i := 0
	for n < 20 {
		for i < len(t) && asciiSpace[t[i]] {
			i++
		}
		if i == len(t) {
			return f, n
		}
		j := i
		for j < len(t) && !asciiSpace[t[j]] {
			if t[j] >= 0x80 {
				return fieldsOf(t)
			}
			j++
		}
		switch n {
		case 0:
			f[0] = t[i:j]
		case 1:
			f[1] = t[i:j]
		case 19:
			f[2] = t[i:j]
		}
		n++
		i = j
	}
	if len(f[0]) != 1 {
		return fieldsOf(t) // an error, which says how many fields
	}
	return f, n
}

// fieldsOf is statFields by strings.Fields, every field counted.
func fieldsOf(t []byte) (f [3][]byte, n int) {
	all := strings.Fields(string(t))
	for i, j := range [3]int{0, 1, 19} {
		if j < len(all) {
			f[i] = []byte(all[j])
		}
	}
	return f, len(all)
}

// asciiSpace is strings.Fields's space among ASCII bytes.
var asciiSpace = [256]bool{' ': true, '\t': true, '\n': true, '\v': true, '\f': true, '\r': true}

// ParseBootTime reads the boot time (its btime line, seconds since the
// epoch) from the text of /proc/stat.
func ParseBootTime(b []byte) (time.Time, error) {
	for line := range bytes.SplitSeq(b, []byte("\n")) {
		if v, ok := bytes.CutPrefix(line, []byte("btime ")); ok {
			n, err := strconv.ParseInt(string(bytes.TrimSpace(v)), 10, 64)
			if err != nil || n <= 0 {
				return time.Time{}, fmt.Errorf("bad btime %q", bytes.TrimSpace(v))
			}
			return time.Unix(n, 0), nil
		}
	}
	return time.Time{}, errors.New("no btime line")
}

// ParseCmdline turns the NUL-separated arguments of /proc/PID/cmdline into
// one line, each argument that holds a space or is empty quoted.
func ParseCmdline(b []byte) string {
	b = bytes.TrimRight(b, "\x00")
	if len(b) == 0 {
		return ""
	}
	var out []string
	for a := range bytes.SplitSeq(b, []byte{0}) {
		s := string(a)
		if s == "" || strings.ContainsAny(s, " \t\n'\"") {
			s = strconv.Quote(s)
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

// hasEnv reports whether the NUL-separated environment env holds the
// entry kv (KEY=value) exactly.
func hasEnv(env []byte, kv string) bool {
	for e := range bytes.SplitSeq(env, []byte{0}) {
		if string(e) == kv {
			return true
		}
	}
	return false
}

// inside reports whether path is dir or below it.
func inside(path, dir string) bool {
	if path == "" || dir == "" {
		return false
	}
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// readTable reads every process's stat in the proc directory fs.
func readTable(fs *procFS) ([]Proc, error) {
	ents, err := os.ReadDir(fs.path)
	if err != nil {
		return nil, err
	}
	out := make([]Proc, 0, len(ents))
	buf := make([]byte, 1024) // a stat line is 300 bytes or so; comm is 16 at most
	for _, e := range ents {
		n := e.Name()
		if n == "" || n[0] < '1' || n[0] > '9' {
			continue
		}
		b, err := fs.readSmall(n+"/stat", buf)
		if err != nil {
			continue // gone since, or not ours to read
		}
		if p, err := ParseStat(b); err == nil {
			out = append(out, p)
		}
	}
	return out, nil
}
