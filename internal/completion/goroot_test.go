package completion

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestGoRootChanged(t *testing.T) {
	past, future := time.Now().Add(-time.Hour), time.Now().Add(time.Hour)
	for _, c := range []struct {
		name  string
		files []string
		since time.Time
		want  string // relative to the root; "" for none
	}{
		{"standard library source", []string{"src/testing/testing.go"}, past, "src/testing/testing.go"},
		{"assembly", []string{"src/runtime/asm_amd64.s"}, past, "src/runtime/asm_amd64.s"},
		{"a tool", []string{"pkg/tool/linux_amd64/compile", "src/testing/testing.go"}, past, "pkg/tool/linux_amd64/compile"},
		{"the go program", []string{"bin/go"}, past, "bin/go"},
		{"go.env", []string{"go.env", "src/testing/testing.go"}, past, "go.env"},
		// Files go test never compiles into the tests: only their
		// directory's change is left (a file made in a directory).
		{"cmd's sources", []string{"src/cmd/go/main.go"}, past, "src"},
		{"a standard test file", []string{"src/testing/testing_test.go"}, past, "src"},
		{"testdata", []string{"src/fmt/testdata/x.go"}, past, "src"},
		{"nothing since", []string{"src/testing/testing.go", "bin/go", "go.env"}, future, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := t.TempDir()
			for _, f := range c.files {
				p := filepath.Join(r, filepath.FromSlash(f))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			budget := maxInstall
			got := goRootChanged(r, c.since, &budget)
			want := ""
			if c.want != "" {
				want = filepath.Join(r, filepath.FromSlash(c.want))
			}
			if got != want {
				t.Errorf("goRootChanged = %q, want %q", got, want)
			}
		})
	}
}

func TestGoRootChangedBudget(t *testing.T) {
	r := t.TempDir()
	p := filepath.Join(r, "src", "testing", "testing.go")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	budget := 0
	if got := goRootChanged(r, time.Now().Add(time.Hour), &budget); got != "" {
		t.Errorf("goRootChanged with no budget = %q", got)
	}
}

func TestToolchainName(t *testing.T) {
	for _, c := range []struct{ gomod, want string }{
		{"module m\n\ngo 1.22\n", ""},
		{"module m\n\ngo 1.22.3\n", "go1.22.3"},
		{"module m\ngo 1.21\ntoolchain go1.22.5\n", "go1.22.5"},
		{"module m\ngo 1.22.1\ntoolchain go1.23.0 // pinned\n", "go1.23.0"},
		{"module m\ngo 1.22.1\ntoolchain default\n", "go1.22.1"},
		{"module m\ntoolchain ../../x\n", ""},
		{"module m\ntoolchain ..\n", ""},
		{"module m\ngo 1.2.3/../x\n", ""},
		{"", ""},
	} {
		if got := toolchainName([]byte(c.gomod)); got != c.want {
			t.Errorf("toolchainName(%q) = %q, want %q", c.gomod, got, c.want)
		}
	}
}

func TestGoRoots(t *testing.T) {
	dir := t.TempDir()
	mk := func(rel string) string {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	local := filepath.Dir(filepath.Dir(mk("sdk/go/src/testing")))
	bin := mk("sdk/go/bin")
	if err := os.WriteFile(filepath.Join(bin, "go"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A link on PATH to the go program: go finds its root through it.
	links := mk("links")
	if err := os.Symlink(filepath.Join(bin, "go"), filepath.Join(links, "go")); err != nil {
		t.Fatal("making a symbolic link: ", err)
	}
	mc := mk("mod")
	tc := filepath.Dir(filepath.Dir(mk("mod/golang.org/toolchain@v0.0.1-go1.99.1." + runtime.GOOS + "-" + runtime.GOARCH + "/src/testing")))
	env := filepath.Dir(filepath.Dir(mk("env/go/src/testing")))
	t.Setenv("PATH", links)
	t.Setenv("GOMODCACHE", mc)
	t.Setenv("GOROOT", env)
	got := goRoots([]byte("module m\ngo 1.99\ntoolchain go1.99.1\n"))
	if want := []string{env, local, tc}; !slices.Equal(got, want) {
		t.Errorf("goRoots = %q, want %q", got, want)
	}
	// A root without src/testing is no Go installation; none is twice.
	t.Setenv("GOROOT", local)
	got = goRoots([]byte("module m\ntoolchain go1.98.0\n"))
	if want := []string{local}; !slices.Equal(got, want) {
		t.Errorf("goRoots = %q, want %q", got, want)
	}
}

// FuzzToolchainName: any go.mod (the agent's to write) names a toolchain
// that is one path element, or none.
func FuzzToolchainName(f *testing.F) {
	for _, s := range []string{"module m\ngo 1.22.3\n", "toolchain go1.23.0\n", "toolchain ../../../etc\n", "go 1.2.3\\..\\x\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, gomod string) {
		n := toolchainName([]byte(gomod))
		if strings.ContainsAny(n, `/\`) || n == ".." || n == "." {
			t.Errorf("toolchainName = %q: not one path element", n)
		}
	})
}

// BenchmarkGoInstall: the Stop's read of this machine's Go installation
// (every entry: nothing changed since).
func BenchmarkGoInstall(b *testing.B) {
	if len(goRoots(nil)) == 0 {
		b.Skip("no go on PATH")
	}
	root := b.TempDir()
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module m\ngo 1.22\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	since := time.Now().Add(time.Hour)
	for range b.N {
		in := Inputs{}
		Installations(root, "go test ./...", nil, since, in)
		if len(in) != 0 {
			b.Fatalf("changed: %v", in)
		}
	}
}
