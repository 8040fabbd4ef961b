package config

import (
	"os"
	"path/filepath"
	"testing"
)

// An aiwg.yml that cannot be read or is invalid gives the fallback, never
// "no rules": fail_closed, persistence and test integrity on, the built-in
// rules, and the error. A valid one loads as ever.
func TestLoadOrFallback(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "aiwg.yml")
	for _, tc := range []struct {
		name, data string
		dir        bool // aiwg.yml is a directory
		bad        bool
	}{
		{"missing", "", false, false},
		{"seed first step", "agent_persistence: {enabled: true}\n", false, false},
		{"not YAML", "agent_persistence: [enabled: {\n", false, true},
		{"unknown key", "bogus: 1\n", false, true},
		{"wrong type", "fail_closed: \"no\"\n", false, true},
		{"persistence off, but invalid", "agent_persistence: {enabled: false, bogus: 1}\nfail_closed: false\n", false, true},
		{"a directory", "", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			os.RemoveAll(path)
			switch {
			case tc.dir:
				os.Mkdir(path, 0o755)
			case tc.data != "":
				os.WriteFile(path, []byte(tc.data), 0o644)
			}
			cfg, problem := LoadOrFallback(path)
			if cfg == nil {
				t.Fatal("nil config")
			}
			if (problem != nil) != tc.bad {
				t.Fatalf("problem = %v, want one: %v", problem, tc.bad)
			}
			if tc.bad && (!cfg.FailClosed || !cfg.AgentPersistence.Enabled || !cfg.TestIntegrity.Enabled || len(cfg.RiskRules) == 0 || cfg.File != path) {
				t.Errorf("fallback = %+v: want fail_closed, persistence and test integrity on, the built-in rules, the file named", cfg)
			}
		})
	}
}

// Digest tells one version of the files from another, aiwg.yml and the
// seed's persistence.yaml beside it alike.
func TestDigest(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "aiwg.yml")
	none := Digest(path)
	os.WriteFile(path, []byte("bogus: 1\n"), 0o644)
	one := Digest(path)
	if one == none || Digest(path) != one {
		t.Errorf("digests: missing %s, one %s, again %s", none, one, Digest(path))
	}
	os.MkdirAll(filepath.Join(dir, ".specify", "config"), 0o755)
	os.WriteFile(filepath.Join(dir, SpecFile), []byte("x: [\n"), 0o644)
	if Digest(path) == one {
		t.Error("a change of persistence.yaml did not change the digest")
	}
}
