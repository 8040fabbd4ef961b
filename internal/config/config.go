// Package config loads aiwg.yml: the project's ralph-hooks configuration,
// layered over defaults embedded in the binaries (defaults.yml, which is
// also the reference documentation of every key).
//
// Loading is strict: an unknown key, a value of the wrong type or an
// out-of-range value is an error naming the file, line and key, so a typo
// never silently turns a rule off.
package config

import (
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/bmatcuk/doublestar/v4"
	"go.yaml.in/yaml/v3"

	"github.com/ralph-hooks/ralph-hooks/internal/rawfile"
)

// Defaults is the embedded default configuration, as YAML: the reference
// documentation of every key.
//
//go:embed defaults.yml
var Defaults []byte

// Config is the whole configuration.
type Config struct {
	AgentPersistence AgentPersistence `yaml:"agent_persistence"`
	PersistenceLoop  PersistenceLoop  `yaml:"persistence_loop"`
	Completion       Completion       `yaml:"completion"`
	Metrics          []Metric         `yaml:"metrics"`
	FailClosed       bool             `yaml:"fail_closed"`
	TestFiles        []string         `yaml:"test_files"`
	RiskRules        []RiskRule       `yaml:"risk_rules"`
	RiskPacks        []string         `yaml:"risk_packs"`
	TestIntegrity    TestIntegrity    `yaml:"test_integrity"`
	Agent            Agent            `yaml:"agent"`

	// File is the file the configuration came from ("" for defaults only).
	File string `yaml:"-" json:"-"`
	// SpecFile is the .specify/config/persistence.yaml read under it, if any.
	SpecFile string `yaml:"-" json:"-"`
	// Deprecated notes the old names the files used, one line each.
	Deprecated []string `yaml:"-" json:"-"`
}

// Agent holds the agent keys: the agent `ralph run` starts.
type Agent struct {
	Command string `yaml:"command"`
}

// AgentPersistence holds the agent_persistence keys: the block of the
// aiwg design (seed 000) as it writes it, with ralph's extensions beside.
type AgentPersistence struct {
	// Enabled false turns the persistence extension off: no loop is
	// driven (the stop hook lets every session stop) and post-tool-call
	// detects no regression. The guard (pre-tool-call) stays.
	Enabled             bool          `yaml:"enabled"`
	Detection           Detection     `yaml:"detection"`
	Reinforcement       Reinforcement `yaml:"reinforcement"`
	Recovery            Recovery      `yaml:"recovery"`
	BestOutputSelection BestOutput    `yaml:"best_output_selection"`
	Performance         Performance   `yaml:"performance"`
	// LearnPatterns (ralph's) keeps recurring reflections and failures in
	// reflections/patterns/ and shows them when the next loop starts.
	LearnPatterns bool `yaml:"learn_patterns" alias:"patterns_enabled"`

	// DetectionMode is detection.mode once loaded; as a key
	// (agent_persistence.detection_mode) it is ralph's old name of it.
	DetectionMode string `yaml:"detection_mode"`
}

// Detection holds agent_persistence.detection.
type Detection struct {
	Mode string `yaml:"mode"`
	// PatternsEnabled are the regression detectors that run (Patterns).
	PatternsEnabled Patterns `yaml:"patterns_enabled"`
}

// Patterns is a list of regression patterns. In YAML it is a list of
// their names, or true (all of them) or false (none).
type Patterns []string

// UnmarshalYAML reads a list of names, true or false.
func (p *Patterns) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!bool" {
		var all bool
		if err := n.Decode(&all); err != nil {
			return err
		}
		*p = Patterns{}
		if all {
			*p = append(Patterns(nil), PatternNames...)
		}
		return nil
	}
	var names []string
	if err := n.Decode(&names); err != nil {
		return err
	}
	*p = append(Patterns{}, names...)
	return nil
}

// Has reports whether the pattern name is enabled.
func (p Patterns) Has(name string) bool { return contains(p, name) }

// Reinforcement holds agent_persistence.reinforcement.
type Reinforcement struct {
	DefaultLevel         string            `yaml:"default_level"`
	EscalationThresholds Thresholds        `yaml:"escalation_thresholds"`
	PlateauDelta         float64           `yaml:"quality_plateau_threshold" alias:"plateau_delta"`
	PlateauWindow        int               `yaml:"plateau_window"`
	Text                 ReinforcementText `yaml:"text"`

	// Old names: iteration_N: STANDARD and iteration_N: AGGRESSIVE of
	// escalation_thresholds. Loading turns them into thresholds and
	// leaves them 0.
	StandardAt   int `yaml:"standard_at"`
	AggressiveAt int `yaml:"aggressive_at"`
}

// Thresholds maps iteration_N to the reinforcement level from iteration N
// on. A file's mapping replaces the one below it whole.
type Thresholds map[string]string

// UnmarshalYAML reads a mapping into a new map.
func (t *Thresholds) UnmarshalYAML(n *yaml.Node) error {
	m := map[string]string{}
	if err := n.Decode(&m); err != nil {
		return err
	}
	*t = m
	return nil
}

// Threshold is one escalation threshold.
type Threshold struct {
	From  int    // the first iteration it applies to
	Level string // MINIMAL, STANDARD or AGGRESSIVE
}

// Sorted returns the thresholds by iteration. Keys that are not
// iteration_N (loading refuses them) are left out.
func (t Thresholds) Sorted() []Threshold {
	var out []Threshold
	for k, v := range t {
		if n, ok := thresholdIteration(k); ok {
			out = append(out, Threshold{n, strings.ToUpper(v)})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].From < out[j].From })
	return out
}

// thresholdIteration reads N of iteration_N.
func thresholdIteration(key string) (int, bool) {
	s, ok := strings.CutPrefix(key, "iteration_")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || strconv.Itoa(n) != s {
		return 0, false
	}
	return n, true
}

// ReinforcementText holds the text sent to the agent at each level.
type ReinforcementText struct {
	Minimal    string `yaml:"minimal"`
	Standard   string `yaml:"standard"`
	Aggressive string `yaml:"aggressive"`
}

// Recovery holds agent_persistence.recovery.
type Recovery struct {
	MaxRetries int `yaml:"max_retries"`
	// AutoEscalateOnCritical sends a critical regression to the human gate
	// at once; false gives it the recovery attempts first.
	AutoEscalateOnCritical bool `yaml:"auto_escalate_on_critical"`
	// HumanGateTimeoutMinutes bounds the wait for a human decision: past
	// it the loop fails with the gate's reason. nil: wait forever.
	HumanGateTimeoutMinutes *float64 `yaml:"human_gate_timeout_minutes"`
}

// GateTimeout is human_gate_timeout_minutes as a duration, 0 for none.
func (r Recovery) GateTimeout() time.Duration {
	if r.HumanGateTimeoutMinutes == nil {
		return 0
	}
	return time.Duration(*r.HumanGateTimeoutMinutes * float64(time.Minute))
}

// BestOutput holds agent_persistence.best_output_selection.
type BestOutput struct {
	// Enabled false: the final iteration is the loop's output, whatever
	// scored best.
	Enabled          bool    `yaml:"enabled"`
	QualityThreshold float64 `yaml:"quality_threshold"`
	// RequireVerification: only an iteration whose completion command
	// passed can be the best.
	RequireVerification bool `yaml:"require_verification"`
}

// Performance holds agent_persistence.performance: the budgets ralph
// doctor and ralph bench report against.
type Performance struct {
	DetectionLatencyBudgetMS      float64 `yaml:"detection_latency_budget_ms"`
	MaxIntegrationOverheadPercent float64 `yaml:"max_integration_overhead_percentage"`
}

// PersistenceLoop holds the persistence_loop keys, as seed 003 names them
// (.specify/config/persistence.yaml). A field tagged alias also reads an
// older name of its key; one tagged unit:"s" takes a number of seconds as
// well as a duration like 5m.
type PersistenceLoop struct {
	MaxIterations      int      `yaml:"max_iterations"`
	WarnThreshold      float64  `yaml:"warn_threshold"`
	CheckpointInterval int      `yaml:"checkpoint_interval"`
	Retry              Retry    `yaml:"retry"`
	Timeouts           Timeouts `yaml:"timeout" alias:"timeouts"`
}

// Retry holds persistence_loop.retry: how ralph run retries a step that
// failed transiently.
type Retry struct {
	MaxAttempts     int           `yaml:"max_attempts"`
	BackoffStrategy string        `yaml:"backoff_strategy"`
	BaseDelay       time.Duration `yaml:"base_delay" alias:"initial_delay" unit:"s"`
	MaxDelay        time.Duration `yaml:"max_delay" unit:"s"`
	Multiplier      float64       `yaml:"multiplier"`
	Jitter          float64       `yaml:"jitter"`
}

// Timeouts holds persistence_loop.timeout.
type Timeouts struct {
	PerStep time.Duration `yaml:"per_step" alias:"step" unit:"s"`
	Total   time.Duration `yaml:"total" unit:"s"`
}

// Completion holds the completion keys.
type Completion struct {
	Command string        `yaml:"command"`
	Timeout time.Duration `yaml:"timeout"`
}

// Metric is one entry of metrics.
type Metric struct {
	Name      string        `yaml:"name"`
	Command   string        `yaml:"command"`
	Builtin   string        `yaml:"builtin"`
	Parser    Parser        `yaml:"parser"`
	Direction string        `yaml:"direction"`
	Timeout   time.Duration `yaml:"timeout"`
}

// Parser says how to read a metric's value from its command's output.
type Parser struct {
	Regex    string `yaml:"regex"`
	JSONPath string `yaml:"json_path"`
}

// RiskRule is one entry of risk_rules.
type RiskRule struct {
	Name      string   `yaml:"name"`
	Tools     []string `yaml:"tools"`
	Paths     []string `yaml:"paths"`
	TestFiles bool     `yaml:"test_files"`
	Commands  []string `yaml:"commands"`
	// Existing makes a path rule apply only to files that exist: writing
	// a new one (a new test's first snapshot) is no change of it.
	Existing bool   `yaml:"existing"`
	Level    string `yaml:"level"`
	Action   string `yaml:"action"`
	Message  string `yaml:"message"`

	// Set holds the keys the user's file gave this rule (for overrides of
	// built-in rules); Line is where it starts (0: a default rule) and Key
	// its place in the file ("risk_rules[2]").
	Set  map[string]bool `yaml:"-" json:"-"`
	Line int             `yaml:"-" json:"-"`
	Key  string          `yaml:"-" json:"-"`
}

// TestIntegrity holds the test_integrity keys: pre-tool-call's refusal of
// test tampering (rule test-tamper).
type TestIntegrity struct {
	Enabled bool            `yaml:"enabled"`
	Allow   []TestException `yaml:"allow"`
}

// TestException is one entry of test_integrity.allow: changes to tests
// that the human allows.
type TestException struct {
	// Path is a doublestar glob of the files, relative to the project root.
	Path string `yaml:"path"`
	// Tests are the tests it covers, by full name or last name part, with
	// * and ? wildcards; none means every test of the files and changes
	// outside the tests too.
	Tests []string `yaml:"tests"`
	// Reason says why the exception exists.
	Reason string `yaml:"reason"`
}

// Value sets.
var (
	DetectionModes = []string{"off", "minimal", "standard", "aggressive"}
	PatternNames   = []string{"test_deletion", "feature_removal", "coverage_regression", "validation_bypass"}
	LevelNames     = []string{"MINIMAL", "STANDARD", "AGGRESSIVE"}
	Levels         = []string{"critical", "high", "medium", "low"}
	Actions        = []string{"deny", "ask", "warn", "allow"}
	Directions     = []string{"higher", "lower"}
	Builtins       = []string{"test_count", "skip_count", "assertion_count"}
	Backoffs       = []string{"exponential", "linear", "constant"}
	// RiskPacks are the opt-in rule packs of risk_packs (package risk
	// holds their rules).
	RiskPacks = []string{"backups", "cicd", "messaging", "platform", "search", "secrets", "storage"}
)

// validName reports whether a rule name is lower-case letters, digits and
// dashes, not starting with a dash.
func validName(s string) bool {
	if s == "" || s[0] == '-' {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// Error is a configuration error at a place in a file.
type Error struct {
	File string
	Line int
	Key  string // dotted path, e.g. risk_rules[2].level
	Msg  string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.Key != "" {
		b.WriteString(e.Key + ": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// SpecFile is seed 003's persistence loop configuration, relative to the
// directory of aiwg.yml. It may hold only persistence_loop.
const SpecFile = ".specify/config/persistence.yaml"

// Load reads the configuration at path over the defaults. The
// persistence_loop of SpecFile beside it, when there is one, comes between:
// defaults, then .specify/config/persistence.yaml, then aiwg.yml, key by
// key, so aiwg.yml (ralph's own file, which the guard protects) wins. A
// missing file is skipped.
func Load(path string) (*Config, error) {
	return load(path, nil, false)
}

// LoadHeld is Load with aiwg.yml's content given: data, or its absence
// (absent), as the vault's check held it to its seal; the file is not read.
// SpecFile beside it is read as Load reads it.
func LoadHeld(path string, data []byte, absent bool) (*Config, error) {
	if !absent && data == nil {
		data = []byte{}
	}
	return load(path, data, absent)
}

// load is Load; when held or absent, held is aiwg.yml's content.
func load(path string, held []byte, absent bool) (*Config, error) {
	base, err := Default()
	if err != nil {
		return nil, err
	}
	spec := filepath.Join(filepath.Dir(path), SpecFile)
	data, err := rawfile.ReadFile(spec)
	switch {
	case err == nil:
		if base, err = decode(spec, data, base, "persistence_loop"); err != nil {
			return nil, err
		}
		base.SpecFile = spec
	case !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR):
		return nil, readErr(spec, err)
	}
	switch {
	case absent:
		return base, nil // missing, and no link to nowhere either: the vault's lstat said so
	case held != nil:
		data, err = held, nil
	default:
		data, err = rawfile.ReadFile(path)
	}
	if errors.Is(err, fs.ErrNotExist) {
		if to, lerr := os.Readlink(path); lerr == nil {
			// A link to nowhere is a broken file, not a missing one: the
			// defaults would apply with fail_closed off.
			return nil, &Error{File: path, Msg: fmt.Sprintf("is a symbolic link to %s, which does not exist", to)}
		}
		return base, nil
	}
	if err != nil {
		return nil, readErr(path, err)
	}
	cfg, err := decode(path, data, base, "")
	if err != nil {
		return nil, err
	}
	cfg.File = path
	return cfg, nil
}

// readErr names the configuration file that could not be read, and why,
// in words: "aiwg.yml: is a directory", not "read aiwg.yml: is a directory".
func readErr(path string, err error) error {
	switch {
	case errors.Is(err, syscall.EISDIR):
		return &Error{File: path, Msg: "is a directory, not a file"}
	case errors.Is(err, rawfile.ErrNotRegular):
		return &Error{File: path, Msg: rawfile.ErrNotRegular.Error()}
	case errors.Is(err, fs.ErrPermission):
		return &Error{File: path, Msg: "cannot be read (permission denied)"}
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &Error{File: path, Msg: "cannot be read: " + err.Error()}
}

// Default returns the embedded defaults. They come from defaults_gen.go,
// defaults.yml compiled to Go: parsing the YAML (or even a JSON copy) would
// cost every hook call a third of a millisecond. TestDefaults keeps the two
// in step (go test ./internal/config -run TestDefaults -update rewrites it).
func Default() (*Config, error) { return defaults(), nil }

// parseDefaults parses defaults.yml itself.
func parseDefaults() (*Config, error) {
	return decode("defaults.yml", Defaults, nil, "")
}

// Parse parses data (the contents of file) over the defaults.
func Parse(file string, data []byte) (*Config, error) {
	base, err := Default()
	if err != nil {
		return nil, err
	}
	cfg, err := decode(file, data, base, "")
	if err != nil {
		return nil, err
	}
	cfg.File = file
	return cfg, nil
}

// decode decodes data over base (nil: over the zero Config). only, when
// set, is the one top-level key the file may hold.
func decode(file string, data []byte, base *Config, only string) (*Config, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, yamlError(file, 0, "", err)
	}
	cfg := &Config{}
	if base != nil {
		*cfg = *base
		cfg.RiskRules = append([]RiskRule(nil), base.RiskRules...)
	}
	if len(doc.Content) == 0 {
		return cfg, nil // empty file
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		if root.Tag == "!!null" {
			return cfg, nil
		}
		return nil, &Error{File: file, Line: root.Line, Msg: "want a mapping of keys at the top level"}
	}
	if only != "" {
		for i := 0; i+1 < len(root.Content); i += 2 {
			if k := root.Content[i]; k.Value != only {
				return nil, &Error{File: file, Line: k.Line, Key: k.Value, Msg: "unknown key (this file holds only " + only + ")"}
			}
		}
	}
	c := &checker{file: file, lines: map[string]int{}, spelled: map[string]string{}}
	if err := c.check(root, reflect.TypeOf(Config{}), ""); err != nil {
		return nil, err
	}
	var rulesNode *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "risk_rules" {
			rulesNode = root.Content[i+1]
		}
	}
	// risk_rules merge by name; everything else decodes over the base.
	saved := cfg.RiskRules
	if err := root.Decode(cfg); err != nil {
		return nil, yamlError(file, 0, "", err)
	}
	cfg.RiskRules = saved
	if err := c.resolve(cfg); err != nil {
		return nil, err
	}
	if rulesNode != nil && rulesNode.Kind == yaml.SequenceNode {
		if err := mergeRules(c, cfg, rulesNode, base != nil); err != nil {
			return nil, err
		}
	}
	if err := c.validate(cfg); err != nil {
		return nil, err
	}
	return cfg, nil
}

// mergeRules applies the risk_rules of a file: a name already known
// changes only the keys given; a new name adds a rule.
func mergeRules(c *checker, cfg *Config, seq *yaml.Node, overlay bool) error {
	seen := map[string]int{}
	for i, n := range seq.Content {
		key := fmt.Sprintf("risk_rules[%d]", i)
		var r RiskRule
		set := map[string]bool{}
		for j := 0; j+1 < len(n.Content); j += 2 {
			set[n.Content[j].Value] = true
		}
		if err := n.Decode(&r); err != nil {
			return yamlError(c.file, n.Line, key, err)
		}
		if r.Name == "" {
			return &Error{File: c.file, Line: n.Line, Key: key + ".name", Msg: "every rule needs a name"}
		}
		if !validName(r.Name) {
			return &Error{File: c.file, Line: n.Line, Key: key + ".name", Msg: fmt.Sprintf("%q: use lower-case letters, digits and dashes", r.Name)}
		}
		if prev, dup := seen[r.Name]; dup {
			return &Error{File: c.file, Line: n.Line, Key: key + ".name", Msg: fmt.Sprintf("rule %q is already defined at risk_rules[%d]", r.Name, prev)}
		}
		seen[r.Name] = i
		if !overlay {
			cfg.RiskRules = append(cfg.RiskRules, r) // a default rule: no place in the user's file
			continue
		}
		r.Set, r.Line, r.Key = set, n.Line, key
		if k := indexRule(cfg.RiskRules, r.Name); k >= 0 {
			old := cfg.RiskRules[k]
			if err := n.Decode(&old); err != nil {
				return yamlError(c.file, n.Line, key, err)
			}
			old.Set, old.Line, old.Key = set, n.Line, key
			cfg.RiskRules[k] = old
			continue
		}
		cfg.RiskRules = append(cfg.RiskRules, r)
	}
	return nil
}

func indexRule(rules []RiskRule, name string) int {
	for i, r := range rules {
		if r.Name == name {
			return i
		}
	}
	return -1
}

// checker checks a YAML tree against the Config struct before decoding,
// so errors name the key instead of a Go type.
type checker struct {
	file    string
	lines   map[string]int    // key path → line, for value errors
	spelled map[string]string // key path → the old name the file gave it (an alias)
}

// spell returns key as the file spells it: with the old name of a key
// where the file used one.
func (c *checker) spell(key string) string {
	for k := key; k != ""; {
		if old, ok := c.spelled[k]; ok {
			return old + key[len(k):]
		}
		i := strings.LastIndexAny(k, ".[")
		if i < 0 {
			break
		}
		k = k[:i]
	}
	return key
}

var (
	durationType = reflect.TypeOf(time.Duration(0))
	patternsType = reflect.TypeOf(Patterns(nil))
)

func (c *checker) check(n *yaml.Node, t reflect.Type, path string) error {
	return c.checkField(n, t, path, "")
}

// checkField checks node n against type t at path; unit "s" lets a
// duration be given as a number of seconds.
func (c *checker) checkField(n *yaml.Node, t reflect.Type, path, unit string) error {
	c.lines[path] = n.Line
	if n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if n.Tag == "!!null" {
		return nil
	}
	bad := func(want string) error {
		return &Error{File: c.file, Line: n.Line, Key: c.spell(path), Msg: fmt.Sprintf("want %s, got %s", want, describe(n))}
	}
	switch {
	case t == patternsType:
		if n.Kind == yaml.ScalarNode && n.Tag == "!!bool" {
			return nil
		}
		want := "a list of " + strings.Join(PatternNames, ", ") + ", or true (all) or false (none)"
		if n.Kind != yaml.SequenceNode {
			return bad(want)
		}
		for i, e := range n.Content {
			if e.Kind != yaml.ScalarNode || e.Tag != "!!str" {
				c.lines[fmt.Sprintf("%s[%d]", path, i)] = e.Line
				return &Error{File: c.file, Line: e.Line, Key: fmt.Sprintf("%s[%d]", c.spell(path), i), Msg: fmt.Sprintf("want a pattern name, got %s", describe(e))}
			}
		}
		return nil
	case t.Kind() == reflect.Pointer:
		return c.checkField(n, t.Elem(), path, unit)
	case t.Kind() == reflect.Map:
		if n.Kind != yaml.MappingNode {
			return bad("a mapping")
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Kind != yaml.ScalarNode {
				return &Error{File: c.file, Line: k.Line, Key: c.spell(path), Msg: "want plain keys"}
			}
			if err := c.checkField(v, t.Elem(), join(path, k.Value), ""); err != nil {
				return err
			}
		}
		return nil
	case t == durationType:
		want := "a duration like 30s or 5m"
		if unit == "s" {
			want = "a number of seconds or a duration like 30s or 5m"
		}
		if n.Kind != yaml.ScalarNode {
			return bad(want)
		}
		if unit == "s" && (n.Tag == "!!int" || n.Tag == "!!float") {
			// Seconds, as seed 003 writes them: decode them as a duration.
			f, err := strconv.ParseFloat(n.Value, 64)
			if err != nil || math.IsInf(f, 0) || math.IsNaN(f) || math.Abs(f) > maxSeconds {
				return bad(want)
			}
			n.Tag, n.Value = "!!str", strconv.FormatFloat(f, 'f', -1, 64)+"s"
		}
		if _, err := time.ParseDuration(n.Value); err != nil {
			return bad(want)
		}
		return nil
	case t.Kind() == reflect.Struct:
		if n.Kind != yaml.MappingNode {
			return bad("a mapping")
		}
		fields := map[string]reflect.StructField{}
		aliases := map[string]string{} // old name → name
		var names []string
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			tag := strings.Split(f.Tag.Get("yaml"), ",")[0]
			if tag == "" || tag == "-" {
				continue
			}
			fields[tag] = f
			names = append(names, tag)
			if a := f.Tag.Get("alias"); a != "" {
				aliases[a] = tag
			}
		}
		seen := map[string]string{} // name → how the file spelled it
		at := map[string]int{}      // name → its line
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			spelling := k.Value
			if name, ok := aliases[k.Value]; ok {
				// An old name: decode it as the new one.
				c.spelled[join(path, name)] = c.spell(join(path, k.Value))
				k.Value = name
			}
			key := join(path, k.Value)
			if prev, dup := seen[k.Value]; dup {
				if prev == spelling {
					return &Error{File: c.file, Line: k.Line, Key: join(c.spell(path), spelling), Msg: fmt.Sprintf("is set twice (first at line %d): keep one", at[k.Value])}
				}
				return &Error{File: c.file, Line: k.Line, Key: join(c.spell(path), spelling), Msg: fmt.Sprintf("is the same key as %s (one is the old name of the other): keep one", prev)}
			}
			seen[k.Value], at[k.Value] = spelling, k.Line
			f, ok := fields[k.Value]
			if !ok {
				sort.Strings(names)
				return &Error{File: c.file, Line: k.Line, Key: c.spell(key), Msg: "unknown key (known: " + strings.Join(names, ", ") + ")"}
			}
			if err := c.checkField(v, f.Type, key, f.Tag.Get("unit")); err != nil {
				return err
			}
		}
		return nil
	case t.Kind() == reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			return bad("a list")
		}
		for i, e := range n.Content {
			if err := c.check(e, t.Elem(), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		return nil
	}
	if n.Kind != yaml.ScalarNode {
		return bad("a single value")
	}
	switch t.Kind() {
	case reflect.String:
		if n.Tag != "!!str" {
			return bad("a string (quote it)")
		}
	case reflect.Bool:
		if n.Tag != "!!bool" {
			return bad("true or false")
		}
	case reflect.Int:
		if n.Tag != "!!int" {
			return bad("a whole number")
		}
	case reflect.Float64:
		if n.Tag != "!!int" && n.Tag != "!!float" {
			return bad("a number")
		}
	}
	return nil
}

// resolve turns the old names the file used into the design's keys, and
// notes each in cfg.Deprecated: aliases of the same block (plateau_delta,
// …), agent_persistence.detection_mode (detection.mode) and
// reinforcement.standard_at and aggressive_at (escalation_thresholds).
func (c *checker) resolve(cfg *Config) error {
	set := func(key string) bool { _, ok := c.lines[key]; return ok }
	note := func(old, now string) {
		line := c.lines[now]
		if line == 0 {
			line = c.lines[old]
		}
		cfg.Deprecated = append(cfg.Deprecated, fmt.Sprintf("%s:%d: %s is ralph's old name of %s; it still works, but write %s", c.file, line, old, now, last(now)))
	}
	news := make([]string, 0, len(c.spelled))
	for k := range c.spelled {
		news = append(news, k)
	}
	sort.Strings(news)
	for _, k := range news {
		note(c.spelled[k], k)
	}
	ap := &cfg.AgentPersistence
	const oldMode, newMode = "agent_persistence.detection_mode", "agent_persistence.detection.mode"
	switch {
	case set(oldMode) && set(newMode):
		return &Error{File: c.file, Line: c.lines[oldMode], Key: oldMode, Msg: "is the same key as detection.mode (detection_mode is its old name): keep one"}
	case set(oldMode):
		ap.Detection.Mode = ap.DetectionMode
		c.spelled[newMode], c.lines[newMode] = oldMode, c.lines[oldMode]
		note(oldMode, newMode)
	}
	ap.DetectionMode = ap.Detection.Mode

	rf := &ap.Reinforcement
	const prefix = "agent_persistence.reinforcement."
	olds := []struct {
		key   string
		n     int
		level string
	}{{"standard_at", rf.StandardAt, "STANDARD"}, {"aggressive_at", rf.AggressiveAt, "AGGRESSIVE"}}
	m := Thresholds{}
	for k, v := range rf.EscalationThresholds {
		m[k] = v
	}
	for _, o := range olds {
		if !set(prefix + o.key) {
			continue
		}
		if set(prefix + "escalation_thresholds") {
			return &Error{File: c.file, Line: c.lines[prefix+o.key], Key: prefix + o.key, Msg: "is an old form of escalation_thresholds, which this file sets too: keep escalation_thresholds"}
		}
		if o.n < 1 {
			return &Error{File: c.file, Line: c.lines[prefix+o.key], Key: prefix + o.key, Msg: fmt.Sprintf("must be at least 1 (got %d)", o.n)}
		}
		for k, v := range m {
			if strings.EqualFold(v, o.level) {
				delete(m, k)
			}
		}
		key := fmt.Sprintf("iteration_%d", o.n)
		m[key] = o.level
		full := prefix + "escalation_thresholds." + key
		c.spelled[full], c.lines[full] = prefix+o.key, c.lines[prefix+o.key]
		note(prefix+o.key, prefix+"escalation_thresholds ("+key+": "+o.level+")")
	}
	rf.EscalationThresholds, rf.StandardAt, rf.AggressiveAt = m, 0, 0
	return nil
}

// maxSeconds bounds a number of seconds (about 290 years: what a
// time.Duration holds).
const maxSeconds = 9e9

// last returns the last part of a dotted key.
func last(key string) string { return key[strings.LastIndexByte(key, '.')+1:] }

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	}
	switch n.Tag {
	case "!!str":
		return fmt.Sprintf("%q", n.Value)
	case "!!int", "!!float":
		return "the number " + n.Value
	}
	return n.Value
}

// yamlError is err of yaml.v3 as an Error of file, at the line its
// message names, else at line.
func yamlError(file string, line int, key string, err error) *Error {
	n, msg := yamlMsg(err)
	if n > 0 {
		line = n
	}
	return &Error{File: file, Line: line, Key: key, Msg: msg}
}

// yamlMsg is the message of a yaml.v3 error on one line, without its
// "yaml: " prefix, and the line it names (0: none).
func yamlMsg(err error) (line int, msg string) {
	msg = strings.TrimPrefix(err.Error(), "yaml: ")
	msg = strings.TrimPrefix(msg, "unmarshal errors:\n")
	msg = strings.Join(strings.Fields(msg), " ")
	// "line 3: found …": the line goes where every other error has it,
	// aiwg.yml:3.
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if num, after, ok := strings.Cut(rest, ": "); ok {
			if n, err := strconv.Atoi(num); err == nil && n > 0 {
				return n, after
			}
		}
	}
	return 0, msg
}

// line returns the line of key in the file, or of its nearest ancestor the
// file sets (a value can be wrong next to a default the user did not write).
func (c *checker) line(key string) int {
	for k := key; k != ""; {
		if n := c.lines[k]; n > 0 {
			return n
		}
		i := strings.LastIndexAny(k, ".[")
		if i < 0 {
			break
		}
		k = k[:i]
	}
	return 0
}

// validate checks values the types cannot.
func (c *checker) validate(cfg *Config) error {
	errAt := func(key, format string, args ...any) error {
		return &Error{File: c.file, Line: c.line(key), Key: c.spell(key), Msg: fmt.Sprintf(format, args...)}
	}
	oneOf := func(key, v string, set []string) error {
		if contains(set, v) {
			return nil
		}
		return errAt(key, "must be one of %s (got %q)", strings.Join(set, ", "), v)
	}
	ap, pl := cfg.AgentPersistence, cfg.PersistenceLoop
	if err := oneOf("agent_persistence.detection.mode", ap.Detection.Mode, DetectionModes); err != nil {
		return err
	}
	if err := c.validateDesign(cfg, errAt); err != nil {
		return err
	}
	rf := ap.Reinforcement
	switch {
	case rf.PlateauWindow < 2:
		return errAt("agent_persistence.reinforcement.plateau_window", "must be at least 2 (got %d)", rf.PlateauWindow)
	case rf.PlateauDelta < 0 || rf.PlateauDelta >= 1:
		return errAt("agent_persistence.reinforcement.quality_plateau_threshold", "must be a fraction from 0 to under 1 (got %v)", rf.PlateauDelta)
	case ap.Recovery.MaxRetries < 0:
		return errAt("agent_persistence.recovery.max_retries", "must not be negative (got %d)", ap.Recovery.MaxRetries)
	case ap.BestOutputSelection.QualityThreshold < 0 || ap.BestOutputSelection.QualityThreshold > 100:
		return errAt("agent_persistence.best_output_selection.quality_threshold", "must be from 0 to 100 (got %v)", ap.BestOutputSelection.QualityThreshold)
	case pl.MaxIterations < 1:
		return errAt("persistence_loop.max_iterations", "must be at least 1: ralph never runs a loop unbounded (got %d)", pl.MaxIterations)
	case pl.WarnThreshold <= 0 || pl.WarnThreshold > 1:
		return errAt("persistence_loop.warn_threshold", "must be a fraction above 0 and at most 1 (got %v)", pl.WarnThreshold)
	case pl.CheckpointInterval < 1:
		return errAt("persistence_loop.checkpoint_interval", "must be at least 1: checkpoint after every N steps (got %d)", pl.CheckpointInterval)
	case pl.Retry.MaxAttempts < 1:
		return errAt("persistence_loop.retry.max_attempts", "must be at least 1: the first try counts (got %d)", pl.Retry.MaxAttempts)
	case !contains(Backoffs, pl.Retry.BackoffStrategy):
		return errAt("persistence_loop.retry.backoff_strategy", "must be one of %s (got %q)", strings.Join(Backoffs, ", "), pl.Retry.BackoffStrategy)
	case pl.Retry.BaseDelay < 0:
		return errAt("persistence_loop.retry.base_delay", "must not be negative (got %v)", pl.Retry.BaseDelay)
	case pl.Retry.MaxDelay < pl.Retry.BaseDelay:
		return errAt("persistence_loop.retry.max_delay", "must not be below %s (%v; got %v)", last(c.spell("persistence_loop.retry.base_delay")), pl.Retry.BaseDelay, pl.Retry.MaxDelay)
	case pl.Retry.Multiplier < 1:
		return errAt("persistence_loop.retry.multiplier", "must be at least 1 (got %v)", pl.Retry.Multiplier)
	case pl.Retry.Jitter < 0 || pl.Retry.Jitter >= 1:
		return errAt("persistence_loop.retry.jitter", "must be a fraction from 0 to under 1 (got %v)", pl.Retry.Jitter)
	case pl.Timeouts.PerStep <= 0:
		return errAt("persistence_loop.timeout.per_step", "must be positive (got %v)", pl.Timeouts.PerStep)
	case pl.Timeouts.Total < pl.Timeouts.PerStep:
		return errAt("persistence_loop.timeout.total", "must not be below %s (%v; got %v)", last(c.spell("persistence_loop.timeout.per_step")), pl.Timeouts.PerStep, pl.Timeouts.Total)
	case strings.TrimSpace(cfg.Agent.Command) == "":
		return errAt("agent.command", "is empty: name the agent ralph run starts, e.g. claude -p")
	case cfg.Completion.Timeout <= 0:
		return errAt("completion.timeout", "must be positive (got %v)", cfg.Completion.Timeout)
	}
	if err := c.validateMetrics(cfg.Metrics, errAt, oneOf); err != nil {
		return err
	}
	if len(cfg.TestFiles) == 0 {
		return errAt("test_files", "is empty: the test-files and test-delete rules would see no tests; list at least one glob")
	}
	for i, g := range cfg.TestFiles {
		if !doublestar.ValidatePattern(g) {
			return errAt(fmt.Sprintf("test_files[%d]", i), "%q is not a valid glob", g)
		}
	}
	for i, r := range cfg.RiskRules {
		key := r.Key
		if key == "" {
			key = fmt.Sprintf("risk_rules[%d]", i)
		}
		file := c.file
		if r.Line == 0 {
			file = "defaults.yml"
		}
		at := func(field, format string, args ...any) error {
			return &Error{File: file, Line: r.Line, Key: key + field, Msg: fmt.Sprintf("rule %q: ", r.Name) + fmt.Sprintf(format, args...)}
		}
		// A rule without level or action may be an override of a built-in
		// rule; package risk, which knows their names, checks the rest.
		if r.Level != "" && !contains(Levels, r.Level) {
			return at(".level", "must be one of %s (got %q)", strings.Join(Levels, ", "), r.Level)
		}
		if r.Action != "" && !contains(Actions, r.Action) {
			return at(".action", "must be one of %s (got %q)", strings.Join(Actions, ", "), r.Action)
		}
		for j, g := range r.Paths {
			if !doublestar.ValidatePattern(g) {
				return at(fmt.Sprintf(".paths[%d]", j), "%q is not a valid glob", g)
			}
		}
	}
	for i, p := range cfg.RiskPacks {
		key := fmt.Sprintf("risk_packs[%d]", i)
		if !contains(RiskPacks, p) {
			return errAt(key, "unknown rule pack %q (known: %s)", p, strings.Join(RiskPacks, ", "))
		}
		if contains(cfg.RiskPacks[:i], p) {
			return errAt(key, "rule pack %q is listed twice", p)
		}
	}
	return c.validateExceptions(cfg.TestIntegrity.Allow, errAt)
}

// validateDesign checks the keys of the design's agent_persistence block
// the types cannot, and writes the reinforcement levels in capitals.
func (c *checker) validateDesign(cfg *Config, errAt func(string, string, ...any) error) error {
	ap := &cfg.AgentPersistence
	seen := map[string]bool{}
	for i, p := range ap.Detection.PatternsEnabled {
		key := fmt.Sprintf("agent_persistence.detection.patterns_enabled[%d]", i)
		switch {
		case !contains(PatternNames, p):
			return errAt(key, "must be one of %s (got %q)", strings.Join(PatternNames, ", "), p)
		case seen[p]:
			return errAt(key, "%s is listed twice", p)
		}
		seen[p] = true
	}
	rf := &ap.Reinforcement
	rf.DefaultLevel = strings.ToUpper(rf.DefaultLevel)
	if !contains(LevelNames, rf.DefaultLevel) {
		return errAt("agent_persistence.reinforcement.default_level", "must be one of %s (got %q)", strings.Join(LevelNames, ", "), rf.DefaultLevel)
	}
	const th = "agent_persistence.reinforcement.escalation_thresholds"
	keys := make([]string, 0, len(rf.EscalationThresholds))
	for k := range rf.EscalationThresholds {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := strings.ToUpper(rf.EscalationThresholds[k])
		if _, ok := thresholdIteration(k); !ok {
			return errAt(th+"."+k, "want a key iteration_N, N the first iteration of the level (like iteration_3)")
		}
		if !contains(LevelNames, v) {
			return errAt(th+"."+k, "must be one of %s (got %q)", strings.Join(LevelNames, ", "), rf.EscalationThresholds[k])
		}
		rf.EscalationThresholds[k] = v
	}
	rank := func(l string) int { return slices.Index(LevelNames, l) }
	prev := Threshold{Level: rf.DefaultLevel}
	for _, t := range rf.EscalationThresholds.Sorted() {
		if rank(t.Level) < rank(prev.Level) {
			from := "default_level"
			if prev.From > 0 {
				from = fmt.Sprintf("iteration_%d", prev.From)
			}
			return errAt(fmt.Sprintf("%s.iteration_%d", th, t.From), "%s is below %s (%s): reinforcement only rises", t.Level, prev.Level, from)
		}
		prev = t
	}
	if m := ap.Recovery.HumanGateTimeoutMinutes; m != nil && !(*m > 0 && *m <= maxSeconds/60) {
		return errAt("agent_persistence.recovery.human_gate_timeout_minutes", "must be a positive number of minutes, or null to wait for the human forever (got %v)", *m)
	}
	if p := ap.Performance; !(p.DetectionLatencyBudgetMS > 0) {
		return errAt("agent_persistence.performance.detection_latency_budget_ms", "must be positive (got %v)", p.DetectionLatencyBudgetMS)
	} else if !(p.MaxIntegrationOverheadPercent > 0) {
		return errAt("agent_persistence.performance.max_integration_overhead_percentage", "must be positive (got %v)", p.MaxIntegrationOverheadPercent)
	}
	return nil
}

// validateExceptions checks test_integrity.allow.
func (c *checker) validateExceptions(allow []TestException, errAt func(string, string, ...any) error) error {
	for i, a := range allow {
		key := fmt.Sprintf("test_integrity.allow[%d]", i)
		switch {
		case a.Path == "":
			return errAt(key+".path", "every exception needs a path: a glob of the files, relative to the project root")
		case strings.HasPrefix(a.Path, "/") || a.Path == ".." || strings.HasPrefix(a.Path, "../") || strings.Contains(a.Path, "/../"):
			return errAt(key+".path", "%q: give a glob relative to the project root, inside it", a.Path)
		case !doublestar.ValidatePattern(a.Path):
			return errAt(key+".path", "%q is not a valid glob", a.Path)
		case strings.TrimSpace(a.Reason) == "":
			return errAt(key+".reason", "every exception needs a reason: say why these tests may change")
		}
		for j, name := range a.Tests {
			if strings.TrimSpace(name) == "" {
				return errAt(fmt.Sprintf("%s.tests[%d]", key, j), "is empty: name a test, or leave tests out to allow any test of the files")
			}
		}
	}
	return nil
}

func (c *checker) validateMetrics(metrics []Metric, errAt func(string, string, ...any) error, oneOf func(string, string, []string) error) error {
	names := map[string]bool{}
	for i, m := range metrics {
		key := fmt.Sprintf("metrics[%d]", i)
		switch {
		case m.Name == "":
			return errAt(key, "every metric needs a name")
		case names[m.Name]:
			return errAt(key+".name", "metric %q is defined twice", m.Name)
		case (m.Command == "") == (m.Builtin == ""):
			return errAt(key, "metric %q needs exactly one of command and builtin", m.Name)
		}
		names[m.Name] = true
		if m.Builtin != "" {
			if err := oneOf(key+".builtin", m.Builtin, Builtins); err != nil {
				return err
			}
		} else {
			p := m.Parser
			if (p.Regex == "") == (p.JSONPath == "") {
				return errAt(key+".parser", "metric %q needs exactly one of parser.regex and parser.json_path", m.Name)
			}
			if p.Regex != "" {
				re, err := regexp.Compile(p.Regex)
				if err != nil {
					return errAt(key+".parser.regex", "%v", err)
				}
				if re.NumSubexp() < 1 {
					return errAt(key+".parser.regex", "needs a group ( ) around the number")
				}
			}
		}
		if m.Direction == "" {
			return errAt(key+".direction", "metric %q needs a direction (higher or lower)", m.Name)
		}
		if err := oneOf(key+".direction", m.Direction, Directions); err != nil {
			return err
		}
		if m.Timeout < 0 {
			return errAt(key+".timeout", "must not be negative")
		}
	}
	return nil
}

func contains(set []string, v string) bool {
	for _, s := range set {
		if s == v {
			return true
		}
	}
	return false
}
