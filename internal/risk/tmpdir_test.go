package risk

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/config"
)

// TestTmpdirUnset checks that an unset TMPDIR is empty, as in Bash:
// $TMPDIR/x is /x, unless the agent's shell sets it (a sandbox does), so
// ralph asks, saying why; and ${TMPDIR:-/tmp}/x is scratch.
func TestTmpdirUnset(t *testing.T) {
	root := sample(t)
	cfg, err := config.Default()
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"HOME": fakeHome, "USER": "ralph"}
	g, err := New(cfg, root, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		cmd  string
		want answer.Decision
		rule string
	}{
		{`rm -rf "$TMPDIR/x"`, answer.Ask, "rm-unknown"},
		{`rm -rf $TMPDIR/home/ralph`, answer.Ask, "rm-unknown"},
		{`find "$TMPDIR/child" -delete`, answer.Ask, "rm-unknown"},
		{`rm -rf $TMPDIR/etc`, answer.Deny, "rm-critical"},
		{`rm -rf $TMPDIR`, answer.Ask, "rm-unknown"},
		{`rm -rf "${TMPDIR:-/tmp}/x"`, answer.Allow, ""},
		{`rm -rf ${TMPDIR:-/tmp}/build-cache`, answer.Allow, ""},
	}
	for _, tt := range tests {
		v := g.Command(tt.cmd, root)
		rule := ""
		if v.Top != nil {
			rule = v.Top.Rule
		}
		if v.Decision != tt.want || tt.rule != "" && rule != tt.rule {
			t.Errorf("%s = %s (%s), want %s (%s)", tt.cmd, v.Decision, rule, tt.want, tt.rule)
			continue
		}
		if tt.rule == "rm-unknown" && tt.cmd != `rm -rf $TMPDIR` && !strings.Contains(v.Answer().Reason, "TMPDIR is not set here") {
			t.Errorf("%s: the reason does not say TMPDIR is not set: %s", tt.cmd, v.Answer().Reason)
		}
	}
}

// TestTempLinks checks that a path in a temp directory is scratch only as
// long as it stays there: a link on the way, or .. after one, leads where
// it points.
func TestTempLinks(t *testing.T) {
	root := sample(t)
	tmp, out := t.TempDir(), t.TempDir()
	for _, l := range []struct{ name, to string }{{"out", out}, {"proj", filepath.Join(root, "src")}} {
		if err := os.Symlink(l.to, filepath.Join(tmp, l.name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(tmp, "real"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Default()
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"HOME": fakeHome, "USER": "ralph", "TMPDIR": tmp}
	g, err := New(cfg, root, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		cmd  string
		want answer.Decision
		rule string
	}{
		{"rm -rf $TMPDIR/build", answer.Allow, ""},
		{"rm -rf $TMPDIR/real/../build", answer.Allow, ""},
		{"rm -rf $TMPDIR/out", answer.Allow, ""}, // the link itself
		{"find $TMPDIR/out -delete", answer.Allow, ""},
		{"rm -rf $TMPDIR/out/x", answer.Deny, "rm-outside"},
		{"rm -rf $TMPDIR/out/", answer.Deny, "rm-outside"},
		{"find $TMPDIR/out/ -delete", answer.Deny, "rm-outside"},
		{"rm -rf $TMPDIR/out/../x", answer.Deny, "rm-outside"},
		{"rm -rf $TMPDIR/proj/main.go", answer.Ask, "rm-unknown"},
		{"rm -rf $TMPDIR/missing/../x", answer.Ask, "rm-unknown"},
		{"find $TMPDIR/missing/../x -delete", answer.Ask, "rm-unknown"},
	}
	for _, tt := range tests {
		v := g.Command(tt.cmd, root)
		rule := ""
		if v.Top != nil {
			rule = v.Top.Rule
		}
		if v.Decision != tt.want || tt.rule != "" && rule != tt.rule {
			t.Errorf("%s = %s (%s), want %s (%s)", tt.cmd, v.Decision, rule, tt.want, tt.rule)
		}
	}
}
