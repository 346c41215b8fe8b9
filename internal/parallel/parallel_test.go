package parallel

import (
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
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

// TestEachCovers checks that Each runs every task exactly once, with more
// tasks than fit the claim word's part count (grouped) among the sizes.
func TestEachCovers(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 64, maxParts + 7} {
		for _, w := range []int{0, 1, 2, 5} {
			hits := make([]int32, n)
			Each(n, w, func(i int) { atomic.AddInt32(&hits[i], 1) })
			for i, h := range hits {
				if h != 1 {
					t.Fatalf("n=%d workers=%d: task %d run %d times", n, w, i, h)
				}
			}
		}
	}
}

// TestForWorkerBound checks that no more than workers goroutines run a
// loop's function at once, for For and Each, on the team and beside it,
// with more processors than workers, and that For's parts are those Parts
// promises.
func TestForWorkerBound(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	var active, peak atomic.Int32
	// occupy counts itself among the goroutines at work for a while.
	occupy := func() {
		a := active.Add(1)
		for p := peak.Load(); a > p && !peak.CompareAndSwap(p, a); p = peak.Load() {
		}
		time.Sleep(150 * time.Microsecond)
		active.Add(-1)
	}
	for _, busy := range []bool{false, true} {
		team.busy.Store(busy)
		// 3 first: the team then has two workers, both spinning when the
		// loops for 2, which admit one of them, start.
		for _, workers := range []int{3, 2, 1} {
			var calls atomic.Int32
			peak.Store(0)
			For(1000, workers, 1, func(lo, hi int) {
				calls.Add(1)
				occupy()
			})
			if p := peak.Load(); p > int32(workers) {
				t.Errorf("For, team busy %v, workers %d: %d goroutines at once", busy, workers, p)
			}
			if c, want := calls.Load(), int32(Parts(1000, workers, 1)); c != want {
				t.Errorf("For, team busy %v, workers %d: %d parts, want %d", busy, workers, c, want)
			}
			peak.Store(0)
			Each(12, workers, func(int) { occupy() })
			if p := peak.Load(); p > int32(workers) {
				t.Errorf("Each, team busy %v, workers %d: %d goroutines at once", busy, workers, p)
			}
		}
	}
	team.busy.Store(false)
}

// TestJudge checks the team's rest rule on made-up loop timings: a stall
// (a wait longer than the caller's work by more than stallLimit) alone does
// nothing, a second within strikeWindow starts a rest of minRest, the rests
// double up to maxRest, and after calmTime without a stall they start again
// from minRest.
func TestJudge(t *testing.T) {
	p := pool{rest: minRest, lastStall: -calmTime}
	ms := time.Millisecond
	restUntil := func() time.Duration { return time.Duration(p.restUntil.Load()) }
	p.judge(10*ms, 10*ms+stallLimit, 5*ms) // not a stall: wait ≤ work + limit
	p.judge(ms, ms/2, 6*ms)                // a good loop
	if restUntil() != 0 || p.lastStall != -calmTime {
		t.Fatalf("rest until %v, last stall %v after loops without a stall", restUntil(), p.lastStall)
	}
	now := 100 * ms
	p.judge(ms, 5*ms, now) // the first stall
	if restUntil() != 0 {
		t.Fatalf("rest after one stall")
	}
	want := minRest
	for range 8 {
		now += strikeWindow / 2
		p.judge(ms, 5*ms, now)
		if got := restUntil() - now; got != want {
			t.Fatalf("rest of %v, want %v", got, want)
		}
		want = min(2*want, maxRest)
	}
	now += strikeWindow + ms // a lone stall: no new rest
	before := restUntil()
	p.judge(ms, 5*ms, now)
	if restUntil() != before {
		t.Fatalf("rest after a lone stall")
	}
	now += calmTime + ms // calm: rests start again from minRest
	p.judge(ms, 5*ms, now)
	now += ms
	p.judge(ms, 5*ms, now)
	if got := restUntil() - now; got != minRest {
		t.Fatalf("rest of %v after a calm, want %v", got, minRest)
	}
}

// TestForResting checks that a resting team runs every part once, on the
// caller alone.
func TestForResting(t *testing.T) {
	team.restUntil.Store(int64(time.Since(epoch) + time.Hour))
	defer team.restUntil.Store(0)
	var active, peak atomic.Int32
	hits := make([]int32, 100)
	For(100, 2, 1, func(lo, hi int) {
		a := active.Add(1)
		for p := peak.Load(); a > p && !peak.CompareAndSwap(p, a); p = peak.Load() {
		}
		time.Sleep(100 * time.Microsecond)
		for i := lo; i < hi; i++ {
			hits[i]++
		}
		active.Add(-1)
	})
	for i, h := range hits {
		if h != 1 {
			t.Fatalf("index %d visited %d times", i, h)
		}
	}
	if p := peak.Load(); p != 1 {
		t.Errorf("%d goroutines at once while the team rests", p)
	}
}

// TestGenerationWrap checks that the generation wraps within its 32 bits
// and that loops run, on the team, across the wrap (before the fix, the
// caller of the loop after generation 2³² − 1 claimed nothing, and with no
// worker to help the loop never ended).
func TestGenerationWrap(t *testing.T) {
	if g := nextGen(genMask<<32 | 0x1234); g != 0 {
		t.Fatalf("generation after 2³² − 1: %#x, want 0", g)
	}
	if g := nextGen(7<<32 | 0xffff_ffff); g != 8 {
		t.Fatalf("generation after 7: %d, want 8", g)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	for _, start := range []uint64{genMask - 1, genMask} {
		team.claim.Store(start << 32)
		for range 3 {
			hits := make([]int32, 100)
			For(100, 2, 1, func(lo, hi int) {
				for i := lo; i < hi; i++ {
					atomic.AddInt32(&hits[i], 1)
				}
			})
			for i, h := range hits {
				if h != 1 {
					t.Fatalf("from generation %#x: index %d visited %d times", start, i, h)
				}
			}
		}
	}
}

// goid returns the current goroutine's id, read from its stack trace.
func goid() string {
	var buf [64]byte
	f := strings.Fields(string(buf[:runtime.Stack(buf[:], false)]))
	return f[1] // "goroutine N [running]:"
}

// TestForPanic checks that a panic in a part the caller runs reaches the
// caller once the workers' parts are done, and leaves the team free for the
// next loop.
func TestForPanic(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	team.restUntil.Store(0)
	caller := goid()
	var workerRunning atomic.Bool
	// try runs a loop whose parts panic on the caller, and reports whether
	// one did (a worker quick enough may take every part).
	try := func() (panicked bool) {
		defer func() {
			r := recover()
			if r == nil {
				return
			}
			if r != "boom" {
				t.Fatalf("recovered %v, want the part's panic", r)
			}
			if workerRunning.Load() {
				t.Errorf("the panic came up while a worker still ran a part")
			}
			panicked = true
		}()
		ForParts(8, 2, 1, func(p, lo, hi int) {
			if goid() == caller {
				panic("boom")
			}
			workerRunning.Store(true)
			time.Sleep(2 * time.Millisecond)
			workerRunning.Store(false)
		})
		return false
	}
	panicked := false
	for range 20 {
		if panicked = try(); panicked {
			break
		}
	}
	if !panicked {
		t.Fatal("no part ran on the caller in 20 loops")
	}
	if team.busy.Load() {
		t.Fatal("the team is still busy after the panic")
	}
	hits := make([]int32, 10)
	For(10, 2, 1, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			atomic.AddInt32(&hits[i], 1)
		}
	})
	for i, h := range hits {
		if h != 1 {
			t.Fatalf("after the panic: index %d visited %d times", i, h)
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

// TestPace checks pace's choice on made-up loop timings: the first windows
// alternate between the team and the caller alone until each way is timed
// paceHistory times; then each window runs the way whose median time per
// loop is lower, a single slow window changing nothing, with a trial of the
// other way after every trialWindows windows; a window that reaches
// windowTime before windowLoops loops starts everything afresh, on the
// team.
func TestPace(t *testing.T) {
	var c pace
	now := time.Duration(0)
	// expect runs windows of loops that take team or alone each, the way
	// pace chooses, and checks the ways against want ('T' the team, 'S'
	// alone, in lower case for a window of trialLoops loops, the way not
	// chosen, rather than windowLoops).
	expect := func(what, want string, team, alone time.Duration) {
		t.Helper()
		got := make([]byte, len(want))
		for i := range want {
			per := team
			got[i] = 'T'
			if c.solo {
				per, got[i] = alone, 'S'
			}
			c.start = now
			loops := 0
			for {
				now += per
				loops++
				c.add(now)
				if c.loops == 0 {
					break
				}
			}
			switch loops {
			case trialLoops:
				got[i] += 'a' - 'A'
			case windowLoops:
			default:
				t.Fatalf("%s: window %d has %d loops", what, i, loops)
			}
		}
		if string(got) != want {
			t.Fatalf("%s: ways %s, want %s", what, got, want)
		}
	}
	us := time.Microsecond
	team15 := strings.Repeat("T", trialWindows-1)
	solo15 := strings.Repeat("S", trialWindows-1)
	expect("first windows", "TsTsTs", 50*us, 80*us)
	// The team is faster (50 µs a loop against 80): the team, with a
	// short trial alone after every trialWindows windows (counted from the
	// first).
	expect("team faster", strings.Repeat("T", trialWindows-6)+"s"+team15+"s"+"T", 50*us, 80*us)
	// One window of the team slowed by a stall decides nothing.
	expect("one slow window", "T", 500*us, 80*us)
	expect("after it", "TT", 50*us, 80*us)
	// The team slows to 120 µs a loop (a busy machine): once two of its
	// last three windows are that slow, alone, with short trials on the
	// team.
	c.windows = 0
	expect("team slower", "TT"+solo15[1:]+"t"+solo15+"t", 120*us, 80*us)
	// Long loops: the window reaches windowTime early; timing starts
	// afresh, on the team.
	c.start = now
	for range 3 {
		now += windowTime / 2
		c.add(now)
	}
	if c != (pace{}) {
		t.Fatalf("after long loops: %+v, want the zero pace", c)
	}
}
