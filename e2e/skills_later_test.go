//go:build e2e

package e2e

import (
	"flag"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/modelserver"
)

// observe runs, besides, the sessions without a loop that record what
// Claude Code does with such a skill; they wait on its skill watcher, so
// they depend on timing and run only when asked (-args -observe).
var observe = flag.Bool("observe", false, "also run TestClaudeSkillAddedUnseen's no-loop observations (timing: Claude Code's skill watcher)")

// TestClaudeSkillAddedUnseen: a skill written by a route the guard cannot
// read before the call — by a script at a path it computes, or through a
// symlink made before the loop to a directory or file (stash/) the agent
// fills with cp — and the Skill tool in the same session. Claude Code
// 2.1.197 watches its skills (through symlinks too): observed with
// -observe, a few seconds after the write the Skill tool found the new or
// changed skill and its front-matter hook ran on the next Bash call, by
// every route below; right after it, the skill was not known yet. In a
// loop post-tool-call reports the change, pre-tool-call refuses the Skill
// call naming the file (or Claude Code does not know the skill yet), the
// hook never runs, and the Stop fails the loop naming the file.
func TestClaudeSkillAddedUnseen(t *testing.T) {
	skill := "---\nname: tidy\ndescription: Tidy the project\nhooks:\n  PreToolUse:\n    - matcher: \"Bash\"\n      hooks:\n        - type: command\n          command: \"touch hooked\"\n---\nTidy up.\n"
	files := maps.Clone(project)
	files["s.md"] = skill
	files["stash/tidy.md"] = "---\nname: tidy\ndescription: Tidy the project\n---\nTidy up.\n"
	// gen.js writes the skill at a path it computes: the guard cannot
	// read it before the call.
	files["gen.js"] = `const fs = require("fs"); const d = ".claude/" + "skills/tidy"; fs.mkdirSync(d, {recursive: true}); fs.writeFileSync(d + "/SKILL.md", fs.readFileSync("s.md"));` + "\n"
	benign := "---\nname: other\ndescription: Another skill\n---\nOther.\n"
	for _, tc := range []struct {
		name  string
		files map[string]string // more files of the project
		links map[string]string // symlink -> target, made before the session
		fill  string            // the Bash command that writes the skill
	}{
		{name: "new skill by a script", files: map[string]string{".claude/skills/other/SKILL.md": benign},
			fill: "node gen.js"},
		{name: "skill changed by a script", files: map[string]string{".claude/skills/tidy/SKILL.md": files["stash/tidy.md"]},
			fill: "node gen.js"},
		{name: "skills dir link, new skill", links: map[string]string{".claude/skills": "../stash"},
			fill: "mkdir -p stash/tidy && cp s.md stash/tidy/SKILL.md"},
		{name: "skill file link, changed", links: map[string]string{".claude/skills/tidy/SKILL.md": "../../../stash/tidy.md"},
			fill: "cp s.md stash/tidy.md"},
	} {
		steps := func() []modelserver.Step {
			return []modelserver.Step{
				{Tool: "Bash", Input: map[string]any{"command": tc.fill, "description": "Add a skill"}},
				{Tool: "Bash", Input: map[string]any{"command": "sleep 4", "description": "Wait"}},
				{Tool: "Skill", Input: map[string]any{"skill": "tidy"}},
				{Tool: "Bash", Input: map[string]any{"command": "echo hi", "description": "Say hi"}},
				{Text: "Done."},
			}
		}
		setup := func(t *testing.T) *harness {
			all := maps.Clone(files)
			maps.Copy(all, tc.files)
			h := newHarness(t, all)
			for l, to := range tc.links {
				p := filepath.Join(h.proj, filepath.FromSlash(l))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(to, p); err != nil {
					t.Fatal(err)
				}
			}
			return h
		}
		if *observe {
			t.Run(tc.name+", no loop", func(t *testing.T) {
				h := setup(t)
				r := h.play(t, "", "Tidy up.", steps(), 180*time.Second)
				got := r.results(t)[modelserver.ToolUseID(2)]
				_, err := os.Stat(filepath.Join(h.proj, "hooked"))
				t.Logf("Claude Code %s: Skill: is_error=%v %q; the skill's hook ran: %v", version, got.IsError, got.Text, err == nil)
			})
		}
		t.Run(tc.name+", loop", func(t *testing.T) {
			h := setup(t)
			id := startLoop(t, h, "Tidy up", "--completion", "go test ./...", "--max-iterations", "3")
			r := h.play(t, id, "Tidy up.", steps(), 180*time.Second)
			got := r.results(t)[modelserver.ToolUseID(2)]
			refused := strings.Contains(got.Text, "rule agent-config") && strings.Contains(got.Text, ".claude/skills/tidy/SKILL.md")
			if !got.IsError || !refused && !strings.Contains(got.Text, "Unknown skill") {
				t.Errorf("Skill: is_error=%v %q, want the guard's refusal naming .claude/skills/tidy/SKILL.md", got.IsError, got.Text)
			}
			if _, err := os.Stat(filepath.Join(h.proj, "hooked")); err == nil {
				t.Error("the skill's hook ran")
			}
			st := archived(t, h, id)
			if st.Status != "failed" || !strings.Contains(st.Reason, ".claude/skills/tidy/SKILL.md") {
				t.Errorf("loop %s: %s (%q), want failed naming .claude/skills/tidy/SKILL.md", id, st.Status, st.Reason)
			}
		})
	}
}
