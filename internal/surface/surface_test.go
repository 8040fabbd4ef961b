package surface

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func names(syms []Symbol) string {
	var out []string
	for _, s := range syms {
		out = append(out, s.Kind+" "+s.Name)
	}
	return strings.Join(out, "; ")
}

func TestFile(t *testing.T) {
	tests := []struct{ file, src, want string }{
		{"calc.go", `package calc

import ("flag"; "net/http")

var verbose = flag.Bool("verbose", false, "")

func Add(a, b int) int { return a + b }
func sub(a, b int) int { return a - b }

type Calc struct{}
type inner struct{}

func (c *Calc) Mul(a, b int) int { return a * b }
func (c Calc) div() {}
func (i inner) Exported() {}

func routes(fs *flag.FlagSet) {
	fs.StringVar(&x, "out", "", "")
	http.HandleFunc("/api/sum", nil)
	mux.Handle("not a route", nil)
}
`, "flag -out; flag -verbose; func Add; method Calc.Mul; route /api/sum"},
		{"broken.go", "package x\nfunc Broken( {", ""},
		{"app.py", `import argparse

def parse(args):
    p = argparse.ArgumentParser()
    p.add_argument("-n", "--name")
    p.add_argument('--dry-run', action='store_true')
    def nested():
        pass

def _private():
    pass

class Cart:
    def add(self, item):
        pass
    def _hidden(self):
        pass

async def fetch():
    pass

@app.route("/checkout", methods=["POST"])
def checkout():
    pass
`, "flag --dry-run; flag --name; func checkout; func fetch; func parse; method Cart.add; route /checkout"},
		{"src/cart.ts", `export function addItem(cart, item) {}
export default async function checkout() {}
export const TAX = 0.2;
export class Cart {}
function helper() {}
exports.legacy = () => {};
program.option('-p, --port <n>', 'port');
app.get('/items', handler);
router.post("/items/:id", handler);
`, "flag --port; func Cart; func TAX; func addItem; func checkout; func legacy; route /items; route /items/:id"},
		{"types.d.ts", "export function declared(): void;", ""},
		{"src/lib.rs", `pub fn parse(s: &str) {}
pub(crate) fn internal() {}
fn private() {}
pub async fn fetch() {}
    pub fn method(&self) {}
let a = Arg::new("x").long("verbose");
`, "flag verbose; func fetch; func method; func parse"},
		{"Calc.java", `public class Calc {
    public int add(int a, int b) { return a + b; }
    public static <T> List<T> wrap(T x) { return null; }
    private int sub(int a, int b) { return a - b; }
    @GetMapping("/sum")
    public int sum() { return 0; }
}
`, "func add; func sum; func wrap; route /sum"},
		{"cart.rb", `class Cart
  def add(item)
  end
  def self.build
  end
  private
  def secret
  end
end

def top_level
end
get '/cart' do
end
`, "func top_level; method Cart.add; method Cart.build; route /cart"},
		{"README.md", "def not_code(): pass", ""},
	}
	for _, tt := range tests {
		if got := names(File(tt.file, []byte(tt.src))); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.file, got, tt.want)
		}
	}
}

func TestRemoved(t *testing.T) {
	base := File("a.go", []byte("package a\nfunc Keep() {}\nfunc Gone() {}\nfunc Moved() {}\n"))
	cur := append(File("a.go", []byte("package a\nfunc Keep() {}\n")), File("b.go", []byte("package a\nfunc Moved() {}\n"))...)
	gone := Removed(base, cur)
	if len(gone) != 1 || gone[0].String() != "func Gone (a.go)" || gone[0].Word() != "Gone" {
		t.Errorf("Removed = %v", gone)
	}
	if got := (Symbol{Kind: Method, Name: "Cart.add"}).Word(); got != "add" {
		t.Errorf("Word of a method = %q", got)
	}
	if got := (Symbol{Kind: Flag, Name: "--dry-run"}).Word(); got != "dry-run" {
		t.Errorf("Word of a flag = %q", got)
	}
}

// TestScanCache: Scan skips test files and directories of no source, and
// reads again only the files whose size or modification time changed.
func TestScanCache(t *testing.T) {
	root := t.TempDir()
	write := func(rel, src string) {
		p := filepath.Join(root, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("calc.go", "package calc\nfunc Add() {}\n")
	write("calc_test.go", "package calc\nfunc TestHelper() {}\n")
	write("node_modules/x/index.js", "export function vendored() {}\n")
	isTest := func(rel string) bool { return strings.HasSuffix(rel, "_test.go") }
	idx := Scan(root, isTest, nil)
	if got := names(idx.Symbols()); got != "func Add" {
		t.Fatalf("Scan = %s", got)
	}
	// A cached entry is reused as long as size and time match: prove it
	// by planting a symbol the file does not have.
	e := idx["calc.go"]
	e.Symbols = append(e.Symbols, Symbol{Kind: Func, Name: "Cached", File: "calc.go"})
	idx["calc.go"] = e
	if got := names(Scan(root, isTest, idx).Symbols()); !strings.Contains(got, "Cached") {
		t.Errorf("an unchanged file was read again: %s", got)
	}
	write("calc.go", "package calc\nfunc Add2() {}\n")
	os.Chtimes(filepath.Join(root, "calc.go"), time.Unix(1, 0), time.Unix(1, 0))
	if got := names(Scan(root, isTest, idx).Symbols()); got != "func Add2" {
		t.Errorf("a changed file: %s", got)
	}
	p := filepath.Join(root, "surface.json")
	if err := Write(p, idx); err != nil {
		t.Fatal(err)
	}
	back, err := Read(p)
	if err != nil || names(back.Symbols()) != names(idx.Symbols()) {
		t.Errorf("Read(Write) = %v, %v", back, err)
	}
}

// FuzzFile: any source reads without panicking.
func FuzzFile(f *testing.F) {
	f.Add("a.go", "package a\nfunc A() {}")
	f.Add("a.py", "class A:\n    def b(self): pass\n")
	f.Add("a.rb", "class A\n  def b\nend")
	f.Add("a.ts", "export function a() {}")
	f.Fuzz(func(t *testing.T, name, src string) {
		for _, s := range File(name, []byte(src)) {
			if s.Name == "" || s.Kind == "" {
				t.Fatalf("empty symbol %+v", s)
			}
		}
	})
}

// BenchmarkScan is what a Stop pays for the surface of a project of 5,000
// source files: cold (every file read and parsed, as at ralph start) and
// cached (nothing changed since the last Stop: a walk and a stat a file).
func BenchmarkScan(b *testing.B) {
	root := b.TempDir()
	for i := range 5000 {
		d := filepath.Join(root, "pkg", fmt.Sprintf("p%03d", i/100))
		os.MkdirAll(d, 0o755)
		os.WriteFile(filepath.Join(d, fmt.Sprintf("f%03d.go", i%100)), []byte(fmt.Sprintf("package p\n\nfunc F%d() int { return %d }\n", i, i)), 0o644)
	}
	cold := Scan(root, nil, nil)
	b.Run("cold", func(b *testing.B) {
		for range b.N {
			Scan(root, nil, nil)
		}
	})
	b.Run("cached", func(b *testing.B) {
		for range b.N {
			Scan(root, nil, cold)
		}
	})
}

// TestIndexRoundTrip: Read gives back what Write wrote, and says which
// file is corrupt.
func TestIndexRoundTrip(t *testing.T) {
	idx := Index{
		"a.go":       {Size: 10, ModTime: 1763740800123456789, CTime: 1763740800123456790, Ino: 1 << 40, Symbols: []Symbol{{Func, "Add", "a.go"}, {Method, "T.M", "a.go"}}},
		"web/r.js":   {Size: 1, ModTime: -1, Symbols: []Symbol{{Route, `/x"y<z>`, "web/r.js"}}},
		"empty.py":   {},
		"ünïcode.rb": {Size: 3, Symbols: []Symbol{{Flag, "--v", ""}}},
	}
	p := filepath.Join(t.TempDir(), "surface.json")
	if err := Write(p, idx); err != nil {
		t.Fatal(err)
	}
	back, err := Read(p)
	if err != nil || !back.Same(idx) || len(back) != len(idx) {
		t.Errorf("Read(Write) = %v, %v; want %v", back, err, idx)
	}
	for _, bad := range []string{"", "[]", `{"a":1}`, `{"a":{"symbols":"x"}}`, `{"a":{"size":"1"}}`, `{"a":{"symbols":[1]}}`, `{"a":{"symbols":[{"name":1}]}}`, `{"a":`} {
		os.WriteFile(p, []byte(bad), 0o644)
		if _, err := Read(p); err == nil || !strings.Contains(err.Error(), p) {
			t.Errorf("Read(%q) = %v, want an error naming the file", bad, err)
		}
	}
}
