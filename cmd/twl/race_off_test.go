//go:build !race

package main

// raceDetector: the tests run without the race detector.
const raceDetector = false
