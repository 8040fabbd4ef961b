package startup

import (
	"slices"
	"strings"
	"testing"
)

func TestHumanRuns(t *testing.T) {
	env := func(string) string { return "" }
	guard := HumanRuns("/p", "/h", env, true)
	watch := HumanRuns("/p", "/h", env, false)
	for _, tc := range []struct {
		path         string
		guard, watch bool
	}{
		{"/p/.envrc", true, true},
		{"/p/lefthook.yml", true, true},
		{"/p/.lefthook-local.yaml", true, true},
		{"/p/.config/lefthook.yml", true, true},
		{"/p/.pre-commit-config.yaml", true, true},
		{"/p/.devcontainer", true, true},
		{"/p/.devcontainer.json", true, true},
		{"/p/.husky", true, false}, // the guard asks for all of it
		{"/p/.husky/pre-commit", false, true},
		{"/p/.husky/_", false, false}, // husky's own, rewritten at every npm install
		{"/h/.config/Code/User/tasks.json", true, true},
		{"/h/Library/Application Support/Cursor/User/tasks.json", true, true},
		{"/h/.config/Code/User/settings.json", false, false},
		{"/p/.vscode/settings.json", false, false},
		{"/p/.envrc.example", false, false},
	} {
		if got := slices.Contains(guard, tc.path); got != tc.guard {
			t.Errorf("guard list holds %s = %v, want %v", tc.path, got, tc.guard)
		}
		if got := slices.Contains(watch, tc.path); got != tc.watch {
			t.Errorf("watch list holds %s = %v, want %v", tc.path, got, tc.watch)
		}
	}
	if got := HumanRuns("", "", env, true); len(got) != 0 {
		t.Errorf("no root, no home: %q", got)
	}
	x := UserEditorTasks("/h", func(k string) string {
		if k == "XDG_CONFIG_HOME" {
			return "/x"
		}
		return ""
	})
	if !slices.Contains(x, "/x/Code/User/tasks.json") || !slices.Contains(x, "/h/.config/Code/User/tasks.json") {
		t.Errorf("XDG_CONFIG_HOME: %q", x)
	}
}

func TestHumanRunFile(t *testing.T) {
	for _, tc := range []struct{ path, want string }{
		{"/p/.envrc", "direnv"},
		{"/p/lefthook.yml", "hook manager"},
		{"/p/.pre-commit-config.yml", "hook manager"},
		{"/p/.husky/pre-push", "hook manager"},
		{"/p/.husky/_/h", "hook manager"},
		{"/p/.devcontainer/post-create.sh", "dev container"},
		{"/p/.devcontainer.json", "dev container"},
		{"/h/.config/Code/User/tasks.json", "folderOpen"},
		{"/p/.vscode/tasks.json", ""}, // EditorTaskFile's
		{"/p/src/_/h", ""},
		{"/p/src/lefthook.go", ""},
	} {
		got := HumanRunFile(tc.path)
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("HumanRunFile(%s) = %q, want it to say %q", tc.path, got, tc.want)
		}
	}
}
