package run

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/ralph-hooks/ralph-hooks/internal/project"
)

// prompt is what the agent reads on stdin: the task's body, then ralph's
// notes for this run (where the task is, what to do, the last judgment).
func (s *session) prompt(final bool, next int) []byte {
	var b bytes.Buffer
	body := bytes.TrimLeft(s.t.Body(), "\r\n")
	b.Write(body)
	if len(body) > 0 && body[len(body)-1] != '\n' {
		b.WriteByte('\n')
	}
	b.WriteString("\n---\n")
	fmt.Fprintf(&b, "ralph run: task %s, iteration %d of %d (loop %s).\n", s.t.ID, next, s.max, s.id)
	if len(s.t.Steps) > 0 {
		var done []string
		for _, m := range s.pl.Checkpoint.CompletedSteps {
			for _, name := range m {
				done = append(done, name)
			}
		}
		if len(done) > 0 {
			fmt.Fprintf(&b, "Steps done: %s.\n", strings.Join(done, ", "))
		}
		if final {
			fmt.Fprintf(&b, "This run is step %d of %d, the last: %s. When you stop, the completion command `%s` judges the whole task.\n", s.step+1, len(s.steps), s.steps[s.step], s.cmd)
		} else {
			fmt.Fprintf(&b, "This run is step %d of %d: %s. Do this step only, then stop; the next steps come in later runs.\n", s.step+1, len(s.steps), s.steps[s.step])
		}
	} else {
		fmt.Fprintf(&b, "When you stop, the completion command `%s` judges the task.\n", s.cmd)
	}
	if w := s.cfg.PersistenceLoop.WarnThreshold; final && float64(next) >= math.Ceil(w*float64(s.max)) {
		fmt.Fprintf(&b, "Warning: iteration %d of %d: %d left before the task is rejected.\n", next, s.max, s.max-next+1)
	}
	if d := s.pl.Checkpoint.StateData; d.Attempt > 0 {
		fmt.Fprintf(&b, "The last try of this step failed (%s); this is try %d.\n", d.LastError, d.Attempt+1)
	}
	if s.feedback != "" {
		b.WriteString("\nThe last iteration, as ralph judged it:\n")
		b.WriteString(strings.TrimRight(s.feedback, "\n"))
		b.WriteByte('\n')
	}
	for _, n := range s.notes {
		b.WriteString("\n" + strings.TrimRight(n, "\n") + "\n")
	}
	s.notes = nil
	return b.Bytes()
}

// report is the section appended to a rejected task's body: everything
// needed to debug it without another file.
func (s *session) report(class, reason, output string) []byte {
	var b strings.Builder
	now := s.r.o.Clock.Now().UTC()
	fmt.Fprintf(&b, "\n## ralph run: rejected %s\n\n", now.Format(time.RFC3339))
	fmt.Fprintf(&b, "- **Reason**: %s\n", oneLine(reason))
	fmt.Fprintf(&b, "- **Class**: %s (%s)\n", class, classText[class])
	fmt.Fprintf(&b, "- **Iterations**: %d of %d; agent runs: %d; time spent: %s\n", s.pl.Iteration, s.max, s.pl.Checkpoint.StateData.Runs,
		time.Duration(s.pl.Checkpoint.StateData.Elapsed*float64(time.Second)).Round(time.Second))
	if len(s.t.Steps) > 0 {
		var done []string
		for _, m := range s.pl.Checkpoint.CompletedSteps {
			for _, name := range m {
				done = append(done, name)
			}
		}
		fmt.Fprintf(&b, "- **Steps**: done: %s; stopped at: %s\n", orNone(strings.Join(done, ", ")), s.pl.Checkpoint.CurrentStep)
	}
	if best := s.pl.Best; best != nil {
		passed := "failed"
		if best.Verified {
			passed = "passed"
		}
		fmt.Fprintf(&b, "- **Best iteration**: %d (quality %.1f, the completion command %s); `ralph restore --best --loop %s` brings its working tree back\n", best.Iteration, best.Quality, passed, s.id)
	} else {
		b.WriteString("- **Best iteration**: none judged\n")
	}
	if s.id != "" {
		rep := filepath.Join(project.Layout{Root: s.r.o.Root}.Archive(), s.id, "analytics", "report.md")
		if rel, err := filepath.Rel(s.r.o.Root, rep); err == nil {
			rep = rel
		}
		fmt.Fprintf(&b, "- **Loop**: %s (its report: %s; `ralph report %s`)\n", s.id, rep, s.id)
	}
	fmt.Fprintf(&b, "- **Completion command**: `%s`\n", s.cmd)
	if out := clip(output, 60, 8000); out != "" {
		b.WriteString("\n### Error output\n\n")
		fence := fenceFor(out)
		fmt.Fprintf(&b, "%stext\n%s\n%s\n", fence, out, fence)
	}
	b.WriteString("\n### Checkpoint\n\n")
	var cpb bytes.Buffer
	enc := yaml.NewEncoder(&cpb)
	enc.SetIndent(2)
	enc.Encode(s.pl.Checkpoint)
	enc.Close()
	cp := cpb.Bytes()
	fence := fenceFor(string(cp))
	fmt.Fprintf(&b, "%syaml\n%s%s\n", fence, cp, fence)
	b.WriteString("\n### Retry history\n\n")
	if len(s.pl.Retries) == 0 {
		b.WriteString("No retries.\n")
	} else {
		if s.pl.RetryCount > len(s.pl.Retries) {
			fmt.Fprintf(&b, "%d retries in all; the last %d:\n\n", s.pl.RetryCount, len(s.pl.Retries))
		}
		b.WriteString("| # | at | step | try | waited | error |\n|---|---|---|---|---|---|\n")
		for i, r := range s.pl.Retries {
			fmt.Fprintf(&b, "| %d | %s | %s | %d | %.2fs | %s |\n", i+1, r.At.Format(time.RFC3339), r.Step, r.Attempt, r.Delay, strings.ReplaceAll(r.Error, "|", "\\|"))
		}
	}
	return []byte(b.String())
}

// classText explains each failure class of a rejected task.
var classText = map[string]string{
	"hard":    "a hard failure stops the task at once",
	"retries": "transient failures until retry.max_attempts was spent",
	"bound":   "the completion command did not pass within the loop's bound",
	"timeout": "persistence_loop.timeout.total ran out",
	"aborted": "the loop was aborted",
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// fenceFor returns a code fence longer than any run of backquotes in s.
func fenceFor(s string) string {
	n, run := 3, 0
	for _, c := range s {
		if c == '`' {
			run++
			n = max(n, run+1)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", n)
}

// jsonUnmarshal is json.Unmarshal, named for the one place that needs it.
func jsonUnmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }
