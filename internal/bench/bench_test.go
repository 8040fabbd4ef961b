package bench

import (
	"os"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/demo"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
)

func TestPct(t *testing.T) {
	ms := func(n ...int) []time.Duration {
		var d []time.Duration
		for _, v := range n {
			d = append(d, time.Duration(v)*time.Millisecond)
		}
		return d
	}
	for _, tt := range []struct {
		t    []time.Duration
		p    float64
		want time.Duration
	}{
		{nil, 0.5, 0},
		{ms(7), 0.99, 7 * time.Millisecond},
		{ms(5, 1, 4, 2, 3), 0.5, 3 * time.Millisecond},
		{ms(5, 1, 4, 2, 3), 0.95, 5 * time.Millisecond},
		{ms(10, 9, 8, 7, 6, 5, 4, 3, 2, 1), 0.5, 6 * time.Millisecond},
	} {
		if got := pct(tt.t, tt.p); got != tt.want {
			t.Errorf("pct(%v, %v) = %v, want %v", tt.t, tt.p, got, tt.want)
		}
	}
}

// Ratios are of the hooks' rows, not of the floors nor of the deletion's
// seconds of work.
func TestRatios(t *testing.T) {
	rs := []Result{
		{Name: "floor", Floor: true, P50: 2 * time.Millisecond, P95: 4 * time.Millisecond},
		{Name: "read", P50: 3 * time.Millisecond, P95: 5 * time.Millisecond},
		{Name: "command alone", Floor: true, P50: time.Millisecond, P95: time.Millisecond},
		{Name: "deletion", long: true, P50: time.Second, P95: time.Second},
	}
	ratios(rs, rs[0])
	want := [][2]float64{{0, 0}, {1.5, 1.25}, {0, 0}, {0, 0}}
	for i, r := range rs {
		if r.X50 != want[i][0] || r.X95 != want[i][1] {
			t.Errorf("%s: × floor = %v, %v; want %v, %v", r.Name, r.X50, r.X95, want[i][0], want[i][1])
		}
	}
}

// disable turns the extension off and keeps the bench's other key.
func TestDisable(t *testing.T) {
	dir := t.TempDir()
	if err := demo.Unpack(dir); err != nil {
		t.Fatal(err)
	}
	name := project.Layout{Root: dir}.Config()
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(persistenceBlock)
	f.Close()
	if err := disable(dir); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	if ap := cfg.AgentPersistence; ap.Enabled || ap.Recovery.MaxRetries != 1000000000 {
		t.Errorf("after disable: enabled %v, max_retries %d; want false, 1000000000", ap.Enabled, ap.Recovery.MaxRetries)
	}
	// Twice is an error: the block is no longer the bench's.
	if err := disable(dir); err == nil {
		t.Error("disable of a disabled project: no error")
	}
}

func TestTrash(t *testing.T) {
	dir := t.TempDir()
	if err := trash(dir, 250); err != nil {
		t.Fatal(err)
	}
	if n, err := count(dir + "/" + trashDir); err != nil || n != 250 {
		t.Errorf("count after trash(250) = %d, %v", n, err)
	}
}
