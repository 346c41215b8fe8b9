package train

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/twl-ldl/twl/labeldist"
	"github.com/twl-ldl/twl/model"
	"github.com/twl-ldl/twl/optim"
)

// TestLinearUpdate checks that the learner's step, which computes the
// gradient and the Adam update a block of labels at a time, leaves bit for
// bit the parameters of the two operations done one after the other on a
// copy of the model: model.Linear.Backward over all the labels, then
// optim.Adam.Step; over several steps, with weight decay on W only, for
// batches of 1, 3 and 10 rows.
func TestLinearUpdate(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	const in, L, n = 9, 77, 40
	d := Data{X: make([]float64, n*in), Y: make([]float64, n*L), N: n, In: in, L: L}
	for i := range d.X {
		d.X[i] = rng.NormFloat64()
	}
	for _, rows := range []int{1, 3, 10} {
		m := model.NewLinear(in, L, rand.NewPCG(1, 2))
		ref := &model.Linear{In: in, Out: L, Params: append([]float64(nil), m.Params...)}
		adam := optim.Adam{LR: 0.01, WeightDecay: 0.03, DecayEnd: in * L}
		ln := newLinear(m, d, adam)
		refAdam := adam
		grad := make([]float64, len(m.Params))
		for step := range 5 {
			idx := make([]int, rows)
			xb := make([]float64, 0, rows*in)
			for k := range idx {
				idx[k] = rng.IntN(n)
				xb = append(xb, d.X[idx[k]*in:(idx[k]+1)*in]...)
			}
			z := make([]float64, rows*L)
			ln.Logits(z, idx)
			dz := make([]float64, rows*L)
			for i := range dz {
				dz[i] = rng.NormFloat64()
			}
			ln.Update(dz)
			ref.Backward(grad, dz, xb)
			refAdam.Step(ref.Params, grad)
			for i := range m.Params {
				if math.Float64bits(m.Params[i]) != math.Float64bits(ref.Params[i]) {
					t.Fatalf("rows %d, step %d: parameter %d = %v, Backward then Step %v", rows, step, i, m.Params[i], ref.Params[i])
				}
			}
		}
	}
}

// TestLinearUpdateNext checks the fused step, UpdateNext, against the
// operations it stands for done one after the other on a copy of the
// model: model.Linear.Backward, optim.Adam.Step, then model.Linear.Logits
// of the next rows' features, and the next rows' targets against Targets
// (itself checked against rows written by hand in TestTargetsSparseRows);
// the parameters, logits and targets must agree bit for bit, over steps
// whose batches change size (10, 3, 1 and 7 rows, as at the end of an
// epoch, and 12 and 13, more rows than the fused step's kernel takes), on
// 1 and 2 workers, with dense targets and with sparse ones (rows that
// list every label in order, and rows that do not).
func TestLinearUpdateNext(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 34))
	const in, L, n = 13, 301, 40
	dense := Data{X: make([]float64, n*in), Y: make([]float64, n*L), N: n, In: in, L: L}
	for i := range dense.X {
		dense.X[i] = rng.NormFloat64()
	}
	for i := range dense.Y {
		dense.Y[i] = rng.Float64()
	}
	var sy labeldist.Rows
	for r := range n {
		var idx []int
		for j := range L {
			if r%3 != 0 || rng.IntN(4) == 0 { // rows 0, 3, …: some labels
				idx = append(idx, j)
			}
		}
		if r%5 == 1 { // some rows list every label out of order
			slices.Reverse(idx)
		}
		mass := make([]float64, len(idx))
		for k := range mass {
			mass[k] = rng.Float64()
		}
		sy.Append(idx, mass)
	}
	sparse := Data{X: dense.X, YSparse: &sy, N: n, In: in, L: L}
	gather := func(idx []int) []float64 {
		var xb []float64
		for _, r := range idx {
			xb = append(xb, dense.X[r*in:(r+1)*in]...)
		}
		return xb
	}
	sizes := []int{10, 3, 1, 7, 13, 10, 12, 10}
	batches := make([][]int, len(sizes))
	for s, rows := range sizes {
		batches[s] = make([]int, rows)
		for k := range batches[s] {
			batches[s][k] = rng.IntN(n)
		}
	}
	for _, d := range []Data{dense, sparse} {
		for _, procs := range []int{1, 2} {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			m := model.NewLinear(in, L, rand.NewPCG(1, 2))
			ref := &model.Linear{In: in, Out: L, Params: append([]float64(nil), m.Params...)}
			adam := optim.Adam{LR: 0.01, WeightDecay: 0.03, DecayEnd: in * L}
			ln := newLinear(m, d, adam)
			refLn := newLinear(&model.Linear{In: in, Out: L, Params: make([]float64, len(m.Params))}, d, adam)
			refAdam := adam
			grad := make([]float64, len(m.Params))
			z := make([]float64, len(batches[0])*L)
			ln.Logits(z, batches[0])
			for s := 0; s+1 < len(batches); s++ {
				xb, next := gather(batches[s]), batches[s+1]
				dz := make([]float64, len(batches[s])*L)
				for i := range dz {
					dz[i] = rng.NormFloat64()
				}
				zn, yn := make([]float64, len(next)*L), make([]float64, len(next)*L)
				for i := range yn {
					yn[i] = math.NaN() // every entry must be written
				}
				ln.UpdateNext(dz, zn, yn, next)
				ref.Backward(grad, dz, xb)
				refAdam.Step(ref.Params, grad)
				wantZ, wantY := make([]float64, len(next)*L), make([]float64, len(next)*L)
				ref.Logits(wantZ, gather(next))
				refLn.Targets(wantY, next)
				for i := range m.Params {
					if math.Float64bits(m.Params[i]) != math.Float64bits(ref.Params[i]) {
						t.Fatalf("sparse %v, %d workers, step %d: parameter %d = %v, Backward then Step %v", d.Y == nil, procs, s, i, m.Params[i], ref.Params[i])
					}
				}
				for i := range wantZ {
					if math.Float64bits(zn[i]) != math.Float64bits(wantZ[i]) {
						t.Fatalf("sparse %v, %d workers, step %d: next logit %d = %v, Logits after the step %v", d.Y == nil, procs, s, i, zn[i], wantZ[i])
					}
					if math.Float64bits(yn[i]) != math.Float64bits(wantY[i]) {
						t.Fatalf("sparse %v, %d workers, step %d: next target %d = %v, Targets %v", d.Y == nil, procs, s, i, yn[i], wantY[i])
					}
				}
			}
		}
	}
}

// TestTargetsSparseRows checks the dense targets of sparse rows of every
// kind (every label in order, whose masses are copied as they are; every
// label out of order; some labels; none) against rows written by hand
// from the same labels and masses.
func TestTargetsSparseRows(t *testing.T) {
	const L = 5
	rows := [][2][]float64{
		{{0, 1, 2, 3, 4}, {.1, .2, .3, .15, .25}},
		{{4, 3, 2, 1, 0}, {.5, .2, .1, .1, .1}},
		{{1, 3}, {.4, .6}},
		{{}, {}},
		{{0, 1, 2, 3, 4}, {.2, .2, .2, .2, .2}},
	}
	var sy labeldist.Rows
	want := make([]float64, len(rows)*L)
	for r, row := range rows {
		idx := make([]int, len(row[0]))
		for k, i := range row[0] {
			idx[k] = int(i)
			want[r*L+int(i)] = row[1][k]
		}
		sy.Append(idx, row[1])
	}
	d := Data{X: make([]float64, len(rows)), YSparse: &sy, N: len(rows), In: 1, L: L}
	ln := newLinear(model.NewLinear(1, L, rand.NewPCG(1, 2)), d, optim.Adam{})
	order := []int{4, 2, 0, 3, 1, 0}
	dst := make([]float64, len(order)*L)
	for i := range dst {
		dst[i] = math.NaN() // every entry must be written
	}
	ln.Targets(dst, order)
	for k, r := range order {
		for i := range L {
			if got := dst[k*L+i]; got != want[r*L+i] {
				t.Fatalf("row %d (batch row %d), label %d: %v, want %v", r, k, i, got, want[r*L+i])
			}
		}
	}
}
