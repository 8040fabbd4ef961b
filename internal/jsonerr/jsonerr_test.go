package jsonerr

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

type entry struct {
	ID   string `json:"loop_id"`
	PID  int    `json:"pid"`
	Size uint   `json:"size"`
}

// wrapped decodes as ralph's own types do: through an embedded "plain".
type wrapped entry

func (w *wrapped) UnmarshalJSON(data []byte) error {
	type plain entry
	var v struct{ plain }
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	*w = wrapped(v.plain)
	return nil
}

type doc struct {
	Version string    `json:"version"`
	Loops   []entry   `json:"active_loops"`
	Wrapped []wrapped `json:"wrapped"`
	Done    bool      `json:"done"`
	Score   float64   `json:"score"`
	Started time.Time `json:"started"`
	Meta    struct {
		Tags map[string]string `json:"tags"`
	} `json:"meta"`
}

func TestSay(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"active_loops":"x"}`, "active_loops: want a list, got a string"},
		{`{"active_loops":[{"pid":"12"}]}`, "active_loops.pid: want a whole number, got a string"},
		{`{"active_loops":[{"size":-1}]}`, "active_loops.size: want a whole number, 0 or more, got the number -1"},
		{`{"active_loops":[{"pid":1.5}]}`, "active_loops.pid: want a whole number, got the number 1.5"},
		{`{"wrapped":[{"loop_id":7}]}`, "wrapped.loop_id: want a string, got a number"},
		{`{"version":2}`, "version: want a string, got a number"},
		{`{"done":"yes"}`, "done: want true or false, got a string"},
		{`{"score":[1]}`, "score: want a number, got a list"},
		{`{"meta":{"tags":[]}}`, "meta.tags: want an object, got a list"},
		{`{"meta":true}`, "meta: want an object, got true or false"},
		{`[1]`, "want an object, got a list"},
		{`{"started":5}`, "a time is not one like 2026-01-27T10:05:00Z"},
		{`{"started":"yesterday"}`, "a time is not one like 2026-01-27T10:05:00Z"},
		{`{"version":"1"`, "truncated: it ends at byte 14"},
		{``, "truncated: it ends at byte 0"},
		{"\x04garbage", "not valid JSON at byte 1"},
		{`{"a":1} {"b":2}`, "not valid JSON at byte 9"},
	}
	for _, tt := range tests {
		var d doc
		err := json.Unmarshal([]byte(tt.in), &d)
		if err == nil {
			t.Errorf("Unmarshal(%q) = nil error", tt.in)
			continue
		}
		if got := Say(err); got != tt.want {
			t.Errorf("Say(Unmarshal(%q)) = %q (from %q), want %q", tt.in, got, err, tt.want)
		}
	}
	if got := Say(errors.New("disk on fire")); got != "disk on fire" {
		t.Errorf("Say(other) = %q", got)
	}
}

// FuzzSay decodes any bytes as ralph decodes its files: whatever is
// wrong, Say says it on one line, without encoding/json's Go words.
func FuzzSay(f *testing.F) {
	f.Add([]byte(`{"active_loops":[{"pid":"12"}]}`))
	f.Add([]byte(`{"wrapped":[{"loop_id":7}]}`))
	f.Add([]byte(`{"started":"x","meta":{"tags":[1]}}`))
	f.Add([]byte("\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var d doc
		err := json.Unmarshal(data, &d)
		if err == nil {
			return
		}
		msg := Say(err)
		if msg == "" || strings.ContainsAny(msg, "\n\r") {
			t.Fatalf("Say(%q) = %q: want one line", err, msg)
		}
		for _, w := range []string{"Go struct", "Go value", "cannot unmarshal", "jsonerr."} {
			if strings.Contains(msg, w) {
				t.Fatalf("Say(%q) = %q: says %q", err, msg, w)
			}
		}
	})
}
