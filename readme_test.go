package ralphhooks_test

import (
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/risk"
)

// configKeys lists every aiwg.yml key, dotted; list items as key[].sub.
func configKeys(t reflect.Type, prefix string) []string {
	var keys []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name == "" || name == "-" {
			continue
		}
		key, ft := prefix+name, f.Type
		switch {
		case ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.Struct:
			keys = append(keys, key)
			keys = append(keys, configKeys(ft.Elem(), key+"[].")...)
		case ft.Kind() == reflect.Struct:
			keys = append(keys, configKeys(ft, key+".")...) // its leaves
		default:
			keys = append(keys, key)
		}
	}
	return keys
}

// TestReadme keeps README.md true: every aiwg.yml key is in the
// configuration reference, every built-in rule in the rules table, every
// ralph command in the CLI reference.
func TestReadme(t *testing.T) {
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	section := func(title string) string {
		i := strings.Index(readme, "\n## "+title+"\n")
		if i < 0 {
			t.Fatalf("README.md has no section %q", title)
		}
		s := readme[i+1:]
		if j := strings.Index(s[3:], "\n## "); j >= 0 {
			s = s[:j+3]
		}
		return s
	}
	cfg := section("Configuration")
	for _, k := range configKeys(reflect.TypeOf(config.Config{}), "") {
		if !strings.Contains(cfg, "`"+k+"`") {
			t.Errorf("the configuration reference lacks `%s`", k)
		}
	}
	rules := section("How decisions are made")
	for _, name := range append(risk.BuiltinNames(), "gate-pending") {
		if !regexp.MustCompile("(?m)^\\| `" + regexp.QuoteMeta(name) + "` \\|").MatchString(rules) {
			t.Errorf("the rules table lacks a row for `%s`", name)
		}
	}
	for _, p := range risk.Packs {
		if !strings.Contains(rules, "| `"+p.Name+"` | `"+p.Rule.Name+"` |") {
			t.Errorf("the packs table lacks a row for pack `%s` (rule `%s`)", p.Name, p.Rule.Name)
		}
	}
	cli := section("CLI reference")
	for _, verb := range []string{"start", "run", "status", "list", "pause", "resume", "abort", "report", "gate", "rollback", "restore", "explain", "log", "replay", "install", "uninstall", "doctor", "demo", "bench", "version", "init", "statusline", "ui"} {
		if !strings.Contains(cli, "`ralph "+verb) {
			t.Errorf("the CLI reference lacks ralph %s", verb)
		}
	}
	if q := section("Quick start"); !strings.Contains(q, "make demo") || !strings.Contains(q, "make test") {
		t.Error("the quick start lacks make demo or make test")
	}
}
