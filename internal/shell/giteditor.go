package shell

// git runs the editor of GIT_EDITOR, else of core.editor, else of VISUAL,
// else of EDITOR, as a shell command line, for commit, merge, tag -a,
// rebase -i, notes … even with no terminal (git 2.39 here ran
// `EDITOR=scripts/clean.sh git commit` and the script deleted tests/).
// GIT_EDITOR was read; VISUAL and EDITOR are read the same way, for every
// git command as GIT_EDITOR is.

// gitEditorVars walks the editor git would take from VISUAL or EDITOR.
func (w *walker) gitEditorVars(c *ctx, sc *scope) {
	if _, ok := sc.vars["GIT_EDITOR"]; ok {
		return // git takes GIT_EDITOR first (read with gitCommandVars)
	}
	for _, k := range []string{"VISUAL", "EDITOR"} {
		if v, ok := sc.vars[k]; ok {
			w.gitCommand(c, k, v, sc)
			return
		}
	}
}
