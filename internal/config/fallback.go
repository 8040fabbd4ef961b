package config

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"

	"github.com/ralph-hooks/ralph-hooks/internal/rawfile"
)

// Fallback is the configuration hooks use when aiwg.yml (or the seed's
// persistence.yaml beside it) cannot be read or is invalid: the embedded
// defaults, so the built-in rules and tamper protection stay on, with
// fail_closed on (an internal error of the guard denies) and the
// persistence extension on (a running loop keeps running: its completion
// command and bounds are in its state). File names the file that failed.
//
// Nothing an agent writes into the file can so turn protection off: an
// unparseable file means the strictest defaults, never "no rules".
func Fallback(file string) *Config {
	cfg := defaults()
	cfg.RiskRules = append([]RiskRule(nil), cfg.RiskRules...)
	cfg.FailClosed = true
	cfg.AgentPersistence.Enabled = true
	cfg.File = file
	return cfg
}

// LoadOrFallback loads the configuration at path as Load does; when that
// fails it returns Fallback and the error, so the caller can say what is
// wrong and go on guarded. cfg is never nil.
func LoadOrFallback(path string) (cfg *Config, problem error) {
	cfg, err := Load(path)
	if err != nil {
		return Fallback(path), err
	}
	return cfg, nil
}

// LoadHeldOrFallback is LoadOrFallback of aiwg.yml's content as the
// vault's check held it (LoadHeld).
func LoadHeldOrFallback(path string, data []byte, absent bool) (cfg *Config, problem error) {
	cfg, err := LoadHeld(path, data, absent)
	if err != nil {
		return Fallback(path), err
	}
	return cfg, nil
}

// Digest identifies the contents of the configuration files at path (and
// of the seed's persistence.yaml beside it), to tell one broken version of
// them from another: a problem is reported once per change of the files.
func Digest(path string) string {
	h := sha256.New()
	for _, p := range []string{path, filepath.Join(filepath.Dir(path), SpecFile)} {
		data, err := rawfile.ReadFile(p) // a FIFO in its place must not block the hook
		if err != nil {
			h.Write([]byte("\x00unreadable:" + p + "\x00"))
			continue
		}
		h.Write([]byte(p + "\x00"))
		h.Write(data)
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}
