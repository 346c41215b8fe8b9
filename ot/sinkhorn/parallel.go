package sinkhorn

import (
	"sync"
	"sync/atomic"
)

// parMin is the number of matrix entries below which a single solve runs
// on one goroutine: spawning goroutines costs more than it saves there.
const parMin = 1 << 15

// parallel calls fn(task) for every task in [0, tasks) using at most
// workers goroutines (the caller's included). Tasks are independent, so
// the results do not depend on which goroutine ran which task.
func parallel(workers, tasks int, fn func(task int)) {
	if workers > tasks {
		workers = tasks
	}
	if workers <= 1 {
		for t := range tasks {
			fn(t)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	work := func() {
		for {
			t := int(next.Add(1)) - 1
			if t >= tasks {
				return
			}
			fn(t)
		}
	}
	wg.Add(workers - 1)
	for range workers - 1 {
		go func() {
			defer wg.Done()
			work()
		}()
	}
	work()
	wg.Wait()
}

// span returns the half-open range of block k when [0, total) is cut into
// blocks of size size.
func span(k, size, total int) (lo, hi int) {
	lo = k * size
	return lo, min(lo+size, total)
}
