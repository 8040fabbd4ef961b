package snapshot

import (
	"context"
	"strings"
	"testing"
)

func TestPatch(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	write(t, s.Root, "calc_test.go", "package calc\n\nfunc TestA(t *testing.T) {\n\tif A() != 1 {\n\t\tt.Fatal(1)\n\t}\n}\n", 0o644)
	write(t, s.Root, "calc.go", "package calc\n", 0o644)
	write(t, s.Root, "weird name[1].go", "package calc\n", 0o644)
	before, err := s.Take(ctx)
	if err != nil {
		t.Fatal(err)
	}
	write(t, s.Root, "calc_test.go", "package calc\n\nfunc TestA(t *testing.T) {\n\tif false {\n\t\tt.Fatal(1)\n\t}\n}\n", 0o644)
	write(t, s.Root, "calc.go", "package calc\n\nfunc A() int { return 1 }\n", 0o644)
	remove(t, s.Root, "weird name[1].go")
	after, err := s.Take(ctx)
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.Patch(ctx, before, after, []string{"calc_test.go", "weird name[1].go"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"--- a/calc_test.go\n+++ b/calc_test.go\n", "-\tif A() != 1 {\n+\tif false {\n", "deleted file mode 100644", "--- a/weird name[1].go"} {
		if !strings.Contains(p, want) {
			t.Errorf("patch lacks %q:\n%s", want, p)
		}
	}
	if strings.Contains(p, "calc.go\n") && strings.Contains(p, "+func A()") {
		t.Errorf("patch of two paths has a third:\n%s", p)
	}
	all, err := s.Patch(ctx, before, after, nil, 0)
	if err != nil || !strings.Contains(all, "+func A() int { return 1 }") {
		t.Errorf("patch of every path: %v\n%s", err, all)
	}
	cut, err := s.Patch(ctx, before, after, nil, 60)
	if err != nil || len(cut) > 60+60 || !strings.HasSuffix(cut, "bytes of diff not shown)\n") || !strings.HasPrefix(all, strings.SplitAfter(cut, "\n")[0]) {
		t.Errorf("patch cut to 60 bytes: %v\n%q", err, cut)
	}
	if _, err := s.Patch(ctx, before, "nope", nil, 0); err == nil {
		t.Error("a bad tree id was taken")
	}
}
