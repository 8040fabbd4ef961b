package shell

import "testing"

// TestDirStack checks where pushd and popd leave the shell when they move
// along the stack. Each want is the directory bash 5.2 printed (pwd) after
// the same line run in /proj, with /a and /b existing.
func TestDirStack(t *testing.T) {
	tests := []struct {
		src, want string
	}{
		{"pushd /a; pushd /b; pushd +1", "/a"},
		{"pushd /a; pushd /b; pushd +2", "/proj"},
		{"pushd /a; pushd /b; pushd -1", "/a"},
		{"pushd /a; pushd /b; pushd -0", "/proj"},
		{"pushd /a; pushd /b; pushd +0", "/b"},
		{"pushd /a; pushd /b; pushd", "/a"},
		{"pushd /a; pushd /b; popd +0", "/a"},
		{"pushd /a; pushd /b; popd +1", "/b"},
		{"pushd /a; pushd /b; popd -0", "/b"},
		{"pushd /a; pushd /b; popd -n; popd", "/proj"},
		{"pushd -n /a; pushd", "/a"},
		{"pushd -n /a; popd", "/a"},
		{"pushd -n /a; pushd -n /b; pushd +2", "/a"},
		{"pushd /a; pushd /b; pushd +1; pushd +2", "/b"},
		{"pushd /a; pushd /b; pushd +1 && cd sub", "/a/sub"},
		// An entry beyond what the line built: an earlier line's, or an
		// error; not known.
		{"pushd +3", ""},
		{"pushd /a; pushd -n +1; popd", ""},
		{"pushd /a; popd +5", "/a"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			a := testAnalyzer().Analyze(tt.src+"; rm x", "/proj")
			last := a.Cmds[len(a.Cmds)-1]
			if last.Name != "rm" || last.Cwd != tt.want {
				t.Errorf("Analyze(%q): rm runs in %q, want %q", tt.src, last.Cwd, tt.want)
			}
		})
	}
}
