package risk

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/config"
)

// TestShadow checks that putting a program on PATH ahead of one of the same
// name is refused by every route that writes a file, and that programs
// that shadow nothing, or sit behind the one they share a name with, are
// not.
func TestShadow(t *testing.T) {
	outsideTemp(t)
	root := sample(t)
	bins := t.TempDir()
	early, late := filepath.Join(bins, "early"), filepath.Join(bins, "late")
	for _, d := range []string{early, late} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, mode := range map[string]os.FileMode{"git": 0o755, "notes.txt": 0o644} {
		if err := os.WriteFile(filepath.Join(late, name), []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	env := map[string]string{"HOME": fakeHome, "TMPDIR": "/tmp/ralph-tmpdir", "PATH": early + ":relative/bin:" + late}
	cfg, err := config.Default()
	if err != nil {
		t.Fatal(err)
	}
	g, err := New(cfg, root, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cmd  string
		want answer.Decision
	}{
		{"cp /bin/true " + early + "/git", answer.Deny},
		{"ln -s /bin/true " + early + "/git", answer.Deny},
		{"printf '#!/bin/sh\\nexit 0\\n' > " + early + "/git", answer.Deny},
		{"go build -o " + early + "/git ./cmd/tool", answer.Deny},
		{"install -m 755 scripts/check.sh " + early + "/git", answer.Deny},
		{"chmod +x " + early + "/git", answer.Deny},
		{"cp /bin/true " + early + "/mytool", answer.Allow},    // shadows nothing
		{"cp /bin/true " + early + "/notes.txt", answer.Allow}, // the later one is no program
		{"cp /bin/true " + late + "/git2", answer.Allow},
		{"go build -o " + early + "/mytool ./cmd/tool", answer.Allow},
	} {
		v := g.Command(tc.cmd, root)
		rule := ""
		if v.Top != nil {
			rule = v.Top.Rule
		}
		if v.Decision != tc.want || tc.want == answer.Deny && rule != "system-write" {
			t.Errorf("%q = %s (%s), want %s", tc.cmd, v.Decision, rule, tc.want)
		}
	}
}
