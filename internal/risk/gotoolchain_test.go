package risk

import "testing"

func TestGoToolchainName(t *testing.T) {
	for name, want := range map[string]bool{
		"go1.99.0": true, "go1.22rc1": true, "go1.21": true, "go1.23.4": true, "go1.20beta1": true,
		"go": false, "gofmt": false, "go1": false, "go1.x": false, "go2.0.0": false, "go1.22.0.sh": false, "go1.22.0-fake": false,
	} {
		if got := goToolchainName().MatchString(name); got != want {
			t.Errorf("goToolchainName(%q) = %v, want %v", name, got, want)
		}
	}
}
