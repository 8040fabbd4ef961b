package completion

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// FuzzRecipes: any makefile and package.json (the agent's to write) are
// read without panicking, and nothing outside the project is digested,
// whatever they include or name.
func FuzzRecipes(f *testing.F) {
	for _, s := range []string{
		"include tests.mk ../out.mk /etc/passwd\ntest: a | b\n\t./t.sh ../out.sh\na: ; ./a.sh\nX ?= ./x.sh\n",
		"-include $(wildcard *.mk)\n\\\n:\n\t\n::=\n%: ; x\n.PHONY: test\n",
		`{"scripts":{"test":"npm run a","a":"sh ../out.sh && npm run test","pretest":"./t.sh"}}`,
	} {
		f.Add(s, "make test")
		f.Add(s, "npm test")
	}
	f.Fuzz(func(t *testing.T, text, command string) {
		dir := t.TempDir()
		root := filepath.Join(dir, "p")
		for p, s := range map[string]string{"p/Makefile": text, "p/package.json": text, "p/tests.mk": text,
			"p/t.sh": "#!/bin/sh\n" + text, "out.mk": "x", "out.sh": "#!/bin/sh\n"} {
			if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, p), []byte(s), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		recipeFiles(root, command, commandWords(command), nil, func(rel string) {
			if !filepath.IsLocal(filepath.FromSlash(rel)) || slices.Contains(strings.Split(rel, "/"), "..") {
				t.Errorf("digested %q, outside the project", rel)
			}
		})
	})
}
