//go:build e2e

package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/modelserver"
)

// TestCodexTools records the tools Codex CLI 0.171.0 offers the model (the
// Responses API's tools: a function's name, or a built-in tool's type), to
// testdata/events/codex-0.171.0/tools-offered.txt with -update.
func TestCodexTools(t *testing.T) {
	h := newHarness(t, map[string]string{"tests/add_test.go": project["tests/add_test.go"]})
	if err := os.RemoveAll(filepath.Join(h.proj, ".claude")); err != nil {
		t.Fatal(err)
	}
	if out := h.ralph(t, "install", "--agent", "codex", "--bin", h.bin); !strings.Contains(out, "Installed ralph-hooks for Codex CLI") {
		t.Fatalf("ralph install --agent codex: %s", out)
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal(err)
	}
	srv := modelserver.New([]modelserver.Step{{Text: "Nothing to do."}})
	url, stop, err := srv.Listen()
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	cx := runCodex(t, h, url, "Tidy the project.")
	if cx.timedOut {
		t.Fatal("codex did not finish within 180s")
	}
	var offered []string
	for _, req := range srv.Requests() {
		var body struct {
			Tools []struct {
				Type string `json:"type"`
				Name string `json:"name"`
			} `json:"tools"`
		}
		json.Unmarshal(req.Body, &body)
		for _, tl := range body.Tools {
			n := tl.Name
			if n == "" {
				n = "(" + tl.Type + ")"
			} else if tl.Type != "function" {
				n += " (" + tl.Type + ")"
			}
			if !slices.Contains(offered, n) {
				offered = append(offered, n)
			}
		}
	}
	slices.Sort(offered)
	t.Logf("tools offered: %s", strings.Join(offered, ", "))
	if len(offered) == 0 {
		t.Fatalf("Codex offered no tools\nstdout:\n%s\nstderr:\n%s", cx.stdout.String(), cx.stderr.String())
	}
	if *update {
		p := filepath.Join("..", "testdata", "events", "codex-"+codexVersion, "tools-offered.txt")
		if err := os.WriteFile(p, []byte(strings.Join(offered, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
