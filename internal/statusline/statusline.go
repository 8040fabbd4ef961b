// Package statusline is `ralph statusline`: the one line Claude Code shows
// under its prompt through its statusLine setting. It names the session's
// loop, the iteration in progress of its bound, its reinforcement level,
// the last iteration's quality and the best one, and says so when the loop
// waits at the human gate or is paused.
//
// Claude Code runs the command at every message (at most every 300 ms)
// with the session as JSON on stdin, so a line costs one read of the
// registry and one of the loop's state.json, both through gjson: no
// decoding of the whole state, no lock, nothing written.
package statusline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/registry"
)

// Sep separates the parts of the line, and ralph's line from the one it
// chains to.
const Sep = " · "

// ChainTimeout bounds the status line command ralph chains to.
var ChainTimeout = 5 * time.Second

// Line returns the status line for Claude Code's status JSON in input:
// "" when the session has no loop. The project is the session's
// (workspace.project_dir, else its cwd), found as the hooks find it.
func Line(input []byte, getenv func(string) string) (string, error) {
	if !gjson.ValidBytes(input) || !gjson.ParseBytes(input).IsObject() {
		return "", errors.New("stdin is not a JSON object (Claude Code's status line input)")
	}
	in := gjson.ParseBytes(input)
	dir := in.Get("workspace.project_dir").Str
	for _, k := range []string{"workspace.current_dir", "cwd"} {
		if dir == "" {
			dir = in.Get(k).Str
		}
	}
	root := project.FindRoot(dir, getenv)
	found, err := registry.Lookup(root, in.Get("session_id").Str, getenv)
	if err != nil || found.ID == "" {
		return "", err
	}
	sc, err := project.NewScope(root, found.ID)
	if err != nil {
		return "", err
	}
	data, err := os.ReadFile(sc.State())
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil // ended since, or RALPH_LOOP_ID names no active loop
	}
	if err != nil {
		return "", fmt.Errorf("loop %s: %w", found.ID, err)
	}
	if !gjson.ValidBytes(data) {
		return "", fmt.Errorf("loop %s: %s is corrupt (ralph doctor says more)", found.ID, sc.State())
	}
	return Format(gjson.ParseBytes(data)), nil
}

// Format renders a loop's state.json as the status line.
func Format(st gjson.Result) string {
	parts := []string{"ralph " + Name(st.Get("loop_id").Str)}
	switch status := st.Get("status").Str; status {
	case registry.Waiting:
		gate := "the gate"
		if id := st.Get("gate.id").Str; id != "" {
			gate = id
		}
		parts = append(parts, "⚑ waiting for you at "+gate)
	case registry.Paused:
		parts = append(parts, "paused")
	case registry.Running, "":
	default:
		parts = append(parts, status)
	}
	// The iteration in progress and its level; at the gate none is: the
	// iteration the gate is about.
	n, max := st.Get("iteration").Int(), st.Get("max_iterations").Int()
	level := st.Get("reinforcement_level").Str
	if st.Get("status").Str == registry.Waiting {
		level = ""
	} else {
		n++
	}
	if max > 0 && n > max {
		n = max
	}
	it := fmt.Sprintf("iteration %d/%d", n, max)
	if level != "" {
		it += " " + level
	}
	parts = append(parts, it)
	if st.Get("iteration").Int() > 0 {
		parts = append(parts, fmt.Sprintf("quality %.1f", st.Get("quality").Float()))
		b := st.Get("best_iteration.iteration").Int() // the design's record; older states hold the number
		if b == 0 {
			b = st.Get("best_iteration").Int()
		}
		if b > 0 {
			parts = append(parts, fmt.Sprintf("best %.1f (#%d)", st.Get("best_quality").Float(), b))
		}
	}
	return strings.Join(parts, Sep)
}

// Name shortens a loop id for the line: its slug, without "ralph-" and
// the hex digits, at most 24 characters.
func Name(id string) string {
	if !project.ValidLoopID(id) {
		return "loop"
	}
	slug := id[len("ralph-") : len(id)-9]
	if r := []rune(slug); len(r) > 24 {
		slug = string(r[:23]) + "…"
	}
	return slug
}

// Chain runs the user's own status line command (sh -c command) with the
// same input, and returns its output without the final newline.
// A command that fails still gives what it printed; one that runs past
// ChainTimeout is killed.
func Chain(command string, input []byte) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), ChainTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", command)
	cmd.Stdin = bytes.NewReader(input)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = io.Discard
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	if ctx.Err() != nil {
		err = fmt.Errorf("gave up after %s", ChainTimeout)
	}
	if err != nil {
		err = fmt.Errorf("the chained status line command %q: %w", command, err)
	}
	return strings.TrimRight(out.String(), "\n"), err
}

// Join puts ralph's line after the first line of the chained command's
// output; its other lines stay below.
func Join(theirs, ours string) string {
	switch {
	case ours == "":
		return theirs
	case theirs == "":
		return ours
	}
	first, rest, multi := strings.Cut(theirs, "\n")
	line := first + "  │  " + ours
	if multi {
		line += "\n" + rest
	}
	return line
}
