package main

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/twl-ldl/twl/ot/emd"
	"github.com/twl-ldl/twl/ot/sinkhorn"
	"github.com/twl-ldl/twl/tree"
)

// benchDefaultLabels are the sizes timed when --labels is not given: the
// sizes of REFERENCE.md's tables for each method.
var benchDefaultLabels = map[string]intList{
	"tw":       {100, 1000, 10000, 100000, 1000000},
	"emd":      {100, 1000, 3000},
	"sinkhorn": {100, 1000, 10000, 100000},
	"lstm":     {147}, // BlurbGenreCollection's genres, as in REFERENCE.md
	"cli":      {100000, 1000000},
}

// benchKernels resolves the positional arguments of bench: kernel names or
// "all"; none means tw.
func benchKernels(pos []string) ([]string, error) {
	if len(pos) == 0 {
		return []string{"tw"}, nil
	}
	var ks []string
	for _, p := range pos {
		switch p {
		case "all":
			ks = append(ks, "tw", "emd", "sinkhorn", "lstm")
		case "tw", "emd", "sinkhorn", "lstm", "cli":
			ks = append(ks, p)
		default:
			return nil, fmt.Errorf("unknown kernel %q: the kernels are tw, emd, sinkhorn, lstm, cli (or all, which leaves out cli)", p)
		}
	}
	// Keep the first occurrence of each, in the order given.
	var out []string
	for _, k := range ks {
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out, nil
}

// skipRecord reports a case that would need more memory than allowed.
func skipRecord(out *benchOut, method string, L int, need float64, maxMem byteSize) error {
	fmt.Fprintf(out.e.stderr, "bench: skip %s L=%d: it needs about %s, more than --max-memory %s\n",
		method, L, formatBytes(need), maxMem.String())
	return emitRecord(out, benchRecord{
		Method: method, Labels: L, Batch: 1, MemoryBytes: int64(need), Workers: 1,
		Skipped: "needs " + formatBytes(need) + ", over --max-memory " + maxMem.String(),
	})
}

// benchEMD times the exact network simplex (ot/emd) on the shortest-path
// metric of a random tree with unit weights, between two random
// histograms, as REFERENCE.md times POT's emd2. The cost matrix is built
// once, outside the timing; memory counts it and the solver's workspace.
func benchEMD(out *benchOut, L int, seed uint64, target time.Duration, maxMem byteSize) error {
	e := out.e
	need := 8 * float64(L) * float64(L) * 1.1
	if need > float64(maxMem) {
		return skipRecord(out, "emd", L, need, maxMem)
	}
	if err := out.start(); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "bench: emd L=%d ...\n", L)
	t := tree.Random(L, rand.NewPCG(seed, uint64(L)))
	cost := t.DistanceMatrix(nil).RawMatrix().Data
	rng := rand.New(rand.NewPCG(seed, uint64(L)+1))
	a, b := randomRows(rng, 1, L), randomRows(rng, 1, L)
	var s emd.Solver
	var err error
	wsBytes := allocated(func() { _, err = s.Cost(cost, a, b) })
	if err != nil {
		return fmt.Errorf("bench: emd L=%d: %w", L, err)
	}
	n, sec, bytes := measure(func() {
		if _, err2 := s.Cost(cost, a, b); err2 != nil && err == nil {
			err = err2
		}
	}, target)
	if err != nil {
		return fmt.Errorf("bench: emd L=%d: %w", L, err)
	}
	return emitRecord(out, benchRecord{
		Method: "emd", Labels: L, Batch: 1, SecondsPerOp: sec, BytesPerOp: bytes,
		EntriesPerSecond: float64(L) / sec, MemoryBytes: floatBytes(cost, a, b) + wsBytes,
		Workers: 1, Iterations: n,
	})
}

// benchSinkhorn times Sinkhorn in the paper's efficiency setting (Table 3):
// cost 11ᵀ − I, λ = 50, exactly 10 log-domain iterations, one random pair.
// sinkhorn-cold builds the kernel and solves, as one call of POT's
// sinkhorn2 does; sinkhorn reuses the kernel (the training-loss case).
// Where the dense cost matrix and kernel do not fit in --max-memory, the
// memory they would need is reported instead.
func benchSinkhorn(out *benchOut, L int, seed uint64, target time.Duration, maxMem byteSize) error {
	e := out.e
	set := sinkhorn.Settings{Lambda: 50, Iters: 10, Tol: -1, MaxBytes: -1}
	need := float64(sinkhorn.Bytes(L, L, set)) + 8*float64(L)*float64(L)
	if need > float64(maxMem) {
		if err := skipRecord(out, "sinkhorn-cold", L, need, maxMem); err != nil {
			return err
		}
		return skipRecord(out, "sinkhorn", L, need, maxMem)
	}
	if err := out.start(); err != nil {
		return err
	}
	cost := make([]float64, L*L)
	for i := range L {
		for j := range L {
			if i != j {
				cost[i*L+j] = 1
			}
		}
	}
	rng := rand.New(rand.NewPCG(seed, uint64(L)+2))
	a, b := randomRows(rng, 1, L), randomRows(rng, 1, L)
	var err error
	keep := func(e2 error) {
		if e2 != nil && err == nil {
			err = e2
		}
	}
	fmt.Fprintf(e.stderr, "bench: sinkhorn-cold L=%d ...\n", L)
	n, sec, bytes := measure(func() {
		s, e2 := sinkhorn.New(cost, L, L, set)
		keep(e2)
		if e2 == nil {
			_, e2 = s.Solve(a, b)
			keep(e2)
		}
	}, target)
	if err != nil {
		return fmt.Errorf("bench: sinkhorn L=%d: %w", L, err)
	}
	mem := int64(need)
	if err := emitRecord(out, benchRecord{
		Method: "sinkhorn-cold", Labels: L, Batch: 1, SecondsPerOp: sec, BytesPerOp: bytes,
		EntriesPerSecond: float64(L) / sec, MemoryBytes: mem, Workers: 1, Iterations: n,
	}); err != nil {
		return err
	}
	if err := out.start(); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "bench: sinkhorn L=%d ...\n", L)
	s, err := sinkhorn.New(cost, L, L, set)
	if err != nil {
		return fmt.Errorf("bench: sinkhorn L=%d: %w", L, err)
	}
	n, sec, bytes = measure(func() {
		_, e2 := s.Solve(a, b)
		keep(e2)
	}, target)
	if err != nil {
		return fmt.Errorf("bench: sinkhorn L=%d: %w", L, err)
	}
	return emitRecord(out, benchRecord{
		Method: "sinkhorn", Labels: L, Batch: 1, SecondsPerOp: sec, BytesPerOp: bytes,
		EntriesPerSecond: float64(L) / sec, MemoryBytes: mem, Workers: 1, Iterations: n,
	})
}
