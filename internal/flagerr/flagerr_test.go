package flagerr

import (
	"flag"
	"io"
	"testing"
	"time"
)

func TestSay(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--count", "ten"}, `--count "ten": want a whole number`},
		{[]string{"--count", "99999999999999999999"}, `--count "99999999999999999999": too large (want a whole number)`},
		{[]string{"--count", ""}, `--count "": want a whole number`},
		{[]string{"-n", "x"}, `-n "x": want a whole number`},
		{[]string{"--ratio", "half"}, `--ratio "half": want a number`},
		{[]string{"--json=maybe"}, `--json "maybe": want true or false (or leave the value out)`},
		{[]string{"--wait", "5"}, `--wait "5": want a duration like 30s or 5m`},
		{[]string{"--bogus"}, "flag provided but not defined: -bogus"},
		{[]string{"--count"}, "flag needs an argument: -count"},
	}
	for _, tt := range tests {
		fs := flag.NewFlagSet("x", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		fs.Int("count", 0, "")
		fs.Int("n", 0, "")
		fs.Float64("ratio", 0, "")
		fs.Bool("json", false, "")
		fs.Duration("wait", time.Second, "")
		err := fs.Parse(tt.args)
		if err == nil {
			t.Errorf("Parse(%q) = nil error", tt.args)
			continue
		}
		if got := Say(fs, err); got != tt.want {
			t.Errorf("Say(Parse(%q)) = %q (from %q), want %q", tt.args, got, err, tt.want)
		}
	}
}
