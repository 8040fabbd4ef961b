package risk

import (
	"fmt"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/shell"
)

// judgeInert judges the commands a line reads as but does not run
// (shell.Analysis.Inert: command -v git reset --hard, 1A=2 git reset
// --hard, node -e "rm -rf /", …): when ralph would refuse the command it
// reads as, it asks (rule malformed), as no task needs such a form and
// whoever wrote it may mean the command it reads as. Nothing of it is
// checkpointed.
func (g *Guard) judgeInert(v *Verdict, a *shell.Analysis) {
	for _, c := range a.Inert {
		sub := &Verdict{}
		g.judgeCmd(sub, c)
		g.decide(sub)
		if sub.Decision != answer.Deny && sub.Decision != answer.Ask {
			continue
		}
		text := quoted(c)
		g.add(v, g.builtin("malformed", fmt.Sprintf("the line reads as %s, which ralph refuses (rule %s), though as written it does not run it: %s. No task needs this form: write the command you mean, and if it is that one, ask the human.", text, sub.Top.Rule, c.Inert), text, nil))
	}
	if a.Recursive != "" {
		g.add(v, g.builtin("malformed", fmt.Sprintf("the function %s calls itself: Bash sets no limit on that, so it can run until the shell runs out of memory. Write the loop out.", a.Recursive), a.Source, nil))
	}
}
