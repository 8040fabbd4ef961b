// Package risk decides whether a tool call may go ahead: it is the rule
// engine behind pre-tool-call and `ralph explain`.
//
// A call is judged by built-in named rules (destructive shell and git
// commands, test deletion, tampering with ralph's own files; see Builtins)
// and by the risk_rules of aiwg.yml (tool + path globs or command patterns,
// with a level and an action). The detection mode raises or lowers the
// actions. The result is a Verdict: the decision, every finding with its
// reason, and the existing files the call would change, which the caller
// checkpoints before letting a risky call through.
//
// Bash commands are read with package shell, never matched as raw text.
package risk

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/tidwall/match"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/event"
	"github.com/ralph-hooks/ralph-hooks/internal/shell"
	"github.com/ralph-hooks/ralph-hooks/internal/startup"
	"github.com/ralph-hooks/ralph-hooks/internal/testindex"
	"github.com/ralph-hooks/ralph-hooks/internal/treeview"
)

// Levels, from least to most severe.
const (
	Low      = "low"
	Medium   = "medium"
	High     = "high"
	Critical = "critical"
)

// levelRank orders the levels: Low 0 to Critical 3.
func levelRank(level string) int {
	switch level {
	case Medium:
		return 1
	case High:
		return 2
	case Critical:
		return 3
	}
	return 0
}

// Finding is one rule that matched.
type Finding struct {
	Rule   string
	Level  string
	Action answer.Decision
	Reason string   // one or two sentences for the agent
	Cmd    string   // the command it was found in (Bash)
	Paths  []string // existing files it concerns
}

// Verdict is the judgement of one tool call.
type Verdict struct {
	Decision answer.Decision
	Findings []Finding
	Top      *Finding // the finding that decided, if any
	// Changes are the existing files (absolute) the call changes or
	// deletes, to checkpoint before it runs.
	Changes []string
	// Writes are the test files a Bash command rewrites with text ralph
	// knows (cat > x_test.go <<EOF), absolute path to full new text: the
	// caller checks them as it checks a Write (rule test-tamper).
	Writes map[string]string
	// Analysis is how a Bash command was read.
	Analysis *shell.Analysis
	Target   string // the command or path judged
}

// Answer renders the verdict for the agent.
func (v *Verdict) Answer() answer.Answer {
	a := answer.Answer{Decision: v.Decision}
	switch v.Decision {
	case answer.Deny, answer.Ask:
		t := v.Top
		verb := "Blocked by ralph-hooks"
		if v.Decision == answer.Ask {
			verb = "ralph-hooks asks for confirmation"
		}
		a.Reason = fmt.Sprintf("%s (rule %s): %s", verb, t.Rule, t.Reason)
		var more []string
		for _, f := range v.Findings {
			if f.Rule != t.Rule && (f.Action == answer.Deny || f.Action == answer.Ask) {
				more = append(more, f.Rule)
			}
		}
		if len(more) > 0 {
			a.Reason += " Also matched: " + strings.Join(uniq(more), ", ") + "."
		}
	case answer.Warn:
		var msgs []string
		for _, f := range v.Findings {
			if f.Action == answer.Warn {
				msgs = append(msgs, f.Reason)
			}
		}
		a.Context = strings.Join(uniq(msgs), "\n")
	}
	return a
}

func uniq(list []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range list {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// Guard judges tool calls in one project.
type Guard struct {
	Root string
	Home string
	Temp []string // temp directories; anything strictly inside is scratch
	// Caches are package managers' caches: they and anything inside are
	// scratch.
	Caches []string
	// Protected are the files and directories the agent may not change.
	Protected []string
	// TreeView, when set, returns the loop's view of the tree, refreshed
	// (package treeview), or nil: a find's matches are listed from it
	// rather than by walking (see findview.go). Called once, when a
	// judgement first needs it.
	TreeView func() *treeview.View
	// FindMemo, when set, keeps the selection of the last find judged
	// from the view, to give again while the tree's directories list
	// what they listed (see findmemo.go).
	FindMemo *FindMemo

	cfg      *config.Config
	rules    []*rule
	builtins map[string]*rule  // the built-in and pack rules aiwg.yml changes (builtinRule)
	packs    []*Pack           // the opt-in packs switched on
	noTmpdir bool              // TMPDIR is unset or empty: $TMPDIR/x is /x
	gitExec  map[string]string // the entries of Protected that git or a later shell runs, with the rule that asks (gitexec.go, startup.go)
	path     []string          // PATH's directories (shadow.go)
	goBin    string            // the directory go install writes to (gotoolchain.go)
	analyzer *shell.Analyzer
	guardState
}

// rule is a compiled risk rule (config) or a built-in rule's settings.
type rule struct {
	config.RiskRule
	tools map[string]bool
}

// New returns the guard for the project at root.
func New(cfg *config.Config, root string, getenv func(string) string) (*Guard, error) {
	g := &Guard{Root: filepath.Clean(root), cfg: cfg, builtins: map[string]*rule{}}
	if h := getenv("HOME"); h != "" {
		g.Home = filepath.Clean(h)
	}
	g.Temp = tempDirs(getenv)
	g.noTmpdir = getenv("TMPDIR") == ""
	g.path = pathDirs(getenv("PATH"))
	g.goBin = goBinDir(g.Home, getenv)
	g.Caches = cacheDirs(g.Home)
	g.Protected = protected(g.Root, g.Home, getenv)
	// The lists below go into gitExec as they go into Protected, so a path
	// missing from gitExec is in Protected only among these first entries:
	// the membership tests need not scan the rest.
	base := len(g.Protected)
	gitPaths := gitExecPaths(g.Root, g.Home, getenv)
	starts := slices.Concat(startup.Paths(g.Home, getenv), userSites(g.Home, getenv), toolchainPaths(g.Home, getenv)) // pysite.go, toolchains.go
	agents := startup.AgentConfigs(g.Root, g.Home, getenv)
	detached := slices.Concat(schedulerPaths(g.Home, getenv), agentSchedules(g.Root, g.Home), startup.EditorTasks(g.Root), startup.HumanRuns(g.Root, g.Home, getenv, true)) // detached.go
	queues := taskQueues(g.Root, getenv)
	// Sized for what goes in: grown step by step it was rehashed five
	// times on every Edit and Bash call, and a fixed size of 256 made
	// twice the table the 140-odd paths of a usual home need.
	g.gitExec = make(map[string]string, len(gitPaths)+len(starts)+len(agents)+len(detached)+len(queues))
	for _, p := range gitPaths {
		g.Protected = append(g.Protected, p)
		g.gitExec[p] = "git-exec"
	}
	for _, p := range starts {
		if g.gitExec[p] == "" {
			g.Protected = append(g.Protected, p)
			g.gitExec[p] = "startup-config"
		}
	}
	for _, p := range agents {
		if g.gitExec[p] == "" && !slices.Contains(g.Protected[:base], p) {
			g.Protected = append(g.Protected, p)
			g.gitExec[p] = "agent-config"
		}
	}
	for _, p := range detached {
		if g.gitExec[p] == "" && !slices.Contains(g.Protected[:base], p) {
			g.Protected = append(g.Protected, p)
			g.gitExec[p] = "detached-job"
		}
	}
	for _, p := range queues {
		if g.gitExec[p] == "" && !slices.Contains(g.Protected[:base], p) {
			g.Protected = append(g.Protected, p)
			g.gitExec[p] = "task-queue"
		}
	}
	for i, p := range Packs {
		if slices.Contains(cfg.RiskPacks, p.Name) {
			g.packs = append(g.packs, &Packs[i])
		}
	}
	for _, name := range cfg.RiskPacks {
		if !slices.Contains(PackNames(), name) {
			return nil, &config.Error{File: cfg.File, Key: "risk_packs", Msg: fmt.Sprintf("unknown rule pack %q (known: %s)", name, strings.Join(PackNames(), ", "))}
		}
	}
	for _, r := range cfg.RiskRules {
		if b := g.builtinRule(r.Name); b != nil {
			if err := override(cfg, b, r); err != nil {
				return nil, err
			}
			g.builtins[r.Name] = b
			continue
		}
		if len(r.Paths) == 0 && len(r.Commands) == 0 && !r.TestFiles {
			return nil, cfgErr(cfg, r, fmt.Sprintf("rule %q matches nothing: give it paths, test_files or commands, or use the name of a built-in rule (%s)", r.Name, strings.Join(BuiltinNames(), ", ")))
		}
		if r.Level == "" || r.Action == "" {
			return nil, cfgErr(cfg, r, fmt.Sprintf("rule %q needs a level and an action", r.Name))
		}
		cr := &rule{RiskRule: r, tools: map[string]bool{}}
		for _, t := range r.Tools {
			cr.tools[t] = true
		}
		g.rules = append(g.rules, cr)
	}
	g.analyzer = &shell.Analyzer{Env: getenv, Root: root, ReadFile: readScript, GitConfig: gitConfig, ReadDir: os.ReadDir, Program: program, GoMain: g.goMain, Rebuilt: rebuilt}
	return g, nil
}

// maxScript is the largest script file the guard reads to judge it.
const maxScript = 256 << 10

// readScript reads a script file that a command runs, for the shell
// analysis: only a regular file, and no more than maxScript bytes and one
// more (so the analysis sees it is too long), whatever the path names (a
// device, a pipe).
func readScript(p string) ([]byte, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", p)
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, maxScript+1))
}

// override applies a risk_rules entry to a built-in rule.
func override(cfg *config.Config, b *rule, r config.RiskRule) error {
	if b.Name == "tamper" {
		return cfgErr(cfg, r, "rule tamper protects ralph's own files and cannot be changed")
	}
	for k := range r.Set {
		if k != "name" && k != "level" && k != "action" && k != "message" {
			return cfgErr(cfg, r, fmt.Sprintf("rule %q is built in: only level, action and message can be set (not %s)", r.Name, k))
		}
	}
	if r.Level != "" {
		b.Level = r.Level
	}
	if r.Action != "" {
		b.Action = r.Action
	}
	b.Message = r.Message
	return nil
}

func cfgErr(cfg *config.Config, r config.RiskRule, msg string) error {
	file := cfg.File
	if file == "" || r.Line == 0 {
		file = "defaults.yml"
	}
	key := r.Key
	if key == "" {
		key = "risk_rules"
	}
	return &config.Error{File: file, Line: r.Line, Key: key, Msg: msg}
}

// Event judges one PreToolUse event.
func (g *Guard) Event(ev *event.Event) (*Verdict, error) {
	cwd := ev.Cwd
	if cwd == "" {
		cwd = g.Root
	}
	switch ev.Tool {
	case "Bash":
		cmd, err := ev.Str("command")
		if err != nil {
			return nil, err
		}
		return g.bashAsPowerShell(ev, g.bashCall(ev, cmd, cwd), cmd, cwd), nil
	case "PowerShell":
		cmd, err := ev.Str("command")
		if err != nil {
			return nil, err
		}
		if ev.Shell == event.ShellTyped {
			cwd = "" // typed into a running shell (Copilot CLI's write_powershell): its directory is unknown
		}
		return g.PowerShell(cmd, cwd), nil
	case "Write", "Edit", "MultiEdit", "NotebookEdit":
		key := "file_path"
		if ev.Tool == "NotebookEdit" {
			key = "notebook_path"
		}
		p, err := ev.Str(key)
		if err != nil {
			return nil, err
		}
		if p == "" {
			return &Verdict{Decision: answer.Allow}, nil
		}
		ap := g.through(g.onDisk(g.procPath(abs(cwd, p), cwd)))
		v := g.File(ev.Tool, ap)
		if _, in := g.inProject(ap); in && v.Decision != answer.Deny {
			if k := runnerConfig(ev, ap); k != "" {
				g.runnerConfigFinding(v, ev.Tool, ap, k)
			}
		}
		return v, nil
	}
	if v, ok := g.agentTool(ev, cwd); ok { // agenttools.go
		return v, nil
	}
	if ReadOnly(ev.Tool) {
		return &Verdict{Decision: answer.Allow}, nil
	}
	return g.other(ev, cwd), nil
}

// ReadOnly reports whether tool never changes files. Skill and
// SlashCommand are not: a skill's or command's !`cmd` lines run when it
// is invoked. Nor are Task and Agent: a subagent can run where no hook
// of the project's sees it (agenttools.go).
func ReadOnly(tool string) bool {
	switch tool {
	case "Read", "Glob", "Grep", "LS", "WebFetch", "WebSearch", "TodoWrite", "TodoRead",
		"NotebookRead", "BashOutput", "KillShell", "KillBash", "AskUserQuestion", "ExitPlanMode", "EnterPlanMode",
		"ListMcpResourcesTool", "ReadMcpResourceTool", "ReadMcpResourceDirTool", "TaskOutput", "TaskStop",
		"TaskCreate", "TaskUpdate", "TaskList", "TaskGet", "ToolSearch", "LSP":
		return true
	}
	return false
}

// other judges tools ralph does not know, such as MCP tools: what their
// input says they run, delete, move or write (mcp.go), and, for one whose
// name says it writes, moves or deletes, tamper protection on every
// path-like string in its input.
func (g *Guard) other(ev *event.Event, cwd string) *Verdict {
	v := &Verdict{Decision: answer.Allow, Target: ev.Tool}
	low := strings.ToLower(ev.Tool)
	mutates := false
	for _, w := range []string{"write", "edit", "delete", "remove", "move", "rename", "create", "patch", "replace", "insert", "update", "upload", "put"} {
		if strings.Contains(low, w) {
			mutates = true
			break
		}
	}
	if len(ev.Input) == 0 {
		return v
	}
	if g.mcp(v, ev, cwd) {
		mutates = false
	}
	for _, p := range pathStrings(ev.Input) {
		if !mutates {
			break
		}
		ap := g.procPath(abs(cwd, p), cwd)
		if g.protectedDelete(ap) || g.protectedWrite(ap) {
			g.add(v, g.tamper("`"+ev.Tool+" "+g.rel(ap)+"`", ap))
		}
	}
	g.decide(v)
	if v.Decision == answer.Deny {
		v.Changes = nil // nothing to checkpoint: the call does not run
	}
	return v
}

// File judges a file tool (Write, Edit, MultiEdit, NotebookEdit) on path p.
func (g *Guard) File(tool, p string) *Verdict {
	v := &Verdict{Decision: answer.Allow, Target: p}
	p = g.onDisk(p)
	if g.protectedWrite(p) {
		g.add(v, g.tamperAt("`"+tool+" "+g.rel(p)+"`", p, false))
	}
	if exists(p) {
		for _, f := range g.matchRules(tool, "", []string{p}) {
			g.add(v, f)
		}
	} else {
		g.matchNewTool(v, tool, p)
	}
	g.decide(v)
	if v.Decision != answer.Deny && exists(p) {
		for _, f := range v.Findings {
			if levelRank(f.Level) >= levelRank(Medium) {
				v.Changes = []string{p}
				break
			}
		}
	}
	return v
}

// matchRules returns the findings of the config risk rules for tool on
// paths (existing files) or command text cmd.
func (g *Guard) matchRules(tool, cmd string, paths []string) []Finding {
	if g.mode() == "off" {
		return nil
	}
	var out []Finding
	for _, r := range g.rules {
		if len(r.tools) > 0 && !r.tools[tool] && !r.tools["*"] {
			continue
		}
		if cmd != "" {
			for _, pat := range r.Commands {
				if match.Match(cmd, pat) {
					out = append(out, g.finding(r, r.msg(tool, "", cmd), cmd, nil))
					break
				}
			}
		}
		for _, p := range paths {
			rel, ok := g.inProject(p)
			if !ok || rel == "." {
				continue
			}
			if r.TestFiles && g.IsTestPath(rel) || anyMatch(r.Paths, rel) {
				out = append(out, g.finding(r, r.msg(tool, rel, cmd), cmd, []string{p}))
			}
		}
	}
	return out
}

func (r *rule) msg(tool, path, cmd string) string {
	m := r.Message
	if m == "" {
		m = "{tool} on {path} matches risk rule {rule}."
		if path == "" {
			m = "{command} matches risk rule {rule}."
		}
	}
	return strings.NewReplacer("{path}", path, "{tool}", tool, "{command}", cmd, "{rule}", r.Name).Replace(m)
}

// finding builds a finding for rule r, with the detection mode applied.
func (g *Guard) finding(r *rule, reason, cmd string, paths []string) Finding {
	return Finding{Rule: r.Name, Level: r.Level, Action: g.shift(r.Name, r.Level, answer.Decision(r.Action)), Reason: reason, Cmd: cmd, Paths: paths}
}

// builtin builds a finding for a built-in rule; a message set in aiwg.yml
// replaces the built-in reason.
func (g *Guard) builtin(name, reason, cmd string, paths []string) Finding {
	r := g.builtinRule(name)
	if r.Message != "" {
		reason = r.msg("Bash", strings.Join(relAll(g, paths), " "), cmd)
	}
	return g.finding(r, reason, cmd, paths)
}

// builtinRule returns the built-in or pack rule name as it applies in the
// project: as aiwg.yml changed it, else as built in; nil for no such rule.
// The rules aiwg.yml leaves alone are made when a finding needs one, not
// all of them for every call.
func (g *Guard) builtinRule(name string) *rule {
	if r, ok := g.builtins[name]; ok {
		return r
	}
	b, ok := builtinNamed(name)
	if !ok {
		return nil
	}
	return &rule{RiskRule: config.RiskRule{Name: b.Name, Level: b.Level, Action: string(b.Action)}}
}

// builtinNamed returns the built-in rule or pack rule named name; a pack's
// rule comes before a built-in rule of the same name.
func builtinNamed(name string) (Builtin, bool) {
	for _, p := range Packs {
		if p.Rule.Name == name {
			return p.Rule, true
		}
	}
	for _, b := range Builtins {
		if b.Name == name {
			return b, true
		}
	}
	return Builtin{}, false
}

func relAll(g *Guard, paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = g.rel(p)
	}
	return out
}

func (g *Guard) mode() string { return g.cfg.AgentPersistence.DetectionMode }

// shift applies the detection mode to an action.
func (g *Guard) shift(name, level string, a answer.Decision) answer.Decision {
	if name == "tamper" || name == "file-delete" {
		return a
	}
	steps := []answer.Decision{answer.Allow, answer.Warn, answer.Ask, answer.Deny}
	i := 0
	for k, s := range steps {
		if s == a {
			i = k
		}
	}
	switch g.mode() {
	case "off":
		if level != Critical {
			i = 0
		}
	case "minimal":
		if level != Critical && i > 0 {
			i--
		}
	case "aggressive":
		if levelRank(level) >= levelRank(Medium) && i > 0 && i < len(steps)-1 {
			i++
		}
	}
	return steps[i]
}

// add records a finding.
func (g *Guard) add(v *Verdict, f Finding) { v.Findings = append(v.Findings, f) }

// decide sets the verdict's decision from its findings.
func (g *Guard) decide(v *Verdict) {
	v.Decision = answer.Allow
	v.Top = nil
	for i := range v.Findings {
		f := &v.Findings[i]
		if v.Top == nil || f.Action.Worse(v.Top.Action) ||
			f.Action == v.Top.Action && levelRank(f.Level) > levelRank(v.Top.Level) {
			v.Top = f
		}
	}
	if v.Top != nil && v.Top.Action != "" {
		v.Decision = v.Top.Action
	}
	sort.Strings(v.Changes)
	v.Changes = uniq(v.Changes)
}

// IsTestPath reports whether rel (slash-separated, relative to the root) is
// a test file (package testindex: it matches a test_files glob and lies in
// no vendored directory).
func (g *Guard) IsTestPath(rel string) bool { return testindex.IsTestFile(g.cfg.TestFiles, rel) }

// isTestDir reports whether a directory at rel is a test directory by name.
func (g *Guard) isTestDir(rel string) bool { return g.IsTestPath(rel + "/x") }

func anyMatch(globs []string, rel string) bool {
	rel = filepath.ToSlash(rel)
	for _, p := range globs {
		if doublestar.MatchUnvalidated(p, rel) {
			return true
		}
	}
	return false
}

// inProject returns p relative to the root when p is inside it.
func (g *Guard) inProject(p string) (string, bool) {
	rel, err := filepath.Rel(g.Root, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// rel renders p for messages: relative to the root when inside it.
func (g *Guard) rel(p string) string {
	if r, ok := g.inProject(p); ok {
		return r
	}
	if g.Home != "" && within(p, g.Home) {
		r, _ := filepath.Rel(g.Home, p)
		if r == "." {
			return "~"
		}
		return "~/" + filepath.ToSlash(r)
	}
	return p
}

func abs(cwd, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(cwd, p)
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// within reports whether p is dir or inside it.
func within(p, dir string) bool {
	if dir == "" {
		return false
	}
	if p == dir {
		return true
	}
	if dir == "/" {
		return strings.HasPrefix(p, "/")
	}
	return strings.HasPrefix(p, dir+string(filepath.Separator))
}

// Rules returns every rule as it applies in the guard's project: the
// built-in rules, the packs' rules, then the rules of the configuration.
func (g *Guard) Rules() []RuleInfo {
	var out []RuleInfo
	info := func(b Builtin, kind string) RuleInfo {
		r := g.builtinRule(b.Name)
		ri := RuleInfo{Name: b.Name, Kind: kind, Level: r.Level, Action: r.Action, Class: Class(b.Name), Summary: b.Summary, Example: b.Example, Message: r.Message}
		if r.Level != b.Level {
			ri.Changed = append(ri.Changed, "level")
		}
		if r.Action != string(b.Action) {
			ri.Changed = append(ri.Changed, "action")
		}
		if r.Message != "" {
			ri.Changed = append(ri.Changed, "message")
		}
		return ri
	}
	for _, b := range Builtins {
		out = append(out, info(b, "built-in"))
	}
	for _, p := range Packs {
		ri := info(p.Rule, "pack")
		ri.Pack, ri.On = p.Name, slices.Contains(g.cfg.RiskPacks, p.Name)
		out = append(out, ri)
	}
	for _, r := range g.rules {
		ri := RuleInfo{Name: r.Name, Kind: "default", Level: r.Level, Action: r.Action, Class: Class(r.Name), Message: r.Message,
			Tools: r.Tools, Paths: r.Paths, TestFiles: r.TestFiles, Commands: r.Commands}
		if r.Line > 0 {
			ri.Kind, ri.Source = "aiwg.yml", fmt.Sprintf("%s:%d", g.cfg.File, r.Line)
			if def := defaultRule(r.Name); def != nil {
				ri.Kind = "default"
				for _, k := range []string{"level", "action", "message", "tools", "paths", "test_files", "commands"} {
					if r.Set[k] {
						ri.Changed = append(ri.Changed, k)
					}
				}
			}
		}
		out = append(out, ri)
	}
	return out
}

// defaultRule returns the risk rule of the embedded defaults named name.
func defaultRule(name string) *config.RiskRule {
	def, err := config.Default()
	if err != nil {
		return nil
	}
	for i := range def.RiskRules {
		if def.RiskRules[i].Name == name {
			return &def.RiskRules[i]
		}
	}
	return nil
}
