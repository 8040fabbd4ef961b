package audit

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// childEnv makes the test binary act as one hook process appending
// childLines lines to the log it names (see TestMain).
const (
	childEnv   = "RALPH_AUDIT_TEST_LOG"
	childIDEnv = "RALPH_AUDIT_TEST_ID"
	childLines = 20
)

// TestMain lets the test binary stand in for a hook process.
func TestMain(m *testing.M) {
	if path := os.Getenv(childEnv); path != "" {
		id := os.Getenv(childIDEnv)
		for i := 0; i < childLines; i++ {
			if err := Append(path, childEntry(id, i)); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// childEntry is line i of child id: big enough (about 4 KiB) that a torn
// or interleaved write would show.
func childEntry(id string, i int) Entry {
	fill := strings.Repeat(id+"-", 4000/(len(id)+1))
	return Entry{
		Time:     time.Now().UTC(),
		Hook:     "pre-tool-call",
		Event:    "PreToolUse",
		Session:  id,
		Tool:     "Bash",
		Decision: "allow",
		Reason:   strconv.Itoa(i),
		Input:    json.RawMessage(`{"command":"` + fill + `"}`),
	}
}

func sample(i int) Entry {
	return Entry{
		Time:       time.Date(2026, 1, 2, 3, 4, 5, 600000000+i, time.UTC),
		Hook:       "pre-tool-call",
		Event:      "PreToolUse",
		Session:    "s1",
		Loop:       "ralph-x-12345678",
		Tool:       "Bash",
		ToolUseID:  "toolu_" + strconv.Itoa(i),
		Target:     "rm -rf tests",
		Rule:       "rm-critical",
		Level:      "critical",
		Decision:   "deny",
		Reason:     "Blocked \"rm\"\nline 2",
		Checkpoint: "cp-1",
		Error:      "",
		DurationMS: 1.25,
		Cwd:        "/work/proj",
		Input:      json.RawMessage(`{"command":"rm -rf tests"}`),
	}
}

func readAll(t *testing.T, path string) (entries []Entry, bad []int) {
	t.Helper()
	err := Read(path, func(e Entry) error {
		entries = append(entries, e)
		return nil
	}, func(line int, err error) {
		if err == nil {
			t.Errorf("bad(%d) called with a nil error", line)
		}
		bad = append(bad, line)
	})
	if err != nil {
		t.Fatalf("Read(%s) error: %v", path, err)
	}
	return entries, bad
}

func TestAppendRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".aiwg", "ralph", "loops", "ralph-x-12345678", "hook-log.jsonl")
	var want []Entry
	for i := 0; i < 5; i++ {
		e := sample(i)
		if i == 3 {
			e = Entry{Time: e.Time, Hook: "stop", Event: "Stop", Decision: "allow"} // minimal line
		}
		want = append(want, e)
		if err := Append(path, e); err != nil {
			t.Fatalf("Append %d: %v", i, err)
		}
	}
	got, bad := readAll(t, path)
	if len(bad) != 0 {
		t.Errorf("Read reported bad lines %v in a clean log", bad)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Read = %+v\nwant %+v", got, want)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	if len(lines) != 5 || !strings.HasSuffix(string(raw), "\n") {
		t.Errorf("log holds %d lines (ends in newline: %v), want 5 lines each ending in a newline", len(lines), strings.HasSuffix(string(raw), "\n"))
	}
	// Empty optional fields are left out; decision and duration_ms never are.
	if got := lines[3]; strings.Contains(got, "session_id") || strings.Contains(got, "tool_input") ||
		!strings.Contains(got, `"decision":"allow"`) || !strings.Contains(got, `"duration_ms":0`) {
		t.Errorf("minimal line = %s", got)
	}
}

func TestReadTornLines(t *testing.T) {
	good := func(i int) string {
		data, err := json.Marshal(sample(i))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	tests := []struct {
		name     string
		log      string
		wantIDs  []string // ToolUseIDs read, in order
		wantBad  []int
		fnErrAt  int // stop after this many entries with an error (0: never)
		wantStop bool
	}{
		{"clean", good(1) + "\n" + good(2) + "\n", []string{"toolu_1", "toolu_2"}, nil, 0, false},
		{"torn middle line", good(1) + "\n" + `{"time":"2026-01-02T03:04:05Z","hook":"pre-to` + "\n" + good(3) + "\n", []string{"toolu_1", "toolu_3"}, []int{2}, 0, false},
		{"torn last line without newline", good(1) + "\n" + good(2) + "\n" + `{"time":"20`, []string{"toolu_1", "toolu_2"}, []int{3}, 0, false},
		{"two lines glued", good(1) + good(2) + "\n" + good(3) + "\n", []string{"toolu_3"}, []int{1}, 0, false},
		{"garbage and blank lines", "\n" + "not json\n" + "\n" + good(4) + "\n" + "[1]\n" + "   \n" + good(5), []string{"toolu_4", "toolu_5"}, []int{2, 5}, 0, false},
		{"NUL bytes from a crash", good(1) + "\n" + "\x00\x00\x00\n" + good(2) + "\n", []string{"toolu_1", "toolu_2"}, []int{2}, 0, false},
		{"wrong type", `{"time":"x","decision":"deny"}` + "\n" + good(7) + "\n", []string{"toolu_7"}, []int{1}, 0, false},
		{"empty file", "", nil, nil, 0, false},
		{"fn error stops the read", good(1) + "\n" + good(2) + "\n" + good(3) + "\n", []string{"toolu_1", "toolu_2"}, nil, 2, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "hook-log.jsonl")
			if err := os.WriteFile(path, []byte(tt.log), 0o644); err != nil {
				t.Fatal(err)
			}
			stop := errors.New("stop")
			var ids []string
			var bad []int
			err := Read(path, func(e Entry) error {
				ids = append(ids, e.ToolUseID)
				if tt.fnErrAt > 0 && len(ids) == tt.fnErrAt {
					return stop
				}
				return nil
			}, func(line int, err error) { bad = append(bad, line) })
			if tt.wantStop {
				if !errors.Is(err, stop) {
					t.Errorf("Read = %v, want fn's error", err)
				}
			} else if err != nil {
				t.Errorf("Read error: %v", err)
			}
			if !reflect.DeepEqual(ids, tt.wantIDs) {
				t.Errorf("Read entries = %q, want %q", ids, tt.wantIDs)
			}
			if !reflect.DeepEqual(bad, tt.wantBad) {
				t.Errorf("Read bad lines = %v, want %v", bad, tt.wantBad)
			}
		})
	}
}

func TestReadNilBad(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hook-log.jsonl")
	if err := os.WriteFile(path, []byte("torn\n{\"decision\":\"allow\"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	n := 0
	if err := Read(path, func(Entry) error { n++; return nil }, nil); err != nil || n != 1 {
		t.Errorf("Read with nil bad = %v, %d entries; want nil, 1", err, n)
	}
}

func TestReadMissing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no", "hook-log.jsonl")
	err := Read(path, func(Entry) error {
		t.Error("fn called for a missing log")
		return nil
	}, func(int, error) { t.Error("bad called for a missing log") })
	if err != nil {
		t.Errorf("Read(missing) = %v, want nil", err)
	}
	if _, err := os.Stat(filepath.Dir(path)); err == nil {
		t.Error("Read(missing) created the log directory")
	}
}

func TestReadUnreadable(t *testing.T) {
	dir := t.TempDir() // a directory is not a log
	if err := Read(dir, func(Entry) error { return nil }, nil); err == nil {
		t.Error("Read(directory) = nil, want an error")
	}
}

func TestReadLongLine(t *testing.T) {
	// A line longer than the reader's buffer is still one entry.
	path := filepath.Join(t.TempDir(), "hook-log.jsonl")
	e := sample(1)
	e.Reason = strings.Repeat("r", 200<<10)
	if err := Append(path, e); err != nil {
		t.Fatal(err)
	}
	if err := Append(path, sample(2)); err != nil {
		t.Fatal(err)
	}
	got, bad := readAll(t, path)
	if len(got) != 2 || len(bad) != 0 || got[0].Reason != e.Reason {
		t.Errorf("Read of a 200 KiB line: %d entries, bad %v, reason intact %v", len(got), bad, len(got) > 0 && got[0].Reason == e.Reason)
	}
}

func TestAppendErrors(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "file")
	if err := os.WriteFile(blocker, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The log's directory would have to be inside a regular file.
	if err := Append(filepath.Join(blocker, "hook-log.jsonl"), sample(1)); err == nil {
		t.Error("Append under a regular file = nil, want an error")
	}
	// tool_input that is not JSON is left out; the call is still logged.
	bad := sample(1)
	bad.Input = json.RawMessage(`{not json`)
	path := filepath.Join(dir, "hook-log.jsonl")
	if err := Append(path, bad); err != nil {
		t.Errorf("Append of an entry with invalid tool_input = %v, want nil", err)
	}
	var got Entry
	data, _ := os.ReadFile(path)
	if err := json.Unmarshal(data, &got); err != nil || got.Input != nil || got.Rule != bad.Rule {
		t.Errorf("Append wrote %q (%v), want the entry without tool_input", data, err)
	}
}

// TestAppendProcesses runs 100 processes that each append 20 lines to one
// log at the same time, and checks that all 2000 lines are there, whole.
func TestAppendProcesses(t *testing.T) {
	const n = 100
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "loops", "ralph-x-12345678", "hook-log.jsonl")
	var wg sync.WaitGroup
	errs := make(chan error, n)
	start := make(chan struct{})
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(exe, "-test.run=^$")
			cmd.Env = append(os.Environ(), "GORACE="+strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"), childEnv+"="+path, childIDEnv+"="+fmt.Sprintf("c%03d", i))
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			<-start
			if err := cmd.Run(); err != nil {
				errs <- fmt.Errorf("child %d: %v: %s", i, err, stderr.String())
			}
		}()
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}

	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	lines := 0
	seen := map[string]bool{}
	for sc.Scan() {
		lines++
		var e Entry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("line %d is not valid JSON (%v): %.200s", lines, err, sc.Text())
		}
		// Whole: the filler belongs to the same child as the line.
		want := childEntry(e.Session, mustAtoi(t, e.Reason))
		if !bytes.Equal(e.Input, want.Input) {
			t.Fatalf("line %d mixes two writers: session %s, input %.80s…", lines, e.Session, e.Input)
		}
		key := e.Session + "/" + e.Reason
		if seen[key] {
			t.Errorf("line %d duplicates %s", lines, key)
		}
		seen[key] = true
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if lines != n*childLines || len(seen) != n*childLines {
		t.Errorf("log holds %d lines (%d distinct), want %d", lines, len(seen), n*childLines)
	}
	// The per-child order is kept.
	next := map[string]int{}
	err = Read(path, func(e Entry) error {
		i := mustAtoi(t, e.Reason)
		if i != next[e.Session] {
			return fmt.Errorf("child %s: line %d after %d", e.Session, i, next[e.Session]-1)
		}
		next[e.Session]++
		return nil
	}, func(line int, err error) { t.Errorf("Read: bad line %d: %v", line, err) })
	if err != nil {
		t.Error(err)
	}
}

func mustAtoi(t *testing.T, s string) int {
	t.Helper()
	i, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("reason %q is not a line number", s)
	}
	return i
}

// TestLineIsMarshal checks the hand-written encoding against encoding/json.
func TestLineIsMarshal(t *testing.T) {
	for _, e := range []Entry{
		{},
		{Time: time.Date(2026, 11, 21, 16, 0, 53, 653396445, time.UTC), Hook: "pre-tool-call", Event: "PreToolUse",
			Session: "s1", Loop: "ralph-x-0123abcd", Tool: "Bash", ToolUseID: "toolu_1", Target: "rm -rf \"tests\"\n\t<b>&",
			Rule: "test-delete", Level: "high", Decision: "deny", Reason: "Blocked — “quoted” \u2028 \x01", Checkpoint: "cp-1",
			Error: "e", DurationMS: 1.659, Cwd: "/p", Input: json.RawMessage("{\n  \"command\": \"rm -rf tests\"\n}")},
		{Hook: "stop", Decision: "allow", DurationMS: 12},
	} {
		want, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		var a, b any
		if err := json.Unmarshal(e.Line(), &a); err != nil {
			t.Fatalf("Line() = %s: %v", e.Line(), err)
		}
		json.Unmarshal(want, &b)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("Line() = %s\nwant     %s", e.Line(), want)
		}
		if n := bytes.Count(e.Line(), []byte("\n")); n != 1 {
			t.Errorf("Line() has %d newlines, want 1 (at the end)", n)
		}
	}
}

func TestTailSmallChunks(t *testing.T) {
	// Lines that straddle chunk boundaries come out whole.
	log := filepath.Join(t.TempDir(), "log")
	var want []string
	var b bytes.Buffer
	for i := range 5000 {
		s := fmt.Sprintf("line %d %s", i, strings.Repeat("x", i%97))
		want = append([]string{s}, want...)
		b.WriteString(s + "\n")
	}
	os.WriteFile(log, b.Bytes(), 0o644)
	var got []string
	tail(log, 5000, 4<<20, func(line []byte, n int) bool { got = append(got, string(line)); return true })
	if !reflect.DeepEqual(got, want[:len(got)]) || len(got) != 5000 {
		t.Errorf("tail: %d lines, first %q", len(got), got[:1])
	}
}

// TestParseIsUnmarshal: Parse reads a line as json.Unmarshal does, errors
// included.
func TestParseIsUnmarshal(t *testing.T) {
	lines := []string{
		string(sample(1).Line()),
		`{"time":"2026-01-02T03:04:05.123456789+01:00","hook_name":"stop","event":"Stop","decision":"block","duration_ms":1.5}`,
		`{"time":null,"hook_name":null,"tool_input":null,"duration_ms":null}`,
		`{"hook_name":"h","extra":{"a":[1,2]},"tool_input":{"command":"ls"}}`,
		`{"hook_name":"a","hook_name":"b"}`,
		`{"time":"x"}`, `{"hook_name":5}`, `{"duration_ms":"5"}`, `{"time":5}`, `[1]`, `null`, `"s"`, `{"hook_name":"é\u00e9"}`,
		`{"tool_input":[1, 2]}`,
	}
	for _, l := range lines {
		got, gerr := Parse([]byte(l))
		var want Entry
		werr := json.Unmarshal([]byte(l), &want)
		if l == "null" {
			werr = errors.New("null") // json.Unmarshal accepts null as nothing; a log line must be an object
		}
		if (gerr != nil) != (werr != nil) {
			t.Errorf("Parse(%s) error = %v, json.Unmarshal error = %v", l, gerr, werr)
			continue
		}
		if gerr != nil {
			continue
		}
		if !got.Time.Equal(want.Time) {
			t.Errorf("Parse(%s).Time = %v, want %v", l, got.Time, want.Time)
		}
		got.Time, want.Time = time.Time{}, time.Time{}
		if len(want.Input) > 0 {
			var a, b bytes.Buffer
			json.Compact(&a, got.Input)
			json.Compact(&b, want.Input)
			got.Input, want.Input = a.Bytes(), b.Bytes()
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Parse(%s) = %+v, want %+v", l, got, want)
		}
	}
}

// TestParseOldHook: a line of a log written before ralph took the design's
// name hook_name says "hook"; it reads the same, and is written back with
// hook_name.
func TestParseOldHook(t *testing.T) {
	e, err := Parse([]byte(`{"time":"2026-01-02T03:04:05Z","hook":"stop","event":"Stop","decision":"block","duration_ms":2}`))
	if err != nil || e.Hook != "stop" {
		t.Fatalf("Parse = %+v, %v", e, err)
	}
	if line := string(e.Line()); !strings.Contains(line, `"hook_name":"stop"`) || strings.Contains(line, `"hook":`) {
		t.Errorf("Line = %s, want hook_name and no hook", line)
	}
	if _, err := Parse([]byte(`{"hook":5}`)); err == nil || err.Error() != "hook: want a string" {
		t.Errorf("Parse of a bad old hook: %v", err)
	}
}

// FuzzParse: any line parses without panicking, and what parses is
// written back by Line and parsed again to the same entry.
func FuzzParse(f *testing.F) {
	f.Add(sample(1).Line())
	f.Add([]byte(`{"time":"x"}`))
	f.Add([]byte(`{"hook":"\xff","tool_input":{"a":1}}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		e, err := Parse(line)
		if err != nil {
			return
		}
		again, err := Parse(e.Line())
		if err != nil {
			t.Fatalf("Parse(Line(%+v)) = %v", e, err)
		}
		if !again.Time.Equal(e.Time) || again.Hook != e.Hook || again.Target != e.Target || again.Decision != e.Decision || again.DurationMS != e.DurationMS {
			t.Fatalf("round trip: %+v\n%+v", e, again)
		}
	})
}
