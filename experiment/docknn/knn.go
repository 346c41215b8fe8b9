package docknn

import (
	"cmp"
	"slices"
)

// rank sets order to the indices 0 … len(row)−1 sorted by row[i], ties by
// index, and returns it (grown if needed).
func rank(order []int32, row []float64) []int32 {
	order = order[:0]
	for i := range row {
		order = append(order, int32(i))
	}
	slices.SortFunc(order, func(i, j int32) int {
		if c := cmp.Compare(row[i], row[j]); c != 0 {
			return c
		}
		return cmp.Compare(i, j)
	})
	return order
}

// vote returns the class chosen by the k nearest documents, order listing
// the documents nearest first: the most frequent class among them, and on a
// tie the class of the nearest of the tied documents. counts (one per
// class, all zero) is scratch, left all zero.
func vote(order []int32, k int, class []int, counts []int) int {
	best, bestCount := -1, 0
	for _, i := range order[:k] {
		counts[class[i]]++
	}
	// The first document in order whose class has the highest count:
	// the nearest of the tied classes.
	for _, i := range order[:k] {
		if c := counts[class[i]]; c > bestCount {
			best, bestCount = class[i], c
		}
	}
	for _, i := range order[:k] {
		counts[class[i]] = 0
	}
	return best
}

// KNNErrors returns, for each k of ks, the k-nearest-neighbour
// classification error of the test documents: the fraction whose vote
// (most frequent class among the k nearest training documents, ties
// between documents by index and between classes to the nearest) is not
// their class. dist is the test-by-training distance matrix, row-major,
// len(testClass) rows of len(trainClass); classes are in [0, classes).
// It also returns the nearest training document of each test document.
//
// It panics if len(dist) != len(testClass)·len(trainClass), if a k is
// below 1 or above len(trainClass), or if a class is outside [0, classes).
// The inputs are not modified.
func KNNErrors(dist []float64, trainClass, testClass []int, classes int, ks []int) (errs []float64, nearest []int) {
	nTrain, nTest := len(trainClass), len(testClass)
	if len(dist) != nTrain*nTest {
		panic("docknn: KNNErrors: len(dist) != len(testClass)·len(trainClass)")
	}
	kmax := 0
	for _, k := range ks {
		if k < 1 || k > nTrain {
			panic("docknn: KNNErrors: k outside [1, len(trainClass)]")
		}
		kmax = max(kmax, k)
	}
	for _, c := range slices.Concat(trainClass, testClass) {
		if c < 0 || c >= classes {
			panic("docknn: KNNErrors: class out of range")
		}
	}
	wrong := make([]int, len(ks))
	nearest = make([]int, nTest)
	counts := make([]int, classes)
	var order []int32
	for i := range nTest {
		order = rank(order, dist[i*nTrain:(i+1)*nTrain])
		nearest[i] = int(order[0])
		for q, k := range ks {
			if vote(order, k, trainClass, counts) != testClass[i] {
				wrong[q]++
			}
		}
	}
	errs = make([]float64, len(ks))
	for q := range ks {
		errs[q] = float64(wrong[q]) / float64(max(nTest, 1))
	}
	return errs, nearest
}
