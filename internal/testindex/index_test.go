package testindex

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/config"
)

func TestDecode(t *testing.T) {
	idx := Index{
		"pkg/a_test.go":          {Size: 120, ModTime: 1763740800123456789, Tests: []string{"TestA", `Test"quoted"<html>`}, Skips: 1, Assertions: 7},
		"tests/test_x.py":        {Size: 3, ModTime: -1, Tests: []string{}},
		"spec/a.b*c?d|e#f@g.rb":  {Size: 9, Err: "larger than 4 MiB: not scanned"},
		"src/test/java/ÄTest.jv": {Size: 1, Tests: nil},
	}
	data, err := json.MarshalIndent(idx, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, idx) {
		t.Errorf("Decode = %#v,\nwant %#v", got, idx)
	}
	for p, want := range idx {
		f := Entry(data, p)
		if f == nil || !reflect.DeepEqual(*f, want) {
			t.Errorf("Entry(%q) = %#v, want %#v", p, f, want)
		}
	}
	if f := Entry(data, "pkg/none_test.go"); f != nil {
		t.Errorf("Entry of a file not in the index = %#v", f)
	}
	for _, bad := range []string{"", "[]", `{"a":1}`, `{"a":{"tests":"x"}}`, `{"a":{"size":"1"}}`, `{"a":{"tests":[1]}}`, `{"a":`} {
		if _, err := Decode([]byte(bad)); err == nil {
			t.Errorf("Decode(%q) did not fail", bad)
		}
	}
}

// ScanFile, with which post-tool-call rescans the one file an edit
// touched, scans it as the walk of Scan does.
func TestScanFile(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"calc_test.go":                "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) { t.Skip(\"x\") }\n",
		"calc.go":                     "package calc\n",
		"tests/test_calc.py":          "def test_a():\n    assert 1\n",
		"tests/helper.py":             "x = 1\n",
		"web/src/a.test.ts":           "test('a', () => { expect(1).toBe(1) })\n",
		"web/node_modules/x.test.js":  "test('dep', () => {})\n",
		"src/test/java/CalcTest.java": "class CalcTest { @Test void adds() { assertEquals(2, 1+1); } }\n",
		".aiwg/ralph/x_test.go":       "package x\n",
		"vendor/y_test.go":            "package y\n\nimport \"testing\"\n\nfunc TestY(t *testing.T) {}\n",
	}
	for p, src := range files {
		abs := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := config.Default()
	if err != nil {
		t.Fatal(err)
	}
	want := Scan(root, cfg.TestFiles, nil)
	if len(want) != 5 {
		t.Errorf("found %d test files, want 5: %v", len(want), want)
	}
	for p := range files {
		if (Lang(cfg.TestFiles, p) != "") != (want[p].Size > 0) {
			t.Errorf("Lang(%q) = %q, but the walk says %v", p, Lang(cfg.TestFiles, p), want[p].Size > 0)
		}
	}
	for p, f := range want {
		one, ok := ScanFile(root, p)
		if !ok || !reflect.DeepEqual(one, f) {
			t.Errorf("ScanFile(%q) = %v, %v; want %v", p, one, ok, f)
		}
	}
	if _, ok := ScanFile(root, "gone_test.go"); ok {
		t.Errorf("ScanFile of a missing file says it is there")
	}
	if _, ok := ScanFile(root, "calc.go/x_test.go"); ok {
		t.Errorf("ScanFile below a file says it is there")
	}
}
