package risk

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/config"
)

var (
	updateReadme = flag.Bool("update", false, "rewrite the peers' agreement table in README.md")
	peersReport  = flag.Bool("peers.report", false, "print every case where ralph and a peer disagree")
)

// peerFiles are the peers' extracted cases (see testdata/peers/README.md),
// by the name the README and disagreements.txt use.
var peerFiles = []struct{ name, file string }{
	{"dcg", "dcg.txt"},
	{"cc-safety-net", "cc-safety-net.txt"},
	{"claude-code-safety-net", "claude-code-safety-net.txt"},
}

// peerCase is one case of a peer's test suite.
type peerCase struct {
	peer, suite, expect, source, context, command string
}

func readPeerCases(t testing.TB) []peerCase {
	t.Helper()
	var out []peerCase
	for _, pf := range peerFiles {
		f, err := os.Open(filepath.Join("testdata", "peers", pf.file))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for n := 1; sc.Scan(); n++ {
			line := sc.Text()
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			p := strings.SplitN(line, " | ", 5)
			if len(p) != 5 || p[1] != "block" && p[1] != "allow" {
				t.Fatalf("%s:%d: want SUITE | block|allow | SOURCE | CONTEXT | COMMAND", pf.file, n)
			}
			out = append(out, peerCase{pf.name, p[0], p[1], p[2], p[3], strings.ReplaceAll(p[4], "⏎", "\n")})
		}
		f.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// justification is one line of disagreements.txt.
type justification struct {
	line               int
	peer, expect, ours string
	command, why       string
	key                string // the @key of a shared reason, or ""
	used               bool
}

func readJustifications(t testing.TB) map[string]*justification {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "peers", "disagreements.txt"))
	if err != nil {
		t.Fatal(err)
	}
	reasons := map[string]string{}
	out := map[string]*justification{}
	for n, line := range strings.Split(string(data), "\n") {
		n++
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.HasPrefix(line, "@") {
			k, v, ok := strings.Cut(line, ": ")
			if !ok {
				t.Fatalf("disagreements.txt:%d: want @key: reason", n)
			}
			reasons[k] = v
			continue
		}
		// The command may hold " | " itself: WHY is after the last one.
		p := strings.SplitN(line, " | ", 4)
		k := strings.LastIndex(line, " | ")
		if len(p) != 4 || k < len(p[0])+len(p[1])+len(p[2])+9 {
			t.Fatalf("disagreements.txt:%d: want PEER | EXPECT | OURS | COMMAND | WHY", n)
		}
		cmd := strings.TrimSuffix(p[3], line[k:])
		j := &justification{line: n, peer: p[0], expect: p[1], ours: p[2], command: strings.ReplaceAll(cmd, "⏎", "\n"), why: line[k+3:]}
		if strings.HasPrefix(j.why, "@") {
			j.key = j.why
			r, ok := reasons[j.why]
			if !ok {
				t.Fatalf("disagreements.txt:%d: unknown reason %s (define it as %s: …)", n, j.why, j.why)
			}
			j.why = r
		}
		if strings.TrimSpace(j.why) == "" {
			t.Fatalf("disagreements.txt:%d: no reason given", n)
		}
		key := j.peer + "|" + j.expect + "|" + j.command
		if prev, ok := out[key]; ok {
			t.Fatalf("disagreements.txt:%d: the same case as line %d", n, prev.line)
		}
		out[key] = j
	}
	return out
}

// blocks reports whether a decision stops the call: deny, or ask (which a
// headless agent turns into a denial).
func blocks(d answer.Decision) bool { return d == answer.Deny || d == answer.Ask }

// peerGuards builds the guards the cases run under: a case's opt-in pack
// on for pack:NAME, and the environment its test gives (TMPDIR).
type peerGuards struct {
	t     testing.TB
	root  string
	byKey map[string]*Guard
}

func (pg *peerGuards) get(c peerCase) *Guard {
	pack := ""
	if p, ok := strings.CutPrefix(c.suite, "pack:"); ok {
		pack = p
	}
	env := map[string]string{"HOME": fakeHome, "USER": "ralph"}
	if i := strings.Index(c.context, "TMPDIR: '"); i >= 0 {
		v := c.context[i+len("TMPDIR: '"):]
		env["TMPDIR"] = v[:strings.IndexByte(v, '\'')]
	} else if strings.Contains(c.context, "TMPDIR: tempDir") || strings.Contains(c.context, "TMPDIR: tmpDir") {
		env["TMPDIR"] = pg.root // the test's temp directory, which is the sample project
	}
	for _, k := range []string{"GIT_SSH_COMMAND", "GIT_SSH"} {
		// A test's ssh helper in the environment the guard shares with
		// the agent's shell.
		if i := strings.Index(c.context, k+": '"); i >= 0 {
			v := c.context[i+len(k+": '"):]
			env[k] = v[:strings.IndexByte(v, '\'')]
		}
	}
	key := pack + "|" + env["TMPDIR"] + "|" + env["GIT_SSH_COMMAND"] + "|" + env["GIT_SSH"]
	if g, ok := pg.byKey[key]; ok {
		return g
	}
	cfg, err := config.Default()
	if err != nil {
		pg.t.Fatal(err)
	}
	if pack != "" {
		cfg.RiskPacks = []string{pack}
	}
	g, err := New(cfg, pg.root, func(k string) string { return env[k] })
	if err != nil {
		pg.t.Fatal(err)
	}
	pg.byKey[key] = g
	return g
}

// cwdOf is where a case runs. dcg's cases name no directory: they run in
// the sample project. cc-safety-net's run where the test says: without a
// cwd (its tests' default) the directory is unknown, as it is to
// cc-safety-net; a test's temp directory or project is the sample project;
// a literal path is itself.
func cwdOf(root string, c peerCase) string {
	if c.peer == "dcg" {
		return root
	}
	cwd, ok := strings.CutPrefix(c.context, "cwd=")
	if !ok {
		return ""
	}
	cwd, env, _ := strings.Cut(cwd, " env=")
	switch {
	case cwd == "undefined" || cwd == "''":
		return ""
	case cwd == "'/project'":
		return root
	case strings.HasPrefix(cwd, "'/project/"):
		return filepath.Join(root, strings.Trim(cwd, "'")[len("/project/"):])
	case strings.HasPrefix(cwd, "'/"):
		return strings.Trim(cwd, "'")
	case strings.Contains(env, "HOME: "+cwd) || cwd == "cwd" && strings.Contains(env, "HOME: home"):
		return fakeHome // the test runs in the home directory
	}
	return root
}

// peerTally counts one suite's agreement.
type peerTally struct {
	block, blocked, allow, allowed int
	differ                         int // cases where ralph's verdict differs
}

func pct(n, d int) string {
	if d == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f %%", 100*float64(n)/float64(d))
}

// TestPeers runs the peer guards' own test cases (testdata/peers): every
// case a peer blocks must be blocked (deny or ask), every case it allows
// allowed (allow or warn), unless disagreements.txt says why ralph's
// verdict is right; a justification that no longer applies is an error
// too. The agreement table in README.md must match (-update rewrites it).
func TestPeers(t *testing.T) {
	root := sample(t)
	// cc-safety-net's ./escape: a link out of the project.
	if err := os.Symlink(t.TempDir(), filepath.Join(root, "escape")); err != nil {
		t.Fatal(err)
	}
	pg := &peerGuards{t: t, root: root, byKey: map[string]*Guard{}}
	just := readJustifications(t)
	tally := map[string]map[string]*peerTally{} // peer → suite → counts
	why := map[string]map[string]int{}          // reason → peer → differences on default suites
	var report []string
	for _, c := range readPeerCases(t) {
		v := pg.get(c).Command(c.command, cwdOf(root, c))
		ours := "allow"
		if blocks(v.Decision) {
			ours = "block"
		}
		if tally[c.peer] == nil {
			tally[c.peer] = map[string]*peerTally{}
		}
		tl := tally[c.peer][c.suite]
		if tl == nil {
			tl = &peerTally{}
			tally[c.peer][c.suite] = tl
		}
		if c.expect == "block" {
			tl.block++
			if ours == "block" {
				tl.blocked++
			}
		} else {
			tl.allow++
			if ours == "allow" {
				tl.allowed++
			}
		}
		j := just[c.peer+"|"+c.expect+"|"+c.command]
		if j == nil {
			j = just["*|"+c.expect+"|"+c.command]
		}
		if ours == c.expect {
			continue
		}
		tl.differ++
		rule := "-"
		if v.Top != nil {
			rule = v.Top.Rule
		}
		if j != nil && j.ours == string(v.Decision) {
			j.used = true
			if c.suite == "default" {
				r := summary(j.why)
				if why[r] == nil {
					why[r] = map[string]int{}
				}
				why[r][c.peer]++
			}
			continue
		}
		msg := fmt.Sprintf("%s %s (%s, %s): expects %s, ralph says %s (%s)\n\t%q", c.peer, c.source, c.suite, c.context, c.expect, v.Decision, rule, c.command)
		if j != nil {
			msg += fmt.Sprintf("\n\tdisagreements.txt:%d says ralph's verdict is %s", j.line, j.ours)
		}
		report = append(report, msg)
		if *peersReport {
			fmt.Printf("%s | %s | %s | %s | ? %s %s %s %s\n", c.peer, c.expect, v.Decision, strings.ReplaceAll(c.command, "\n", "⏎"), c.suite, rule, c.source, c.context)
		}
	}
	if len(report) > 0 && !*peersReport {
		t.Errorf("%d cases where ralph and a peer disagree without a justification in testdata/peers/disagreements.txt:\n%s", len(report), strings.Join(report, "\n"))
	}
	for _, j := range just {
		if !j.used {
			t.Errorf("disagreements.txt:%d: %s expects %s and ralph says %s for %q: no such disagreement (any more); remove the line", j.line, j.peer, j.expect, j.ours, j.command)
		}
	}
	checkReadmeTable(t, tableStart, tableEnd, agreementTable(tally))
	checkReadmeTable(t, reasonsStart, reasonsEnd, reasonsTable(why))
}

// Targets of issue 19 on the peers' default suites: the share of what they
// block that ralph blocks, and of what they allow that ralph allows.
const targetBlock, targetAllow = 97.0, 95.0

// reasonsTable renders, for the default suites, how many differences each
// reason of disagreements.txt accounts for, most first.
func reasonsTable(why map[string]map[string]int) string {
	type row struct {
		reason string
		total  int
	}
	var rows []row
	for r, by := range why {
		n := 0
		for _, c := range by {
			n += c
		}
		rows = append(rows, row{r, n})
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].total != rows[j].total {
			return rows[i].total > rows[j].total
		}
		return rows[i].reason < rows[j].reason
	})
	var b strings.Builder
	b.WriteString("| why ralph's verdict differs (default suites) |")
	for _, pf := range peerFiles {
		b.WriteString(" " + pf.name + " |")
	}
	b.WriteString("\n|---|")
	for range peerFiles {
		b.WriteString("---:|")
	}
	b.WriteString("\n")
	for _, r := range rows {
		b.WriteString("| " + strings.ReplaceAll(r.reason, "|", "\\|") + " |")
		for _, pf := range peerFiles {
			fmt.Fprintf(&b, " %d |", why[r.reason][pf.name])
		}
		b.WriteString("\n")
	}
	return b.String()
}

// summary is a reason's first clause: up to the first colon, semicolon or
// full stop (before a space) outside parentheses.
func summary(why string) string {
	depth := 0
	for i, r := range why {
		switch {
		case r == '(':
			depth++
		case r == ')':
			depth--
		case depth == 0 && (r == ':' || r == ';' || r == '.') && (i+1 == len(why) || why[i+1] == ' '):
			return why[:i]
		}
	}
	return strings.TrimSuffix(why, ".")
}

// agreementTable renders the agreement of ralph with each peer's suites.
func agreementTable(tally map[string]map[string]*peerTally) string {
	var b strings.Builder
	b.WriteString("| peer suite | cases | they block: ralph blocks | they allow: ralph allows | differences, each justified |\n|---|---:|---:|---:|---:|\n")
	for _, pf := range peerFiles {
		suites := make([]string, 0, len(tally[pf.name]))
		for s := range tally[pf.name] {
			suites = append(suites, s)
		}
		sort.Slice(suites, func(i, j int) bool {
			if (suites[i] == "default") != (suites[j] == "default") {
				return suites[i] == "default"
			}
			return suites[i] < suites[j]
		})
		for _, s := range suites {
			tl := tally[pf.name][s]
			name := pf.name + ", " + suiteName(s)
			if s == "default" {
				name = "**" + name + "**"
			}
			fmt.Fprintf(&b, "| %s | %d | %s (%d/%d)%s | %s (%d/%d)%s | %d |\n", name, tl.block+tl.allow,
				pct(tl.blocked, tl.block), tl.blocked, tl.block, target(s, tl.blocked, tl.block, targetBlock),
				pct(tl.allowed, tl.allow), tl.allowed, tl.allow, target(s, tl.allowed, tl.allow, targetAllow), tl.differ)
		}
	}
	return b.String()
}

// target marks a default suite's share against its target: ✓ when met,
// ✗ (below N %) when not.
func target(suite string, n, d int, want float64) string {
	if suite != "default" || d == 0 {
		return ""
	}
	if 100*float64(n) >= want*float64(d) {
		return " ✓"
	}
	return fmt.Sprintf(" ✗ (below %.0f %%)", want)
}

func suiteName(s string) string {
	switch {
	case s == "default":
		return "default suite"
	case strings.HasPrefix(s, "pack:"):
		return "opt-in pack " + strings.TrimPrefix(s, "pack:") + " (on)"
	case strings.HasPrefix(s, "other:"):
		return "pack " + strings.TrimPrefix(s, "other:")
	}
	return s + " mode"
}

const (
	tableStart = "<!-- peers table: go test ./internal/risk -run TestPeers -update -->\n"
	tableEnd   = "<!-- end peers table -->"

	reasonsStart = "<!-- peers reasons: go test ./internal/risk -run TestPeers -update -->\n"
	reasonsEnd   = "<!-- end peers reasons -->"
)

// checkReadmeTable checks the text between start and end in README.md.
func checkReadmeTable(t *testing.T, tableStart, tableEnd, table string) {
	path := filepath.Join("..", "..", "README.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	i := strings.Index(s, tableStart)
	j := strings.Index(s, tableEnd)
	if i < 0 || j < i {
		t.Fatalf("README.md has no peers table between %q and %q", strings.TrimSpace(tableStart), tableEnd)
	}
	cur := s[i+len(tableStart) : j]
	if cur == table {
		return
	}
	if *updateReadme {
		if err := os.WriteFile(path, []byte(s[:i+len(tableStart)]+table+s[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("README.md's %s is out of date; run go test ./internal/risk -run TestPeers -update\nwant:\n%s", strings.TrimSpace(tableStart), table)
}
