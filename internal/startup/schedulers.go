package startup

import "path/filepath"

// Schedulers returns the user's directories whose files a scheduler or
// the session runs later, on its own: systemd's user units and timers
// (~/.config/systemd/user, ~/.local/share/systemd/user, or under
// XDG_CONFIG_HOME and XDG_DATA_HOME), launchd's agents
// (~/Library/LaunchAgents) and the desktop session's autostart entries
// (~/.config/autostart). The guard asks before a call writes them (package
// risk, rule detached-job, with the system's spools, which the crontab
// and at commands write as the guard lets them), and post-tool-call
// watches them as it watches the startup files.
func Schedulers(home string, getenv func(string) string) []string {
	var out []string
	cfg, data := getenv("XDG_CONFIG_HOME"), getenv("XDG_DATA_HOME")
	if filepath.IsAbs(home) {
		out = append(out, filepath.Join(home, "Library", "LaunchAgents"))
		if !filepath.IsAbs(cfg) {
			cfg = filepath.Join(home, ".config")
		}
		if !filepath.IsAbs(data) {
			data = filepath.Join(home, ".local", "share")
		}
	}
	if filepath.IsAbs(cfg) {
		out = append(out, filepath.Join(cfg, "systemd", "user"), filepath.Join(cfg, "autostart"))
	}
	if filepath.IsAbs(data) {
		out = append(out, filepath.Join(data, "systemd", "user"))
	}
	return out
}
