package dataset

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// Split draws a random partition of 0..n-1 into a training part of
// round(frac·n) indices and a test part of the rest, each sorted
// ascending. Either part may be empty (frac 0 or 1, or a small n). The
// partition depends only on n, frac and the sequence of src. It panics if
// n < 0 or frac is outside [0, 1].
func Split(n int, frac float64, src rand.Source) (train, test []int) {
	if n < 0 || !(0 <= frac && frac <= 1) {
		panic(fmt.Sprintf("dataset: Split(%d, %v): need n ≥ 0 and 0 ≤ frac ≤ 1", n, frac))
	}
	perm := rand.New(src).Perm(n)
	k := int(math.Round(frac * float64(n)))
	train, test = perm[:k:k], perm[k:]
	slices.Sort(train)
	slices.Sort(test)
	return train, test
}

// KFold draws a random partition of 0..n-1 into k folds for k-fold cross
// validation: folds[f] is the test part of fold f (sorted ascending), and the
// other folds together its training part. Fold sizes differ by at most one:
// the first n mod k folds have ⌊n/k⌋+1 indices, the others ⌊n/k⌋. The
// partition depends only on n, k and the sequence of src. It panics unless
// 1 ≤ k ≤ n.
func KFold(n, k int, src rand.Source) [][]int {
	if k < 1 || k > n {
		panic(fmt.Sprintf("dataset: KFold(%d, %d): need 1 ≤ k ≤ n", n, k))
	}
	perm := rand.New(src).Perm(n)
	folds := make([][]int, k)
	start := 0
	for f := range folds {
		size := n / k
		if f < n%k {
			size++
		}
		folds[f] = perm[start : start+size : start+size]
		slices.Sort(folds[f])
		start += size
	}
	return folds
}

// Complement returns the sorted indices of 0..n-1 that are not in idx: the
// training part of a fold from KFold. It panics if idx holds an index out
// of range.
func Complement(n int, idx []int) []int {
	in := make([]bool, n)
	for _, i := range idx {
		if i < 0 || i >= n {
			panic(fmt.Sprintf("dataset: Complement index %d out of range [0, %d)", i, n))
		}
		in[i] = true
	}
	out := make([]int, 0, n-len(idx))
	for i, ok := range in {
		if !ok {
			out = append(out, i)
		}
	}
	return out
}
