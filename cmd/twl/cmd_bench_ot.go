package main

import (
	"fmt"
	"slices"
	"time"

	"github.com/twl-ldl/twl/bench"
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
	return emitRecord(out, bench.Record{
		Method: method, Labels: L, Batch: 1, MemoryBytes: int64(need), Workers: 1,
		Skipped: "needs " + formatBytes(need) + ", over --max-memory " + maxMem.String(),
	})
}

// benchEMD times the exact network simplex (bench.EMD).
func benchEMD(out *benchOut, L int, seed uint64, target time.Duration, maxMem byteSize) error {
	if need := bench.EMDNeed(L); need > float64(maxMem) {
		return skipRecord(out, "emd", L, need, maxMem)
	}
	if err := out.start(); err != nil {
		return err
	}
	fmt.Fprintf(out.e.stderr, "bench: emd L=%d ...\n", L)
	rec, err := bench.EMD(L, seed, target)
	if err != nil {
		return err
	}
	return emitRecord(out, rec)
}

// benchSinkhorn times Sinkhorn in the paper's efficiency setting (Table 3),
// cold (building the kernel, as one call of POT's sinkhorn2) and warm (the
// training-loss case). Where the dense cost matrix and kernel do not fit in
// --max-memory, the memory they would need is reported instead.
func benchSinkhorn(out *benchOut, L int, seed uint64, target time.Duration, maxMem byteSize) error {
	if need := bench.SinkhornNeed(L); need > float64(maxMem) {
		if err := skipRecord(out, "sinkhorn-cold", L, need, maxMem); err != nil {
			return err
		}
		return skipRecord(out, "sinkhorn", L, need, maxMem)
	}
	if err := out.start(); err != nil {
		return err
	}
	s := bench.NewSinkhorn(L, seed)
	fmt.Fprintf(out.e.stderr, "bench: sinkhorn-cold L=%d ...\n", L)
	rec, err := s.Cold(target)
	if err != nil {
		return err
	}
	if err := emitRecord(out, rec); err != nil {
		return err
	}
	if err := out.start(); err != nil {
		return err
	}
	fmt.Fprintf(out.e.stderr, "bench: sinkhorn L=%d ...\n", L)
	if rec, err = s.Warm(target); err != nil {
		return err
	}
	return emitRecord(out, rec)
}
