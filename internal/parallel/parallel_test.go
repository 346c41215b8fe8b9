package parallel

import (
	"fmt"
	"testing"
	"time"
)

// TestForCovers checks that the ranges cover [0, n) exactly once, for
// sizes around the chunking thresholds.
func TestForCovers(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 7, 64, 65, 1000} {
		for _, w := range []int{0, 1, 2, 3, 16} {
			for _, c := range []int{0, 1, 10} {
				hits := make([]int32, n)
				For(n, w, c, func(lo, hi int) {
					for i := lo; i < hi; i++ {
						hits[i]++
					}
				})
				for i, h := range hits {
					if h != 1 {
						t.Fatalf("n=%d workers=%d chunk=%d: index %d visited %d times", n, w, c, i, h)
					}
				}
			}
		}
	}
}

// TestForConcurrent checks coverage when loops run on the team and beside
// it at once: several goroutines calling For, and For inside For's function
// (the team is then busy and For falls back to goroutines).
func TestForConcurrent(t *testing.T) {
	const n = 97
	errs := make(chan string, 8)
	done := make(chan struct{})
	for g := 0; g < 4; g++ {
		go func() {
			defer func() { done <- struct{}{} }()
			for it := 0; it < 200; it++ {
				hits := make([]int32, n*n)
				For(n, 3, 1, func(lo, hi int) {
					for i := lo; i < hi; i++ {
						For(n, 2, 1, func(lo2, hi2 int) {
							for j := lo2; j < hi2; j++ {
								hits[i*n+j]++
							}
						})
					}
				})
				for k, h := range hits {
					if h != 1 {
						errs <- fmt.Sprintf("iteration %d: index %d visited %d times", it, k, h)
						return
					}
				}
			}
		}()
	}
	for range 4 {
		<-done
	}
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
}

// TestForSequence runs many short loops back to back, with pauses longer
// than spinTime now and then so that workers park and must be woken, and
// checks each loop's coverage.
func TestForSequence(t *testing.T) {
	for it := 0; it < 3000; it++ {
		if it%500 == 0 {
			time.Sleep(2 * spinTime)
		}
		n := 2 + it%9
		hits := make([]int32, n)
		For(n, 0, 1, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				hits[i]++
			}
		})
		for i, h := range hits {
			if h != 1 {
				t.Fatalf("loop %d: index %d visited %d times", it, i, h)
			}
		}
	}
}

// BenchmarkHandOff times loops of two parts of a microsecond or two each,
// separated by twice as much work on the calling goroutine alone, the
// pattern of a training step (BenchmarkEpoch in package train shows the
// effect at full size): on the team, and with a goroutine per part (the fallback
// when the team is busy). With the goroutines, the other processor goes
// idle between loops and must be woken for each.
func BenchmarkHandOff(b *testing.B) {
	var sink [2]float64
	work := func(k int, iters int) {
		x := sink[k]
		for range iters {
			x = x*0.999 + 1
		}
		sink[k] = x
	}
	for _, mode := range []string{"team", "goroutines"} {
		b.Run(mode, func(b *testing.B) {
			if mode == "goroutines" {
				team.busy.Store(true)
				defer team.busy.Store(false)
			}
			b.ReportAllocs()
			for b.Loop() {
				work(0, 2000)
				For(2, 2, 1, func(lo, hi int) {
					work(lo, 1000)
				})
			}
		})
	}
}
