//go:build !race

package unifrac

// raceDetector: see race_on_test.go.
const raceDetector = false
