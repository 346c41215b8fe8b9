package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// maxParts bounds the number of parts of one loop (it must fit the claim
// word's 16-bit fields).
const maxParts = 1 << 12

// genMask keeps a loop generation to the 32 bits of its fields.
const genMask = 1<<32 - 1

// spinTime is how long an idle worker keeps polling for the next loop
// before it parks. It is short enough that an idle program burns no
// measurable time, and longer than the gaps between the loops of a
// training step.
const spinTime = 100 * time.Microsecond

// For calls fn(lo, hi) on contiguous ranges that cover [0, n), on at most
// workers goroutines at once (workers ≤ 0 means runtime.GOMAXPROCS(0)).
// There are at most n/minChunk ranges (so that small loops run on the
// calling goroutine alone, as one range); they are those of Parts, which
// depend only on n, workers and minChunk, so a loop whose iterations write
// disjoint outputs gives the same results whatever the scheduling. A panic
// in fn ends the program if fn ran on another goroutine, and otherwise
// reaches the caller once the other goroutines' ranges are done.
func For(n, workers, minChunk int, fn func(lo, hi int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	split(n, Parts(n, workers, minChunk), workers, body{ranges: fn})
}

// ForParts is For with the part's index: for n > 0 it cuts [0, n) into
// parts = Parts(n, workers, minChunk) ranges, part p being
// [p·n/parts, (p+1)·n/parts), and calls fn(p, lo, hi) exactly once for each,
// so that fn may use scratch space indexed by p. A caller that sizes such
// space with Parts must pass both the same positive workers: with
// workers ≤ 0 each reads GOMAXPROCS, which may change in between.
func ForParts(n, workers, minChunk int, fn func(part, lo, hi int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	split(n, Parts(n, workers, minChunk), workers, body{parts: fn})
}

// Each calls fn(task) for every task in [0, tasks), on at most workers
// goroutines at once (workers ≤ 0 means runtime.GOMAXPROCS(0)), handing the
// tasks out one at a time (in groups when there are more than 4096) to
// whichever goroutine is free.
func Each(tasks, workers int, fn func(task int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	parts := min(tasks, maxParts)
	if workers == 1 {
		parts = min(tasks, 1)
	}
	split(tasks, parts, workers, body{tasks: fn})
}

// body is a loop's function, in one of its three forms.
type body struct {
	ranges func(lo, hi int)
	parts  func(part, lo, hi int)
	tasks  func(task int)
}

// run runs part p of [0, n) cut into parts parts.
func (b body) run(n, parts, p int) {
	lo, hi := p*n/parts, (p+1)*n/parts
	switch {
	case b.ranges != nil:
		b.ranges(lo, hi)
	case b.parts != nil:
		b.parts(p, lo, hi)
	default:
		for t := lo; t < hi; t++ {
			b.tasks(t)
		}
	}
}

// split runs fn on the parts of [0, n) on at most workers goroutines.
func split(n, parts, workers int, fn body) {
	if parts <= 1 {
		if n > 0 {
			fn.run(n, 1, 0)
		}
		return
	}
	helpers := min(workers, parts) - 1
	if team.run(n, parts, helpers, fn) {
		return
	}
	// The team is busy: helpers goroutines of our own, claiming parts like
	// the team's workers.
	var next atomic.Int32
	work := func() {
		for {
			p := int(next.Add(1)) - 1
			if p >= parts {
				return
			}
			fn.run(n, parts, p)
		}
	}
	var wg sync.WaitGroup
	wg.Add(helpers)
	for range helpers {
		go func() {
			defer wg.Done()
			work()
		}()
	}
	work()
	wg.Wait()
}

// Parts returns the number of parts ForParts cuts a loop into:
// min(workers, n/minChunk, 4096), at least 1 (one part per worker: see the
// package documentation); for one worker
// 1 (workers ≤ 0 means runtime.GOMAXPROCS(0)).
func Parts(n, workers, minChunk int) int {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if workers == 1 {
		return 1
	}
	return max(1, min(workers, n/max(minChunk, 1), maxParts))
}

// pool is the team of workers. One loop runs on it at a time: busy is held
// from publishing a loop until all its parts are done.
type pool struct {
	busy atomic.Bool
	mu   sync.Mutex // guards starting workers
	// workers is the number of workers started.
	workers atomic.Int32

	// The current loop. claim packs the loop's generation (bits 32–63),
	// the next unclaimed part (bits 16–31) and the number of parts (bits
	// 0–15), so that a worker still holding an old generation can never
	// claim a part of a newer loop. fn and n are written before the
	// generation is published and read only after a successful claim; they
	// do not change until every part, that claimed one included, is done.
	claim atomic.Uint64
	done  atomic.Int32
	fn    body
	n     int
	// seats packs the loop's generation (bits 32–63) and the number of
	// workers it still admits (bits 0–31: its caller's worker count less
	// one, at most parts − 1 and GOMAXPROCS − 1); a worker takes a seat by
	// decrementing it while the generation is its loop's.
	seats atomic.Uint64

	// parked counts the workers blocked on wake.
	parked atomic.Int32
	wake   chan struct{}

	// The team's health (see judge): loops before restUntil (nanoseconds
	// since epoch) run on their callers alone. lastStall and rest are
	// guarded by busy.
	restUntil atomic.Int64
	lastStall time.Duration
	rest      time.Duration

	// pace, guarded by busy, times For's loops on the team and on the
	// caller alone.
	pace pace
}

// The constants of pace.
const (
	windowLoops  = 128
	trialLoops   = windowLoops / 4
	windowTime   = 100 * time.Millisecond
	trialWindows = 16
	paceHistory  = 3
)

// pace chooses how For's loops run, window after window of windowLoops
// loops: on the team, or on their callers alone. Stalls (see judge) are one
// way the team loses to a single core; another is a processor shared with
// other programs, where every time slice a spinning worker takes is lost to
// the caller and its loops run slower throughout. So pace compares the
// two ways by what counts, the wall time per loop, from the first loop of
// a window to the end of its last, the code between the loops included
// (for the loops of a training run, the same few loops step after step).
// It keeps the last paceHistory timings of each way; the first windows
// alternate until each way has them all, then each window runs the way
// whose median is lower (so that one window slowed by chance decides
// nothing), except that every trialWindows-th window tries the other, since
// the load of a machine changes. A window of the way not chosen (a trial,
// and the caller alone while the first windows alternate) has trialLoops
// loops, a quarter of the others: it is likely the slower way, and a
// training run of a few thousand loops on an idle second core would
// otherwise spend several percent of its time proving it again. A window
// that reaches windowTime before its loops are done (long loops, or loops
// far apart, whose hand-offs cost little) ends the timing: the loops return
// to the team and the timing starts afresh, so that a long loop never runs
// on one core for a trial. However the loops run, their parts are the
// same.
type pace struct {
	start   time.Duration                 // when the window's first loop started
	loops   int                           // loops done in the window
	solo    bool                          // whether the window's loops run on their callers alone
	times   [2][paceHistory]time.Duration // the last windows' wall times per loop, on the team [0] and alone [1]
	timed   [2]int                        // windows timed each way
	windows int                           // windows since the last trial
	trial   bool                          // whether the window runs the way not chosen (trialLoops long)
}

// add records a loop of the window that ended at now (since epoch).
func (c *pace) add(now time.Duration) {
	c.loops++
	limit := windowLoops
	if c.trial {
		limit = trialLoops
	}
	if c.loops < limit && now-c.start < windowTime {
		return
	}
	if c.loops < limit {
		*c = pace{}
		return
	}
	mode := 0
	if c.solo {
		mode = 1
	}
	c.times[mode][c.timed[mode]%paceHistory] = (now - c.start) / time.Duration(c.loops)
	c.timed[mode]++
	c.loops = 0
	c.windows++
	switch {
	case c.timed[1-mode] < paceHistory:
		// While the ways alternate, the team is taken for the faster.
		c.solo = !c.solo
		c.trial = c.solo
	case c.windows >= trialWindows:
		c.solo, c.windows, c.trial = !c.solo, 0, true
	default:
		// (Both ways are timed paceHistory times: the first windows
		// alternate until the way just timed is.)
		c.solo = median3(c.times[1]) < median3(c.times[0])
		c.trial = false
	}
}

// median3 returns the median of three durations.
func median3(t [paceHistory]time.Duration) time.Duration {
	a, b, c := t[0], t[1], t[2]
	return max(min(a, b), min(max(a, b), c))
}

var team = pool{wake: make(chan struct{}, 1<<10), rest: minRest, lastStall: -calmTime}

// epoch is the origin of the team's monotonic clock readings.
var epoch = time.Now()

// The constants of judge. A stall is far longer than waking a worker or a
// garbage collection's pause (tens of microseconds) and about a scheduler's
// time slice (milliseconds); on a quiet machine stalls are rare, on one
// whose other core is busy some tens a second.
const (
	stallLimit   = time.Millisecond
	strikeWindow = time.Second
	calmTime     = 10 * time.Second
	minRest      = 50 * time.Millisecond
	maxRest      = 2 * time.Second
)

// run runs the loop on the team with at most helpers workers beside the
// caller and reports whether it could: false when another loop holds the
// team.
func (t *pool) run(n, parts, helpers int, fn body) bool {
	if !t.busy.CompareAndSwap(false, true) {
		return false
	}
	// More workers than processors would only take turns.
	helpers = min(helpers, runtime.GOMAXPROCS(0)-1)
	t0 := time.Since(epoch)
	paced := helpers > 0 && fn.tasks == nil
	if paced && t.pace.loops == 0 {
		t.pace.start = t0
	}
	if helpers <= 0 || int64(t0) < t.restUntil.Load() || paced && t.pace.solo {
		// No helper, the team rests (see judge) or is slower than the
		// caller alone (see pace): the caller runs every part.
		defer t.busy.Store(false)
		for p := range parts {
			fn.run(n, parts, p)
		}
		if paced {
			t.pace.add(time.Since(epoch))
		}
		return true
	}
	t.grow(helpers)
	t.fn, t.n = fn, n
	t.done.Store(0)
	gen := nextGen(t.claim.Load())
	t.seats.Store(gen<<32 | uint64(helpers))
	t.claim.Store(gen<<32 | uint64(parts))
	// If fn panics on the caller, the panic goes on up once the workers
	// have finished the parts they hold; the team is then free again.
	finished := false
	defer func() {
		if !finished {
			t.abandon(gen)
		}
	}()
	// A worker parks by incrementing parked and then rereading claim; we
	// store claim and then read parked. With sequentially consistent
	// atomics one of the two sees the other, so every parked worker that a
	// seat is waiting for is woken (a worker may also wake for nothing,
	// which it tolerates).
	for range min(t.parked.Load(), int32(helpers)) {
		select {
		case t.wake <- struct{}{}:
		default:
		}
	}
	ran := t.work(gen)
	t1 := time.Since(epoch)
	t.await(parts)
	t2 := time.Since(epoch)
	if fn.tasks == nil && ran > 0 {
		// (Each's tasks may differ in cost: their waits say nothing.)
		t.judge((t1-t0)/time.Duration(ran), t2-t1, t2)
	}
	if paced {
		t.pace.add(t2)
	}
	finished = true
	t.fn = body{}
	t.busy.Store(false)
	return true
}

// nextGen returns the generation after that of claim word c, wrapping
// from 2³² − 1 to 0.
func nextGen(c uint64) uint64 { return (c>>32 + 1) & genMask }

// await waits until parts parts of the current loop are done.
func (t *pool) await(parts int) {
	for spins := 0; t.done.Load() < int32(parts); spins++ {
		if spins&63 == 63 {
			runtime.Gosched()
		}
	}
}

// abandon ends loop gen after a part the caller ran panicked: it claims
// every part no one has, so that none starts, waits for the parts workers
// hold (all parts but that one and the unclaimed are then done), and frees
// the team.
func (t *pool) abandon(gen uint64) {
	var unclaimed, parts int
	for {
		c := t.claim.Load()
		var p int
		p, parts = int(c>>16&0xffff), int(c&0xffff)
		if t.claim.CompareAndSwap(c, c&^(0xffff<<16)|uint64(parts)<<16) {
			unclaimed = parts - p
			break
		}
	}
	t.await(parts - 1 - unclaimed)
	t.fn = body{}
	t.busy.Store(false)
}

// judge updates the team's health from one loop that ended at now (since
// epoch): the caller took part for each of its parts and then waited for
// wait. For parts of equal cost (For's ranges), a wait longer than one part
// by more than stallLimit means the operating system stopped a worker in
// the middle of a part, for a time slice, which happens when another
// program keeps its processor busy. The
// worker then also competes with that program for the processor while it
// spins, and the caller with both: two cores are slower than one. So a
// second such stall within strikeWindow of the first sends the team to rest
// (loops run on their callers alone and the workers park) for a time that
// starts at minRest and doubles with each rest, up to maxRest, until no
// stall has been seen for calmTime.
func (t *pool) judge(part, wait, now time.Duration) {
	if wait <= part+stallLimit {
		return
	}
	since := now - t.lastStall
	t.lastStall = now
	if since > calmTime {
		t.rest = minRest
	}
	if since > strikeWindow {
		return
	}
	t.restUntil.Store(int64(now + t.rest))
	t.rest = min(2*t.rest, maxRest)
}

// work claims and runs parts of loop gen until none is left, and returns
// how many it finished.
func (t *pool) work(gen uint64) (ran int) {
	for {
		c := t.claim.Load()
		p, parts := int(c>>16&0xffff), int(c&0xffff)
		if c>>32 != gen || p >= parts {
			return
		}
		if !t.claim.CompareAndSwap(c, c+1<<16) {
			continue
		}
		t.fn.run(t.n, parts, p)
		t.done.Add(1)
		ran++
	}
}

// takeSeat takes a seat in loop gen if it has one left.
func (t *pool) takeSeat(gen uint64) bool {
	for {
		s := t.seats.Load()
		if s>>32 != gen || s&0xffffffff == 0 {
			return false
		}
		if t.seats.CompareAndSwap(s, s-1) {
			return true
		}
	}
}

// grow starts workers until there are at least k.
func (t *pool) grow(k int) {
	if int(t.workers.Load()) >= k {
		return
	}
	t.mu.Lock()
	for int(t.workers.Load()) < k {
		t.workers.Add(1)
		go t.loop(t.claim.Load() >> 32)
	}
	t.mu.Unlock()
}

// loop is a worker: it takes a seat in every loop after generation seen
// that has one free and runs parts of it, spinning for spinTime after each
// loop it worked on before it parks.
func (t *pool) loop(seen uint64) {
	for {
		deadline := time.Now().Add(spinTime)
		for spins := 0; ; spins++ {
			if g := t.claim.Load() >> 32; g != seen {
				seen = g
				if t.takeSeat(g) {
					t.work(g)
					deadline = time.Now().Add(spinTime)
				}
				continue
			}
			if spins&255 == 255 {
				if time.Now().After(deadline) {
					break
				}
				runtime.Gosched()
			}
		}
		t.parked.Add(1)
		if t.claim.Load()>>32 == seen {
			<-t.wake
		}
		t.parked.Add(-1)
	}
}
