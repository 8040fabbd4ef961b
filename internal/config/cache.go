package config

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"syscall"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/filestamp"
	"github.com/ralph-hooks/ralph-hooks/internal/rawfile"
)

// A hook call that decodes aiwg.yml pays for the YAML parser, the checker
// and reflection (about a tenth of an Edit's or a Bash call's time, two
// dozen page faults: BENCHMARKS.md, perf12), for a file that rarely
// changes. Cache keeps the decoded configuration in a compact binary form,
// keyed by the SHA-256 of everything the decoding depends on: the bytes of
// aiwg.yml and of the spec file beside it (the very bytes then decoded, so
// a file changed in between cannot be cached under the other's key), their
// paths, and the executable's stamp (the defaults and the codec are the
// binary's). The key is read from the content, never from a file's size or
// mtime: an aiwg.yml edited in place with its mtime set back, renamed over
// or swapped for a link has other bytes, so another key. A cache that is
// missing, torn, of another key or that does not decode costs a decode of
// the YAML, never a verdict; it is written only after its own decoding was
// found deeply equal to the configuration it stands for.

// Cache is where a decoded configuration is kept between calls.
type Cache struct {
	Path  string                               // "" for none
	Read  func(path string) ([]byte, error)    // the cache's bytes as written
	Write func(path string, data []byte) error // nil: only read
}

// cacheHeader starts the cache; a change of the codec changes it.
const cacheHeader = "ralph-config-cache 1\n"

// ExecutableStamp identifies the running executable by its settled stamp
// (device, inode, size, mtime, ctime), "" when it cannot: then nothing is
// cached. A variable for the tests (a test binary is too new to stamp).
var ExecutableStamp = func() string {
	st, err := os.Stat("/proc/self/exe") // the executable itself, in one call
	if err != nil {
		exe, eerr := os.Executable()
		if eerr != nil {
			return ""
		}
		if st, err = os.Stat(exe); err != nil {
			return ""
		}
	}
	s := filestamp.Of(st).Settled(time.Now())
	if s.CTime == 0 {
		return "" // written just now: a rewrite in the same tick would keep the stamp
	}
	var b []byte
	for _, v := range []uint64{uint64(s.Size), uint64(s.MTime), uint64(s.CTime), s.Ino, s.Dev} {
		b = binary.LittleEndian.AppendUint64(b, v)
	}
	return string(b)
}

// LoadCached is Load (held or absent given: LoadHeld) through the cache c.
func LoadCached(path string, held []byte, absent bool, c Cache) (*Config, error) {
	if absent || c.Path == "" || c.Read == nil {
		return load(path, held, absent)
	}
	spec := filepath.Join(filepath.Dir(path), SpecFile)
	specData, specErr := rawfile.ReadFile(spec)
	switch {
	case specErr == nil:
	case errors.Is(specErr, fs.ErrNotExist) || errors.Is(specErr, syscall.ENOTDIR):
		specData = nil
	default:
		return load(path, held, absent) // its error, in its words
	}
	data := held
	if data == nil {
		var err error
		if data, err = rawfile.ReadFile(path); err != nil {
			return load(path, held, absent) // missing, a link to nowhere, unreadable: as Load says
		}
	}
	exe := ExecutableStamp()
	if exe == "" {
		return decodeFiles(path, spec, specData, specErr == nil, data)
	}
	key := cacheKey(exe, path, spec, specData, specErr == nil, data)
	if b, err := c.Read(c.Path); err == nil {
		if cfg, err := decodeCache(b, key); err == nil {
			return cfg, nil
		}
	}
	cfg, err := decodeFiles(path, spec, specData, specErr == nil, data)
	if err != nil || c.Write == nil {
		return cfg, err
	}
	enc := encodeCache(cfg, key)
	if back, derr := decodeCache(enc, key); derr == nil && reflect.DeepEqual(back, cfg) {
		_ = c.Write(c.Path, enc) // a cache: a failed write costs the next call a decode
	}
	return cfg, nil
}

// decodeFiles is load's decoding of the bytes given: the spec file's
// (when hasSpec) over the defaults, then aiwg.yml's.
func decodeFiles(path, spec string, specData []byte, hasSpec bool, data []byte) (*Config, error) {
	base, err := Default()
	if err != nil {
		return nil, err
	}
	if hasSpec {
		if base, err = decode(spec, specData, base, "persistence_loop"); err != nil {
			return nil, err
		}
		base.SpecFile = spec
	}
	cfg, err := decode(path, data, base, "")
	if err != nil {
		return nil, err
	}
	cfg.File = path
	return cfg, nil
}

// cacheKey is the SHA-256 of what a decoding depends on, each part
// length-prefixed.
func cacheKey(exe, path, spec string, specData []byte, hasSpec bool, data []byte) [32]byte {
	h := sha256.New()
	var b []byte
	part := func(s []byte) {
		b = binary.AppendUvarint(b[:0], uint64(len(s)))
		h.Write(b)
		h.Write(s)
	}
	part([]byte(cacheHeader))
	part([]byte(exe))
	part([]byte(path))
	part([]byte(spec))
	if hasSpec {
		part([]byte{1})
		part(specData)
	} else {
		part([]byte{0})
	}
	part(data)
	var k [32]byte
	h.Sum(k[:0])
	return k
}

// errCache is any cache that does not decode.
var errCache = errors.New("not a configuration cache")

// encodeCache is cfg's cache under key, its SHA-256 at the end. Every field of Config is written:
// TestCacheRoundTrip fills each one and compares.
func encodeCache(cfg *Config, key [32]byte) []byte {
	e := &enc{b: make([]byte, 0, 4096)}
	ap := &cfg.AgentPersistence
	e.bool(ap.Enabled)
	e.str(ap.Detection.Mode)
	e.strs(ap.Detection.PatternsEnabled)
	r := &ap.Reinforcement
	e.str(r.DefaultLevel)
	e.strMap(r.EscalationThresholds)
	e.float(r.PlateauDelta)
	e.int(int64(r.PlateauWindow))
	e.str(r.Text.Minimal)
	e.str(r.Text.Standard)
	e.str(r.Text.Aggressive)
	e.int(int64(r.StandardAt))
	e.int(int64(r.AggressiveAt))
	e.int(int64(ap.Recovery.MaxRetries))
	e.bool(ap.Recovery.AutoEscalateOnCritical)
	e.bool(ap.Recovery.HumanGateTimeoutMinutes != nil)
	if p := ap.Recovery.HumanGateTimeoutMinutes; p != nil {
		e.float(*p)
	}
	e.bool(ap.BestOutputSelection.Enabled)
	e.float(ap.BestOutputSelection.QualityThreshold)
	e.bool(ap.BestOutputSelection.RequireVerification)
	e.float(ap.Performance.DetectionLatencyBudgetMS)
	e.float(ap.Performance.MaxIntegrationOverheadPercent)
	e.bool(ap.LearnPatterns)
	e.str(ap.DetectionMode)
	pl := &cfg.PersistenceLoop
	e.int(int64(pl.MaxIterations))
	e.float(pl.WarnThreshold)
	e.int(int64(pl.CheckpointInterval))
	e.int(int64(pl.Retry.MaxAttempts))
	e.str(pl.Retry.BackoffStrategy)
	e.int(int64(pl.Retry.BaseDelay))
	e.int(int64(pl.Retry.MaxDelay))
	e.float(pl.Retry.Multiplier)
	e.float(pl.Retry.Jitter)
	e.int(int64(pl.Timeouts.PerStep))
	e.int(int64(pl.Timeouts.Total))
	e.str(cfg.Completion.Command)
	e.int(int64(cfg.Completion.Timeout))
	e.len(cfg.Metrics == nil, len(cfg.Metrics))
	for _, m := range cfg.Metrics {
		e.str(m.Name)
		e.str(m.Command)
		e.str(m.Builtin)
		e.str(m.Parser.Regex)
		e.str(m.Parser.JSONPath)
		e.str(m.Direction)
		e.int(int64(m.Timeout))
	}
	e.bool(cfg.FailClosed)
	e.strs(cfg.TestFiles)
	e.len(cfg.RiskRules == nil, len(cfg.RiskRules))
	for _, rr := range cfg.RiskRules {
		e.str(rr.Name)
		e.strs(rr.Tools)
		e.strs(rr.Paths)
		e.bool(rr.TestFiles)
		e.strs(rr.Commands)
		e.bool(rr.Existing)
		e.str(rr.Level)
		e.str(rr.Action)
		e.str(rr.Message)
		e.len(rr.Set == nil, len(rr.Set))
		for _, k := range sortedKeys(rr.Set) {
			e.str(k)
			e.bool(rr.Set[k])
		}
		e.int(int64(rr.Line))
		e.str(rr.Key)
	}
	e.strs(cfg.RiskPacks)
	e.bool(cfg.TestIntegrity.Enabled)
	e.len(cfg.TestIntegrity.Allow == nil, len(cfg.TestIntegrity.Allow))
	for _, a := range cfg.TestIntegrity.Allow {
		e.str(a.Path)
		e.strs(a.Tests)
		e.str(a.Reason)
	}
	e.str(cfg.Agent.Command)
	e.str(cfg.File)
	e.str(cfg.SpecFile)
	e.strs(cfg.Deprecated)
	// The strings of every list, counted first: the decoder makes one
	// array for all of them.
	b := make([]byte, 0, len(cacheHeader)+len(key)+binary.MaxVarintLen64+len(e.b)+sha256.Size)
	b = append(append(b, cacheHeader...), key[:]...)
	b = binary.AppendUvarint(b, uint64(e.items))
	b = append(b, e.b...)
	sum := sha256.Sum256(b)
	return append(b, sum[:]...)
}

// decodeCache decodes a cache written under key; any other bytes are an
// error. The cache ends with the SHA-256 of what precedes it: it is
// written without a sync, and what a crash leaves (zeros, a part) must not
// decode.
func decodeCache(b []byte, key [32]byte) (*Config, error) {
	if len(b) < len(cacheHeader)+len(key)+sha256.Size {
		return nil, errCache
	}
	b, sum := b[:len(b)-sha256.Size], b[len(b)-sha256.Size:]
	if [sha256.Size]byte(sum) != sha256.Sum256(b) {
		return nil, errCache // torn: a crash may leave zeros of the right length
	}
	if string(b[:len(cacheHeader)]) != cacheHeader || [32]byte(b[len(cacheHeader):len(cacheHeader)+32]) != key {
		return nil, errCache
	}
	d := &dec{s: string(b[len(cacheHeader)+32:])}
	if items := d.uvarint(); items <= uint64(len(d.s)) {
		d.items = make([]string, items) // one array for every list's strings
	} else {
		return nil, errCache
	}
	cfg := &Config{}
	ap := &cfg.AgentPersistence
	ap.Enabled = d.bool()
	ap.Detection.Mode = d.str()
	ap.Detection.PatternsEnabled = d.strs()
	r := &ap.Reinforcement
	r.DefaultLevel = d.str()
	r.EscalationThresholds = d.strMap()
	r.PlateauDelta = d.float()
	r.PlateauWindow = d.int()
	r.Text.Minimal = d.str()
	r.Text.Standard = d.str()
	r.Text.Aggressive = d.str()
	r.StandardAt = d.int()
	r.AggressiveAt = d.int()
	ap.Recovery.MaxRetries = d.int()
	ap.Recovery.AutoEscalateOnCritical = d.bool()
	if d.bool() {
		f := d.float()
		ap.Recovery.HumanGateTimeoutMinutes = &f
	}
	ap.BestOutputSelection.Enabled = d.bool()
	ap.BestOutputSelection.QualityThreshold = d.float()
	ap.BestOutputSelection.RequireVerification = d.bool()
	ap.Performance.DetectionLatencyBudgetMS = d.float()
	ap.Performance.MaxIntegrationOverheadPercent = d.float()
	ap.LearnPatterns = d.bool()
	ap.DetectionMode = d.str()
	pl := &cfg.PersistenceLoop
	pl.MaxIterations = d.int()
	pl.WarnThreshold = d.float()
	pl.CheckpointInterval = d.int()
	pl.Retry.MaxAttempts = d.int()
	pl.Retry.BackoffStrategy = d.str()
	pl.Retry.BaseDelay = time.Duration(d.int64())
	pl.Retry.MaxDelay = time.Duration(d.int64())
	pl.Retry.Multiplier = d.float()
	pl.Retry.Jitter = d.float()
	pl.Timeouts.PerStep = time.Duration(d.int64())
	pl.Timeouts.Total = time.Duration(d.int64())
	cfg.Completion.Command = d.str()
	cfg.Completion.Timeout = time.Duration(d.int64())
	if n, ok := d.len(7); ok {
		cfg.Metrics = make([]Metric, n)
		for i := range cfg.Metrics {
			m := &cfg.Metrics[i]
			m.Name, m.Command, m.Builtin = d.str(), d.str(), d.str()
			m.Parser.Regex, m.Parser.JSONPath = d.str(), d.str()
			m.Direction = d.str()
			m.Timeout = time.Duration(d.int64())
		}
	}
	cfg.FailClosed = d.bool()
	cfg.TestFiles = d.strs()
	if n, ok := d.len(12); ok {
		cfg.RiskRules = make([]RiskRule, n)
		for i := range cfg.RiskRules {
			rr := &cfg.RiskRules[i]
			rr.Name = d.str()
			rr.Tools = d.strs()
			rr.Paths = d.strs()
			rr.TestFiles = d.bool()
			rr.Commands = d.strs()
			rr.Existing = d.bool()
			rr.Level, rr.Action, rr.Message = d.str(), d.str(), d.str()
			if n, ok := d.len(2); ok {
				rr.Set = make(map[string]bool, n)
				for range n {
					k := d.str()
					rr.Set[k] = d.bool()
				}
			}
			rr.Line = d.int()
			rr.Key = d.str()
		}
	}
	cfg.RiskPacks = d.strs()
	cfg.TestIntegrity.Enabled = d.bool()
	if n, ok := d.len(3); ok {
		cfg.TestIntegrity.Allow = make([]TestException, n)
		for i := range cfg.TestIntegrity.Allow {
			a := &cfg.TestIntegrity.Allow[i]
			a.Path, a.Tests, a.Reason = d.str(), d.strs(), d.str()
		}
	}
	cfg.Agent.Command = d.str()
	cfg.File = d.str()
	cfg.SpecFile = d.str()
	cfg.Deprecated = d.strs()
	if d.bad || len(d.s) != 0 || len(d.items) != 0 {
		return nil, errCache
	}
	return cfg, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// enc appends the cache's values: integers as varints, floats as their
// bits, a slice or map as its length plus one (0: nil), then its items.
type enc struct {
	b     []byte
	items int // the strings of the lists written
}

func (e *enc) bool(v bool) {
	if v {
		e.b = append(e.b, 1)
	} else {
		e.b = append(e.b, 0)
	}
}
func (e *enc) int(v int64)     { e.b = binary.AppendVarint(e.b, v) }
func (e *enc) float(v float64) { e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(v)) }
func (e *enc) str(s string) {
	e.b = binary.AppendUvarint(e.b, uint64(len(s)))
	e.b = append(e.b, s...)
}
func (e *enc) len(isNil bool, n int) {
	if isNil {
		e.b = append(e.b, 0)
		return
	}
	e.b = binary.AppendUvarint(e.b, uint64(n)+1)
}
func (e *enc) strs(s []string) {
	e.items += len(s)
	e.len(s == nil, len(s))
	for _, v := range s {
		e.str(v)
	}
}
func (e *enc) strMap(m map[string]string) {
	e.len(m == nil, len(m))
	for _, k := range sortedKeys(m) {
		e.str(k)
		e.str(m[k])
	}
}

// dec reads what enc wrote, from one string: the strings it returns are
// parts of it (one allocation for all of them). Past any error it reads
// zeros and bad is set.
type dec struct {
	s     string
	items []string // what is left of the lists' one array
	bad   bool
}

func (d *dec) fail() { d.bad, d.s = true, "" }

func (d *dec) bool() bool {
	if len(d.s) == 0 || d.s[0] > 1 {
		d.fail()
		return false
	}
	v := d.s[0] == 1
	d.s = d.s[1:]
	return v
}

// uvarint is binary.Uvarint over the string.
func (d *dec) uvarint() uint64 {
	var x uint64
	var shift uint
	for i := 0; i < len(d.s) && i < binary.MaxVarintLen64; i++ {
		c := d.s[i]
		if c < 0x80 {
			if i == binary.MaxVarintLen64-1 && c > 1 {
				break // overflows 64 bits
			}
			d.s = d.s[i+1:]
			return x | uint64(c)<<shift
		}
		x |= uint64(c&0x7f) << shift
		shift += 7
	}
	d.fail()
	return 0
}

// int64 is binary.Varint's zig-zag decoding.
func (d *dec) int64() int64 {
	ux := d.uvarint()
	x := int64(ux >> 1)
	if ux&1 != 0 {
		x = ^x
	}
	return x
}

func (d *dec) int() int {
	v := d.int64()
	if int64(int(v)) != v {
		d.fail()
		return 0
	}
	return int(v)
}

func (d *dec) float() float64 {
	if len(d.s) < 8 {
		d.fail()
		return 0
	}
	var u uint64
	for i := 7; i >= 0; i-- {
		u = u<<8 | uint64(d.s[i])
	}
	d.s = d.s[8:]
	return math.Float64frombits(u)
}

func (d *dec) str() string {
	n := d.uvarint()
	if n > uint64(len(d.s)) {
		d.fail()
		return ""
	}
	s := d.s[:n]
	d.s = d.s[n:]
	return s
}

// len reads a length written by enc.len; ok false for nil. Each item takes
// at least min bytes, which bounds the length by what is left.
func (d *dec) len(min int) (int, bool) {
	v := d.uvarint()
	if v == 0 || d.bad {
		return 0, false
	}
	n := v - 1
	if n > uint64(len(d.s))/uint64(min) {
		d.fail()
		return 0, false
	}
	return int(n), true
}

func (d *dec) strs() []string {
	n, ok := d.len(1)
	if !ok {
		return nil
	}
	if n > len(d.items) {
		d.fail()
		return nil
	}
	s := d.items[:n:n] // full: an append copies, never writes into the next list
	d.items = d.items[n:]
	for i := range s {
		s[i] = d.str()
	}
	return s
}

func (d *dec) strMap() map[string]string {
	n, ok := d.len(2)
	if !ok {
		return nil
	}
	m := make(map[string]string, n)
	for range n {
		k := d.str()
		m[k] = d.str()
	}
	return m
}
