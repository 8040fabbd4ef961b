package shell

import (
	"slices"
	"strings"
)

// GitCommandKey reports whether git runs the value of configuration key k
// as a command line: the keys of gitCommandKeys, and those of a driver or
// tool git runs on its own — filter.NAME.clean, smudge and process (on
// add, checkout, status), diff.NAME.textconv and command, merge.NAME.driver,
// mergetool.NAME.cmd, difftool.NAME.cmd, credential.URL.helper,
// remote.NAME.uploadpack and receivepack, trailer.NAME.command and cmd.
func GitCommandKey(k string) bool {
	tables()
	k = strings.ToLower(k)
	if slices.Contains(gitCommandKeys, k) {
		return true
	}
	sect, rest, ok := strings.Cut(k, ".")
	i := strings.LastIndexByte(rest, '.')
	if !ok || i < 0 {
		return false
	}
	switch name := rest[i+1:]; sect {
	case "filter":
		return name == "clean" || name == "smudge" || name == "process"
	case "diff":
		return name == "textconv" || name == "command"
	case "merge":
		return name == "driver"
	case "mergetool", "difftool":
		return name == "cmd"
	case "credential":
		return name == "helper"
	case "remote": // run by a shell for a local or ssh remote
		return name == "uploadpack" || name == "receivepack"
	case "trailer": // git interpret-trailers, git commit --trailer
		return name == "command" || name == "cmd"
	}
	return false
}
