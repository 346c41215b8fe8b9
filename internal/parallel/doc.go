// Package parallel splits loops over disjoint ranges across goroutines.
//
// A loop of n iterations is cut into parts, contiguous ranges whose bounds
// depend only on n, the worker count and the minimum chunk, never on the
// scheduling, so a loop whose iterations write disjoint outputs gives the
// same bits however it runs. For cuts a loop into one part per worker (more
// parts measured slower on the training benchmark: each costs a hand-off
// and splits the kernels' work finer); Each makes every task a part, handed
// out one at a time to whichever goroutine is free, for tasks of uneven
// cost or a core slowed by other work.
//
// Training runs thousands of short loops a second (a mini-batch step of the
// synthetic protocol has six, each some tens of microseconds long). Starting
// a goroutine per part and waking an idle processor for it costs tens of
// microseconds on a virtual machine, as much as the work. So the loops run
// on a team of long-lived workers, started as loops need them up to one per
// processor beyond the first (they never exit), which spin for a short
// while (spinTime) after each loop they worked on, waiting for the next,
// before they park. A loop admits as many workers as its caller's worker
// count allows. The caller claims parts too, and runs every part no worker
// has claimed yet, so a loop never waits for a worker to wake. When the
// team is busy (a loop inside a loop's function, or two goroutines running
// loops at once), the loop starts its own goroutines. A panic in a part
// the caller runs reaches the caller once the parts workers hold are done;
// a panic on a worker ends the program, as in any goroutine.
//
// When another program keeps a processor busy, a worker is now and then
// stopped by the operating system in the middle of a part, and the loop
// waits a time slice (milliseconds) for it; meanwhile a spinning worker
// takes processor time from the caller. Two cores are then slower than one
// (an epoch of the training benchmark: 100–125 ms against 70–80 ms on one
// core, with a busy loop on the other). So the team watches For's loops for
// such stalls (a wait for the workers longer than one of the caller's parts
// by a millisecond; Each's tasks may differ in cost and are not watched)
// and, after two within a second, rests: loops run on their callers alone
// for 50 ms, then 100 ms and so on up to 2 s, until the stalls stop (with
// the busy loop: 84–91 ms; before the team, goroutines per loop: 85 ms).
//
// A processor shared with other programs slows the team without stalls
// too: a worker spinning between loops uses time slices its caller would
// have had, and every loop runs slower. So the team also times For's
// loops in windows of 128, by wall time per loop, on the team and on the
// caller alone, and runs each window the way whose median over its last
// three windows is lower, trying the other way every sixteenth window (a
// window of the way not chosen is 32 loops long);
// windows of long or sparse loops, whose hand-offs cost little, always run
// on the team (see pace). On the training benchmark with a load average of
// 1–4 on two cores, twl train then used 0.6–0.8 s of CPU, about what one
// core uses (0.55–0.6 s), where the team alone used 0.64–1.06 s; on a
// quiet machine the team runs all but the trial windows.
package parallel
