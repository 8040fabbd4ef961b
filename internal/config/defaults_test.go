package config

import (
	"encoding/json"
	"flag"
	"os"
	"reflect"
	"testing"
)

var update = flag.Bool("update", false, "rewrite defaults.json from defaults.yml")

// TestDefaultsJSON checks that defaults.json is defaults.yml, decoded.
func TestDefaultsJSON(t *testing.T) {
	want, err := parseDefaults()
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		data, err := json.MarshalIndent(want, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("defaults.json", append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		defaultsJSON = data
	}
	got, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("defaults.json does not match defaults.yml; run go test ./internal/config -run TestDefaultsJSON -update\ngot  %+v\nwant %+v", got, want)
	}
}

func BenchmarkDefault(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := Default(); err != nil {
			b.Fatal(err)
		}
	}
}
