package docknn

import (
	"github.com/twl-ldl/twl/internal/fmath"
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
			cost[i*n+j] = math.Sqrt(fmath.SqDist(x, w.p.row(v)))
		}
	}
	w.costTime += time.Since(t0)
	return w.s.Cost(cost, a.Mass, b.Mass)
}
