package startup

import (
	"slices"
	"testing"
)

func TestSchedulers(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	cases := []struct {
		home string
		env  map[string]string
		want []string
	}{
		{"/h", nil, []string{"/h/Library/LaunchAgents", "/h/.config/systemd/user", "/h/.config/autostart", "/h/.local/share/systemd/user"}},
		{"/h", map[string]string{"XDG_CONFIG_HOME": "/c", "XDG_DATA_HOME": "/d"}, []string{"/h/Library/LaunchAgents", "/c/systemd/user", "/c/autostart", "/d/systemd/user"}},
		{"/h", map[string]string{"XDG_CONFIG_HOME": "rel"}, []string{"/h/Library/LaunchAgents", "/h/.config/systemd/user", "/h/.config/autostart", "/h/.local/share/systemd/user"}},
		{"", nil, nil},
		{"", map[string]string{"XDG_CONFIG_HOME": "/c"}, []string{"/c/systemd/user", "/c/autostart"}},
	}
	for _, tc := range cases {
		if got := Schedulers(tc.home, env(tc.env)); !slices.Equal(got, tc.want) {
			t.Errorf("Schedulers(%q, %v) = %q, want %q", tc.home, tc.env, got, tc.want)
		}
	}
}
