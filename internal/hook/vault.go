package hook

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/event"
	"github.com/ralph-hooks/ralph-hooks/internal/jsonerr"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/registry"
	"github.com/ralph-hooks/ralph-hooks/internal/state"
	"github.com/ralph-hooks/ralph-hooks/internal/vault"
)

// CheckVault is checkVault for a caller outside the hooks: ralph run
// checks the vault after every agent run, before it trusts a loop's state
// (an agent without hooks, or a route the guard could not see, may have
// changed it and ended the session before any hook ran).
func CheckVault(root string, getenv func(string) string, now time.Time, stderr io.Writer) string {
	msg, _ := checkVault(root, getenv, now, stderr)
	return msg
}

// checkVault compares ralph's state in the project with its sealed copy
// before the call trusts it, puts back what ralph did not write, and takes
// every loop the change touched to the human gate with a critical
// regression. It returns what the agent and the human are told ("" when
// nothing was changed), and the registry and aiwg.yml as the check held
// them to their seal (vault.CheckHeld; a file it does not hold is not in
// held).
func checkVault(root string, getenv func(string) string, now time.Time, stderr io.Writer) (msg string, held map[string]vault.Held) {
	v, err := vault.Open(root, getenv)
	if err != nil {
		return "", nil
	}
	if adopted, err := v.Adopt(); err != nil {
		fmt.Fprintf(stderr, "ralph: warning: sealing ralph's state outside the project: %v\n", err)
	} else if adopted {
		fmt.Fprintf(stderr, "ralph: warning: no copy of this project's ralph state was kept outside it (a loop from an older ralph, or the copy was deleted): sealed it as it is now, in %s\n", v.Dir)
		return "", nil
	}
	restored, held, err := v.CheckHeld(vault.RegistryRel, project.ConfigFile)
	if err != nil {
		fmt.Fprintf(stderr, "ralph: warning: checking ralph's state against its copy: %v\n", err)
	}
	restored = append(vault.TakeUndoneIn(root), restored...)
	if len(restored) == 0 {
		return "", held
	}
	msg, gated := tamper(root, restored, now, stderr)
	if gated {
		// gateTamper rewrote the registry (the loops waiting): the
		// lookup reads what it wrote.
		delete(held, vault.RegistryRel)
	}
	return msg, held
}

// RecordUndone reports what ralph's own writes in this process put back
// before they wrote (vault.HoldWrite: a sealed file changed after the last
// check) as the check reports what it puts back: on stderr, and as a
// critical state_tamper regression of every loop the change touched, which
// goes to the human gate. It returns the message ("" when nothing was put
// back). Hooks call it after their handler, ralph's commands after theirs.
func RecordUndone(now time.Time, stderr io.Writer) string {
	var msgs []string
	// gateTamper's own writes are held too: what they put back is
	// reported in the next round.
	for range 3 {
		roots := map[string]bool{}
		var order []string
		all := vault.TakeUndone()
		for _, u := range all {
			if !roots[u.Root] {
				roots[u.Root] = true
				order = append(order, u.Root)
			}
		}
		if len(order) == 0 {
			break
		}
		for _, root := range order {
			var restored []vault.Restored
			for _, u := range all {
				if u.Root == root {
					restored = append(restored, u.Restored)
				}
			}
			msg, _ := tamper(root, restored, now, stderr)
			msgs = append(msgs, msg)
		}
	}
	return strings.Join(msgs, "\n")
}

// tamper reports what was put back in root on stderr and records it in
// every loop it touched (gateTamper). It returns what the agent and the
// human are told, and whether any loop was sent to the gate.
func tamper(root string, restored []vault.Restored, now time.Time, stderr io.Writer) (msg string, gated bool) {
	var what []string
	loops := map[string]bool{}
	var order []string
	for _, r := range restored {
		what = append(what, r.String())
		for _, id := range r.Loops {
			if !loops[id] {
				loops[id] = true
				order = append(order, id)
			}
		}
	}
	detail := strings.Join(what, "; ")
	for _, id := range order {
		if err := gateTamper(root, id, detail, now); err != nil {
			fmt.Fprintf(stderr, "ralph: warning: recording the change to ralph's state in loop %s: %v\n", id, err)
		}
	}
	msg = "ralph-hooks (state-tamper): ralph's own state was changed by something other than ralph: " + detail + "."
	if len(order) > 0 {
		msg += fmt.Sprintf(" Recorded as a critical regression: loop %s waits for the human's decision (ralph gate %s approve|reject|abort). Stop and say what changed it.", strings.Join(order, ", "), order[0])
	}
	fmt.Fprintln(stderr, "ralph: "+msg)
	return msg, len(order) > 0
}

// tamperAnswer adds the vault's message to the handler's answer: a Stop or
// a PostToolUse blocks with it, a PreToolUse is denied, so that the agent
// reads it; the human sees it as well.
func tamperAnswer(ev *event.Event, a answer.Answer, msg string) answer.Answer {
	if msg == "" {
		return a
	}
	join := func(x, y string) string {
		if y == "" {
			return x
		}
		return x + "\n" + y
	}
	d := answer.Block
	if ev.Name == event.PreToolUse {
		d = answer.Deny
	}
	if d.Worse(a.Decision) {
		a.Decision = d
	}
	a.Reason = join(msg, a.Reason)
	a.System = join(msg, a.System)
	return a
}

// gateTamper records the change as a critical regression of loop id and
// sends the loop to the human gate, as package loop's recovery does, in
// its state.json and the registry.
func gateTamper(root, id, detail string, now time.Time) error {
	sc, err := project.NewScope(root, id)
	if err != nil {
		return err
	}
	var event string
	err = state.Update(sc.State(), func(old []byte) ([]byte, error) {
		if old == nil {
			// Ended and archived (a human's ralph abort whose write put
			// back a change first) or gone while nothing holds it:
			// nothing to send to the gate, and no loop to make up.
			return nil, nil
		}
		st := map[string]any{}
		if len(old) > 0 {
			if err := json.Unmarshal(old, &st); err != nil {
				return nil, fmt.Errorf("%s is corrupt (%s)", sc.State(), jsonerr.Say(err))
			}
		}
		n := 1
		if f, ok := st["iteration"].(float64); ok {
			n = int(f) + 1
		}
		count := 0
		if f, ok := st["regression_count"].(float64); ok {
			count = int(f)
		}
		event = fmt.Sprintf("reg-%03d-state_tamper-%d", n, now.UnixNano())
		reg := map[string]any{
			"event_id": event, "iteration": n, "type": "state_tamper", "severity": "critical",
			"metric": "ralph_state", "baseline_value": 0, "current_value": 1, "detail": detail,
		}
		evs, _ := st["regression_events"].([]any)
		evs = append(evs, reg)
		if len(evs) > 20 {
			evs = evs[len(evs)-20:]
		}
		st["regression_events"] = evs
		st["regression_count"] = count + 1
		st["escalation"] = true
		st["escalation_reason"] = "ralph's state was changed outside ralph"
		if g, ok := st["gate"].(map[string]any); ok && st["status"] == "waiting" {
			ids, _ := g["event_ids"].([]any)
			g["event_ids"] = append(ids, event)
			g["reason"] = fmt.Sprint(g["reason"]) + "; state_tamper: " + detail
		} else {
			gate := fmt.Sprintf("gate-%03d", n)
			st["gate"] = map[string]any{
				"id": gate, "iteration": n, "reason": "ralph's state was changed outside ralph; state_tamper: " + detail,
				"diagnosis": map[string]any{"cause": "state_tamper", "confidence": 1, "signals": []string{"state_tamper"}},
				"event_ids": []string{event}, "created_at": now.UTC(),
			}
			st["status"], st["reason"] = "waiting", "waiting for a human decision at "+gate
		}
		st["updated_at"] = now.UTC()
		data, err := json.MarshalIndent(st, "", "  ")
		return append(data, '\n'), err
	})
	if err != nil || event == "" {
		return err
	}
	line, _ := json.Marshal(map[string]any{"event_id": event, "type": "state_tamper", "severity": "critical", "detail": detail, "at": now.UTC()})
	if f, err := os.OpenFile(filepath.Join(sc.Dir(), "regressions.jsonl"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
		f.Write(append(line, '\n'))
		f.Close()
	}
	return registry.Update(root, now, func(r *registry.Registry) error {
		if e := r.Find(id); e != nil {
			e.Status = registry.Waiting
		}
		return nil
	})
}
