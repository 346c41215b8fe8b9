//go:build race

package main

// raceDetector: the tests run under the race detector, several times
// slower and larger; the hostile reading cases are made smaller there, and
// their memory bounds looser.
const raceDetector = true
