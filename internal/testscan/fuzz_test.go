package testscan

import (
	"os"
	"path/filepath"
	"reflect"
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
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatalf("Scan(%s, %q) did not return in 5s", name, src)
	}
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

// TestLinear scans large pathological inputs in every language: deep
// nesting, runs of openers of unterminated literals, long statements. Each
// may cost at most 30 times as much per byte as a typical test file (the
// worst is about 12 times; the quadratic scans this caught cost 200 times
// more at this size, the cubic one never ended). The bound is relative, so
// it holds on a loaded machine; under the race detector, which slows
// everything tenfold, the inputs are smaller.
func TestLinear(t *testing.T) {
	n := 96 << 10
	if raceDetector || testing.Short() {
		n = 24 << 10
	}
	perByte := time.Duration(1 << 62)
	for range 5 {
		name, src := typical(t, "js")
		start := time.Now()
		Scan(name, src)
		perByte = min(perByte, time.Since(start)/time.Duration(len(src)))
	}
	limit := 30*perByte*time.Duration(n) + 50*time.Millisecond
	worst, worstCase := 0.0, ""
	defer func() { t.Logf("worst: %q at %.1f times a typical file's cost per byte", worstCase, worst) }()
	units := []string{
		"(", "[", "{", ")", "}", "\"", "'", "`", "/", "/[", "#{", "${", "<", "<<~A ", "%q(", "r#\"", "'a",
		"f'{", "\"#{", "it(", "describe('x', () => {", "expect(", "expect(x).toBe(", "assert ", "assert(", "assert_eq!(",
		"#[test] fn a", "fn fn ", "@Test void a(", "def test_a(): ", "\ndef test_a():\n    assert x\n", "it 'x' do\n",
		"do ", "if x\n", "x.", "!", "? ", "?'", "<a>", "</a>", "t.Run(\"x\", func(t *testing.T) {", "skip ",
		"\n  ", "\\\n", "class A < ActiveSupport::TestCase\n", "test.skip(", "assertTrue(", "a=/ ",
	}
	langs := []string{"go", "python", "js", "ts", "rust", "java", "ruby"}
	for _, u := range units {
		src := []byte(strings.Repeat(u, n/len(u)))
		for _, lang := range langs {
			// The least of up to three runs: a busy moment of the machine
			// does not last three runs, a quadratic scan does.
			var f *File
			d := time.Duration(1 << 62)
			for try := 0; try < 3 && d > limit; try++ {
				start := time.Now()
				f, _ = Scan(fuzzNames[lang], src)
				d = min(d, time.Since(start))
			}
			if d > limit {
				t.Errorf("Scan(%s, %q × %d) took %v, more than %v", lang, u, n/len(u), d, limit)
			}
			if r := float64(d) / float64(perByte*time.Duration(n)); r > worst {
				worst, worstCase = r, lang+" "+u
			}
			if f != nil {
				checkFile(t, src, f)
			}
		}
	}
}
