package hook

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
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
	const lost = "the copy of ralph's state outside the project was deleted (or RALPH_STATE_HOME, XDG_STATE_HOME or HOME now names another place): nothing tells what ralph wrote last"
	if adopted, err := v.Adopt(); err != nil {
		fmt.Fprintf(stderr, "ralph: warning: sealing ralph's state outside the project: %v\n", err)
		return lostCopy(root, now, stderr, lost+", and sealing the state the project holds now failed: "+err.Error(), allDirs), nil
	} else if adopted {
		fmt.Fprintf(stderr, "ralph: warning: no copy of this project's ralph state was kept outside it (a loop from an older ralph, or the copy was deleted): sealed it as it is now, in %s\n", v.Dir)
		return lostCopy(root, now, stderr, lost+", and the state the project holds now is sealed unchecked, in "+v.Dir, allDirs), nil
	}
	restored, held, err := v.CheckHeld(vault.RegistryRel, project.ConfigFile)
	if errors.Is(err, vault.ErrIndex) {
		// Nothing can be checked against an index no one can read, and
		// every later call would say so again: it is kept for the human
		// and the project sealed afresh, and the loops wait.
		why := fmt.Sprintf("the copy of ralph's state outside the project was unreadable (%v)", err)
		if kept, aerr := v.SetAside(); aerr != nil {
			why += "; it could not be set aside: " + aerr.Error()
		} else if _, aerr := v.Adopt(); aerr != nil {
			why += "; it is kept as " + kept + ", and sealing the state afresh failed: " + aerr.Error()
		} else {
			why += "; it is kept as " + kept + ", and the state the project holds now is sealed unchecked"
		}
		return lostCopy(root, now, stderr, why, allDirs), nil
	}
	if err != nil {
		fmt.Fprintf(stderr, "ralph: warning: checking ralph's state against its copy: %v\n", err)
	}
	restored = append(vault.TakeUndoneIn(root), restored...)
	if len(restored) == 0 {
		if _, ok := held[vault.RegistryRel]; !ok && err == nil {
			// ralph start seals the registry before any loop runs: a vault
			// that holds none while a loop lives was deleted or emptied by
			// someone else. Gating the loops writes the registry, which
			// seals it again. The registry may have been emptied too: a
			// loop directory whose state.json the index does not seal
			// either is live (one whose state is sealed may be in ralph
			// start, which seals it before it registers the loop).
			why := lost
			if v.Kept() {
				why = "the copy of ralph's state outside the project no longer holds the loop registry: nothing tells what ralph wrote last"
			}
			if msg := lostCopy(root, now, stderr, why, unsealedDirs(v)); msg != "" {
				return msg, nil
			}
		}
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

// lostCopy is checkVault's answer when the vault's copy of the project's
// state is gone or unreadable: with no loop in the project that is a
// project ralph has not sealed yet (a loop from an older ralph, or ended
// ones), and nothing is said to the agent. With one, it is state tamper:
// what the copy would have undone (a state set back, a loop marked done)
// now stands sealed, so every live loop waits for the human, with a
// critical regression that says why.
//
// dirs says which loop directories the registry does not list are live
// too: every one (allDirs), or while the index could be in a loop's start,
// which writes the loop's state (and seals it) before it registers the
// loop, those whose state.json it does not seal (unsealedDirs).
func lostCopy(root string, now time.Time, stderr io.Writer, why string, dirs func(id string) bool) string {
	ids := liveLoops(root, dirs)
	if len(ids) == 0 {
		return ""
	}
	for _, id := range ids {
		if err := gateTamper(root, id, why, now); err != nil {
			fmt.Fprintf(stderr, "ralph: warning: recording the change to ralph's state in loop %s: %v\n", id, err)
		}
	}
	msg := "ralph-hooks (state-tamper): ralph's own state was changed by something other than ralph: " + why + "." +
		fmt.Sprintf(" Recorded as a critical regression: loop %s waits for the human's decision (ralph gate %s approve|reject|abort). Stop and say what changed it.", strings.Join(ids, ", "), ids[0])
	fmt.Fprintln(stderr, "ralph: "+msg)
	return msg
}

// liveLoops lists the loops the project shows alive: those its registry
// lists, and any loop directory not archived (a registry rewritten to
// drop its loop does not make the loop gone). A registry that cannot be
// read lists none: the hooks' lookup refuses it on its own, and with it
// every loop's state that says it runs (package registry).
func liveLoops(root string, dirs func(id string) bool) []string {
	r, err := registry.Read(root)
	if err != nil {
		return nil
	}
	var ids []string
	for _, e := range r.ActiveLoops {
		if project.ValidLoopID(e.LoopID) && !slices.Contains(ids, e.LoopID) {
			ids = append(ids, e.LoopID)
		}
	}
	ents, _ := os.ReadDir(project.Layout{Root: root}.Loops())
	for _, e := range ents {
		if e.IsDir() && project.ValidLoopID(e.Name()) && !slices.Contains(ids, e.Name()) && dirs(e.Name()) {
			if _, err := os.Stat(filepath.Join(project.Layout{Root: root}.Loops(), e.Name(), "state.json")); err == nil {
				ids = append(ids, e.Name())
			}
		}
	}
	return ids
}

// allDirs counts every loop directory as live (lostCopy).
func allDirs(string) bool { return true }

// unsealedDirs counts as live the loop directories whose state.json v's
// index does not seal (lostCopy): every one when the index cannot be read.
func unsealedDirs(v *vault.Vault) func(id string) bool {
	ix, err := v.Read()
	return func(id string) bool {
		if err != nil || ix == nil {
			return true
		}
		_, ok := ix.Files[path.Join(project.RalphDir, "loops", id, "state.json")]
		return !ok
	}
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
	var entry registry.Entry // the loop's entry, should the registry have lost it
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
		if err == nil {
			var e struct {
				Task          string    `json:"task"`
				StartedAt     time.Time `json:"started_at"`
				Owner         string    `json:"owner"`
				MaxIterations int       `json:"max_iterations"`
				Completion    struct {
					Command string `json:"command"`
				} `json:"completion"`
				Priority string   `json:"priority"`
				Tags     []string `json:"tags"`
			}
			json.Unmarshal(data, &e) // a field of the wrong type is left out
			entry = registry.Entry{LoopID: id, TaskSummary: registry.Summary(e.Task), Status: registry.Waiting, StartedAt: e.StartedAt,
				Owner: e.Owner, MaxIterations: e.MaxIterations, CompletionCriteria: e.Completion.Command, Priority: e.Priority, Tags: e.Tags}
		}
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
			return nil
		}
		// A loop the registry no longer lists is put back, waiting: a
		// registry rewritten to drop it does not end it.
		_, err := r.Add(entry, true)
		return err
	})
}
