package unifrac

import (
	"testing"

	"github.com/twl-ldl/twl/internal/race"
)

// underRace returns the first keep cases under the race detector or with
// -short, all of them otherwise.
func underRace[T any](cases []T, keep int) []T {
	if short() {
		return cases[:keep]
	}
	return cases
}

// short reports whether the tests run under the race detector or with
// -short, where the largest inputs shrink.
func short() bool { return race.Enabled || testing.Short() }

// shrinkTree returns the tree size and the observations per sample of a
// brute-force case under short(): at most 40 and 8, which keep the number
// of samples (and so the 256-sample blocks crossed) and cut the cost of
// the reference.
func shrinkTree(L, k int) (int, int) {
	if short() {
		return min(L, 40), min(k, 8)
	}
	return L, k
}

// layoutWorkers are the numbers of workers whose results must be the same
// bits: one and three under short(), more otherwise.
func layoutWorkers() []int {
	if short() {
		return []int{1, 3}
	}
	return []int{1, 2, 3, 8}
}
