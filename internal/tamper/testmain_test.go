package tamper

import (
	"strings"
	"testing"
)

// TestRunBypass checks which Go test files keep their package's tests
// from running.
func TestRunBypass(t *testing.T) {
	tests := []struct {
		src  string
		want string // a substring of how, "" for none
	}{
		{"package p\nimport (\"os\"; \"testing\")\nfunc TestMain(m *testing.M) { os.Exit(0) }\n", "never calls m.Run"},
		{"package p\nimport \"testing\"\nfunc TestMain(m *testing.M) {}\n", "never calls m.Run"},
		{"package p\nimport (\"os\"; \"testing\")\nfunc TestMain(tm *testing.M) { setup(); os.Exit(1) }\n", "never calls tm.Run"},
		{"package p\nimport \"os\"\nfunc init() { os.Exit(0) }\n", "init that calls os.Exit"},
		{"package p\nimport (\"os\"; \"testing\")\nfunc TestMain(m *testing.M) { os.Exit(m.Run()) }\n", ""},
		{"package p\nimport \"testing\"\nfunc TestMain(m *testing.M) { code := m.Run(); teardown(); _ = code }\n", ""},
		{"package p\nimport \"testing\"\nfunc TestMain(m *testing.M) { run(m) }\n", ""},
		{"package p\nimport \"testing\"\nfunc TestA(t *testing.T) { t.Log(1) }\n", ""},
		{"package p\nfunc init() { register() }\n", ""},
		{"not go at all", ""},
	}
	for _, tt := range tests {
		how, _ := runBypass([]byte(tt.src))
		if tt.want == "" && how != "" || tt.want != "" && !strings.Contains(how, tt.want) {
			t.Errorf("runBypass(%q) = %q, want %q", tt.src, how, tt.want)
		}
	}
}
