package risk

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestArchivedTests checks which test files an archive extracted into the
// project rewrites, and with what text, for each format read.
func TestArchivedTests(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"tests/a_test.go", "src/a.go"} {
		p := filepath.Join(root, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("package x\n"), 0o644)
	}
	g := newGuard(t, root, nil)
	weak := "package t\n"
	type entry struct {
		name, text string
		link       bool
	}
	tarOf := func(es []entry) []byte {
		var b bytes.Buffer
		tw := tar.NewWriter(&b)
		for _, e := range es {
			h := &tar.Header{Name: e.name, Mode: 0o644, Size: int64(len(e.text)), Typeflag: tar.TypeReg}
			if e.link {
				h = &tar.Header{Name: e.name, Linkname: "/etc/passwd", Typeflag: tar.TypeSymlink}
			}
			tw.WriteHeader(h)
			if !e.link {
				tw.Write([]byte(e.text))
			}
		}
		tw.Close()
		return b.Bytes()
	}
	gz := func(data []byte) []byte {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		zw.Write(data)
		zw.Close()
		return b.Bytes()
	}
	zipOf := func(es []entry) []byte {
		var b bytes.Buffer
		zw := zip.NewWriter(&b)
		for _, e := range es {
			w, _ := zw.Create(e.name)
			w.Write([]byte(e.text))
		}
		zw.Close()
		return b.Bytes()
	}
	a := filepath.Join(root, "tests/a_test.go")
	tests := []struct {
		name   string
		data   []byte
		known  map[string]string
		unseen []string
	}{
		{"tar", tarOf([]entry{{"tests/a_test.go", weak, false}, {"src/a.go", "x", false}}), map[string]string{a: weak}, nil},
		{"tar, ./ and / stripped", tarOf([]entry{{"./tests/a_test.go", weak, false}}), map[string]string{a: weak}, nil},
		{"tar.gz", gz(tarOf([]entry{{"tests/a_test.go", weak, false}})), map[string]string{a: weak}, nil},
		{"zip", zipOf([]entry{{"tests/a_test.go", weak, false}}), map[string]string{a: weak}, nil},
		{"a link over a test", tarOf([]entry{{"tests/a_test.go", "", true}}), nil, []string{a}},
		{"a new test only", tarOf([]entry{{"tests/b_test.go", weak, false}}), nil, nil},
		{"not an archive", []byte("hello\n"), nil, nil},
	}
	for _, tt := range tests {
		f := filepath.Join(t.TempDir(), "x")
		os.WriteFile(f, tt.data, 0o644)
		known, unseen := g.archivedTests(f, root)
		if !reflect.DeepEqual(known, tt.known) || !reflect.DeepEqual(unseen, tt.unseen) {
			t.Errorf("%s: archivedTests = %q, %q; want %q, %q", tt.name, known, unseen, tt.known, tt.unseen)
		}
	}
}

// FuzzArchivedTests reads any bytes as an archive extracted over a project
// holding a test: it must not panic, and what it reports is a test file.
func FuzzArchivedTests(f *testing.F) {
	f.Add([]byte("PK\x03\x04"))
	f.Add([]byte{0x1f, 0x8b, 8, 0})
	f.Add([]byte("BZh91AY&SY"))
	f.Add(make([]byte, 1024))
	root := f.TempDir()
	os.MkdirAll(filepath.Join(root, "tests"), 0o755)
	os.WriteFile(filepath.Join(root, "tests/a_test.go"), []byte("package x\n"), 0o644)
	g := newGuard(f, root, nil)
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "x")
		os.WriteFile(p, data, 0o644)
		known, unseen := g.archivedTests(p, root)
		for q := range known {
			if q != filepath.Join(root, "tests/a_test.go") {
				t.Fatalf("archivedTests reports %s, not a test of the project", q)
			}
		}
		for _, q := range unseen {
			if rel, ok := g.inProject(q); !ok || len(g.testsIn(q, rel)) == 0 {
				t.Fatalf("archivedTests reports %s unseen, which holds no test", q)
			}
		}
	})
}
