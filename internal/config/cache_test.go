package config

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// fill sets every field reachable from v to a value that differs from the
// zero value and from every other field's (n counts them): a field the
// codec forgets does not come back. empty gives slices and maps no items
// (but not nil).
func fill(t *testing.T, v reflect.Value, n *int, empty bool) {
	t.Helper()
	*n++
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			fill(t, v.Field(i), n, empty)
		}
	case reflect.String:
		v.SetString(fmt.Sprintf("s%d\x00é", *n))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64:
		v.SetInt(int64(-*n * 1000003))
	case reflect.Float64:
		v.SetFloat(float64(*n) + 0.25)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(t, v.Elem(), n, empty)
	case reflect.Slice:
		k := 3
		if empty {
			k = 0
		}
		v.Set(reflect.MakeSlice(v.Type(), k, k))
		for i := range k {
			fill(t, v.Index(i), n, empty)
		}
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		if empty {
			return
		}
		for range 3 {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fill(t, k, n, empty)
			fill(t, e, n, empty)
			v.SetMapIndex(k, e)
		}
	default:
		t.Fatalf("fill: a field of kind %s: the cache's codec and this test must learn it", v.Kind())
	}
}

func TestCacheRoundTrip(t *testing.T) {
	def, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	var full, empty Config
	n := 0
	fill(t, reflect.ValueOf(&full).Elem(), &n, false)
	fill(t, reflect.ValueOf(&empty).Elem(), &n, true)
	key := [32]byte{1, 2, 3}
	for name, cfg := range map[string]*Config{"zero": {}, "defaults": def, "every field set": &full, "every list empty": &empty} {
		b := encodeCache(cfg, key)
		back, err := decodeCache(b, key)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(back, cfg) {
			t.Errorf("%s: decoded\n%+v\nwant\n%+v", name, back, cfg)
		}
		if _, err := decodeCache(b, [32]byte{1, 2, 4}); err == nil {
			t.Errorf("%s: decoded under another key", name)
		}
		// Every cut, and every byte changed, is refused or decodes to
		// something (a forged cache is no worse than a stale one: it is
		// only read under its key).
		for i := range len(b) {
			if _, err := decodeCache(b[:i], key); err == nil {
				t.Fatalf("%s: decoded cut at %d of %d", name, i, len(b))
			}
		}
		if _, err := decodeCache(append(bytes.Clone(b), 0), key); err == nil {
			t.Errorf("%s: decoded with a byte more", name)
		}
	}
}

// sealed is a cache of body under key, as encodeCache frames it.
func sealed(key [32]byte, body []byte) []byte {
	b := append(append([]byte(cacheHeader), key[:]...), body...)
	sum := sha256.Sum256(b)
	return append(b, sum[:]...)
}

// FuzzDecodeCache feeds the decoder framed bodies (the SHA-256 at the end
// would refuse nearly every unframed input before the decoder saw it).
func FuzzDecodeCache(f *testing.F) {
	def, _ := Default()
	key := [32]byte{9}
	body := func(b []byte) []byte { return b[len(cacheHeader)+32 : len(b)-sha256.Size] }
	f.Add(body(encodeCache(def, key)))
	f.Add(body(encodeCache(&Config{}, key)))
	f.Fuzz(func(t *testing.T, b []byte) {
		cfg, err := decodeCache(sealed(key, b), key)
		if err != nil {
			return
		}
		// What decodes encodes to what decodes the same.
		back, err := decodeCache(encodeCache(cfg, key), key)
		if err != nil || !reflect.DeepEqual(back, cfg) {
			t.Fatalf("re-encoding does not decode to the same: %v", err)
		}
	})
}

// memCache is a Cache in memory, counting writes.
type memCache struct {
	data   map[string][]byte
	writes int
}

func (m *memCache) cache(path string) Cache {
	return Cache{
		Path: path,
		Read: func(p string) ([]byte, error) {
			b, ok := m.data[p]
			if !ok {
				return nil, os.ErrNotExist
			}
			return b, nil
		},
		Write: func(p string, b []byte) error {
			m.writes++
			m.data[p] = bytes.Clone(b)
			return nil
		},
	}
}

func setExe(t *testing.T, s string) {
	old := ExecutableStamp
	ExecutableStamp = func() string { return s }
	t.Cleanup(func() { ExecutableStamp = old })
}

// TestLoadCachedIsLoad: whatever the cache holds and however the files
// changed since it was written, LoadCached returns what Load returns.
func TestLoadCachedIsLoad(t *testing.T) {
	setExe(t, "exe-1")
	const cfgA = "fail_closed: true\nrisk_rules:\n  - name: no-curl\n    tools: [Bash]\n    commands: [\"curl *\"]\n    action: deny\n"
	const cfgB = "fail_closed: true\nrisk_rules:\n  - name: no-curl\n    tools: [Bash]\n    commands: [\"curl *\"]\n    action: warn\n" // same size, the rule weakened
	if len(cfgA) != len(cfgB) {
		t.Fatal("the two versions must have the same size")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "aiwg.yml")
	mc := &memCache{data: map[string][]byte{}}
	c := mc.cache(filepath.Join(t.TempDir(), "config.bin"))
	check := func(step string, wantWrites int) {
		t.Helper()
		want, werr := Load(path)
		got, gerr := LoadCached(path, nil, false, c)
		if fmt.Sprint(werr) != fmt.Sprint(gerr) || !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: LoadCached = %+v, %v\nLoad = %+v, %v", step, got, gerr, want, werr)
		}
		if mc.writes != wantWrites {
			t.Fatalf("%s: %d cache writes, want %d", step, mc.writes, wantWrites)
		}
	}
	write := func(data string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(cfgA)
	check("first", 1)
	check("from the cache", 1)

	// Edited in place, same size, mtime set back.
	st, _ := os.Stat(path)
	write(cfgB)
	if err := os.Chtimes(path, st.ModTime(), st.ModTime()); err != nil {
		t.Fatal(err)
	}
	check("edited in place, mtime set back", 2)
	if got, _ := LoadCached(path, nil, false, c); got.RiskRules[indexRule(got.RiskRules, "no-curl")].Action != "warn" {
		t.Fatal("the edit is not seen")
	}

	// Renamed over.
	other := filepath.Join(dir, "other.yml")
	if err := os.WriteFile(other, []byte(cfgA), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(other, path); err != nil {
		t.Fatal(err)
	}
	check("renamed over", 3)

	// Swapped for a link to the other version.
	if err := os.WriteFile(other, []byte(cfgB), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(other, path); err != nil {
		t.Fatal(err)
	}
	check("link swapped in", 4)
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "nowhere.yml"), path); err != nil {
		t.Fatal(err)
	}
	check("link to nowhere (an error, not cached)", 4)
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	check("missing", 4)
	write(cfgA)
	check("back to A", 5)

	// The spec file beside it, added and changed.
	spec := filepath.Join(dir, SpecFile)
	if err := os.MkdirAll(filepath.Dir(spec), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(spec, []byte("persistence_loop:\n  max_iterations: 7\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	check("spec added", 6)
	if err := os.WriteFile(spec, []byte("persistence_loop:\n  max_iterations: 9\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	check("spec changed", 7)
	check("spec from the cache", 7)
	if err := os.WriteFile(spec, []byte("persistence_loop:\n  nonsense: 9\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	check("spec broken", 7)
	if err := os.WriteFile(spec, []byte("persistence_loop:\n  max_iterations: 9\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	// Another binary: its defaults and codec may differ.
	setExe(t, "exe-2")
	check("another executable", 8)
	check("another executable, from the cache", 8)

	// A broken aiwg.yml is never cached, and never answered from the cache.
	write("fail_closed: maybe\n")
	check("broken", 8)
	write(cfgA)
	check("fixed: the version cached before the break", 8)
}

// TestLoadCachedForged: a cache the agent rewrote (garbage, cut short, a
// stale key, another file's configuration under its own key) costs a
// decode, never a verdict.
func TestLoadCachedForged(t *testing.T) {
	setExe(t, "exe-1")
	dir := t.TempDir()
	path := filepath.Join(dir, "aiwg.yml")
	const strict = "fail_closed: true\ntest_integrity:\n  enabled: true\n"
	const loose = "fail_closed: false\ntest_integrity:\n  enabled: false\n"
	if err := os.WriteFile(path, []byte(strict), 0o644); err != nil {
		t.Fatal(err)
	}
	want, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	looseCfg, err := Parse(path, []byte(loose))
	if err != nil {
		t.Fatal(err)
	}
	mc := &memCache{data: map[string][]byte{}}
	cp := filepath.Join(t.TempDir(), "config.bin")
	c := mc.cache(cp)
	if _, err := LoadCached(path, nil, false, c); err != nil {
		t.Fatal(err)
	}
	good := mc.data[cp]
	staleKey := cacheKey("exe-1", path, filepath.Join(dir, SpecFile), nil, false, []byte(loose))
	forged := map[string][]byte{
		"garbage":                              []byte("fail_closed: false\n"),
		"empty":                                {},
		"cut short":                            good[:len(good)-3],
		"header only":                          good[:len(cacheHeader)+32],
		"zeros after the key, its length kept": append(bytes.Clone(good[:len(cacheHeader)+32]), make([]byte, len(good)-len(cacheHeader)-32)...),
		"zeros after the key, resealed":        sealed(key0(good), make([]byte, len(good)-len(cacheHeader)-32-sha256.Size)),
		"the loose config, stale":              encodeCache(looseCfg, staleKey),
		"its SHA-256 changed":                  func() []byte { b := bytes.Clone(good); b[len(b)-1] ^= 1; return b }(),
		"a byte flipped in the key":            func() []byte { b := bytes.Clone(good); b[len(cacheHeader)] ^= 1; return b }(),
	}
	for name, b := range forged {
		mc.data[cp] = b
		got, err := LoadCached(path, nil, false, c)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: LoadCached = %+v, %v; want the file's configuration", name, got, err)
		}
		if !bytes.Equal(mc.data[cp], good) {
			t.Errorf("%s: the cache was not written again", name)
		}
	}
	// The cache's bytes of the file held by the vault's check, not of a
	// second read: a file rewritten after the check is not what is cached.
	mc.data = map[string][]byte{}
	got, err := LoadCached(path, []byte(loose), false, c)
	if err != nil || got.FailClosed {
		t.Fatalf("held bytes: %+v, %v", got, err)
	}
	got, err = LoadCached(path, []byte(strict), false, c)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("held bytes, then the strict ones: %+v, %v", got, err)
	}
}

// key0 is the key a cache was written under.
func key0(b []byte) [32]byte { return [32]byte(b[len(cacheHeader) : len(cacheHeader)+32]) }

// TestLoadCachedUnwritable: a cache that cannot be written or read is no
// error.
func TestLoadCachedUnwritable(t *testing.T) {
	setExe(t, "exe-1")
	path := filepath.Join(t.TempDir(), "aiwg.yml")
	if err := os.WriteFile(path, []byte("fail_closed: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := Cache{
		Path:  "x",
		Read:  func(string) ([]byte, error) { return nil, errors.New("unreadable") },
		Write: func(string, []byte) error { return errors.New("unwritable") },
	}
	got, err := LoadCached(path, nil, false, c)
	if err != nil || !got.FailClosed {
		t.Fatalf("LoadCached = %+v, %v", got, err)
	}
	setExe(t, "")
	if got, err := LoadCached(path, nil, false, c); err != nil || !got.FailClosed {
		t.Fatalf("no executable's stamp: LoadCached = %+v, %v", got, err)
	}
}

// TestDecodeCacheMutated runs the decoder over framed bodies with bytes
// changed and cut (the fuzz target's work, a fixed sample of it, in every
// run): no panic, and what decodes encodes to the same configuration.
func TestDecodeCacheMutated(t *testing.T) {
	key := [32]byte{9}
	def, _ := Default()
	enc := encodeCache(def, key)
	body := enc[len(cacheHeader)+32 : len(enc)-sha256.Size]
	r := rand.New(rand.NewPCG(1, 2))
	for range 5000 {
		b := bytes.Clone(body)
		for range 1 + r.IntN(5) {
			b[r.IntN(len(b))] = byte(r.IntN(256))
		}
		if r.IntN(3) == 0 {
			b = b[:r.IntN(len(b))]
		}
		cfg, err := decodeCache(sealed(key, b), key)
		if err != nil {
			continue
		}
		back, err := decodeCache(encodeCache(cfg, key), key)
		if err != nil || !reflect.DeepEqual(back, cfg) {
			t.Fatalf("re-encoding does not decode to the same: %v", err)
		}
	}
}

// TestCacheListsApart: the decoded lists share one array, each cut to its
// length: appending to one never writes into the next.
func TestCacheListsApart(t *testing.T) {
	var full Config
	n := 0
	fill(t, reflect.ValueOf(&full).Elem(), &n, false)
	key := [32]byte{1}
	a, err := decodeCache(encodeCache(&full, key), key)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := decodeCache(encodeCache(&full, key), key)
	_ = append(a.AgentPersistence.Detection.PatternsEnabled, "x")
	_ = append(a.TestFiles, "x")
	for i := range a.RiskRules {
		_ = append(a.RiskRules[i].Tools, "x")
		_ = append(a.RiskRules[i].Paths, "x")
		_ = append(a.RiskRules[i].Commands, "x")
	}
	_ = append(a.RiskPacks, "x")
	if !reflect.DeepEqual(a, b) {
		t.Fatal("an append to one decoded list changed another")
	}
}
