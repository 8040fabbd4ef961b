package completion

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// mkfile writes data to dir/rel, making its directories.
func mkfile(t testing.TB, dir, rel, data string) string {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPythonStdlibs(t *testing.T) {
	dir := t.TempDir()
	// Four interpreters, each with its standard library: one python3 on
	// PATH through a link, one a pytest script names by its #! line, one
	// a project's venv links to, one pyenv's .python-version selects.
	for _, pre := range []string{"a", "b", "c", "d", "pyenv/versions/3.12.1", "pyenv/versions/3.9.0", "unused"} {
		mkfile(t, dir, pre+"/bin/python3.12", "")
		mkfile(t, dir, pre+"/lib/python3.12/os.py", "")
	}
	mkfile(t, dir, "b/lib/python3.99/README", "") // no os.py: no standard library
	path := filepath.Join(dir, "path")
	if err := os.MkdirAll(path, 0o755); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(dir, "proj")
	if err := os.MkdirAll(filepath.Join(root, ".venv", "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{
		filepath.Join(path, "python3"):           filepath.Join(dir, "a/bin/python3.12"),
		filepath.Join(root, ".venv/bin/python3"): filepath.Join(dir, "c/bin/python3.12"),
	} {
		if err := os.Symlink(target, link); err != nil {
			t.Fatal("making a symbolic link: ", err)
		}
	}
	mkfile(t, path, "pytest", "#!"+filepath.Join(dir, "b/bin/python3.12")+"\nimport pytest\n")
	mkfile(t, root, ".python-version", "3.12.1\n")
	mkfile(t, root, ".venv/pyvenv.cfg", "home = "+filepath.Join(dir, "d/bin")+"\ninclude-system-site-packages = false\n")
	t.Setenv("VIRTUAL_ENV", "")
	mkfile(t, dir, "pyenv/version", "3.9.0\n")
	t.Setenv("PATH", path)
	t.Setenv("PYENV_ROOT", filepath.Join(dir, "pyenv"))
	t.Setenv("PYENV_VERSION", "")
	ours := func() []string {
		var out []string
		for _, l := range pythonStdlibs(root) {
			if r, ok := strings.CutPrefix(l, dir+string(filepath.Separator)); ok {
				out = append(out, filepath.ToSlash(r))
			}
		}
		return out
	}
	want := []string{"a/lib/python3.12", "b/lib/python3.12", "c/lib/python3.12", "d/lib/python3.12", "pyenv/versions/3.12.1/lib/python3.12"}
	if got := ours(); !slices.Equal(got, want) {
		t.Errorf("pythonStdlibs = %q, want %q", got, want)
	}
	// No .python-version: pyenv's global version.
	if err := os.Remove(filepath.Join(root, ".python-version")); err != nil {
		t.Fatal(err)
	}
	want[4] = "pyenv/versions/3.9.0/lib/python3.12"
	if got := ours(); !slices.Equal(got, want) {
		t.Errorf("pythonStdlibs without .python-version = %q, want %q", got, want)
	}
}

func TestShebang(t *testing.T) {
	dir := t.TempDir()
	py := mkfile(t, dir, "bin/python3", "")
	t.Setenv("PATH", filepath.Join(dir, "bin"))
	for _, c := range []struct{ script, want string }{
		{"#!/usr/bin/python3\nimport x\n", "/usr/bin/python3"},
		{"#! /usr/bin/python3.11 -I\n", "/usr/bin/python3.11"},
		{"#!/usr/bin/env python3\n", py},
		{"#!/usr/bin/env -S PYTHONPATH=x python3 -u\n", py},
		{"#!/usr/bin/env nosuch\n", ""},
		{"#!\n", ""},
		{"import pytest\n", ""},
		{"", ""},
	} {
		p := mkfile(t, dir, "script", c.script)
		if got := shebang(p); got != c.want {
			t.Errorf("shebang(%q) = %q, want %q", c.script, got, c.want)
		}
	}
	if got := shebang(filepath.Join(dir, "missing")); got != "" {
		t.Errorf("shebang(missing) = %q", got)
	}
}

func TestPyenvVersions(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "a", "proj")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	pyenv := filepath.Join(dir, "pyenv")
	mkfile(t, pyenv, "version", "3.9.0\n")
	t.Setenv("PYENV_VERSION", "")
	check := func(name string, want ...string) {
		t.Helper()
		if got := pyenvVersions(root, pyenv); !slices.Equal(got, want) {
			t.Errorf("%s: pyenvVersions = %q, want %q", name, got, want)
		}
	}
	check("global", "3.9.0")
	mkfile(t, dir, "a/.python-version", "3.12.1\n# a comment\n3.11.7\n../../etc\n")
	check("above the project", "3.12.1", "3.11.7")
	mkfile(t, root, ".python-version", "evil")
	check("the project's", "evil")
	t.Setenv("PYENV_VERSION", "3.10.1:system")
	check("PYENV_VERSION", "3.10.1", "system")
}

func TestVenvHome(t *testing.T) {
	dir := t.TempDir()
	for src, want := range map[string]string{
		"home = /usr/bin\nversion = 3.11.2\n":   "/usr/bin",
		"version=3.11\nhome=/opt/py/bin/\n":     "/opt/py/bin",
		"home = bin\n":                          "",
		"include-system-site-packages = true\n": "",
		"home\n":                                "",
		"":                                      "",
	} {
		p := mkfile(t, dir, "pyvenv.cfg", src)
		if got := venvHome(p); got != filepath.FromSlash(want) {
			t.Errorf("venvHome(%q) = %q, want %q", src, got, want)
		}
	}
}

func TestPythonInstallVenv(t *testing.T) {
	root := t.TempDir()
	mkfile(t, root, ".venv/pyvenv.cfg", "home = /usr/bin\n")
	t.Setenv("PATH", t.TempDir())
	t.Setenv("VIRTUAL_ENV", "")
	for since, want := range map[time.Time]int{time.Now().Add(-time.Hour): 1, time.Now().Add(time.Hour): 0} {
		in := Inputs{}
		budget := maxInstall
		pythonInstall(root, since, &budget, in)
		n := 0
		for k := range in {
			if strings.HasPrefix(k, "Python virtual environment's configuration changed since the start: "+filepath.Join(root, ".venv", "pyvenv.cfg")) {
				n++
			}
		}
		if n != want {
			t.Errorf("since %v: pyvenv.cfg reported %d times, want %d (%v)", since, n, want, in)
		}
	}
}

func TestPyStdlibSkipDir(t *testing.T) {
	for p, want := range map[string]bool{
		"/usr/lib/python3.11/site-packages": true, "/usr/lib/python3.11/dist-packages": true,
		"/usr/lib/python3.11/test": true, "/usr/lib/python3.11/unittest/test": true,
		"/usr/lib/python3.11/idlelib": true, "/usr/lib/python3.11/tkinter": true,
		"/usr/lib/python3.11/config-3.11-x86_64-linux-gnu": true,
		"/usr/lib/python3.11/unittest":                     false, "/usr/lib/python3.11/__pycache__": false,
		"/usr/lib/python3.11/encodings": false, "/usr/lib/python3.11/importlib": false,
	} {
		if got := pyStdlibSkipDir(p); got != want {
			t.Errorf("pyStdlibSkipDir(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestPythonInstall(t *testing.T) {
	past, future := time.Now().Add(-time.Hour), time.Now().Add(time.Hour)
	for _, c := range []struct {
		name  string
		files []string // besides os.py
		since time.Time
		want  string // the file reported, relative to the library
	}{
		// Everything is changed since past: the first file in the walk's
		// (lexical) order that is read is reported.
		{"compiled", []string{"__pycache__/os.cpython-311.pyc"}, past, "__pycache__/os.cpython-311.pyc"},
		{"a package's module", []string{"asyncio/base.py"}, past, "asyncio/base.py"},
		{"site directories, the build's configuration, the GUI left out", []string{"dist-packages/y.py", "config-3.11-x86_64-linux-gnu/Makefile", "idlelib/x.py"}, past, "os.py"},
		{"nothing since", []string{"sitecustomize.py", "asyncio/base.py"}, future, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			lib := filepath.Join(dir, "lib", "python3.11")
			mkfile(t, lib, "os.py", "")
			for _, f := range c.files {
				mkfile(t, lib, f, "")
			}
			mkfile(t, dir, "bin/python3.11", "")
			if err := os.Symlink("python3.11", filepath.Join(dir, "bin", "python3")); err != nil {
				t.Fatal("making a symbolic link: ", err)
			}
			t.Setenv("PATH", filepath.Join(dir, "bin"))
			in := Inputs{}
			budget := maxInstall
			pythonInstall(t.TempDir(), c.since, &budget, in)
			var got []string
			for k := range in {
				if r, ok := strings.CutPrefix(k, "Python standard library file changed since the start: "+lib+string(filepath.Separator)); ok {
					got = append(got, filepath.ToSlash(r))
				}
			}
			var want []string
			if c.want != "" {
				want = []string{c.want}
			}
			if !slices.Equal(got, want) {
				t.Errorf("pythonInstall read %q, want %q (all: %v)", got, want, in)
			}
		})
	}
}

// FuzzPythonVersions: any .python-version and #! line (the agent's to
// write) name versions that are one path element, and nothing panics.
func FuzzPythonVersions(f *testing.F) {
	for _, s := range []string{"3.12.1\n", "../../x\n3.11:system", "#!/usr/bin/env -S python3\n", "#!\x00\n", "\n\n#"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		dir := t.TempDir()
		mkfile(t, dir, "proj/.python-version", s)
		mkfile(t, dir, "script", s)
		if h := venvHome(mkfile(t, dir, "pyvenv.cfg", s)); h != "" && !filepath.IsAbs(h) {
			t.Errorf("venvHome = %q: not absolute", h)
		}
		t.Setenv("PYENV_VERSION", "")
		for _, v := range pyenvVersions(filepath.Join(dir, "proj"), filepath.Join(dir, "pyenv")) {
			if strings.ContainsAny(v, `/\`) || v == "." || v == ".." || v == "" {
				t.Errorf("version %q: not one path element", v)
			}
		}
		shebang(filepath.Join(dir, "script"))
	})
}

// BenchmarkPythonInstall: the Stop's read of this machine's Python
// standard libraries (every entry: nothing changed since).
func BenchmarkPythonInstall(b *testing.B) {
	root := b.TempDir()
	since := time.Now().Add(time.Hour)
	b.ReportMetric(float64(len(pythonStdlibs(root))), "libraries")
	for range b.N {
		in := Inputs{}
		Installations(root, "python3 -m pytest", nil, since, in)
		if len(in) != 0 {
			b.Fatalf("changed: %v", in)
		}
	}
}
