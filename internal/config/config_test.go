package config

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestDefault(t *testing.T) {
	cfg, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	// Default must pass the same validation a user's file gets.
	c := &checker{file: "defaults.yml", lines: map[string]int{}}
	if err := c.validate(cfg); err != nil {
		t.Fatalf("defaults do not validate: %v", err)
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"detection_mode", cfg.AgentPersistence.DetectionMode, "standard"},
		{"detection.mode", cfg.AgentPersistence.Detection.Mode, "standard"},
		{"enabled", cfg.AgentPersistence.Enabled, true},
		{"patterns_enabled", strings.Join(cfg.AgentPersistence.Detection.PatternsEnabled, ","), "test_deletion,feature_removal,coverage_regression,validation_bypass"},
		{"learn_patterns", cfg.AgentPersistence.LearnPatterns, true},
		{"default_level", cfg.AgentPersistence.Reinforcement.DefaultLevel, "MINIMAL"},
		{"escalation_thresholds", fmt.Sprint(cfg.AgentPersistence.Reinforcement.EscalationThresholds.Sorted()), "[{3 STANDARD} {5 AGGRESSIVE}]"},
		{"auto_escalate_on_critical", cfg.AgentPersistence.Recovery.AutoEscalateOnCritical, true},
		{"human_gate_timeout_minutes", cfg.AgentPersistence.Recovery.GateTimeout(), time.Duration(0)},
		{"max_retries", cfg.AgentPersistence.Recovery.MaxRetries, 3},
		{"quality_threshold", cfg.AgentPersistence.BestOutputSelection.QualityThreshold, 70.0},
		{"max_iterations", cfg.PersistenceLoop.MaxIterations, 100},
		{"warn_threshold", cfg.PersistenceLoop.WarnThreshold, 0.8},
		{"initial_delay", cfg.PersistenceLoop.Retry.BaseDelay, time.Second},
		{"max_delay", cfg.PersistenceLoop.Retry.MaxDelay, 16 * time.Second},
		{"jitter", cfg.PersistenceLoop.Retry.Jitter, 0.2},
		{"step", cfg.PersistenceLoop.Timeouts.PerStep, 5 * time.Minute},
		{"total", cfg.PersistenceLoop.Timeouts.Total, time.Hour},
		{"checkpoint_interval", cfg.PersistenceLoop.CheckpointInterval, 1},
		{"max_attempts", cfg.PersistenceLoop.Retry.MaxAttempts, 3},
		{"backoff_strategy", cfg.PersistenceLoop.Retry.BackoffStrategy, "exponential"},
		{"multiplier", cfg.PersistenceLoop.Retry.Multiplier, 2.0},
		{"agent.command", cfg.Agent.Command, "claude -p --permission-mode acceptEdits"},
		{"completion.timeout", cfg.Completion.Timeout, 5 * time.Minute},
		{"fail_closed", cfg.FailClosed, false},
		{"test_integrity.enabled", cfg.TestIntegrity.Enabled, true},
		{"test_integrity.allow", len(cfg.TestIntegrity.Allow), 0},
		{"File", cfg.File, ""},
	}
	for _, c := range checks {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("Default().%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if len(cfg.TestFiles) == 0 || cfg.TestFiles[0] != "**/*_test.go" {
		t.Errorf("Default().TestFiles = %q, want a list starting with **/*_test.go", cfg.TestFiles)
	}
	r := rule(t, cfg, "test-files")
	if !r.TestFiles || r.Action != "warn" || r.Level != "high" || r.Message == "" || r.Line != 0 || r.Key != "" || r.Set != nil {
		t.Errorf("default test-files rule = %+v", r)
	}
	// Each call returns a fresh copy: changing one cannot leak into the next.
	cfg.RiskRules[0].Action = "deny"
	cfg.TestFiles[0] = "changed"
	again, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	if again.RiskRules[0].Action == "deny" || again.TestFiles[0] == "changed" {
		t.Error("Default() shares state between calls")
	}
}

func rule(t *testing.T, cfg *Config, name string) RiskRule {
	t.Helper()
	for _, r := range cfg.RiskRules {
		if r.Name == name {
			return r
		}
	}
	t.Fatalf("no rule %q in %v", name, cfg.RiskRules)
	return RiskRule{}
}

// TestParseEmpty checks that a file with nothing in it is the defaults.
func TestParseEmpty(t *testing.T) {
	want, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	want.File = "aiwg.yml"
	for _, src := range []string{"", "\n\n", "# only a comment\n", "---\n", "~\n", "null\n"} {
		got, err := Parse("aiwg.yml", []byte(src))
		if err != nil {
			t.Errorf("Parse(%q) error: %v", src, err)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Parse(%q) = %+v, want the defaults", src, got)
		}
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	def, err := Default()
	if err != nil {
		t.Fatal(err)
	}

	t.Run("missing file", func(t *testing.T) {
		got, err := Load(filepath.Join(dir, "nope", "aiwg.yml"))
		if err != nil {
			t.Fatalf("Load(missing) error: %v", err)
		}
		if !reflect.DeepEqual(got, def) {
			t.Errorf("Load(missing) = %+v, want the defaults", got)
		}
	})
	t.Run("link to nowhere", func(t *testing.T) {
		p := filepath.Join(dir, "dangling.yml")
		if err := os.Symlink(filepath.Join(dir, "gone.yml"), p); err != nil {
			t.Fatal(err)
		}
		// Not "missing": the defaults would apply with fail_closed off.
		_, err := Load(p)
		want := p + ": is a symbolic link to " + filepath.Join(dir, "gone.yml") + ", which does not exist"
		if err == nil || err.Error() != want {
			t.Errorf("Load(dangling) = %v, want %s", err, want)
		}
	})
	t.Run("empty file", func(t *testing.T) {
		p := filepath.Join(dir, "empty.yml")
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := Load(p)
		if err != nil {
			t.Fatalf("Load(empty) error: %v", err)
		}
		want := *def
		want.File = p
		if !reflect.DeepEqual(got, &want) {
			t.Errorf("Load(empty) = %+v, want the defaults", got)
		}
	})
	t.Run("file", func(t *testing.T) {
		p := filepath.Join(dir, "aiwg.yml")
		if err := os.WriteFile(p, []byte("persistence_loop:\n  max_iterations: 7\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := Load(p)
		if err != nil {
			t.Fatalf("Load error: %v", err)
		}
		if got.PersistenceLoop.MaxIterations != 7 || got.File != p {
			t.Errorf("Load = max_iterations %d, File %q; want 7, %q", got.PersistenceLoop.MaxIterations, got.File, p)
		}
		if got.PersistenceLoop.WarnThreshold != 0.8 {
			t.Errorf("Load: warn_threshold = %v, want the default 0.8 kept", got.PersistenceLoop.WarnThreshold)
		}
	})
	t.Run("bad file names it", func(t *testing.T) {
		p := filepath.Join(dir, "bad.yml")
		if err := os.WriteFile(p, []byte("fail_closed: maybe\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Load(p)
		if err == nil || !strings.HasPrefix(err.Error(), p+":1: fail_closed: ") {
			t.Errorf("Load(bad) error = %v, want it to start with %q", err, p+":1: fail_closed: ")
		}
	})
	t.Run("directory", func(t *testing.T) {
		_, err := Load(dir)
		if err == nil {
			t.Fatal("Load(directory) = nil error, want one")
		}
	})
}

// TestParseValues checks that set keys change and the others keep their
// defaults.
func TestParseValues(t *testing.T) {
	src := `
agent_persistence:
  detection_mode: aggressive
  reinforcement:
    text:
      minimal: "keep going"
persistence_loop:
  max_iterations: 20
  warn_threshold: 1
  retry:
    initial_delay: 500ms
    multiplier: 1.5
  timeouts:
    step: 90s
completion:
  command: go test ./...
  timeout: 10m
metrics:
  - name: coverage
    command: go test -cover ./...
    parser: {regex: 'coverage: ([0-9.]+)%'}
    direction: higher
  - name: tests
    builtin: test_count
    direction: higher
fail_closed: true
test_files: ["spec/**"]
`
	cfg, err := Parse("aiwg.yml", []byte(src))
	if err != nil {
		t.Fatalf("Parse error: %v", err)
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"detection_mode", cfg.AgentPersistence.DetectionMode, "aggressive"},
		{"detection.mode", cfg.AgentPersistence.Detection.Mode, "aggressive"},
		{"learn_patterns kept", cfg.AgentPersistence.LearnPatterns, true},
		{"text.minimal", cfg.AgentPersistence.Reinforcement.Text.Minimal, "keep going"},
		{"text.standard kept", cfg.AgentPersistence.Reinforcement.Text.Standard != "", true},
		{"escalation_thresholds kept", len(cfg.AgentPersistence.Reinforcement.EscalationThresholds), 2},
		{"max_iterations", cfg.PersistenceLoop.MaxIterations, 20},
		{"warn_threshold int as float", cfg.PersistenceLoop.WarnThreshold, 1.0},
		{"initial_delay", cfg.PersistenceLoop.Retry.BaseDelay, 500 * time.Millisecond},
		{"max_delay kept", cfg.PersistenceLoop.Retry.MaxDelay, 16 * time.Second},
		{"multiplier", cfg.PersistenceLoop.Retry.Multiplier, 1.5},
		{"step", cfg.PersistenceLoop.Timeouts.PerStep, 90 * time.Second},
		{"total kept", cfg.PersistenceLoop.Timeouts.Total, time.Hour},
		{"completion.command", cfg.Completion.Command, "go test ./..."},
		{"completion.timeout", cfg.Completion.Timeout, 10 * time.Minute},
		{"metrics", len(cfg.Metrics), 2},
		{"metric regex", cfg.Metrics[0].Parser.Regex, "coverage: ([0-9.]+)%"},
		{"metric builtin", cfg.Metrics[1].Builtin, "test_count"},
		{"fail_closed", cfg.FailClosed, true},
		{"test_files replaced", cfg.TestFiles, []string{"spec/**"}},
		{"risk rules kept", len(cfg.RiskRules), 7},
	}
	for _, c := range checks {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("Parse: %s = %v, want %v", c.name, c.got, c.want)
		}
	}
}

// TestTestIntegrity checks the test_integrity keys: exceptions are read
// as written, and enabled keeps its default when only allow is set.
func TestTestIntegrity(t *testing.T) {
	src := `test_integrity:
  allow:
    - path: "tests/legacy/**"
      tests: ["test_old_api", "TestParse/*"]
      reason: "legacy API removed in v3"
    - path: "spec/flaky_spec.rb"
      reason: "quarantined by the team"
`
	cfg, err := Parse("aiwg.yml", []byte(src))
	if err != nil {
		t.Fatalf("Parse error: %v", err)
	}
	want := TestIntegrity{Enabled: true, Allow: []TestException{
		{Path: "tests/legacy/**", Tests: []string{"test_old_api", "TestParse/*"}, Reason: "legacy API removed in v3"},
		{Path: "spec/flaky_spec.rb", Reason: "quarantined by the team"},
	}}
	if !reflect.DeepEqual(cfg.TestIntegrity, want) {
		t.Errorf("Parse: TestIntegrity = %+v, want %+v", cfg.TestIntegrity, want)
	}
	cfg, err = Parse("aiwg.yml", []byte("test_integrity:\n  enabled: false\n"))
	if err != nil {
		t.Fatalf("Parse error: %v", err)
	}
	if cfg.TestIntegrity.Enabled || len(cfg.TestIntegrity.Allow) != 0 {
		t.Errorf("Parse(enabled: false): TestIntegrity = %+v, want disabled with no exceptions", cfg.TestIntegrity)
	}
}

func TestRiskRuleOverride(t *testing.T) {
	def, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	src := `# override one field of a default rule, add one rule
risk_rules:
  - name: test-files
    action: deny
  - name: no-curl
    tools: [Bash]
    commands: ["curl *"]
    level: medium
    action: ask
    message: "{command} fetches from the network."
`
	cfg, err := Parse("aiwg.yml", []byte(src))
	if err != nil {
		t.Fatalf("Parse error: %v", err)
	}
	got := rule(t, cfg, "test-files")
	want := rule(t, def, "test-files")
	want.Action = "deny"
	want.Set = map[string]bool{"name": true, "action": true}
	want.Line = 3
	want.Key = "risk_rules[0]"
	if !reflect.DeepEqual(got, want) {
		t.Errorf("overridden test-files = %+v\nwant %+v", got, want)
	}
	if !got.TestFiles || got.Message == "" || got.Level != "high" {
		t.Errorf("override lost default fields: %+v", got)
	}
	added := rule(t, cfg, "no-curl")
	wantAdded := RiskRule{Name: "no-curl", Tools: []string{"Bash"}, Commands: []string{"curl *"}, Level: "medium", Action: "ask",
		Message: "{command} fetches from the network.", Line: 5, Key: "risk_rules[1]",
		Set: map[string]bool{"name": true, "tools": true, "commands": true, "level": true, "action": true, "message": true}}
	if !reflect.DeepEqual(added, wantAdded) {
		t.Errorf("added rule = %+v\nwant %+v", added, wantAdded)
	}
	if len(cfg.RiskRules) != len(def.RiskRules)+1 {
		t.Errorf("len(RiskRules) = %d, want %d", len(cfg.RiskRules), len(def.RiskRules)+1)
	}
	// The defaults themselves are untouched.
	if d := rule(t, def, "test-files"); d.Action != "warn" {
		t.Errorf("parsing changed the defaults: test-files action %q", d.Action)
	}
	again, _ := Default()
	if d := rule(t, again, "test-files"); d.Action != "warn" {
		t.Errorf("parsing changed later defaults: test-files action %q", d.Action)
	}
}

// TestParseErrors checks that every error names the file, the line and the
// dotted key, as `aiwg.yml:3: persistence_loop.max_iteration: …`.
func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string   // the error starts with this
		more []string // and contains these
	}{
		// Unknown keys list the known ones.
		{"unknown top-level key", "fail_close: true\n", "aiwg.yml:1: fail_close: unknown key",
			[]string{"known: agent, agent_persistence, completion, fail_closed, metrics, persistence_loop, risk_packs, risk_rules, test_files, test_integrity)"}},
		{"unknown nested key", "# loop\npersistence_loop:\n  max_iteration: 5\n", "aiwg.yml:3: persistence_loop.max_iteration: unknown key",
			[]string{"known: checkpoint_interval, max_iterations, retry, timeout, warn_threshold"}},
		{"unknown deep key", "persistence_loop:\n  retry:\n    initial: 1s\n", "aiwg.yml:3: persistence_loop.retry.initial: unknown key",
			[]string{"backoff_strategy", "base_delay", "jitter", "max_attempts", "max_delay", "multiplier"}},
		{"unknown key in a rule", "risk_rules:\n  - name: x\n    level: low\n    action: warn\n    tool: [Bash]\n", "aiwg.yml:5: risk_rules[0].tool: unknown key",
			[]string{"tools"}},
		{"unknown key in a metric", "metrics:\n  - name: x\n    cmd: true\n", "aiwg.yml:3: metrics[0].cmd: unknown key", nil},

		// Wrong types.
		{"string for int", "persistence_loop:\n  max_iterations: \"ten\"\n", "aiwg.yml:2: persistence_loop.max_iterations: want a whole number", []string{`"ten"`}},
		{"float for int", "persistence_loop:\n  max_iterations: 2.5\n", "aiwg.yml:2: persistence_loop.max_iterations: want a whole number", []string{"2.5"}},
		{"string for float", "persistence_loop:\n  warn_threshold: high\n", "aiwg.yml:2: persistence_loop.warn_threshold: want a number", nil},
		{"number for duration", "completion:\n  timeout: 30\n", "aiwg.yml:2: completion.timeout: want a duration like 30s or 5m", []string{"30"}},
		{"bad duration", "persistence_loop:\n  timeouts:\n    step: 5 minutes\n", "aiwg.yml:3: persistence_loop.timeouts.step: want a number of seconds or a duration", nil},
		{"list for duration", "completion:\n  timeout: [5m]\n", "aiwg.yml:2: completion.timeout: want a duration", nil},
		{"list for mapping", "persistence_loop:\n  retry: [1s, 2s]\n", "aiwg.yml:2: persistence_loop.retry: want a mapping, got a list", nil},
		{"scalar for mapping", "agent_persistence: standard\n", "aiwg.yml:1: agent_persistence: want a mapping", nil},
		{"mapping for list", "test_files:\n  go: \"**/*_test.go\"\n", "aiwg.yml:2: test_files: want a list, got a mapping", nil},
		{"string for list", "risk_rules:\n  - name: x\n    tools: Bash\n", "aiwg.yml:3: risk_rules[0].tools: want a list", nil},
		{"mapping for string", "completion:\n  command: {run: go test}\n", "aiwg.yml:2: completion.command: want a single value, got a mapping", nil},
		{"number for string", "completion:\n  command: 5\n", "aiwg.yml:2: completion.command: want a string (quote it)", nil},
		{"string for bool", "fail_closed: \"true\"\n", "aiwg.yml:1: fail_closed: want true or false", nil},
		{"yes for bool", "fail_closed: yes\n", "aiwg.yml:1: fail_closed: want true or false", nil},
		{"number for bool", "agent_persistence:\n  patterns_enabled: 1\n", "aiwg.yml:2: agent_persistence.patterns_enabled: want true or false", nil},
		{"list item of wrong type", "test_files:\n  - \"**/*_test.go\"\n  - 5\n", "aiwg.yml:3: test_files[1]: want a string", nil},
		{"top level list", "- a\n- b\n", "aiwg.yml:1: want a mapping of keys at the top level", nil},

		// Bad values.
		{"bad detection_mode", "agent_persistence:\n  detection_mode: loud\n", "aiwg.yml:2: agent_persistence.detection_mode: must be one of off, minimal, standard, aggressive", []string{`"loud"`}},
		{"bad level", "risk_rules:\n  - name: x\n    level: severe\n    action: deny\n", "aiwg.yml:2: risk_rules[0].level: rule \"x\": must be one of critical, high, medium, low", nil},
		{"bad action", "\nrisk_rules:\n  - name: x\n    level: high\n    action: block\n", "aiwg.yml:3: risk_rules[0].action: rule \"x\": must be one of deny, ask, warn, allow", nil},
		{"unknown rule pack", "risk_packs: [secrets, backup]\n", "aiwg.yml:1: risk_packs[1]: unknown rule pack \"backup\" (known: backups, cicd,", nil},
		{"rule pack twice", "risk_packs:\n  - storage\n  - storage\n", "aiwg.yml:3: risk_packs[1]: rule pack \"storage\" is listed twice", nil},
		{"rule packs not a list", "risk_packs: secrets\n", "aiwg.yml:1: risk_packs: want a list", nil},
		{"bad action on a default rule", "risk_rules:\n  - name: ci-config\n    action: nope\n", "aiwg.yml:2: risk_rules[0].action: rule \"ci-config\"", nil},
		{"bad direction", "metrics:\n  - name: x\n    builtin: test_count\n    direction: up\n", "aiwg.yml:4: metrics[0].direction: must be one of higher, lower", nil},
		{"bad builtin", "metrics:\n  - name: x\n    builtin: lines\n    direction: higher\n", "aiwg.yml:3: metrics[0].builtin: must be one of test_count, skip_count, assertion_count", nil},
		{"max_iterations zero", "persistence_loop:\n  max_iterations: 0\n", "aiwg.yml:2: persistence_loop.max_iterations: must be at least 1", nil},
		{"warn_threshold above 1", "persistence_loop:\n  warn_threshold: 1.5\n", "aiwg.yml:2: persistence_loop.warn_threshold: must be a fraction", nil},
		{"quality_threshold above 100", "agent_persistence:\n  best_output_selection:\n    quality_threshold: 101\n", "aiwg.yml:3: agent_persistence.best_output_selection.quality_threshold: must be from 0 to 100", nil},
		{"negative retries", "agent_persistence:\n  recovery:\n    max_retries: -1\n", "aiwg.yml:3: agent_persistence.recovery.max_retries: must not be negative", nil},
		{"jitter 1", "persistence_loop:\n  retry:\n    jitter: 1\n", "aiwg.yml:3: persistence_loop.retry.jitter: must be a fraction", nil},
		{"multiplier below 1", "persistence_loop:\n  retry:\n    multiplier: 0.5\n", "aiwg.yml:3: persistence_loop.retry.multiplier: must be at least 1", nil},
		{"negative completion timeout", "completion:\n  timeout: -5s\n", "aiwg.yml:2: completion.timeout: must be positive", nil},
		{"plateau_delta 1", "agent_persistence:\n  reinforcement:\n    plateau_delta: 1\n", "aiwg.yml:3: agent_persistence.reinforcement.plateau_delta: must be a fraction", nil},

		// Globs.
		{"bad test_files glob", "test_files:\n  - \"tests/**\"\n  - \"[abc\"\n", "aiwg.yml:3: test_files[1]: ", []string{`"[abc" is not a valid glob`}},
		{"bad rule path glob", "risk_rules:\n  - name: x\n    paths: [\"src/{a,b\"]\n    level: low\n    action: warn\n", "aiwg.yml:2: risk_rules[0].paths[0]: ", []string{"not a valid glob"}},

		// Metrics.
		{"regex without group", "metrics:\n  - name: coverage\n    command: go test -cover ./...\n    parser: {regex: 'coverage: [0-9.]+%'}\n    direction: higher\n",
			"aiwg.yml:4: metrics[0].parser.regex: needs a group", nil},
		{"regex that does not compile", "metrics:\n  - name: coverage\n    command: go test -cover ./...\n    parser:\n      regex: 'coverage: ([0-9.]+%'\n    direction: higher\n",
			"aiwg.yml:5: metrics[0].parser.regex: ", []string{"missing closing )"}},
		{"metric without name", "metrics:\n  - command: x\n", "aiwg.yml:2: metrics[0]: every metric needs a name", nil},
		{"metric with command and builtin", "metrics:\n  - name: x\n    command: y\n    builtin: test_count\n    direction: higher\n", "aiwg.yml:2: metrics[0]: metric \"x\" needs exactly one of command and builtin", nil},
		{"duplicate metric", "metrics:\n  - name: x\n    builtin: test_count\n    direction: higher\n  - name: x\n    builtin: skip_count\n    direction: lower\n", "aiwg.yml:5: metrics[1].name: metric \"x\" is defined twice", nil},

		// Rules.
		{"duplicate rule names", "risk_rules:\n  - name: no-curl\n    level: low\n    action: warn\n  - name: no-curl\n    level: high\n    action: deny\n",
			"aiwg.yml:5: risk_rules[1].name: rule \"no-curl\" is already defined at risk_rules[0]", nil},
		{"duplicate override", "risk_rules:\n  - name: test-files\n    action: deny\n  - name: test-files\n    action: ask\n",
			"aiwg.yml:4: risk_rules[1].name: rule \"test-files\" is already defined", nil},
		{"rule without name", "risk_rules:\n  - level: low\n    action: warn\n", "aiwg.yml:2: risk_rules[0].name: every rule needs a name", nil},
		{"rule with bad name", "risk_rules:\n  - name: No Curl\n", "aiwg.yml:2: risk_rules[0].name: ", []string{"lower-case"}},
		{"rule that is not a mapping", "risk_rules:\n  - no-curl\n", "aiwg.yml:2: risk_rules[0]: want a mapping", nil},

		// Test integrity exceptions.
		{"unknown key in test_integrity", "test_integrity:\n  enable: false\n", "aiwg.yml:2: test_integrity.enable: unknown key", []string{"known: allow, enabled"}},
		{"unknown key in an exception", "test_integrity:\n  allow:\n    - path: tests/**\n      test: [a]\n      reason: x\n",
			"aiwg.yml:4: test_integrity.allow[0].test: unknown key", []string{"known: path, reason, tests"}},
		{"string for enabled", "test_integrity:\n  enabled: \"no\"\n", "aiwg.yml:2: test_integrity.enabled: want true or false", nil},
		{"string for tests", "test_integrity:\n  allow:\n    - path: tests/**\n      tests: test_a\n      reason: x\n",
			"aiwg.yml:4: test_integrity.allow[0].tests: want a list", nil},
		{"exception without path", "test_integrity:\n  allow:\n    - tests: [test_a]\n      reason: x\n",
			"aiwg.yml:3: test_integrity.allow[0].path: every exception needs a path", nil},
		{"exception with a bad glob", "test_integrity:\n  allow:\n    - path: a/**\n      reason: x\n    - path: \"tests/[a\"\n      reason: y\n",
			"aiwg.yml:5: test_integrity.allow[1].path: ", []string{`"tests/[a" is not a valid glob`}},
		{"exception with an absolute path", "test_integrity:\n  allow:\n    - path: /etc/**\n      reason: x\n",
			"aiwg.yml:3: test_integrity.allow[0].path: ", []string{"relative to the project root"}},
		{"exception outside the project", "test_integrity:\n  allow:\n    - path: ../other/**\n      reason: x\n",
			"aiwg.yml:3: test_integrity.allow[0].path: ", []string{"relative to the project root"}},
		{"exception without reason", "test_integrity:\n  allow:\n    - path: tests/legacy/**\n      tests: [test_old_api]\n",
			"aiwg.yml:3: test_integrity.allow[0].reason: every exception needs a reason", nil},
		{"exception with an empty test name", "test_integrity:\n  allow:\n    - path: tests/**\n      tests: [test_a, \"\"]\n      reason: x\n",
			"aiwg.yml:4: test_integrity.allow[0].tests[1]: is empty", nil},

		// Syntax.
		{"yaml syntax", "persistence_loop:\n  max_iterations: [\n", "aiwg.yml:2: did not find expected node content", nil},
		{"tab indentation", "persistence_loop:\n\tmax_iterations: 3\n", "aiwg.yml:2: found character that cannot start any token", nil},
		{"unterminated string", "completion:\n  command: \"go test\n", "aiwg.yml:2: found unexpected end of stream", nil},

		// Duplicate keys: yaml.v3 takes the last silently when it decodes
		// into a node, so the checker names them.
		{"duplicate top-level key", "fail_closed: true\nfail_closed: false\n", "aiwg.yml:2: fail_closed: is set twice (first at line 1): keep one", nil},
		{"duplicate nested key", "completion:\n  command: go test ./...\n  timeout: 5m\n  command: \"true\"\n", "aiwg.yml:4: completion.command: is set twice (first at line 2): keep one", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := Parse("aiwg.yml", []byte(tt.src))
			if err == nil {
				t.Fatalf("Parse(%q) = %+v, nil error; want error starting %q", tt.src, cfg, tt.want)
			}
			if cfg != nil {
				t.Errorf("Parse(%q) returned a config with its error", tt.src)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, tt.want) {
				t.Errorf("Parse(%q) error = %q, want it to start with %q", tt.src, msg, tt.want)
			}
			for _, m := range tt.more {
				if !strings.Contains(msg, m) {
					t.Errorf("Parse(%q) error = %q, want it to contain %q", tt.src, msg, m)
				}
			}
			if strings.Contains(msg, "\n") {
				t.Errorf("Parse(%q) error = %q, want one line", tt.src, msg)
			}
			var ce *Error
			if !errors.As(err, &ce) || ce.File != "aiwg.yml" {
				t.Errorf("Parse(%q) error = %#v, want a *config.Error for aiwg.yml", tt.src, err)
			}
		})
	}
}

// TestParseErrorsCrossField covers values that are wrong only next to a
// default the user did not write: the error must still point at a line of
// the user's file, as every other error does.
func TestParseErrorsCrossField(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want *regexp.Regexp
	}{
		{"initial_delay above the default max_delay", "persistence_loop:\n  retry:\n    initial_delay: 20s\n",
			regexp.MustCompile(`^aiwg\.yml:[0-9]+: persistence_loop\.retry\.(initial_delay|max_delay): `)},
		{"step above the default total", "persistence_loop:\n  timeouts:\n    step: 48h\n",
			regexp.MustCompile(`^aiwg\.yml:[0-9]+: persistence_loop\.timeouts\.(step|total): `)},
		{"standard_at above the default aggressive_at", "agent_persistence:\n  reinforcement:\n    standard_at: 10\n",
			regexp.MustCompile(`^aiwg\.yml:[0-9]+: agent_persistence\.reinforcement\.(standard_at|aggressive_at): `)},
		{"metric without direction", "metrics:\n  - name: x\n    builtin: test_count\n",
			regexp.MustCompile(`^aiwg\.yml:[0-9]+: metrics\[0\]\.direction: `)},
		{"metric without parser", "metrics:\n  - name: x\n    command: wc -l\n    direction: lower\n",
			regexp.MustCompile(`^aiwg\.yml:[0-9]+: metrics\[0\]\.parser: `)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("aiwg.yml", []byte(tt.src))
			if err == nil || !tt.want.MatchString(err.Error()) {
				t.Errorf("Parse(%q) error = %v, want it to match %s", tt.src, err, tt.want)
			}
		})
	}
}

// FuzzParse checks that no input makes Parse panic, that every error is a
// *Error or names the file, and that what parses is valid.
func FuzzParse(f *testing.F) {
	seeds, err := filepath.Glob("*.yml")
	if err != nil {
		f.Fatal(err)
	}
	if len(seeds) == 0 {
		f.Fatal("no *.yml seed files")
	}
	for _, s := range seeds {
		data, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{
		"", "~", "- a", "a: b", "fail_closed: true",
		"persistence_loop:\n  max_iterations: 5\n  retry: {initial_delay: 2s, max_delay: 1s}\n",
		"risk_rules:\n  - name: test-files\n    action: deny\n  - name: x\n    paths: ['[']\n",
		"metrics:\n  - {name: c, command: x, parser: {regex: '(a'}, direction: higher}\n",
		"a: &x {b: 1}\nc: *x\n", "test_files: &t ['a']\nrisk_rules: [{name: q, paths: *t}]\n",
		"persistence_loop:\n  max_iterations: 99999999999999999999\n",
		"test_integrity:\n  enabled: false\n  allow:\n    - {path: 'tests/[', reason: x}\n    - {path: a/**, tests: ['', b], reason: ''}\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		const file = "fuzz.yml"
		var cfg *Config
		var err error
		done := make(chan struct{})
		go func() {
			defer close(done)
			cfg, err = Parse(file, data)
		}()
		if f := flag.Lookup("test.fuzz"); f != nil && f.Value.String() != "" {
			// Only while fuzzing, which gives no input a deadline of its
			// own; the seeds (go test) read no clock.
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				t.Fatalf("Parse(%q) did not return in 5s", data)
			}
		}
		<-done
		if err != nil {
			if cfg != nil {
				t.Fatalf("Parse returned a config with error %v", err)
			}
			var ce *Error
			if errors.As(err, &ce) {
				if ce.File != file && ce.File != "defaults.yml" {
					t.Fatalf("Parse error %#v names file %q, want %q", err, ce.File, file)
				}
			} else if !strings.Contains(err.Error(), file) {
				t.Fatalf("Parse error %q is not a *config.Error and does not mention %s", err, file)
			}
			return
		}
		if cfg.File != file {
			t.Fatalf("Parse: File = %q, want %q", cfg.File, file)
		}
		c := &checker{file: file, lines: map[string]int{}}
		if err := c.validate(cfg); err != nil {
			t.Fatalf("Parse accepted a config that does not validate: %v", err)
		}
		names := map[string]bool{}
		for _, r := range cfg.RiskRules {
			if r.Name == "" || names[r.Name] {
				t.Fatalf("Parse accepted rules %+v: empty or duplicate name %q", cfg.RiskRules, r.Name)
			}
			names[r.Name] = true
		}
	})
}
