// Package efficiency reproduces Table 3 of the tree-Wasserstein paper
// (Toyokuni et al., "Computationally efficient Wasserstein loss for
// structured labels"): the time and memory needed to evaluate the loss of
// one random pair of distributions on L labels, for the tree-Wasserstein
// distance TW and for the Sinkhorn Wasserstein loss W¹ it replaces.
//
// # Protocol
//
// For each L (default 10², …, 10⁶) two random distributions a, b (uniform
// entries, normalized) are drawn from a PCG seeded by (Seed, L). The
// methods, each one Case:
//
//	tw-loss+grad        TW(a, b) and its gradient in a (tw.Workspace.DistanceGrad)
//	                    on tree.Random(L).BreadthFirst(), unit weights
//	tw-loss             TW(a, b) alone (tw.Workspace.Distance)
//	sinkhorn-cold       sinkhorn.New + Solve: build the kernel exp(−λC), then
//	                    10 log-domain iterations, like one call of POT's sinkhorn2
//	sinkhorn-cold+grad  sinkhorn.New + Grad (loss and gradient)
//	sinkhorn-warm       Solve with the kernel built beforehand (a training loop)
//	sinkhorn-warm+grad  Grad with the kernel built beforehand
//
// Sinkhorn uses the paper's settings, λ = 50 (POT reg 0.02), exactly 10
// iterations, on the cost C = 11ᵀ − I the paper uses "to avoid calculating a
// shortest-path distance matrix".
//
// Time: one warm-up call, then Repeats measurements (more for fast cases),
// each the mean of enough consecutive calls to last MinTime; the Case holds
// every measurement, their mean and standard deviation. A garbage
// collection runs before each measurement.
//
// Memory, two ways:
//
//   - Allocated: bytes the Go runtime allocated on the heap
//     (runtime.MemStats.TotalAlloc) to build what the method needs and run
//     one call: the ground metric (the tree from tree.Random and
//     BreadthFirst, temporary arrays included; or the L×L cost matrix), the
//     setup (tw.NewWorkspace and the gradient vector; or sinkhorn.New with
//     its kernel), and one call (for the cold variants the call is New +
//     Solve). The two input distributions (16L bytes, the same for every
//     method) are not counted, nor are goroutine stacks. The live heap held
//     once everything is built is reported as well.
//   - Peak resident memory: a separate process (this executable, started
//     again with the environment variable ChildEnv) builds the same case,
//     runs one call and reports the high-water mark of its resident set,
//     VmHWM in /proc/self/status, and the same mark before it started, so
//     the parent's heap does not pollute the figure. Linux only; elsewhere
//     it is reported as unavailable. The program must call RunChild first
//     thing (cmd/twl does in an init function, tests in TestMain);
//     otherwise Run skips this measurement and says why.
//
// # Memory limit
//
// A case whose estimated need exceeds Config.MaxBytes (by default 80% of
// MemAvailable in /proc/meminfo) is not run: its Case records what it would
// need, as the paper reports "(40.00 GB)" for W¹ at L = 10⁵. Sinkhorn needs
// the cost matrix and the kernel, 16·L² bytes in float64 (the paper's 40 GB
// is 4·L², the cost matrix alone in float32); the limit is checked against
// the solver's worst case, sinkhorn.Bytes, which adds a private kernel per
// worker for stabilization.
//
// # Output
//
// Result.Markdown lays the measurements out like Table 3 with the paper's
// published figures beside them, and the figures measured outside twl on
// this kind of machine (POT, PyTorch; ../shared/REFERENCE.md, relative to
// the repository), labelled as such. TW is set beside the strongest PyTorch
// form, an Euler-tour cumulative sum with autograd, as well as the
// level-wise scatter and the sparse subtree matrix, and the findings state
// twl's speed-up against the strongest. Result.WriteJSON writes every
// measurement; Result.Plots draws time and memory against L on log-log
// axes.
package efficiency
