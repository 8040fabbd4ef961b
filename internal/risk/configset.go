package risk

import (
	"path/filepath"

	"github.com/ralph-hooks/ralph-hooks/internal/shell"
)

// A package manager's config set writes its configuration file, which the
// rule startup-config (in home) or completion-config (in the project)
// guards when it is written as a file: npm config set script-shell
// /tmp/x.sh makes every later npm script, npm test too, run through
// /tmp/x.sh. configSetOps judges the command as the write it makes.

// configSetOps returns the write of the configuration file npm, yarn or
// pip config set (npm set, yarn config set, pip config set) makes.
func (g *Guard) configSetOps(c *shell.Cmd) []op {
	fl, operands := splitFlags(c.Args, "L")
	set := len(operands) > 1 && (operands[0].Lit() == "config" || operands[0].Lit() == "c") &&
		(operands[1].Lit() == "set" || operands[1].Lit() == "edit" || operands[1].Lit() == "delete")
	if c.Name == "npm" && len(operands) > 0 && operands[0].Lit() == "set" {
		set = true
	}
	if !set || fl.has("help", "h") {
		return nil
	}
	var files []string
	home := func(rel string) {
		if g.Home != "" {
			files = append(files, filepath.Join(g.Home, rel))
		}
	}
	here := func(rel string) {
		if c.Cwd != "" {
			files = append(files, filepath.Join(c.Cwd, rel))
		}
	}
	loc := fl.values["L"]
	if v := fl.values["location"]; v != "" {
		loc = v
	}
	switch c.Name {
	case "npm", "pnpm":
		switch {
		case loc == "project":
			here(".npmrc")
		case loc == "global" || fl.has("g", "global"):
			return nil // the prefix's npmrc, outside home and the project
		default:
			home(".npmrc")
		}
	case "yarn":
		// yarn 1 writes ~/.yarnrc; yarn 2+ the project's .yarnrc.yml
		// (-H: the home's).
		home(".yarnrc")
		home(".yarnrc.yml")
		if !fl.has("H", "home") {
			here(".yarnrc.yml")
		}
	case "pip", "pip3":
		switch {
		case fl.has("global"), fl.has("site"):
			return nil // /etc's, or the virtual environment's
		default:
			home(".config/pip/pip.conf")
		}
	}
	var out []op
	for _, f := range files {
		out = append(out, g.target(c, opWrite, shell.Word{Raw: f, Values: []string{f}}, func(o *op) { o.append = true }))
	}
	return out
}
