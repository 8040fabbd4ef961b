package risk

import "testing"

// The expressions of golden.go are compiled only for a command line or a
// word that may match: the cheap checks in front must pass everything the
// expressions match.
func TestGoldenPrefilters(t *testing.T) {
	envs := []string{
		"UPDATE_GOLDEN=1 go test ./...", "UPDATE_GOLDENS=1 go test", "export GOLDEN_UPDATE=true",
		"UPDATE_SNAPSHOT=1 rspec", "UPDATE_SNAPSHOTS=1 rspec", "SNAPSHOT_UPDATE=yes npm test",
		"UPDATE_EXPECT=1 cargo test", "INSTA_UPDATE=always cargo test", "INSTA_UPDATE=force cargo test",
		"INSTA_FORCE_PASS=1 cargo test", "INSTA_FORCE_UPDATE=1 cargo test", "TRYBUILD=overwrite cargo test",
		"make; UPDATE_GOLDEN=1 make test", "(export UPDATE_EXPECT) && cargo test",
	}
	for _, s := range envs {
		if !goldenEnv().MatchString(s) {
			t.Errorf("goldenEnv does not match %q: the sample is wrong", s)
		}
		if !mayGoldenEnv(s) {
			t.Errorf("mayGoldenEnv(%q) = false, but goldenEnv matches it: the prefilter hides an update", s)
		}
	}
	for _, s := range []string{"go test ./...", "npm test", "update_golden=1 go test"} {
		if goldenEnv().MatchString(s) && !mayGoldenEnv(s) {
			t.Errorf("mayGoldenEnv(%q) refuses what goldenEnv matches", s)
		}
	}
	words := []string{"-update", "--update", "-test.update", "-golden", "-update-golden=true", "-regen", "-regenerate",
		"-rewrite", "-record", "-accept", "-overwrite", "-fix", "-UPDATE", "-u", "--updateSnapshot", "--update-snapshots=all",
		"update", "golden", "./...", "-run", "-v", "", "u", "updateSnapshot"}
	for _, w := range words {
		if goldenFlag().MatchString(w) != isGoldenFlag(w) {
			t.Errorf("isGoldenFlag(%q) = %v, goldenFlag matches: %v", w, isGoldenFlag(w), goldenFlag().MatchString(w))
		}
		if snapshotFlag().MatchString(w) != isSnapshotFlag(w) {
			t.Errorf("isSnapshotFlag(%q) = %v, snapshotFlag matches: %v", w, isSnapshotFlag(w), snapshotFlag().MatchString(w))
		}
	}
}
