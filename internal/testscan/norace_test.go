//go:build !race

package testscan

// raceDetector says the tests run under the race detector, where the
// timing tests use smaller inputs.
const raceDetector = false
