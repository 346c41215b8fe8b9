package bench

import (
	"math/rand/v2"
	"runtime"
	"time"

	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/tw"
)

// Record is one timed (or skipped) kernel case: a line of
// 'twl bench --format json'.
type Record struct {
	Method           string  `json:"method"`
	Labels           int     `json:"labels"`
	Batch            int     `json:"batch"`
	SecondsPerOp     float64 `json:"seconds_per_op"`
	BytesPerOp       int64   `json:"bytes_per_op"`
	EntriesPerSecond float64 `json:"entries_per_second"`
	MemoryBytes      int64   `json:"memory_bytes"`
	Workers          int     `json:"workers"`
	Iterations       int     `json:"iterations"`
	Order            string  `json:"order,omitempty"`
	// Skipped says why a case was not run (it would need more memory than
	// allowed); MemoryBytes then holds what it would need.
	Skipped string `json:"skipped,omitempty"`
}

// TreeBytesPerLabel bounds the memory of a tree from tree.Random per label
// (about 120 bytes measured: int32 and float64 arrays, names and the name
// index), for memory checks made before the tree is built.
const TreeBytesPerLabel = 160

// Case is a tree-Wasserstein kernel to time.
type Case struct {
	Method string
	// Batch is the number of rows per call, or 0 for the batch size the
	// caller chooses.
	Batch int
	// Setup allocates the inputs on t and returns the timed call, the bytes
	// of the inputs and outputs it holds, and the number of workspaces.
	Setup func(t *tree.Tree, rng *rand.Rand, batch, workers int) (op func(), inputBytes int64, workspaces int)
}

// Need returns about how many bytes the case holds on L labels with batch
// rows per call and the number of workers: the tree, at most 4 rows of L
// floats per batch row and about 2L floats per workspace.
func (c Case) Need(L, batch, workers int) float64 {
	return float64(L) * (TreeBytesPerLabel + 8*(4*float64(batch)+2*float64(min(batch, workers))))
}

// TWCases are the kernels of package tw: one distance, one distance with
// its gradient, and a batch of losses with their gradients with respect to
// the distributions and to the logits.
var TWCases = []Case{
	{Method: "distance", Batch: 1, Setup: func(t *tree.Tree, rng *rand.Rand, _, _ int) (func(), int64, int) {
		ws := tw.NewWorkspace(t)
		a, b := RandomRows(rng, 1, t.Len()), RandomRows(rng, 1, t.Len())
		return func() { ws.Distance(a, b) }, floatBytes(a, b), 1
	}},
	{Method: "distance+grad", Batch: 1, Setup: func(t *tree.Tree, rng *rand.Rand, _, _ int) (func(), int64, int) {
		ws := tw.NewWorkspace(t)
		a, b := RandomRows(rng, 1, t.Len()), RandomRows(rng, 1, t.Len())
		g := make([]float64, t.Len())
		return func() { ws.DistanceGrad(g, a, b) }, floatBytes(a, b, g), 1
	}},
	{Method: "batch-loss+grad", Setup: func(t *tree.Tree, rng *rand.Rand, batch, workers int) (func(), int64, int) {
		bt := tw.NewBatch(t, workers)
		A, B := RandomRows(rng, batch, t.Len()), RandomRows(rng, batch, t.Len())
		G, d := make([]float64, len(A)), make([]float64, batch)
		return func() { bt.DistanceGrad(d, G, A, B) }, floatBytes(A, B, G, d), min(workers, batch)
	}},
	{Method: "batch-logit-loss+grad", Setup: func(t *tree.Tree, rng *rand.Rand, batch, workers int) (func(), int64, int) {
		bt := tw.NewBatch(t, workers)
		Z := make([]float64, batch*t.Len())
		for i := range Z {
			Z[i] = rng.NormFloat64()
		}
		B := RandomRows(rng, batch, t.Len())
		G, d := make([]float64, len(Z)), make([]float64, batch)
		return func() { bt.LogitGrad(d, G, Z, B) }, floatBytes(Z, B, G, d), min(workers, batch)
	}},
}

// RandomTree returns the random tree of L labels that the kernel cases are
// timed on for a seed, in breadth-first order when order is "bfs" and in
// random order otherwise.
func RandomTree(L int, order string, seed uint64) *tree.Tree {
	t := tree.Random(L, rand.NewPCG(seed, uint64(L)))
	if order == "bfs" {
		t = t.BreadthFirst()
	}
	return t
}

// Run sets c up on t and times it for about target: the record of the
// case, with order naming t's order.
func (c Case) Run(t *tree.Tree, order string, batch, workers int, seed uint64, target time.Duration) Record {
	L := t.Len()
	b := c.Batch
	if b == 0 {
		b = batch
	}
	rng := rand.New(rand.NewPCG(seed, uint64(L)+1))
	wsBytes := Allocated(func() { wsSink = tw.NewWorkspace(t) })
	op, inBytes, nws := c.Setup(t, rng, b, workers)
	n, sec, bytes := Measure(op, target)
	return Record{
		Method:           c.Method,
		Labels:           L,
		Batch:            b,
		SecondsPerOp:     sec,
		BytesPerOp:       bytes,
		EntriesPerSecond: float64(b) * float64(L) / sec,
		MemoryBytes:      inBytes + int64(nws)*wsBytes,
		Workers:          nws,
		Iterations:       n,
		Order:            order,
	}
}

// Measure calls op once to warm up, then n times with n growing until the
// n calls take at least target, as package testing does, and returns n, the
// seconds per call and the bytes allocated per call in the last round.
func Measure(op func(), target time.Duration) (n int, secPerOp float64, bytesPerOp int64) {
	op()
	var m0, m1 runtime.MemStats
	for n = 1; ; {
		runtime.ReadMemStats(&m0)
		start := time.Now()
		for range n {
			op()
		}
		el := time.Since(start)
		runtime.ReadMemStats(&m1)
		if el >= target || n >= 1e9 {
			return n, el.Seconds() / float64(n), int64(m1.TotalAlloc-m0.TotalAlloc) / int64(n)
		}
		// Aim 20% past the target, growing at most 100× per round.
		next := 100 * n
		if el > 0 {
			next = min(next, int(1.2*float64(n)*float64(target)/float64(el)))
		}
		n = max(next, n+1)
	}
}

// Allocated returns the bytes that f allocates.
func Allocated(f func()) int64 {
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	f()
	runtime.ReadMemStats(&m1)
	return int64(m1.TotalAlloc - m0.TotalAlloc)
}

// RandomRows returns rows random distributions over L labels, row-major:
// uniform masses, normalized.
func RandomRows(rng *rand.Rand, rows, L int) []float64 {
	x := make([]float64, rows*L)
	for r := range rows {
		row := x[r*L : (r+1)*L]
		var s float64
		for i := range row {
			row[i] = rng.Float64()
			s += row[i]
		}
		for i := range row {
			row[i] /= s
		}
	}
	return x
}

func floatBytes(xs ...[]float64) int64 {
	var n int64
	for _, x := range xs {
		n += 8 * int64(len(x))
	}
	return n
}

// wsSink keeps the workspace that Allocated measures from being optimized
// away.
var wsSink *tw.Workspace

// TimeDistanceGrad times TW and its gradient (tw.Workspace.DistanceGrad)
// for about target on a uniformly random tree of L labels numbered
// breadth-first, between two random distributions, all seeded by L, as
// 'twl demo' reports it. It returns the seconds per call and the distance.
func TimeDistanceGrad(L int, target time.Duration) (secPerOp, distance float64) {
	t := tree.Random(L, rand.NewPCG(1, uint64(L))).BreadthFirst()
	rng := rand.New(rand.NewPCG(2, uint64(L)))
	a, b := RandomRows(rng, 1, L), RandomRows(rng, 1, L)
	g := make([]float64, L)
	ws := tw.NewWorkspace(t)
	_, secPerOp, _ = Measure(func() { distance = ws.DistanceGrad(g, a, b) }, target)
	return secPerOp, distance
}
