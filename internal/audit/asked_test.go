package audit

import (
	"fmt"
	"path/filepath"
	"testing"
)

// TestAsked: the record keeps the newest asks, each by its call's id.
func TestAsked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "loops", "x", AskedFile)
	if _, ok := Asked(path, "a"); ok {
		t.Fatal("an ask in no record")
	}
	for i := range maxAsked + 2 {
		if err := RecordAsk(path, fmt.Sprint("id", i), "git-exec"); err != nil {
			t.Fatal(err)
		}
	}
	if err := RecordAsk(path, "", "startup-config"); err != nil {
		t.Fatal(err)
	}
	if err := RecordAsk(path, "bad\tid", "git-exec"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		id, rule string
		ok       bool
	}{
		{"id0", "", false}, {"id1", "", false}, {"id2", "", false}, // the oldest, dropped
		{"id3", "git-exec", true}, {fmt.Sprint("id", maxAsked+1), "git-exec", true},
		{"", "startup-config", true}, {"bad\tid", "", false}, {"bad", "", false}, {"id", "", false},
	} {
		if rule, ok := Asked(path, tc.id); rule != tc.rule || ok != tc.ok {
			t.Errorf("Asked(%q) = %q, %v; want %q, %v", tc.id, rule, ok, tc.rule, tc.ok)
		}
	}
}
