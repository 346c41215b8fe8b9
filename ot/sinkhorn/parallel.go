package sinkhorn

import par "github.com/twl-ldl/twl/internal/parallel"

// parMin is the number of matrix entries below which a single solve runs
// on one goroutine: handing parts to other cores costs more than it saves
// there.
const parMin = 1 << 15

// parallel calls fn(task) for every task in [0, tasks) using at most
// workers goroutines (the caller's included), on the worker team of
// internal/parallel (an iteration runs a few such loops, too short to start
// goroutines for). Tasks are independent, so the results do not depend on
// which goroutine ran which task.
func parallel(workers, tasks int, fn func(task int)) {
	par.Each(tasks, max(workers, 1), fn)
}

// span returns the half-open range of block k when [0, total) is cut into
// blocks of size size.
func span(k, size, total int) (lo, hi int) {
	lo = k * size
	return lo, min(lo+size, total)
}
