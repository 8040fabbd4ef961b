package later

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strings"
)

// Claude Code (2.1.332, from its bundle) keeps CronCreate's durable tasks
// in .claude/scheduled_tasks.json, {"tasks": [{id, cron, prompt,
// createdAt, recurring, createdBySessionId, …}]}, written as
// JSON.stringify(…, null, 2), and every later session of the project
// fires them unasked. Its scheduler rewrites the file itself: it writes a
// task's lastFiredAt when the task fires, and removes a fired one-shot, a
// recurring task that aged out and a task CronDelete cancels. None of that
// adds work anybody did not ask for; a task that comes, or one whose
// prompt, schedule or any field but lastFiredAt changes, does. So the
// file's digest is the set of its tasks' digests, and a change is a task
// in the new set that the old one lacks (Adds).

// taskPrefix starts the digest of a task file.
const taskPrefix = "t:"

// maxTasks bounds the tasks digested one by one; the rest are one digest.
const maxTasks = 512

// taskSum returns the digest of the task file holding b: taskPrefix and
// each task's digest, sorted, joined by "+". A file Claude Code reads no
// task from (blank, or an empty list) has none: ok is false. A file that
// does not read as JSON with a list of tasks is digested whole, as one
// task: whatever a later release reads from it, a change shows.
func taskSum(b []byte) (sum string, ok bool) {
	if len(bytes.TrimSpace(b)) == 0 {
		return "", false
	}
	var top map[string]json.RawMessage // its keys as written: Claude Code reads "tasks" alone
	var tasks []json.RawMessage
	if json.Unmarshal(b, &top) != nil || top["tasks"] == nil || json.Unmarshal(top["tasks"], &tasks) != nil {
		return taskPrefix + digest(b), true
	}
	if len(tasks) == 0 {
		return "", false
	}
	var ds []string
	for _, t := range tasks {
		ds = append(ds, taskDigest(t))
	}
	slices.Sort(ds)
	ds = slices.Compact(ds)
	if len(ds) > maxTasks {
		ds = append(ds[:maxTasks], digest([]byte(strings.Join(ds[maxTasks:], "+"))))
	}
	return taskPrefix + strings.Join(ds, "+"), true
}

// taskDigest digests one task of the list as its fields but lastFiredAt,
// each value decoded and written again (keys sorted, as encoding/json
// writes a map): Claude Code's rewrite spells a string's escapes and a
// number its own way. An entry that is no JSON object is digested as
// written.
func taskDigest(t json.RawMessage) string {
	var m map[string]any
	if json.Unmarshal(t, &m) != nil || m == nil {
		return digest(t)
	}
	delete(m, "lastFiredAt")
	b, err := json.Marshal(m)
	if err != nil {
		return digest(t)
	}
	return digest(b)
}

func digest(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:8])
}

// Adds reports whether a watched file whose digest was before (""
// absent) holds, at digest now, what it did not: for a task file, a task
// the old set lacks (a task removed adds nothing); for any other file,
// any change.
func Adds(before, now string) bool {
	if !strings.HasPrefix(before, taskPrefix) && !strings.HasPrefix(now, taskPrefix) {
		return before != now
	}
	if now == "" {
		return false
	}
	if !strings.HasPrefix(now, taskPrefix) {
		return true
	}
	var had []string
	if rest, ok := strings.CutPrefix(before, taskPrefix); ok {
		had = strings.Split(rest, "+")
	}
	for _, d := range strings.Split(strings.TrimPrefix(now, taskPrefix), "+") {
		if !slices.Contains(had, d) {
			return true
		}
	}
	return false
}

// Approve returns what a watched file held unapproved, before (its digest
// when the change the human did not approve came), once the human
// approves the change from was to now: for a task file, before with the
// tasks that change added, so that a task nobody approved stays one (keep
// is true while before held any); for any other file, nothing (keep is
// false): the human saw the whole file change.
func Approve(before, was, now string) (approved string, keep bool) {
	if !strings.HasPrefix(now, taskPrefix) {
		return "", false
	}
	old := func(s string) []string {
		if rest, ok := strings.CutPrefix(s, taskPrefix); ok {
			return strings.Split(rest, "+")
		}
		return nil
	}
	set, prior := old(before), old(was)
	for _, d := range old(now) {
		if !slices.Contains(prior, d) && !slices.Contains(set, d) {
			set = append(set, d)
		}
	}
	slices.Sort(set)
	return taskPrefix + strings.Join(set, "+"), true
}
