package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// seedFile is .specify/config/persistence.yaml as seed 003 writes it.
const seedFile = `# .specify/config/persistence.yaml
persistence_loop:
  max_iterations: 100
  warn_threshold: 0.8  # Warn at 80% of max
  checkpoint_interval: 1  # Checkpoint after every step
  retry:
    max_attempts: 3
    backoff_strategy: exponential
    base_delay: 1.0  # seconds
    max_delay: 16.0  # seconds
    jitter: 0.2  # ±20%
  timeout:
    per_step: 300  # 5 minutes per step
    total: 3600  # 1 hour total per task
`

// TestSeedKeys checks that the seed's keys read as written, seconds as
// numbers, and that the old names are the same keys.
func TestSeedKeys(t *testing.T) {
	tests := []struct {
		name string
		src  string
		get  func(*Config) any
		want any
	}{
		{"seed file", seedFile, func(c *Config) any { return c.PersistenceLoop }, PersistenceLoop{
			MaxIterations: 100, WarnThreshold: 0.8, CheckpointInterval: 1,
			Retry:    Retry{MaxAttempts: 3, BackoffStrategy: "exponential", BaseDelay: time.Second, MaxDelay: 16 * time.Second, Multiplier: 2, Jitter: 0.2},
			Timeouts: Timeouts{PerStep: 5 * time.Minute, Total: time.Hour},
		}},
		{"fractional seconds", "persistence_loop:\n  retry:\n    base_delay: 0.25\n", func(c *Config) any { return c.PersistenceLoop.Retry.BaseDelay }, 250 * time.Millisecond},
		{"duration for seconds", "persistence_loop:\n  timeout:\n    per_step: 2m\n", func(c *Config) any { return c.PersistenceLoop.Timeouts.PerStep }, 2 * time.Minute},
		{"old initial_delay", "persistence_loop:\n  retry:\n    initial_delay: 2s\n", func(c *Config) any { return c.PersistenceLoop.Retry.BaseDelay }, 2 * time.Second},
		{"old timeouts.step", "persistence_loop:\n  timeouts:\n    step: 90s\n    total: 2h\n", func(c *Config) any { return c.PersistenceLoop.Timeouts }, Timeouts{PerStep: 90 * time.Second, Total: 2 * time.Hour}},
		{"old max_delay duration", "persistence_loop:\n  retry:\n    max_delay: 30s\n", func(c *Config) any { return c.PersistenceLoop.Retry.MaxDelay }, 30 * time.Second},
		{"linear", "persistence_loop:\n  retry: {backoff_strategy: linear}\n", func(c *Config) any { return c.PersistenceLoop.Retry.BackoffStrategy }, "linear"},
		{"agent", "agent:\n  command: ./my-agent --fast\n", func(c *Config) any { return c.Agent.Command }, "./my-agent --fast"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := Parse("aiwg.yml", []byte(tt.src))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if got := tt.get(cfg); got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestSeedKeyErrors checks the errors of the new keys, and that an error
// about a key the file gave by its old name names it so.
func TestSeedKeyErrors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"both names", "persistence_loop:\n  retry:\n    base_delay: 1\n    initial_delay: 2s\n",
			"aiwg.yml:4: persistence_loop.retry.initial_delay: is the same key as base_delay (one is the old name of the other): keep one"},
		{"both block names", "persistence_loop:\n  timeouts: {step: 1}\n  timeout: {per_step: 2}\n",
			"aiwg.yml:3: persistence_loop.timeout: is the same key as timeouts (one is the old name of the other): keep one"},
		{"max_attempts 0", "persistence_loop:\n  retry:\n    max_attempts: 0\n",
			"aiwg.yml:3: persistence_loop.retry.max_attempts: must be at least 1: the first try counts (got 0)"},
		{"backoff", "persistence_loop:\n  retry:\n    backoff_strategy: fibonacci\n",
			`aiwg.yml:3: persistence_loop.retry.backoff_strategy: must be one of exponential, linear, constant (got "fibonacci")`},
		{"checkpoint_interval", "persistence_loop:\n  checkpoint_interval: 0\n",
			"aiwg.yml:2: persistence_loop.checkpoint_interval: must be at least 1: checkpoint after every N steps (got 0)"},
		{"seconds as text", "persistence_loop:\n  timeout:\n    per_step: five\n",
			`aiwg.yml:3: persistence_loop.timeout.per_step: want a number of seconds or a duration like 30s or 5m, got "five"`},
		{"huge seconds", "persistence_loop:\n  timeout:\n    total: 1e300\n",
			"aiwg.yml:3: persistence_loop.timeout.total: want a number of seconds or a duration like 30s or 5m, got the number 1e300"},
		{"old name in a cross-field error", "persistence_loop:\n  timeouts:\n    step: 7200\n",
			"aiwg.yml:3: persistence_loop.timeouts.total: must not be below step (2h0m0s; got 1h0m0s)"},
		{"old retry name", "persistence_loop:\n  retry:\n    initial_delay: 20\n",
			"aiwg.yml:3: persistence_loop.retry.max_delay: must not be below initial_delay (20s; got 16s)"},
		{"negative", "persistence_loop:\n  retry:\n    base_delay: -1\n",
			"aiwg.yml:3: persistence_loop.retry.base_delay: must not be negative (got -1s)"},
		{"empty agent", "agent:\n  command: \"  \"\n",
			"aiwg.yml:2: agent.command: is empty: name the agent ralph run starts, e.g. claude -p"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("aiwg.yml", []byte(tt.src))
			if err == nil || err.Error() != tt.want {
				t.Errorf("Parse error = %v\nwant %s", err, tt.want)
			}
		})
	}
}

// TestLoadSpecFile checks the layering: defaults, then
// .specify/config/persistence.yaml, then aiwg.yml, key by key.
func TestLoadSpecFile(t *testing.T) {
	write := func(t *testing.T, path, data string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("seed file alone", func(t *testing.T) {
		dir := t.TempDir()
		spec := filepath.Join(dir, SpecFile)
		write(t, spec, "persistence_loop:\n  max_iterations: 40\n  retry:\n    max_attempts: 5\n")
		cfg, err := Load(filepath.Join(dir, "aiwg.yml"))
		if err != nil {
			t.Fatal(err)
		}
		if cfg.PersistenceLoop.MaxIterations != 40 || cfg.PersistenceLoop.Retry.MaxAttempts != 5 || cfg.SpecFile != spec || cfg.File != "" {
			t.Errorf("got max_iterations %d, max_attempts %d, SpecFile %q, File %q", cfg.PersistenceLoop.MaxIterations, cfg.PersistenceLoop.Retry.MaxAttempts, cfg.SpecFile, cfg.File)
		}
	})
	t.Run("aiwg.yml wins key by key", func(t *testing.T) {
		dir := t.TempDir()
		write(t, filepath.Join(dir, SpecFile), seedFile)
		write(t, filepath.Join(dir, "aiwg.yml"), "persistence_loop:\n  max_iterations: 12\n  retry:\n    jitter: 0.1\n")
		cfg, err := Load(filepath.Join(dir, "aiwg.yml"))
		if err != nil {
			t.Fatal(err)
		}
		pl := cfg.PersistenceLoop
		if pl.MaxIterations != 12 || pl.Retry.Jitter != 0.1 || pl.Retry.MaxAttempts != 3 || pl.Timeouts.Total != time.Hour {
			t.Errorf("got %+v", pl)
		}
	})
	t.Run("seed file errors name it", func(t *testing.T) {
		dir := t.TempDir()
		spec := filepath.Join(dir, SpecFile)
		write(t, spec, "persistence_loop:\n  max_iterations: 0\n")
		_, err := Load(filepath.Join(dir, "aiwg.yml"))
		if err == nil || err.Error() != spec+":2: persistence_loop.max_iterations: must be at least 1: ralph never runs a loop unbounded (got 0)" {
			t.Errorf("Load error = %v", err)
		}
	})
	t.Run("seed file holds only persistence_loop", func(t *testing.T) {
		dir := t.TempDir()
		spec := filepath.Join(dir, SpecFile)
		write(t, spec, "persistence_loop:\n  max_iterations: 5\nfail_closed: true\n")
		_, err := Load(filepath.Join(dir, "aiwg.yml"))
		if err == nil || !strings.HasPrefix(err.Error(), spec+":3: fail_closed: unknown key (this file holds only persistence_loop)") {
			t.Errorf("Load error = %v", err)
		}
	})
	t.Run("aiwg.yml errors still name it", func(t *testing.T) {
		dir := t.TempDir()
		write(t, filepath.Join(dir, SpecFile), seedFile)
		p := filepath.Join(dir, "aiwg.yml")
		write(t, p, "persistence_loop:\n  timeout:\n    per_step: 7200\n")
		_, err := Load(p)
		if err == nil || err.Error() != p+":3: persistence_loop.timeout.total: must not be below per_step (2h0m0s; got 1h0m0s)" {
			t.Errorf("Load error = %v", err)
		}
	})
}
