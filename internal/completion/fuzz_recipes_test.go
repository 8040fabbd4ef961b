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

// FuzzHardcodes: any code under test and test source (the agent's to
// write) are read without panicking, and a line reported is one of the
// code's, with its number.
func FuzzHardcodes(f *testing.F) {
	f.Add("if a == 5 && b == 3 {\n\treturn 2\n}", "if Sub(5, 3) != 2 {")
	f.Add("x = 'a' if s == \"b\" else 'c'", "assert f('b') == 'a'")
	f.Add("if a == 5 {\n", "\"\\\"5\" 5 5.0 -5")
	f.Fuzz(func(t *testing.T, src, body string) {
		root := t.TempDir()
		if err := os.WriteFile(filepath.Join(root, "calc.go"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(src, "\n")
		for _, h := range hardcodes(root, []string{"calc.go"}, body) {
			if h.Line < 1 || h.Line > len(lines) || strings.TrimSpace(lines[h.Line-1]) != h.Text {
				t.Errorf("line %d %q is not the code's", h.Line, h.Text)
			}
		}
	})
}
