package reflection

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/ralph-hooks/ralph-hooks/internal/crashpoint"
)

// crashChild makes the test binary one process that writes a reflection
// (RALPH_REFLECTION_CHILD=record:ROOT:N) or notes an iteration's patterns
// (patterns:ROOT:N), so that a test can kill it at each of its crash
// points (package crashpoint).
const crashChild = "RALPH_REFLECTION_CHILD"

func TestMain(m *testing.M) {
	if v := os.Getenv(crashChild); v != "" {
		os.Exit(child(v))
	}
	os.Exit(m.Run())
}

func child(v string) int {
	parts := strings.SplitN(v, ":", 3)
	n, _ := strconv.Atoi(parts[2])
	var err error
	switch parts[0] {
	case "record":
		_, err = Record(crashInput(parts[1], n))
	case "patterns":
		err = notePatterns(parts[1], "my-loop", t0.Add(time.Duration(n)*time.Minute), crashPatterns)
	default:
		err = fmt.Errorf("unknown child %q", v)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// crashInput is iteration n of a loop that keeps failing the same way:
// from the second on, its reflection and its failure recur.
func crashInput(root string, n int) Input {
	return Input{Root: root, Loop: "my-loop", Iteration: n, Time: t0.Add(time.Duration(n) * time.Minute), Outcome: Failure,
		Task: "fix the adder", Message: "<reflection>Attempted: changed Add\nLearned: overflow\nNext: test Sub</reflection>",
		Failing: []string{"TestAdd"}}
}

// crashPatterns are an iteration's two signatures, both recurring from the
// second time they are noted.
var crashPatterns = []pattern{{kind: "reflection", sig: "0123456789ab", example: "the same words"}, {kind: "failure", sig: "ba9876543210", example: "TestAdd"}}

// runChild runs the child job in root, killed at its at-th crash point (0:
// not killed; with log set, the points passed are appended to it). It
// returns whether it was killed.
func runChild(t *testing.T, job, root string, n, at int, log string) bool {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s:%s:%d", crashChild, job, root, n))
	if at > 0 {
		cmd.Env = append(cmd.Env, fmt.Sprintf("%s=%d", crashpoint.AtEnv, at))
	}
	if log != "" {
		cmd.Env = append(cmd.Env, crashpoint.LogEnv+"="+log)
	}
	out, err := cmd.CombinedOutput()
	if err == nil {
		return false
	}
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == -1 && strings.Contains(ee.String(), "killed") {
		return true
	}
	t.Fatalf("%s child: %v\n%s", job, err, out)
	return false
}

// crashPoints counts the crash points the job passes in a fresh copy of
// the project made by setup.
func crashPoints(t *testing.T, job string, n int, setup func(root string)) int {
	t.Helper()
	root := t.TempDir()
	setup(root)
	log := filepath.Join(t.TempDir(), "points")
	runChild(t, job, root, n, 0, log)
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(data), "\n")
}

// A reflection killed at any crash point of its write (the iteration's
// file and signatures.json, synced at once and renamed in that order)
// leaves a loop whose index counts no iteration without its file; written
// again, the iteration is counted once. With the index renamed first, a
// crash between the two renames leaves iteration 3 counted and its file
// missing, and the second write counts it twice: the loop looks stuck.
func TestCrashReflection(t *testing.T) {
	setup := func(root string) {
		for n := 1; n <= 2; n++ {
			if _, err := Record(crashInput(root, n)); err != nil {
				t.Fatal(err)
			}
		}
	}
	points := crashPoints(t, "record", 3, setup)
	if points < 2 {
		t.Fatalf("a reflection's write passes %d crash points, want its sync and its renames", points)
	}
	for at := 1; at <= points; at++ {
		t.Run(fmt.Sprint(at), func(t *testing.T) {
			root := t.TempDir()
			setup(root)
			if !runChild(t, "record", root, 3, at, "") {
				t.Fatalf("not killed at point %d of %d", at, points)
			}
			dir := loopDir(root, "my-loop")
			idx := readIndex(t, dir)
			for _, n := range counted(idx) {
				if _, err := os.Stat(iterationPath(dir, n)); err != nil {
					t.Errorf("signatures.json counts iteration %d, but its file is missing: %v", n, err)
				}
			}
			if _, err := Record(crashInput(root, 3)); err != nil {
				t.Fatalf("writing the reflection again: %v", err)
			}
			idx = readIndex(t, dir)
			for _, m := range []map[string]*seen{idx.Reflections, idx.Failures} {
				for k, s := range m {
					if want := []int{1, 2, 3}; fmt.Sprint(s.Iterations) != fmt.Sprint(want) || s.Count != 3 {
						t.Errorf("signature %s: count %d, iterations %v; want 3, %v", k, s.Count, s.Iterations, want)
					}
				}
			}
			if idx.Last != 3 {
				t.Errorf("last iteration %d, want 3", idx.Last)
			}
		})
	}
}

// An iteration's patterns killed at any crash point of their write (the
// pattern files and seen.json, synced at once and renamed in that order)
// leave no signature that seen.json counts as recurring without its
// pattern file, nor a pattern file behind seen.json's count. With
// seen.json renamed first, a crash leaves a count of two with no file.
func TestCrashPatterns(t *testing.T) {
	setup := func(root string) {
		if err := notePatterns(root, "my-loop", t0, crashPatterns); err != nil {
			t.Fatal(err)
		}
	}
	points := crashPoints(t, "patterns", 2, setup)
	if points < 3 {
		t.Fatalf("noting two recurring patterns passes %d crash points, want the sync and the renames", points)
	}
	for at := 1; at <= points; at++ {
		t.Run(fmt.Sprint(at), func(t *testing.T) {
			root := t.TempDir()
			setup(root)
			if !runChild(t, "patterns", root, 2, at, "") {
				t.Fatalf("not killed at point %d of %d", at, points)
			}
			dir := patternDir(root)
			var m map[string]*Pattern
			data, err := os.ReadFile(filepath.Join(dir, seenFile))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(data, &m); err != nil {
				t.Fatalf("seen.json: %v", err)
			}
			for key, p := range m {
				if p.Count < 2 {
					continue
				}
				data, err := os.ReadFile(filepath.Join(dir, key+".yaml"))
				if err != nil {
					t.Errorf("seen.json counts %s %d times, but its pattern file is missing: %v", key, p.Count, err)
					continue
				}
				var f Pattern
				if err := yaml.Unmarshal(data, &f); err != nil {
					t.Fatalf("pattern %s: %v", key, err)
				}
				if f.Count < p.Count {
					t.Errorf("pattern %s says %d times, seen.json %d", key, f.Count, p.Count)
				}
			}
		})
	}
}

// readIndex reads a loop's signatures.json.
func readIndex(t *testing.T, dir string) *index {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, indexFile))
	if err != nil {
		t.Fatal(err)
	}
	idx, err := loadIndex(dir, data)
	if err != nil {
		t.Fatal(err)
	}
	return idx
}

// counted lists the iterations an index names.
func counted(idx *index) []int {
	ns := []int{idx.Last}
	for _, r := range idx.Recent {
		ns = append(ns, r.N)
	}
	for _, m := range []map[string]*seen{idx.Reflections, idx.Failures} {
		for _, s := range m {
			ns = append(ns, s.Iterations...)
		}
	}
	return ns
}
