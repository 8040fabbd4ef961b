package shell

import (
	"slices"
	"strings"
	"testing"
)

func TestSecretRunner(t *testing.T) {
	tests := []struct {
		src  string
		sub  string
		want []string // the readings, each joined with spaces; nil: none
	}{
		{"op run -- rm -rf x", "run", []string{"rm -rf x"}},
		{"op run --env-file .env -- rm -rf x", "run", []string{"rm -rf x"}},
		{"op run --env-file .env rm -rf x", "run", []string{".env rm -rf x", "rm -rf x"}},
		{"aws-vault exec dev rm -rf x", "exec", []string{"rm -rf x"}},
		{"aws-vault exec --duration 1h dev rm x", "exec", []string{"dev rm x", "rm x"}},
		{"sops exec-env s.yaml 'rm -rf x'", "exec-env", []string{"sh -c rm -rf x"}},
		{"envchain aws rm x", "aws", []string{"rm x"}},
		{"op read op://a/b", "", nil},
		{"aws-vault list", "", nil},
		{"op run --", "", nil},
	}
	for _, tt := range tests {
		words := strings.Fields(strings.ReplaceAll(tt.src, "'rm -rf x'", "RMX"))
		var args []Word
		for _, f := range words[1:] {
			if f == "RMX" {
				f = "rm -rf x"
			}
			args = append(args, Word{Raw: f, Values: []string{f}})
		}
		sub, readings, ok := secretRunner(words[0], args)
		if tt.want == nil {
			if ok {
				t.Errorf("%s: %q %v, want none", tt.src, sub, readings)
			}
			continue
		}
		var got []string
		for _, r := range readings {
			var vs []string
			for _, w := range r {
				vs = append(vs, w.Raw)
			}
			got = append(got, strings.Join(vs, " "))
		}
		if !ok || sub != tt.sub || !slices.Equal(got, tt.want) {
			t.Errorf("%s: %q %q %v, want %q %q", tt.src, sub, got, ok, tt.sub, tt.want)
		}
	}
}
