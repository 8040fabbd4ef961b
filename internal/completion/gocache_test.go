package completion

import (
	"reflect"
	"testing"
)

func TestGoCacheEnviron(t *testing.T) {
	got := GoCacheEnviron("/p/.aiwg/ralph", []string{"A=1", "GOCACHE=/home/u/.cache/go-build", "GOCACHEPROG=./fake", "GOCACHEX=2"})
	want := []string{"A=1", "GOCACHEX=2", "GOCACHE=/p/.aiwg/ralph/go-build"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("GoCacheEnviron = %q, want %q", got, want)
	}
	got = GoCacheEnviron("/p/.aiwg/ralph", []string{"RALPH_GOCACHE=/c", "GOCACHE=/x"})
	if want = []string{"GOCACHE=/c"}; !reflect.DeepEqual(got, want) {
		t.Errorf("GoCacheEnviron with RALPH_GOCACHE = %q, want %q", got, want)
	}
	got = GoCacheEnviron("/p/.aiwg/ralph", []string{"RALPH_GOCACHE="})
	if want = []string{"GOCACHE=/p/.aiwg/ralph/go-build"}; !reflect.DeepEqual(got, want) {
		t.Errorf("GoCacheEnviron with an empty RALPH_GOCACHE = %q, want %q", got, want)
	}
}
