package shell

import (
	"path"
	"strings"
)

// dashedGit turns git's dashed spelling of a subcommand into git SUB:
// git-reset --hard (found in PATH) and /usr/lib/git-core/git-reset --hard
// (in git --exec-path) run the same program as git reset --hard, and git
// runs git-SUB from PATH for a subcommand it does not have, so the two
// spellings are one command (checked with git 2.39). A path elsewhere
// (./git-clean.sh, scripts/git-sync) is a file of its own and stays one,
// and so does a program that is not git under that name (real is what
// realProgram found words to run: a link the line made to rm stays rm).
func dashedGit(words, real []Word) []Word {
	v, ok := words[0].Value()
	if !ok {
		return real
	}
	if n := cmdName(real[0]); n != "git" && n != cmdName(words[0]) {
		return real
	}
	if dir, _ := path.Split(strings.ReplaceAll(v, `\`, "/")); dir != "" && !strings.HasSuffix(dir, "/git-core/") {
		return real
	}
	sub, ok := strings.CutPrefix(cmdName(words[0]), "git-")
	if !ok || sub == "" || strings.ContainsAny(sub, ".$`\"'") {
		return real
	}
	raw := words[0].Raw // shown as git SUB: /usr/lib/git-core/git reset --hard
	if r, ok := strings.CutSuffix(raw, "-"+sub); ok && r != "" {
		raw = r
	}
	out := make([]Word, 0, len(words)+1)
	out = append(out, Word{Raw: raw, Values: []string{"git"}}, Word{Raw: sub, Values: []string{sub}})
	return append(out, words[1:]...)
}
