package install

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// StatusLineRecord is the statusLine an install set, and the user's own
// that it chains to (nil: there was none).
type StatusLineRecord struct {
	Command  string          `json:"command"`
	Previous json.RawMessage `json:"previous,omitempty"`
}

// statusLineCommand is ralph's status line command, chained to the user's
// own command when there is one: the ralph-statusline binary when bin has
// it (it starts in a fraction of ralph's time, and Claude Code runs it at
// every message), else ralph statusline.
func statusLineCommand(bin, chain string) string {
	cmd := quote(filepath.Join(bin, "ralph")) + " statusline"
	if fi, err := os.Stat(filepath.Join(bin, "ralph-statusline")); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
		cmd = quote(filepath.Join(bin, "ralph-statusline"))
	}
	if chain != "" {
		cmd += " --chain " + quote(chain)
	}
	return cmd
}

// runsStatusLine reports whether command already runs ralph statusline
// (or ralph-statusline).
func runsStatusLine(command string) bool {
	return isOurs(command, "ralph-statusline") || isOurs(command, "ralph") && strings.Contains(command, " statusline")
}

// installStatusLine registers ralph statusline as the settings' statusLine
// (ralph install --statusline), chained to the one the user has; once
// installed, later installs keep it up to date. It records what it did in
// rec for uninstall.
func (d *doc) installStatusLine(o Options, old, rec *Record, r *Result) error {
	var mine *StatusLineRecord
	if old != nil {
		mine = old.StatusLine
	}
	if mine == nil && !o.StatusLine {
		return nil
	}
	cur := gjson.Get(d.json, "statusLine")
	if mine != nil && cur.Get("command").String() != mine.Command {
		if !o.StatusLine {
			what := "changed"
			if !cur.Exists() {
				what = "removed"
			}
			r.Notes = append(r.Notes, fmt.Sprintf("statusLine was %s since ralph install set it: left as it is (ralph install --statusline sets it again)", what))
			return nil
		}
		mine = nil // asked again: start afresh from what is there now
	}
	prev := json.RawMessage(nil)
	if mine != nil {
		prev = mine.Previous
	} else if cur.Exists() {
		if runsStatusLine(cur.Get("command").String()) {
			r.Notes = append(r.Notes, fmt.Sprintf("statusLine already runs %s (left as it is, and left by uninstall)", cur.Get("command").String()))
			return nil
		}
		if cur.Get("type").String() != "command" || cur.Get("command").String() == "" {
			r.Notes = append(r.Notes, "statusLine is not a command: left as it is; chain it yourself with ralph statusline --chain")
			return nil
		}
		prev = json.RawMessage(cur.Raw)
	}
	chain := gjson.GetBytes(prev, "command").String()
	cmd := statusLineCommand(o.Bin, chain)
	rec.StatusLine = &StatusLineRecord{Command: cmd, Previous: prev}
	if cur.Get("command").String() == cmd {
		return nil
	}
	var err error
	switch {
	case cur.Exists() && cur.IsObject():
		d.json, err = sjson.Set(d.json, "statusLine.command", cmd)
	default:
		d.json, err = sjson.SetRaw(d.json, "statusLine", statusLineJSON(cmd))
	}
	if err != nil {
		return fmt.Errorf("%s: setting statusLine: %w", d.path, err)
	}
	how := "added    "
	switch {
	case mine != nil:
		how = "updated  "
	case chain != "":
		how = "chained  "
	}
	line := fmt.Sprintf("%s statusLine         %s", how, cmd)
	if chain != "" && mine == nil {
		line += " (your own status line first)"
	}
	r.Changes = append(r.Changes, line)
	return nil
}

func statusLineJSON(cmd string) string {
	c, _ := json.Marshal(cmd)
	return `{"type":"command","command":` + string(c) + `,"padding":0}`
}

// uninstallStatusLine puts back the statusLine an install replaced, or
// removes the one it added, unless it was changed since.
func (d *doc) uninstallStatusLine(rec *Record, r *Result) error {
	sl := rec.StatusLine
	if sl == nil {
		return nil
	}
	cur := gjson.Get(d.json, "statusLine")
	if cur.Get("command").String() != sl.Command {
		r.Notes = append(r.Notes, "statusLine was changed since install: left as it is")
		return nil
	}
	var err error
	if len(sl.Previous) > 0 {
		// The user's own, with what they set since beside the command.
		prev := gjson.GetBytes(sl.Previous, "command").String()
		d.json, err = sjson.Set(d.json, "statusLine.command", prev)
		r.Changes = append(r.Changes, fmt.Sprintf("restored  statusLine         %s (as it was before install)", prev))
	} else {
		d.json, err = sjson.Delete(d.json, "statusLine")
		r.Changes = append(r.Changes, "removed   statusLine")
	}
	return err
}
