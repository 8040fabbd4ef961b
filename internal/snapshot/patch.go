package snapshot

import (
	"context"
	"fmt"
	"unicode/utf8"
)

// Patch returns the unified diff from tree from to tree to (git's, with no
// colour, external diff or text conversion), of paths only when some are
// given (literal paths, relative to Root), cut to at most limit bytes on a
// line boundary, with a last line saying so.
func (s *Store) Patch(ctx context.Context, from, to string, paths []string, limit int) (string, error) {
	for _, id := range []string{from, to} {
		if !ValidTree(id) {
			return "", fmt.Errorf("snapshot: patch: invalid tree id %q", id)
		}
	}
	r, _, err := s.open(ctx, false)
	if err != nil {
		return "", fmt.Errorf("snapshot: patch: %w", err)
	}
	if err := r.checkTrees(ctx, from, to); err != nil {
		return "", err
	}
	args := []string{"diff-tree", "-p", "--no-renames", "--no-color", "--no-ext-diff", "--no-textconv", from, to, "--"}
	for _, p := range paths {
		args = append(args, ":(literal)"+p)
	}
	out, err := r.run(ctx, "", nil, args...)
	if err != nil {
		return "", fmt.Errorf("snapshot: patch: %w", err)
	}
	if limit > 0 && len(out) > limit {
		cut := limit
		for cut > 0 && out[cut-1] != '\n' {
			cut--
		}
		for cut > 0 && !utf8.Valid(out[:cut]) {
			cut--
		}
		return string(out[:cut]) + fmt.Sprintf("… (%d more bytes of diff not shown)\n", len(out)-cut), nil
	}
	return string(out), nil
}
