package shell

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestVendored: a path is installed dependencies when one of its elements
// is such a directory's name, as the substring test it replaced said.
func TestVendored(t *testing.T) {
	was := func(p string) bool {
		for _, d := range []string{"node_modules", ".venv", "venv", "site-packages", "dist-packages", "vendor", ".tox", ".nox"} {
			if strings.Contains("/"+filepath.ToSlash(p)+"/", "/"+d+"/") {
				return true
			}
		}
		return false
	}
	for _, tc := range []struct {
		p    string
		want bool
	}{
		{"", false}, {"/", false}, {"vendor", true}, {"/vendor", true}, {"vendor/", true},
		{"/p/vendor/x.go", true}, {"/p/node_modules/a/b.js", true}, {"/p/.venv/lib/x.py", true},
		{"/p/lib/python3/site-packages/x.py", true}, {"/usr/lib/python3/dist-packages/y.py", true},
		{"/p/.tox/py/x.py", true}, {"/p/.nox/s/x.py", true}, {"venv/bin/python", true},
		{"/p/vendors/x.go", false}, {"/p/myvendor/x.go", false}, {"/p/vendor.go", false},
		{"/p/node_modules_x/y.js", false}, {"/p/.venv2/x.py", false}, {"/p/src/x_test.go", false},
		{"//vendor//x", true}, {"/p/a.venv/x", false},
	} {
		if got := vendored(tc.p); got != tc.want || got != was(tc.p) {
			t.Errorf("vendored(%q) = %v, want %v (the substring test: %v)", tc.p, got, tc.want, was(tc.p))
		}
	}
}
