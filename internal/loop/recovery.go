package loop

import (
	"fmt"
	"strings"
)

// Recovery follows PDARE when an iteration regresses or the loop is stuck:
//
//	Pause     while a human gate is pending the loop waits, and pre-tool-call
//	          refuses file changes
//	Diagnose  name the likely cause from the iteration's signals, with a
//	          confidence (rules, not a model)
//	Adapt     turn the cause into a strategy for the next iteration's reason
//	Retry     at most agent_persistence.recovery.max_retries attempts, kept
//	          in recovery_history
//	Escalate  the human gate; a critical regression (tests deleted or
//	          skipped) escalates at once

// Causes a diagnosis can name.
const (
	CognitiveLoad   = "cognitive_load"
	TaskComplexity  = "task_complexity"
	Ambiguity       = "specification_ambiguity"
	RewardHacking   = "reward_hacking"
	RepeatedFailure = "repeated_failure"
)

// Strategies a recovery can adapt to.
const (
	Decompose = "decompose"
	Simpler   = "simpler_approach"
	Clarify   = "ask_for_clarification"
	Escalate  = "block_and_escalate"
	Restore   = "restore_and_retry" // a critical regression, when it does not go to the gate at once
)

// Diagnosis is the likely cause of a regression or a stuck loop.
type Diagnosis struct {
	Cause      string   `json:"cause"`
	Confidence float64  `json:"confidence"` // 0–1
	Signals    []string `json:"signals"`
}

// RecoveryAttempt is one entry of recovery_history.
type RecoveryAttempt struct {
	Attempt   int       `json:"attempt"`
	Iteration int       `json:"iteration"`
	Trigger   string    `json:"trigger"` // what set it off: a regression, stuck
	Diagnosis Diagnosis `json:"diagnosis"`
	Strategy  string    `json:"strategy"`
	Escalated bool      `json:"escalated,omitempty"`
}

// maxRecovery bounds State.RecoveryHistory.
const maxRecovery = 10

// Signals are what an iteration shows about how the work is going.
type Signals struct {
	Regressions   []Regression
	Stuck         string // why the loop is stuck, "" if it is not
	FilesModified int    // in this iteration
	ToolCalls     int    // in this iteration
	Failing       int    // failing tests
	ErrorKinds    int    // distinct error signatures in the loop's recent errors
	Words         string // the agent's own reflection and last message
	Plateau       bool   // quality has stopped improving
	Flipping      bool   // the failing set changes from iteration to iteration without progress
}

// ambiguous are phrases by which an agent says the specification is unclear.
var ambiguous = []string{
	"unclear", "ambiguous", "ambiguity", "not sure what", "not sure whether", "not sure if",
	"which behaviour", "which behavior", "spec does not say", "specification does not",
	"contradict", "conflicting requirement", "unspecified", "could mean",
}

// Diagnose names the most likely cause from the signals. Every rule that
// fires adds its signals; the cause with the highest confidence wins, ties
// going to the earlier rule.
func Diagnose(s Signals) Diagnosis {
	type cand struct {
		cause   string
		conf    float64
		signals []string
	}
	var cs []cand
	add := func(cause string, conf float64, signal string) {
		for i := range cs {
			if cs[i].cause == cause {
				cs[i].conf = min(0.95, max(cs[i].conf, conf)+0.1)
				cs[i].signals = append(cs[i].signals, signal)
				return
			}
		}
		cs = append(cs, cand{cause, conf, []string{signal}})
	}
	for _, r := range s.Regressions {
		switch {
		case r.Critical():
			add(RewardHacking, 0.9, fmt.Sprintf("%s: %s", r.Type, r.Detail))
		case r.Type == "assertion_drop":
			add(RewardHacking, 0.7, fmt.Sprintf("%s: %s", r.Type, r.Detail))
		}
	}
	words := strings.ToLower(s.Words)
	for _, p := range ambiguous {
		if strings.Contains(words, p) {
			add(Ambiguity, 0.6, fmt.Sprintf("the agent wrote %q", p))
			break
		}
	}
	if s.Flipping {
		add(Ambiguity, 0.5, "the failing tests change every iteration without progress")
	}
	if s.FilesModified > 10 {
		add(CognitiveLoad, 0.6, fmt.Sprintf("%d files modified in one iteration", s.FilesModified))
	}
	if s.ToolCalls > 40 {
		add(CognitiveLoad, 0.5, fmt.Sprintf("%d tool calls in one iteration", s.ToolCalls))
	}
	if s.Failing > 5 {
		add(TaskComplexity, 0.55, fmt.Sprintf("%d tests failing", s.Failing))
	}
	if s.ErrorKinds > 2 {
		add(TaskComplexity, 0.5, fmt.Sprintf("%d different errors", s.ErrorKinds))
	}
	if s.Stuck != "" {
		add(RepeatedFailure, 0.65, s.Stuck)
	}
	if s.Plateau {
		add(RepeatedFailure, 0.5, "quality has stopped improving")
	}
	for _, r := range s.Regressions {
		if r.Type == "metric_regression" {
			add(TaskComplexity, 0.4, fmt.Sprintf("%s: %s", r.Type, r.Detail))
		}
	}
	if len(cs) == 0 {
		return Diagnosis{Cause: TaskComplexity, Confidence: 0.3, Signals: []string{"no specific signal"}}
	}
	best := cs[0]
	for _, c := range cs[1:] {
		if c.conf > best.conf {
			best = c
		}
	}
	return Diagnosis{Cause: best.cause, Confidence: round2(best.conf), Signals: best.signals}
}

// Adapt is the strategy for a cause.
func Adapt(d Diagnosis) string {
	switch d.Cause {
	case RewardHacking:
		return Escalate
	case CognitiveLoad, TaskComplexity:
		return Decompose
	case Ambiguity:
		return Clarify
	}
	return Simpler
}

// strategyText is what the next iteration's reason says for a strategy.
var strategyText = map[string]string{
	Decompose: "Decompose: split the task into the smallest steps you can verify one by one. Make one failing test pass, run the completion command, then take the next.",
	Simpler:   "Change approach: the same attempt keeps failing the same way. Do not repeat it. Re-read the failing output, list what you assumed, and try the simplest different fix.",
	Clarify:   "Clarify: say in your reflection exactly which requirement is unclear and which reading you chose and why; pick the reading the existing tests encode. If none does, stop and ask the human.",
	Restore:   "Restore what this iteration took away: put the deleted or skipped tests back (ralph rollback --list shows the checkpoints) and fix the code under test instead. The loop cannot complete while they are missing; if the next attempts do not restore them, a human decides.",
	Escalate:  "Stop: the change made the checks weaker instead of the code better. A human decides before the loop goes on.",
}

func round2(f float64) float64 { return float64(int(f*100+0.5)) / 100 }
