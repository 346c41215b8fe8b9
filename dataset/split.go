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

// Partition draws a random partition of 0..n-1 into len(fracs) parts of
// about fracs[k]·n indices each, every part sorted ascending: the parts are
// consecutive runs of one random permutation, cut at round(n·(fracs[0] + …
// + fracs[k])) so that their sizes add up to n. The paper's text experiment
// uses fracs 0.64, 0.16, 0.20 (train, validation, test). The partition
// depends only on n, fracs and the sequence of src; Partition(n, {f, 1−f},
// src) gives the same parts as Split(n, f, src). It panics if n < 0, a
// fraction is negative or NaN, or the fractions do not sum to 1 within
// 1e-9.
func Partition(n int, fracs []float64, src rand.Source) [][]int {
	var sum float64
	for _, f := range fracs {
		if !(f >= 0) {
			panic(fmt.Sprintf("dataset: Partition: fraction %v is not ≥ 0", f))
		}
		sum += f
	}
	if n < 0 || len(fracs) == 0 || math.Abs(sum-1) > 1e-9 {
		panic(fmt.Sprintf("dataset: Partition(%d, %v): need n ≥ 0 and fractions that sum to 1", n, fracs))
	}
	perm := rand.New(src).Perm(n)
	parts := make([][]int, len(fracs))
	start := 0
	var cum float64
	for k, f := range fracs {
		cum += f
		end := int(math.Round(cum * float64(n)))
		if k == len(fracs)-1 {
			end = n
		}
		end = min(max(end, start), n)
		parts[k] = perm[start:end:end]
		slices.Sort(parts[k])
		start = end
	}
	return parts
}
