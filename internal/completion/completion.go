// Package completion decides whether a loop's completion command really
// passed: not only that it exited 0, but that the tests it is meant to run
// ran, that nothing which decides its outcome was changed, and that no test
// was bent to agree with the bug.
//
// It has these parts:
//
//   - env.go: the environment the completion command runs in. Variables
//     that change which tests run (GOFLAGS, PYTEST_ADDOPTS, NODE_OPTIONS,
//     JEST_*, VITEST_*, RUSTFLAGS, …) are removed, and ralph sets its own
//     to make each runner name every test it runs (GOFLAGS=-v,
//     PYTEST_ADDOPTS=-rAR).
//   - report.go: reads the runners' per-test lines from the command's
//     output as it streams ([Reader]) into [Results]: go test (-v and
//     -json), pytest (-rA and -v) and cargo test.
//   - reports.go and shim.cjs: the reports runners write to files
//     ([Reports]): jest's and vitest's JSON and mocha's results, asked for
//     by a node module ralph loads through NODE_OPTIONS; rspec's JSON,
//     through SPEC_OPTS; the JUnit XML of maven's surefire and failsafe
//     and of gradle, written during the run.
//   - inventory.go: the loop's inventory, the tests of the static census
//     at the baseline (package testindex) that the baseline run covered,
//     and [NotRun], those of them a later run did not run.
//   - inputs.go: the digests of what decides the command's outcome
//     ([Collect]): the Makefile or justfile it runs, the runners' config
//     (pytest.ini, pyproject's [tool.pytest.ini_options], setup.cfg,
//     tox.ini, conftest.py, jest and vitest config, package.json's scripts
//     and jest key, .cargo/config), go.work and go.mod's go and toolchain
//     lines, the go env file, the build constraints of Go test files;
//     gomod.go: go.mod's replace and godebug lines and the replace targets
//     outside the project; cargo.go: Cargo.toml's targets, [patch] and
//     [replace], and the workspace members'; pytestdirs.go: pytest's
//     configuration below the root; npmrc.go: .npmrc and .yarnrc(.yml);
//     jvm.go: Maven's and Gradle's test configuration; named.go: the project's files that
//     configuration names (setup files, -p plugins, .rspec's requires);
//     gostart.go: the Go code that can end the test binary or choose its
//     tests before they run (TestMain, init, variable initializers);
//     aware.go: the lines of the code under test that ask whether a test
//     runner runs it (their changes are test_aware, not tampering);
//     gonative.go: what a Go test binary runs that no Go call names
//     (//go:linkname, cgo, assembly); exits.go: the lines of Python,
//     Ruby and Rust files that can end a test run's process.
//   - bent.go (bent_rb.go, bent_attrs.go): bent expectations ([Bent]): a
//     test that failed at the baseline and passes now because its own
//     expected values changed, not the code it tests.
//   - inventory.go: also [FailedAnyway], the failures a run reported
//     though it exited 0.
//
// Where a runner reports nothing usable, the results say so (Known is
// false) and nothing is counted as run.
package completion

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/state"
)

// Baseline is what a loop knows of its completion command at its start (or
// at the gate that approved a new baseline): the per-test results of its
// run and the digests of what decides it. It is the loop's completion.json.
type Baseline struct {
	Results Results       `json:"results"`
	Inputs  Inputs        `json:"inputs"`
	Failing []Expectation `json:"failing_at_start,omitempty"` // the failing tests' source, for [Bent]
	// Passed is whether the run exited 0: a test it reported failing then
	// is one the command tolerates (see [FailedAnyway]).
	Passed bool `json:"passed,omitempty"`
	// Collected is when Inputs began to be collected: files unchanged
	// since are not read again (see [Collect]).
	Collected time.Time `json:"collected_at"`
}

// BaselinePath returns the loop's completion.json.
func BaselinePath(sc project.Scope) string { return filepath.Join(sc.Dir(), "completion.json") }

// LatestPath returns the loop's completion-latest.json: the results and
// digests of the last iteration, which a gate's approve makes the baseline.
func LatestPath(sc project.Scope) string { return filepath.Join(sc.Dir(), "completion-latest.json") }

// Write replaces the file at path with b, atomically.
func Write(path string, b *Baseline) error {
	data, err := Encode(b)
	if err != nil {
		return fmt.Errorf("encoding %s: %w", path, err)
	}
	return state.WriteFile(path, data, 0o644)
}

// Encode returns the bytes Write writes for b.
func Encode(b *Baseline) ([]byte, error) {
	data, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}

// Read reads the file at path. A missing file is a nil Baseline and no
// error: a loop started before ralph kept one.
func Read(path string) (*Baseline, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return Decode(path, data)
}

// Decode decodes what Read read from the file at path.
func Decode(path string, data []byte) (*Baseline, error) {
	var b Baseline
	if err := json.Unmarshal(data, &b); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &b, nil
}
