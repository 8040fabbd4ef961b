package risk

import "fmt"

// inputClobber judges a write that empties or replaces files whose names
// come from input or from a list computed at run time (find … -exec sh -c
// ': > "$1"' _ {} \;, while read f; do : > "$f"; done): like such a
// deletion, ralph cannot check that no test is among them. It reports
// whether it added a finding.
func (g *Guard) inputClobber(v *Verdict, o *op, text string) bool {
	if o.kind != opWrite || o.find != nil || !o.clobber && !o.overwrite || !o.word.Many && !o.word.FromInput {
		return false
	}
	if o.under != "" && g.isTemp(o.under) {
		return false
	}
	g.add(v, g.builtin("rm-unknown", fmt.Sprintf("%s empties or replaces files whose names are computed at run time (%s), so ralph cannot check that no test is among them. Name the files literally.", text, o.word.Raw), text, nil))
	return true
}
