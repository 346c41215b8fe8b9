package unifrac

// underRace returns the first keep cases under the race detector, all of
// them otherwise.
func underRace[T any](cases []T, keep int) []T {
	if raceDetector {
		return cases[:keep]
	}
	return cases
}
