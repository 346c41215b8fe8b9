// Package parallel splits loops over disjoint ranges across goroutines.
package parallel

import (
	"runtime"
	"sync"
)

// For calls fn(lo, hi) on contiguous ranges that cover [0, n), on at most
// workers goroutines (workers ≤ 0 means runtime.GOMAXPROCS(0)), each range
// at least minChunk long (so that small loops run on the calling goroutine
// alone). The ranges depend only on n, workers and minChunk, so a loop whose
// iterations write disjoint outputs gives the same results whatever the
// scheduling.
func For(n, workers, minChunk int, fn func(lo, hi int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	parts := min(workers, n/max(minChunk, 1))
	if parts <= 1 {
		if n > 0 {
			fn(0, n)
		}
		return
	}
	var wg sync.WaitGroup
	wg.Add(parts - 1)
	for p := 1; p < parts; p++ {
		go func(lo, hi int) {
			defer wg.Done()
			fn(lo, hi)
		}(p*n/parts, (p+1)*n/parts)
	}
	fn(0, n/parts)
	wg.Wait()
}
