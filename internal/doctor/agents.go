package doctor

import (
	"errors"
	"io/fs"
	"os"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/install"
)

// checkAgents checks every other agent found configured with ralph-hooks
// (Codex, Gemini CLI, Copilot CLI, Cursor): each of its hooks registered,
// with --agent NAME, an executable binary and a long enough timeout; and
// it says what ralph cannot do with that agent. It returns how many agents
// it found configured.
func checkAgents(r *report, o Options, cfg *config.Config) int {
	n := 0
	for _, name := range install.AgentNames()[1:] {
		a := install.Agents[name]
		found := false
		for _, scope := range a.Scopes {
			home := o.Home
			if scope == "user" && home == "" {
				continue
			}
			path, err := a.Settings(scope, o.Root, home)
			if err != nil {
				continue
			}
			data, err := os.ReadFile(path)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				r.add(Fail, "agents", "%s: %v", path, err)
				continue
			}
			regs := a.Find(data)
			if len(regs) == 0 {
				continue
			}
			found = true
			checkAgent(r, o, cfg, a, path, regs)
		}
		if found {
			n++
			for _, l := range a.Lost {
				r.add(Warn, "agents", "%s: %s", a.Title, l)
			}
		}
	}
	return n
}

// checkAgent checks one agent's hooks file.
func checkAgent(r *report, o Options, cfg *config.Config, a *install.Agent, path string, regs []install.Registered) {
	bad := false
	for _, h := range a.Hooks {
		var mine []install.Registered
		for _, g := range regs {
			if g.Event == h.Event && g.Binary == h.Binary {
				mine = append(mine, g)
			}
		}
		if len(mine) == 0 {
			r.add(Fail, "agents", "%s: %s has no %s on %s: run ralph install --agent %s", a.Title, path, h.Binary, h.Event, a.Name)
			bad = true
			continue
		}
		for _, g := range mine {
			if !strings.Contains(g.Command, "--agent "+a.Name) {
				r.add(Warn, "agents", "%s: %s: %s runs without --agent %s, so its events are told by their fields alone", a.Title, path, g.Command, a.Name)
			}
			if p := install.Path(g.Command, o.Home, o.Root, ""); p != "" {
				if err := executable(p); err != nil {
					r.add(Fail, "agents", "%s: %s: %v: rebuild, or run ralph install --agent %s", a.Title, path, err, a.Name)
					bad = true
				}
			}
			need := h.Timeout
			if need == 0 {
				need = install.StopTimeout(cfg)
			}
			if g.Timeout > 0 && g.Timeout < need {
				r.add(Warn, "agents", "%s: %s: %s on %s has a timeout of %d s, under the %d s it may need: run ralph install --agent %s", a.Title, path, g.Binary, g.Event, g.Timeout, need, a.Name)
			}
		}
	}
	if !bad {
		r.add(OK, "agents", "%s: %s registers the hooks", a.Title, path)
	}
}
