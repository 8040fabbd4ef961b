package testscan

import (
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"
)

// fuzzNames are the file names the fuzz targets scan their input as.
var fuzzNames = map[string]string{"go": "x_test.go", "python": "test_x.py", "js": "x.test.tsx",
	"ts": "x.test.ts", "rust": "x.rs", "java": "XTest.java", "ruby": "x_spec.rb"}

// fuzzSeeds are hard cases for every lexer, added to every target.
var fuzzSeeds = []string{
	"", "\"", "'", "`", `"""`, "'''", "/*", "/* /*", "#", "=begin\n", "<<~EOS\n", "%q(", "r#\"", "'\\",
	"`${", "`${`${", "f'{", "f\"{x:{y", "#{", "\"#{\"#{", "${}", "<div>", "<a b='", "</", "?'", "$'", "@",
	"#[test", "#[test]\nfn", "@Test", "@Test void a(", "def test_a(", "class TestA:\n\tdef test_b(self):",
	"describe('a', () => {", "it('a'", "it.each`", "test.skip(", "expect(", "expect(true).toBe(", "assert",
	"assert_eq!(", "t.Run(", "func TestA(t *testing.T) {", "package x\nfunc TestA(t *testing.T) { t.Skip() }",
	"it { is_expected", "def test_x = ", "class << self", "while x do", "x = /", "a / b", "'\\u{1F600}'",
	"'static", "\\\n", "\r\n", "\x00", "\xff\xfe", "é", "if (a <b) {}", "<T,>(x) => x", "<<-A\n<<-B\nA\nB\n",
}

// fuzzing reports whether the test binary runs with -fuzz.
func fuzzing() bool {
	f := flag.Lookup("test.fuzz")
	return f != nil && f.Value.String() != ""
}

// fuzzScan scans src as lang with a deadline and checks the invariants
// and determinism.
func fuzzScan(t *testing.T, lang, src string) {
	if len(src) > 16<<10 {
		return
	}
	name := fuzzNames[lang]
	var f *File
	done := make(chan struct{})
	go func() {
		defer close(done)
		f, _ = Scan(name, []byte(src))
	}()
	if fuzzing() {
		// The fuzzer gives no input a deadline of its own: name the one
		// that hangs. Without -fuzz (the seeds, in go test) no clock is
		// read: a hang fails by the test binary's timeout.
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("Scan(%s, %q) did not return in 5s", name, src)
		}
	}
	<-done
	if f == nil {
		if lang != "go" {
			t.Fatalf("Scan(%s, %q) = nil", name, src)
		}
		return
	}
	checkFile(t, []byte(src), f)
	g, _ := Scan(name, []byte(src))
	if !reflect.DeepEqual(f, g) {
		t.Fatalf("Scan(%s, %q) is not deterministic", name, src)
	}
	for _, x := range f.Tests {
		if !utf8Valid(x.Name) && utf8Valid(src) {
			t.Fatalf("Scan(%s, %q): test name %q is not UTF-8", name, src, x.Name)
		}
	}
}

func utf8Valid(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }

// addSeeds adds the samples of the language under dir, failing when there
// are none, and the hard cases.
func addSeeds(f *testing.F, dir string) {
	n := 0
	for _, p := range sampleFiles(f) {
		if !strings.HasPrefix(p, filepath.Join("testdata", dir)+string(filepath.Separator)) {
			continue
		}
		src, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(src))
		n++
	}
	if n == 0 {
		f.Fatalf("no samples in testdata/%s", dir)
	}
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
}

func FuzzGo(f *testing.F) {
	addSeeds(f, "go")
	f.Fuzz(func(t *testing.T, src string) { fuzzScan(t, "go", src) })
}

func FuzzPython(f *testing.F) {
	addSeeds(f, "python")
	f.Fuzz(func(t *testing.T, src string) { fuzzScan(t, "python", src) })
}

// FuzzJS scans each input as TSX (JSX on) and as TypeScript (JSX off).
func FuzzJS(f *testing.F) {
	addSeeds(f, "js")
	f.Fuzz(func(t *testing.T, src string) {
		fuzzScan(t, "js", src)
		fuzzScan(t, "ts", src)
	})
}

func FuzzRust(f *testing.F) {
	addSeeds(f, "rust")
	f.Fuzz(func(t *testing.T, src string) { fuzzScan(t, "rust", src) })
}

func FuzzJava(f *testing.F) {
	addSeeds(f, "java")
	f.Fuzz(func(t *testing.T, src string) { fuzzScan(t, "java", src) })
}

func FuzzRuby(f *testing.F) {
	addSeeds(f, "ruby")
	f.Fuzz(func(t *testing.T, src string) { fuzzScan(t, "ruby", src) })
}

// linearUnits are the pieces that pathological inputs repeat: deep
// nesting, runs of openers of unterminated literals, long statements.
var linearUnits = []string{
	"(", "[", "{", ")", "}", "\"", "'", "`", "/", "/[", "#{", "${", "<", "<<~A ", "%q(", "r#\"", "'a",
	"f'{", "\"#{", "it(", "describe('x', () => {", "expect(", "expect(x).toBe(", "assert ", "assert(", "assert_eq!(",
	"#[test] fn a", "fn fn ", "@Test void a(", "def test_a(): ", "\ndef test_a():\n    assert x\n", "it 'x' do\n",
	"do ", "if x\n", "x.", "!", "? ", "?'", "<a>", "</a>", "t.Run(\"x\", func(t *testing.T) {", "skip ",
	"\n  ", "\\\n", "class A < ActiveSupport::TestCase\n", "test.skip(", "assertTrue(", "a=/ ",
}

var linearLangs = []string{"go", "python", "js", "ts", "rust", "java", "ruby"}

// TestLinear scans large pathological inputs in every language, at two
// sizes, and checks that what a scan allocates grows with the input no
// faster than linearly: eight times the input, at most 16 times the
// allocations and bytes (slices that double as they grow), plus a
// constant; a quadratic scan would take 64 times. These are counts, the
// same on any machine however loaded; the time a scan takes is
// BenchmarkLinear's.
func TestLinear(t *testing.T) {
	n := 8 << 10
	var mem runtime.MemStats
	measure := func(name string, src []byte) (allocs, bytes uint64, f *File) {
		runtime.ReadMemStats(&mem)
		a, b := mem.Mallocs, mem.TotalAlloc
		f, _ = Scan(name, src)
		runtime.ReadMemStats(&mem)
		return mem.Mallocs - a, mem.TotalAlloc - b, f
	}
	for _, u := range linearUnits {
		small := []byte(strings.Repeat(u, n/len(u)))
		large := []byte(strings.Repeat(u, 8*(n/len(u))))
		for _, lang := range linearLangs {
			name := fuzzNames[lang]
			Scan(name, small) // warm up what is made once
			a1, b1, _ := measure(name, small)
			a2, b2, f := measure(name, large)
			if a2 > a1*16+64 || b2 > b1*16+64<<10 {
				t.Errorf("Scan(%s, %q × n): %d allocations, %d bytes at n = %d; %d, %d at 8n: more than linear",
					lang, u, a1, b1, n/len(u), a2, b2)
			}
			if f != nil {
				checkFile(t, large, f)
			}
		}
	}
}

// BenchmarkLinear scans the pathological inputs of TestLinear and reports
// the worst cost per byte as a multiple of a typical test file's: about
// 12 (quadratic scans cost 200 times more at this size).
func BenchmarkLinear(b *testing.B) {
	n := 96 << 10
	name, src := typical(b, "js")
	perByte := func(name string, src []byte) float64 {
		start := time.Now()
		Scan(name, src)
		return float64(time.Since(start)) / float64(len(src))
	}
	for b.Loop() {
		base := perByte(name, src)
		worst := 0.0
		for _, u := range linearUnits {
			in := []byte(strings.Repeat(u, n/len(u)))
			for _, lang := range linearLangs {
				worst = max(worst, perByte(fuzzNames[lang], in)/base)
			}
		}
		b.ReportMetric(worst, "worst×typical")
	}
}
