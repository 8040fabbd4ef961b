package completion

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// This file keeps, for a test that fails at a loop's start, the expected
// outputs its file compares with: golden files and snapshots. Rewriting
// one to what the code prints now (go test -update, jest -u, cargo insta
// accept, a script that copies the output over it) turns the test green
// without a fix, as much as editing its assertion; Bent reports it.

// maxGoldens bounds the expected-output files kept per test file, and
// maxGoldenSize the size of one that is hashed.
const (
	maxGoldens    = 200
	maxGoldenSize = 8 << 20
)

// goldenDirs are the directories, relative to a test file's directory,
// that hold its expected outputs, by the test file's name:
//
//   - Go: testdata/ (golden files, by any name).
//   - JavaScript and TypeScript: __snapshots__/NAME.snap (jest, vitest),
//     NAME-snapshots/ (Playwright).
//   - Python: __snapshots__/STEM.ambr and __snapshots__/STEM/ (syrupy),
//     STEM/ (pytest-regressions' data directory), snapshots/STEM/
//     (pytest-snapshot).
//   - Rust: snapshots/ (insta).
//   - Ruby: __snapshots__/ (rspec-snapshot).
//
// Any language: the approved files beside it (ApprovalTests,
// NAME.approved.*).
func goldenPaths(root, p string) []string {
	dir, base := path.Dir(p), path.Base(p)
	stem := strings.TrimSuffix(base, path.Ext(base))
	var dirs, files []string
	switch {
	case strings.HasSuffix(p, "_test.go"):
		dirs = append(dirs, "testdata")
	case jsFile(p):
		files = append(files, "__snapshots__/"+base+".snap")
		dirs = append(dirs, base+"-snapshots")
	case strings.HasSuffix(p, ".py"):
		files = append(files, "__snapshots__/"+stem+".ambr")
		dirs = append(dirs, "__snapshots__/"+stem, stem, "snapshots/"+stem)
	case strings.HasSuffix(p, ".rs"):
		dirs = append(dirs, "snapshots")
	case strings.HasSuffix(p, ".rb"):
		dirs = append(dirs, "__snapshots__")
	}
	var out []string
	for _, f := range files {
		out = append(out, path.Join(dir, f))
	}
	for _, d := range dirs {
		d = path.Join(dir, d)
		fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(d)))
		if err != nil || !fi.IsDir() {
			continue
		}
		_ = filepath.WalkDir(filepath.Join(root, filepath.FromSlash(d)), func(q string, e fs.DirEntry, err error) error {
			if err != nil || len(out) >= maxGoldens {
				return filepath.SkipDir
			}
			if e.Type().IsRegular() {
				if rel, err := filepath.Rel(root, q); err == nil {
					out = append(out, filepath.ToSlash(rel))
				}
			}
			return nil
		})
	}
	if ents, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(dir))); err == nil {
		for _, e := range ents {
			if strings.Contains(e.Name(), ".approved.") && strings.HasPrefix(e.Name(), stem) {
				out = append(out, path.Join(dir, e.Name()))
			}
		}
	}
	sort.Strings(out)
	if len(out) > maxGoldens {
		out = out[:maxGoldens]
	}
	return out
}

// goldenDigests returns the digest of each expected-output file of test
// file p that exists; nil when it has none.
func goldenDigests(root, p string) map[string]string {
	var m map[string]string
	for _, g := range goldenPaths(root, p) {
		if d := fileDigest(filepath.Join(root, filepath.FromSlash(g))); d != "" {
			if m == nil {
				m = map[string]string{}
			}
			m[g] = d
		}
	}
	return m
}

// fileDigest is the hex SHA-256 of a regular file's contents (its first
// 16 bytes), "" when it is missing, not regular or too large.
func fileDigest(p string) string {
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxGoldenSize {
		return ""
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:16])
}

// goldensChanged lists the expected-output files of was (path → digest
// at the start) that were rewritten or removed since: new files are new
// snapshots, not rewrites.
func goldensChanged(root string, was map[string]string) []string {
	var out []string
	for g, d := range was {
		if now := fileDigest(filepath.Join(root, filepath.FromSlash(g))); now != d {
			out = append(out, g)
		}
	}
	sort.Strings(out)
	return out
}
