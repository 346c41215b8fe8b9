package docknn

import (
	"math"
	"time"

	"github.com/twl-ldl/twl/ot/emd"
)

// wmd computes word mover's distances between bags over a set of points:
// an emd.Solver and the scratch of the cost matrices. One per goroutine.
type wmd struct {
	p           *points
	train, test []Bag
	s           emd.Solver
	cost        []float64
	// costTime sums the time spent building cost matrices, pairTime the
	// time of the distances, both wall-clock.
	costTime, pairTime time.Duration
}

// distance returns WMD(a, b): the 1-Wasserstein distance between the bags
// with the Euclidean cost between the points' vectors.
func (w *wmd) distance(a, b Bag) (float64, error) {
	m, n := len(a.Words), len(b.Words)
	t0 := time.Now()
	if cap(w.cost) < m*n {
		w.cost = make([]float64, m*n)
	}
	cost := w.cost[:m*n]
	for i, u := range a.Words {
		x := w.p.row(u)
		for j, v := range b.Words {
			cost[i*n+j] = euclidean(x, w.p.row(v))
		}
	}
	w.costTime += time.Since(t0)
	return w.s.Cost(cost, a.Mass, b.Mass)
}

// euclidean returns ‖x − y‖₂, summing the squares in four lanes. It is 0
// exactly for equal vectors.
func euclidean(x, y []float64) float64 {
	y = y[:len(x)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(x); i += 4 {
		d0, d1, d2, d3 := x[i]-y[i], x[i+1]-y[i+1], x[i+2]-y[i+2], x[i+3]-y[i+3]
		s0 += d0 * d0
		s1 += d1 * d1
		s2 += d2 * d2
		s3 += d3 * d3
	}
	for ; i < len(x); i++ {
		d := x[i] - y[i]
		s0 += d * d
	}
	return math.Sqrt((s0 + s1) + (s2 + s3))
}
