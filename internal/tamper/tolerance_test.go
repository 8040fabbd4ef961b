package tamper

import (
	"strings"
	"testing"
)

func TestTolerance(t *testing.T) {
	for _, tt := range []struct {
		line string
		tol  float64
		ok   bool
	}{
		{`assert.InDelta(t, 0.19, Rate("DE"), 0.001)`, 0.001, true},
		{`require.InEpsilon(t, want, got, 1e-9, "rate")`, 0, false}, // the last argument is a message
		{`assert compute(1) == pytest.approx(0.19)`, 1e-6, true},
		{`assert compute(1) == pytest.approx(0.19, rel=10)`, 10, true},
		{`assert math.isclose(a, b, abs_tol=1e-3)`, 1e-3, true},
		{`self.assertAlmostEqual(a, b, places=3)`, 1e-3, true},
		{`expect(ratio()).toBeCloseTo(0.19, 5)`, 1e-5, true},
		{`expect(ratio()).toBeCloseTo(0.19)`, 1e-2, true},
		{`assertEquals(0.19, Price.rate("DE"), 1e-9);`, 1e-9, true},
		{`assertEquals(3, Price.total(1, 2));`, 0, false},
		{`assertThat(x).isCloseTo(1.0, within(0.01));`, 0.01, true},
		{`expect(Price.rate("DE")).to be_within(0.001).of(0.19)`, 0.001, true},
		{`assert!((rate("DE") - 0.19).abs() < 1e-9);`, 1e-9, true},
		{`if math.Abs(got-want) > 1e-6 {`, 1e-6, true},
		{`assert_relative_eq!(a, b, epsilon = 1e-6);`, 1e-6, true},
		{`assert.InDelta(t, 0.19, Rate("DE"), eps)`, 0, false}, // computed
		{`assert.Equal(t, 3, total)`, 0, false},
		{`expect(total([1, 2])).toBe(3)`, 0, false},
	} {
		_, tol, ok := tolerance(tt.line)
		if ok != tt.ok || ok && tol != tt.tol {
			t.Errorf("tolerance(%q) = %g, %v; want %g, %v", tt.line, tol, ok, tt.tol, tt.ok)
		}
	}
}

func TestWidened(t *testing.T) {
	for _, tt := range []struct {
		gone, added string
		want        string // a part of the answer; "" for none
	}{
		{`assert.InDelta(t, 0.19, r, 0.001)`, `assert.InDelta(t, 0.19, r, 10)`, "from 0.001 to 10"},
		{`assert.InDelta(t, 0.19, r, 0.001)`, `assert.InDelta(t, 0.19, r, 0.0001)`, ""},
		{`assert x == pytest.approx(0.19)`, `assert x == pytest.approx(0.19, rel=10)`, "from 1e-06 to 10"},
		{`expect(x).toBe(3)`, `expect(x).toBeCloseTo(3, -5)`, "tolerance of 100000"},
		{`expect(x).toBe(3)`, `expect(x).toBeCloseTo(3, 2)`, ""},
		{`expect(x).to be_within(0.001).of(0.19)`, `expect(x).to be_within(100).of(0.19)`, "from 0.001 to 100"},
		{`assert_eq!(a, 3);`, `assert_eq!(b, 3);`, ""},
		{``, `assert x == pytest.approx(0.19, rel=2)`, "tolerance of 2"},
	} {
		var gone []string
		if tt.gone != "" {
			gone = []string{tt.gone}
		}
		got := widened(gone, []string{tt.added})
		if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
			t.Errorf("widened(%q → %q) = %q, want %q", tt.gone, tt.added, got, tt.want)
		}
	}
}

// FuzzTolerance checks that the reader of tolerances never panics on any
// line of a test.
func FuzzTolerance(f *testing.F) {
	for _, s := range []string{
		`assert.InDelta(t, 0.19, r, 0.001)`, `pytest.approx(0.19, rel=10)`, `toBeCloseTo(3, -5)`,
		`be_within(0.1).of(2)`, `(x - y).abs() < 1e-9`, `approx(`, `InDelta(t, "a\"", ,)`, `within(`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, l string) {
		if len(l) > 4096 {
			return
		}
		if k, tol, ok := tolerance(l); !ok && (k != "" || tol != 0) {
			t.Fatalf("tolerance(%q) = %q, %g, false", l, k, tol)
		}
		widened([]string{l}, []string{l + ")"})
	})
}
