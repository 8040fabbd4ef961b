package completion

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestGoWorkAbove(t *testing.T) {
	write := func(p, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	keys := func(in Inputs) []string {
		var out []string
		for k := range in {
			out = append(out, k)
		}
		return out
	}
	tests := []struct {
		name  string
		files map[string]string // relative to a temporary directory
		want  string            // the key's go.work, relative; "" for none
	}{
		{name: "none", files: nil},
		{name: "parent", files: map[string]string{"go.work": "use ./a/proj\n"}, want: "go.work"},
		{name: "nearest wins", files: map[string]string{"go.work": "use ./a/proj\n", "a/go.work": "use ./proj\n"}, want: "a/go.work"},
		{name: "project's own", files: map[string]string{"go.work": "use ./a/proj\n", "a/proj/go.work": "use .\n"}},
		{name: "a directory named go.work", files: map[string]string{"a/go.work/x": "x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			root := filepath.Join(dir, "a", "proj")
			write(filepath.Join(root, "go.mod"), "module m\n")
			for p, s := range tt.files {
				write(filepath.Join(dir, p), s)
			}
			in := Inputs{}
			goWorkAbove(root, in)
			var got []string
			for _, k := range keys(in) {
				if strings.HasPrefix(k, "go.work above the project (") {
					got = append(got, k)
				}
			}
			if tt.want == "" {
				if len(got) != 0 {
					t.Fatalf("got %q, want none", got)
				}
				return
			}
			want := "go.work above the project (" + filepath.Join(dir, tt.want) + ")"
			if len(got) != 1 || got[0] != want {
				t.Fatalf("got %q, want %q", got, want)
			}
		})
	}
}

func TestGoWorkAboveChanged(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "proj")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	base := Inputs{}
	goWorkAbove(root, base)
	p := filepath.Join(dir, "go.work")
	if err := os.WriteFile(p, []byte("go 1.22\n\ntoolchain go1.99.0\n\nuse ./proj\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cur := Inputs{}
	goWorkAbove(root, cur)
	if ch := Changed(base, cur); len(ch) != 1 || ch[0] != "go.work above the project ("+p+") added" {
		t.Fatalf("made: %q", ch)
	}
	base = cur
	if err := os.WriteFile(p, []byte("go 1.22\n\ntoolchain go1.99.1\n\nuse ./proj\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cur = Inputs{}
	goWorkAbove(root, cur)
	if ch := Changed(base, cur); len(ch) != 1 || ch[0] != "go.work above the project ("+p+") changed" {
		t.Fatalf("changed: %q", ch)
	}
	same := Inputs{}
	goWorkAbove(root, same)
	if ch := Changed(cur, same); len(ch) != 0 {
		t.Fatalf("unchanged: %q", ch)
	}
}
