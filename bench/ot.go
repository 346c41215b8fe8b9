package bench

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/twl-ldl/twl/ot/emd"
	"github.com/twl-ldl/twl/ot/sinkhorn"
	"github.com/twl-ldl/twl/tree"
)

// EMDNeed returns about how many bytes EMD holds on L labels: the L×L cost
// matrix and 10% more.
func EMDNeed(L int) float64 { return 8 * float64(L) * float64(L) * 1.1 }

// EMD times the exact network simplex (ot/emd) on the shortest-path metric
// of a random tree of L labels with unit weights, between two random
// histograms, as the reference tables time POT's emd2. The cost matrix is
// built once, outside the timing; memory counts it and the solver's
// workspace.
func EMD(L int, seed uint64, target time.Duration) (Record, error) {
	t := tree.Random(L, rand.NewPCG(seed, uint64(L)))
	cost := t.DistanceMatrix(nil).RawMatrix().Data
	rng := rand.New(rand.NewPCG(seed, uint64(L)+1))
	a, b := RandomRows(rng, 1, L), RandomRows(rng, 1, L)
	var s emd.Solver
	var err error
	wsBytes := Allocated(func() { _, err = s.Cost(cost, a, b) })
	if err != nil {
		return Record{}, fmt.Errorf("bench: emd L=%d: %w", L, err)
	}
	n, sec, bytes := Measure(func() {
		if _, err2 := s.Cost(cost, a, b); err2 != nil && err == nil {
			err = err2
		}
	}, target)
	if err != nil {
		return Record{}, fmt.Errorf("bench: emd L=%d: %w", L, err)
	}
	return Record{
		Method: "emd", Labels: L, Batch: 1, SecondsPerOp: sec, BytesPerOp: bytes,
		EntriesPerSecond: float64(L) / sec, MemoryBytes: floatBytes(cost, a, b) + wsBytes,
		Workers: 1, Iterations: n,
	}, nil
}

// SinkhornSettings are the paper's efficiency settings (its Table 3):
// λ = 50, exactly 10 log-domain iterations.
var SinkhornSettings = sinkhorn.Settings{Lambda: 50, Iters: 10, Tol: -1, MaxBytes: -1}

// SinkhornNeed returns about how many bytes Sinkhorn holds on L labels:
// the solver's kernel and the dense cost matrix.
func SinkhornNeed(L int) float64 {
	return float64(sinkhorn.Bytes(L, L, SinkhornSettings)) + 8*float64(L)*float64(L)
}

// Sinkhorn is a Sinkhorn case set up on L labels: cost 11ᵀ − I and one
// random pair.
type Sinkhorn struct {
	L    int
	cost []float64
	a, b []float64
}

// NewSinkhorn sets up the Sinkhorn cases on L labels.
func NewSinkhorn(L int, seed uint64) *Sinkhorn {
	cost := make([]float64, L*L)
	for i := range L {
		for j := range L {
			if i != j {
				cost[i*L+j] = 1
			}
		}
	}
	rng := rand.New(rand.NewPCG(seed, uint64(L)+2))
	a, b := RandomRows(rng, 1, L), RandomRows(rng, 1, L)
	return &Sinkhorn{L: L, cost: cost, a: a, b: b}
}

// Cold times building the kernel and solving, as one call of POT's
// sinkhorn2 does: method sinkhorn-cold.
func (s *Sinkhorn) Cold(target time.Duration) (Record, error) {
	var err error
	n, sec, bytes := Measure(func() {
		sv, e2 := sinkhorn.New(s.cost, s.L, s.L, SinkhornSettings)
		if e2 == nil {
			_, e2 = sv.Solve(s.a, s.b)
		}
		if e2 != nil && err == nil {
			err = e2
		}
	}, target)
	if err != nil {
		return Record{}, fmt.Errorf("bench: sinkhorn L=%d: %w", s.L, err)
	}
	return s.record("sinkhorn-cold", n, sec, bytes), nil
}

// Warm times solving with the kernel built once, the training-loss case:
// method sinkhorn.
func (s *Sinkhorn) Warm(target time.Duration) (Record, error) {
	sv, err := sinkhorn.New(s.cost, s.L, s.L, SinkhornSettings)
	if err != nil {
		return Record{}, fmt.Errorf("bench: sinkhorn L=%d: %w", s.L, err)
	}
	n, sec, bytes := Measure(func() {
		if _, e2 := sv.Solve(s.a, s.b); e2 != nil && err == nil {
			err = e2
		}
	}, target)
	if err != nil {
		return Record{}, fmt.Errorf("bench: sinkhorn L=%d: %w", s.L, err)
	}
	return s.record("sinkhorn", n, sec, bytes), nil
}

func (s *Sinkhorn) record(method string, n int, sec float64, bytes int64) Record {
	return Record{
		Method: method, Labels: s.L, Batch: 1, SecondsPerOp: sec, BytesPerOp: bytes,
		EntriesPerSecond: float64(s.L) / sec, MemoryBytes: int64(SinkhornNeed(s.L)), Workers: 1, Iterations: n,
	}
}
