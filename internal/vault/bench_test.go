package vault

import (
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkCheck is what every hook adds to its call: the vault's check of
// a project with one loop (registry, a 6 KiB state.json, aiwg.yml) and the
// hooks installed (a 2 KiB settings file), where nothing changed.
func BenchmarkCheck(b *testing.B) {
	root := b.TempDir()
	v, err := Open(root, env(map[string]string{Env: b.TempDir()}))
	if err != nil {
		b.Fatal(err)
	}
	const id = "ralph-fix-1234abcd"
	files := map[string]string{
		"aiwg.yml":                                "fail_closed: true\n" + strings.Repeat("# a comment line of the config\n", 30),
		".aiwg/ralph/registry.json":               `{"active_loops":[{"loop_id":"` + id + `","status":"running"}]` + strings.Repeat(" ", 600) + `}`,
		".aiwg/ralph/loops/" + id + "/state.json": `{"loop_id":"` + id + `","pad":"` + strings.Repeat("x", 6<<10) + `"}`,
		".claude/settings.json":                   `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"/bin/stop"}]}]},"pad":"` + strings.Repeat("y", 2<<10) + `"}`,
	}
	for rel, data := range files {
		if err := writeAtomic(filepath.Join(root, rel), []byte(data)); err != nil {
			b.Fatal(err)
		}
	}
	for _, rel := range []string{"aiwg.yml", ".aiwg/ralph/loops/" + id + "/state.json", ".aiwg/ralph/registry.json"} {
		if err := v.Seal(rel, []byte(files[rel]), false); err != nil {
			b.Fatal(err)
		}
	}
	if err := v.SealInstall(filepath.Join(root, ".claude/settings.json")); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		got, err := v.Check()
		if err != nil || len(got) != 0 {
			b.Fatalf("Check = %v, %v", got, err)
		}
	}
}
