package unifrac

import "testing"

// underRace returns the first keep cases under the race detector or with
// -short, all of them otherwise.
func underRace[T any](cases []T, keep int) []T {
	if raceDetector || testing.Short() {
		return cases[:keep]
	}
	return cases
}
