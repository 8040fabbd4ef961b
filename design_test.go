package ralphhooks_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/doctor"
	"github.com/ralph-hooks/ralph-hooks/internal/loop"
	"github.com/ralph-hooks/ralph-hooks/internal/pretool"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/risk"
)

// designConfig is the design's agent_persistence block (seed 000), as
// issue 16 quotes it.
const designConfig = "testdata/design/aiwg.yml"

// TestDesignConfigLoads: the design's block loads as written, in both its
// forms, to the values it says, with no deprecation note, and round-trips.
func TestDesignConfigLoads(t *testing.T) {
	for _, file := range []string{designConfig, "testdata/design/aiwg-block.yml"} {
		cfg, err := config.Load(file)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		ap := cfg.AgentPersistence
		got := fmt.Sprintf("%v %s %v %s %v %v %d %v %v %v %v %v %v %v", ap.Enabled, ap.Detection.Mode, ap.Detection.PatternsEnabled,
			ap.Reinforcement.DefaultLevel, ap.Reinforcement.EscalationThresholds.Sorted(), ap.Reinforcement.PlateauDelta,
			ap.Recovery.MaxRetries, ap.Recovery.AutoEscalateOnCritical, ap.Recovery.HumanGateTimeoutMinutes,
			ap.BestOutputSelection.Enabled, ap.BestOutputSelection.QualityThreshold, ap.BestOutputSelection.RequireVerification,
			ap.Performance.DetectionLatencyBudgetMS, ap.Performance.MaxIntegrationOverheadPercent)
		want := "true standard [test_deletion feature_removal coverage_regression validation_bypass] MINIMAL [{3 STANDARD} {5 AGGRESSIVE}] 0.05 3 true <nil> true 70 false 500 10"
		if got != want {
			t.Errorf("%s:\n got %s\nwant %s", file, got, want)
		}
		if len(cfg.Deprecated) > 0 {
			t.Errorf("%s: deprecation notes for the design's own keys: %q", file, cfg.Deprecated)
		}
		// Seed 003's .specify/config/persistence.yaml beside it is read too.
		if want := filepath.Join("testdata", "design", ".specify", "config", "persistence.yaml"); cfg.SpecFile != want || cfg.PersistenceLoop.Timeouts.PerStep != 5*time.Minute {
			t.Errorf("%s: spec file %q, per_step %v; want %s read", file, cfg.SpecFile, cfg.PersistenceLoop.Timeouts.PerStep, want)
		}
		// Round trip: the block written back from the loaded values loads
		// to the same.
		out, err := yaml.Marshal(map[string]any{"agent_persistence": designBlock(ap)})
		if err != nil {
			t.Fatal(err)
		}
		again, err := config.Parse("again.yml", out)
		if err != nil {
			t.Fatalf("round trip: %v\n%s", err, out)
		}
		if fmt.Sprint(again.AgentPersistence) != fmt.Sprint(ap) {
			t.Errorf("round trip:\n got %+v\nwant %+v", again.AgentPersistence, ap)
		}
	}
}

// designBlock writes the design's keys of ap as the design lays them out.
func designBlock(ap config.AgentPersistence) map[string]any {
	return map[string]any{
		"enabled":   ap.Enabled,
		"detection": map[string]any{"mode": ap.Detection.Mode, "patterns_enabled": []string(ap.Detection.PatternsEnabled)},
		"reinforcement": map[string]any{
			"default_level": ap.Reinforcement.DefaultLevel, "escalation_thresholds": map[string]string(ap.Reinforcement.EscalationThresholds),
			"quality_plateau_threshold": ap.Reinforcement.PlateauDelta,
		},
		"recovery": map[string]any{
			"max_retries": ap.Recovery.MaxRetries, "auto_escalate_on_critical": ap.Recovery.AutoEscalateOnCritical,
			"human_gate_timeout_minutes": ap.Recovery.HumanGateTimeoutMinutes,
		},
		"best_output_selection": map[string]any{
			"enabled": ap.BestOutputSelection.Enabled, "quality_threshold": ap.BestOutputSelection.QualityThreshold,
			"require_verification": ap.BestOutputSelection.RequireVerification,
		},
		"performance": map[string]any{
			"detection_latency_budget_ms":         ap.Performance.DetectionLatencyBudgetMS,
			"max_integration_overhead_percentage": ap.Performance.MaxIntegrationOverheadPercent,
		},
	}
}

// variant returns the design's block with the value at key (dotted, under
// agent_persistence) replaced by value, a YAML flow value.
func variant(t *testing.T, key, value string) []byte {
	t.Helper()
	data, err := os.ReadFile(designConfig)
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	n := doc.Content[0]
	path := append([]string{"agent_persistence"}, strings.Split(key, ".")...)
	for i, k := range path {
		found := false
		for j := 0; j+1 < len(n.Content); j += 2 {
			if n.Content[j].Value != k {
				continue
			}
			found = true
			if i == len(path)-1 {
				var v yaml.Node
				if err := yaml.Unmarshal([]byte(value), &v); err != nil {
					t.Fatal(err)
				}
				n.Content[j+1] = v.Content[0]
			}
			n = n.Content[j+1]
			break
		}
		if !found {
			t.Fatalf("the design's block has no %s", key)
		}
	}
	out, err := yaml.Marshal(&doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// designLeaves lists the keys of the design's block, dotted, under
// agent_persistence.
func designLeaves(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(designConfig)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	var keys []string
	var walk func(prefix string, m map[string]any)
	walk = func(prefix string, m map[string]any) {
		for k, v := range m {
			if sub, ok := v.(map[string]any); ok && k != "escalation_thresholds" {
				walk(prefix+k+".", sub)
				continue
			}
			keys = append(keys, prefix+k)
		}
	}
	walk("", doc["agent_persistence"].(map[string]any))
	sort.Strings(keys)
	return keys
}

// TestDesignKeysDriveBehaviour: every key of the design's block changes
// what ralph does: for each, a probe of the behaviour it governs gives
// one answer with the design's value and another with a different one.
// No key is accepted and ignored.
func TestDesignKeysDriveBehaviour(t *testing.T) {
	allRegs := []loop.Regression{{Type: "test_deletion"}, {Type: "skip_increase"}, {Type: "metric_regression"}, {Type: "validation_bypass"}, {Type: "feature_removal"}}
	kept := func(cfg *config.Config) string {
		var types []string
		for _, r := range loop.Detected(allRegs, cfg) {
			types = append(types, r.Type)
		}
		return strings.Join(types, ",")
	}
	levels := func(recent []float64) func(*config.Config) string {
		return func(cfg *config.Config) string {
			var out []string
			for n := 1; n <= 6; n++ {
				l, _ := loop.Level(n, recent, cfg.AgentPersistence.Reinforcement)
				out = append(out, l)
			}
			return strings.Join(out, " ")
		}
	}
	critical := []loop.Regression{{Type: "test_deletion", Severity: "critical"}}
	escalation := func(n int, regs []loop.Regression) func(*config.Config) string {
		return func(cfg *config.Config) string {
			d := loop.Diagnose(loop.Signals{Regressions: regs, Stuck: "the same failure 3 times"})
			strategy, why := loop.Escalation(cfg.AgentPersistence.Recovery, n, d, regs)
			return strategy + ": " + why
		}
	}
	replaces := func(a, b loop.Score) func(*config.Config) string {
		return func(cfg *config.Config) string {
			return fmt.Sprint(loop.Replaces(a, b, cfg.AgentPersistence.BestOutputSelection))
		}
	}
	tests := []struct {
		key, value string
		probe      func(t *testing.T, data []byte, cfg *config.Config) string
	}{
		{"enabled", "false", cfgProbe(kept)},
		{"detection.mode", "minimal", guardProbe},
		{"detection.patterns_enabled", "[feature_removal]", cfgProbe(kept)},
		{"reinforcement.default_level", "STANDARD", cfgProbe(levels(nil))},
		{"reinforcement.escalation_thresholds", "{iteration_2: AGGRESSIVE}", cfgProbe(levels(nil))},
		{"reinforcement.quality_plateau_threshold", "0.01", cfgProbe(levels([]float64{40, 42, 44, 46}))},
		{"recovery.max_retries", "1", cfgProbe(escalation(2, nil))},
		{"recovery.auto_escalate_on_critical", "false", cfgProbe(escalation(1, critical))},
		{"recovery.human_gate_timeout_minutes", "30", gateProbe},
		{"best_output_selection.enabled", "false", cfgProbe(replaces(loop.Score{N: 2, Quality: 40}, loop.Score{N: 1, Quality: 90, Verified: true}))},
		{"best_output_selection.quality_threshold", "90", cfgProbe(replaces(loop.Score{N: 2, Quality: 75, Verified: true}, loop.Score{N: 1, Quality: 80}))},
		{"best_output_selection.require_verification", "true", cfgProbe(replaces(loop.Score{N: 1, Quality: 90}, loop.Score{}))},
		{"performance.detection_latency_budget_ms", "50", doctorProbe("detection latency")},
		{"performance.max_integration_overhead_percentage", "50", doctorProbe("integration overhead")},
	}
	var covered []string
	for _, tt := range tests {
		covered = append(covered, tt.key)
		t.Run(tt.key, func(t *testing.T) {
			base, err := os.ReadFile(designConfig)
			if err != nil {
				t.Fatal(err)
			}
			changed := variant(t, tt.key, tt.value)
			var got [2]string
			for i, data := range [][]byte{base, changed} {
				cfg, err := config.Parse("aiwg.yml", data)
				if err != nil {
					t.Fatalf("%v\n%s", err, data)
				}
				got[i] = tt.probe(t, data, cfg)
			}
			if got[0] == got[1] {
				t.Errorf("%s: %s changes nothing: %q both ways", tt.key, tt.value, got[0])
			}
			t.Logf("design: %q; %s: %q", got[0], tt.value, got[1])
		})
	}
	sort.Strings(covered)
	if leaves := designLeaves(t); !slices.Equal(leaves, covered) {
		t.Errorf("the design's keys %q, the keys probed %q", leaves, covered)
	}
}

func cfgProbe(f func(*config.Config) string) func(*testing.T, []byte, *config.Config) string {
	return func(_ *testing.T, _ []byte, cfg *config.Config) string { return f(cfg) }
}

// guardProbe is pre-tool-call's decision on an edit of validation code (a
// medium rule, warn as configured).
func guardProbe(t *testing.T, _ []byte, cfg *config.Config) string {
	root := t.TempDir()
	p := filepath.Join(root, "src", "validator.go")
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte("package src\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := risk.New(cfg, root, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	return string(g.File("Edit", p).Decision)
}

// gateProbe is the status of a loop whose gate has waited 31 minutes.
func gateProbe(t *testing.T, data []byte, cfg *config.Config) string {
	root := t.TempDir()
	test := filepath.Join(root, "calc_test.go")
	os.WriteFile(test, []byte("package calc\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {}\n\nfunc TestB(t *testing.T) {}\n"), 0o644)
	os.WriteFile(filepath.Join(root, "aiwg.yml"), data, 0o644)
	st, _, err := loop.Start(context.Background(), loop.Options{Root: root, Config: cfg, Task: "t", Completion: "true", MaxIterations: 5, Owner: "t", PID: os.Getpid(), Now: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(test, []byte("package calc\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {}\n"), 0o644)
	s := &loop.Stop{Config: cfg, Session: "s", Now: time.Now, Message: "<reflection>\nAttempted: x\n</reflection>"}
	s.Scope, _ = project.NewScope(root, st.LoopID)
	if res, err := s.End(context.Background()); err != nil || res.Iteration == nil || res.Iteration.Decision != loop.Gated {
		t.Fatalf("a deleted test: %+v, %v", res, err)
	}
	s.Now = func() time.Time { return time.Now().Add(31 * time.Minute) }
	res, err := s.End(context.Background())
	if err != nil || res.Answer.Decision == answer.Block {
		t.Fatalf("the stop after: %+v, %v", res, err)
	}
	after, _, err := loop.Read(root, st.LoopID)
	if err != nil {
		t.Fatal(err)
	}
	return after.Status
}

// doctorProbe is the level of ralph doctor's finding about what, on a
// project with a loop whose hooks took 20 of its 100 s, each pre-tool-call
// 100 ms.
func doctorProbe(what string) func(*testing.T, []byte, *config.Config) string {
	return func(t *testing.T, data []byte, cfg *config.Config) string {
		root := t.TempDir()
		os.WriteFile(filepath.Join(root, "aiwg.yml"), data, 0o644)
		st, _, err := loop.Start(context.Background(), loop.Options{Root: root, Config: cfg, Task: "t", Completion: "true", MaxIterations: 5, Owner: "t", PID: os.Getpid(), Now: time.Now()})
		if err != nil {
			t.Fatal(err)
		}
		sc, _ := project.NewScope(root, st.LoopID)
		var log strings.Builder
		t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		for i := range 200 {
			fmt.Fprintf(&log, `{"time":%q,"hook_name":"pre-tool-call","event":"PreToolUse","decision":"allow","duration_ms":100}`+"\n", t0.Add(time.Duration(i)*500*time.Millisecond).Format(time.RFC3339Nano))
		}
		fmt.Fprintf(&log, `{"time":%q,"hook_name":"stop","event":"Stop","decision":"block","duration_ms":0}`+"\n", t0.Add(100*time.Second).Format(time.RFC3339Nano))
		if err := os.WriteFile(sc.Log(), []byte(log.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, f := range doctor.Check(context.Background(), doctor.Options{Root: root}) {
			if f.Check == "budget" && strings.Contains(f.Text, what) {
				out = append(out, f.Level+" "+f.Text)
			}
		}
		if len(out) == 0 {
			t.Fatalf("ralph doctor says nothing of %s", what)
		}
		return strings.Join(out, "; ")
	}
}

// TestStateSchema: a loop's state.json, after iterations, a risky action,
// tool errors, a regression and a gate, has the design's fields with
// their shapes (schemas/loop-state.schema.json), bounded, and reads back.
func TestStateSchema(t *testing.T) {
	sch := compileSchema(t, "schemas/loop-state.schema.json")
	root := t.TempDir()
	test := filepath.Join(root, "calc_test.go")
	os.WriteFile(test, []byte("package calc\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {}\n\nfunc TestB(t *testing.T) {}\n"), 0o644)
	os.MkdirAll(filepath.Join(root, "src"), 0o755)
	os.WriteFile(filepath.Join(root, "src", "validator.go"), []byte("package src\n"), 0o644)
	cfg, _ := config.Default()
	st, _, err := loop.Start(context.Background(), loop.Options{Root: root, Config: cfg, Task: "t", Completion: "false", MaxIterations: 20, Owner: "t", PID: os.Getpid(), Now: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	sc, _ := project.NewScope(root, st.LoopID)
	validate := func(when string) map[string]any {
		t.Helper()
		data, err := os.ReadFile(sc.State())
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(v); err != nil {
			t.Fatalf("%s: state.json does not keep the schema: %v\n%s", when, err, data)
		}
		return v.(map[string]any)
	}
	if v := validate("at the start"); v["best_iteration"] != nil || v["detection_enabled"] != true {
		t.Errorf("at the start: best_iteration %v, detection_enabled %v", v["best_iteration"], v["detection_enabled"])
	}
	// A risky action, through pre-tool-call.
	t.Setenv("CLAUDE_PROJECT_DIR", root)
	t.Setenv("RALPH_LOOP_ID", st.LoopID)
	ev := fmt.Sprintf(`{"session_id":"s","cwd":%q,"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":%q,"content":"package src // new\n"}}`, root, filepath.Join(root, "src", "validator.go"))
	var out, errb strings.Builder
	if code := pretool.Main(nil, strings.NewReader(ev), &out, &errb); code != 0 {
		t.Fatalf("pre-tool-call: %d %s", code, errb.String())
	}
	for range 3 {
		loop.RecordError(sc, time.Now(), loop.ToolError{Tool: "Bash", Signature: "TypeError", Message: "TypeError: x"})
	}
	s := &loop.Stop{Scope: sc, Config: cfg, Session: "s", Now: time.Now}
	for i := range 12 {
		// A different change and reflection each time: not stuck.
		s.Message = "<reflection>\nAttempted: change " + strings.Repeat("x", i+1) + "\n</reflection>"
		os.WriteFile(filepath.Join(root, "src", "work.go"), []byte(fmt.Sprintf("package src // %d\n", i)), 0o644)
		if i == 11 {
			os.WriteFile(test, []byte("package calc\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {}\n"), 0o644)
		}
		if _, err := s.End(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	v := validate("after 12 iterations and a gate")
	best, _ := v["best_iteration"].(map[string]any)
	if v["status"] != "waiting" || v["recovery_in_progress"] != true || best == nil || len(v["iteration_history"].([]any)) != 10 ||
		len(v["completion_checks"].([]any)) != 10 || len(v["reinforcement_history"].([]any)) == 0 || len(v["risky_actions"].([]any)) != 1 {
		t.Errorf("after the gate: %v", v)
	}
	got, _, err := loop.Read(root, st.LoopID)
	if err != nil || got.BestIteration != int(best["iteration"].(float64)) {
		t.Errorf("read back: best %d, %v", got.BestIteration, err)
	}
}

// compileSchema compiles a JSON Schema file of the repository.
func compileSchema(t *testing.T, path string) *jsonschema.Schema {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(path, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
