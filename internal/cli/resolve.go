package cli

import (
	"fmt"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/exit"
	"github.com/ralph-hooks/ralph-hooks/internal/loop"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/registry"
)

// resolveLoop returns the loop arg names for verb: a loop id, or a unique
// prefix of one, with or without its "ralph-", or of its 8 hex digits
// (at least 4 of them). ended says whether the verb takes finished loops
// too; if not, only the active loops are looked at.
func resolveLoop(root, verb, arg string, ended bool) (string, error) {
	if arg == "" || strings.Trim(arg, "abcdefghijklmnopqrstuvwxyz0123456789-") != "" {
		return "", exit.Usagef("%s: invalid loop id %q: want a loop id (ralph-<slug>-<8 hex digits>) or a unique prefix of one", verb, arg)
	}
	if project.ValidLoopID(arg) {
		return arg, nil
	}
	active, others, err := loop.IDs(root, ended)
	if err != nil {
		return "", fmt.Errorf("%s: %w", verb, err)
	}
	hex := len(arg) >= 4 && strings.Trim(arg, "0123456789abcdef") == ""
	var found []string
	for _, id := range append(active, others...) {
		if strings.HasPrefix(id, arg) || strings.HasPrefix(id, "ralph-"+arg) || hex && strings.HasPrefix(id[len(id)-8:], arg) {
			found = append(found, id)
		}
	}
	switch {
	case len(found) == 1:
		return found[0], nil
	case len(found) > 1:
		return "", exit.Usagef("%s: %q names %d loops (%s): give more of the id", verb, arg, len(found), strings.Join(found, ", "))
	case ended:
		return "", fmt.Errorf("%s: no loop in this project matches %q (see ralph list --all)", verb, arg)
	}
	return "", fmt.Errorf("%s: no active loop matches %q (see ralph list)", verb, arg)
}

// onlyLoop returns the project's only active loop for a verb given no
// id; with waiting, the only one waiting at its gate.
func onlyLoop(root, verb string, waiting bool) (string, error) {
	r, err := registry.Read(root)
	if err != nil {
		return "", fmt.Errorf("%s: %w", verb, err)
	}
	var ids []string
	for _, e := range r.ActiveLoops {
		if project.ValidLoopID(e.LoopID) && (!waiting || e.Status == registry.Waiting) {
			ids = append(ids, e.LoopID)
		}
	}
	one, many := "active loop", "active loops"
	if waiting {
		one, many = "loop waiting at its gate", "loops waiting at their gate"
	}
	switch len(ids) {
	case 1:
		return ids[0], nil
	case 0:
		return "", fmt.Errorf("%s: no %s in this project (see ralph list)", verb, one)
	}
	return "", exit.Usagef("%s: %d %s (%s): say which, by id or a unique prefix", verb, len(ids), many, strings.Join(ids, ", "))
}
