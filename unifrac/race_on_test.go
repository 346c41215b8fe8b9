//go:build race

package unifrac

// raceDetector: the tests run under the race detector, about ten times
// slower; the largest brute-force cases are left out there (the smaller
// ones still cross the 256-sample blocks and use several workers).
const raceDetector = true
