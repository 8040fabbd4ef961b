package risk

// findTests returns, for a write or an edit that find drives (find -exec
// truncate -s0 {} +, find … | xargs sed -i …), the same write of the test
// files among what the find selects, named: judged like the write of those
// files on the command line (a truncation refused, an in-place edit warned
// about and checkpointed). It is false when the find selects no test file,
// or cannot be read.
func (g *Guard) findTests(o *op) (*op, bool) {
	s := o.find
	if s == nil || s.injected || s.unknown {
		return nil, false
	}
	var tests []string
	for _, root := range s.roots {
		if _, ok := g.inProject(root); !ok {
			continue
		}
		for _, m := range s.matches(g, root) {
			if m.isDir {
				continue
			}
			if rel, ok := g.inProject(m.path); ok && rel != "." && g.IsTestPath(rel) {
				tests = append(tests, m.path)
			}
		}
	}
	if len(tests) == 0 {
		return nil, false
	}
	t := *o
	t.find, t.unknown, t.paths, t.word.Dynamic, t.word.FromInput = nil, false, tests, false, false
	return &t, true
}
