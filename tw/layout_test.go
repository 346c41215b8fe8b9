package tw

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/twl-ldl/twl/tree"
)

// TestLayoutsAgree checks that every code path of the sweeps (user order
// permuted or breadth-first, real or virtual root, unit or general weights)
// gives the same value and gradient for the same tree and distributions.
// The expected values are those of the permuted layout, which shares no loop
// with the breadth-first fast paths; the embedding identity
// TW = ‖Φ(a) − Φ(b)‖₁ cross-checks the value independently of the sweeps'
// gradient code.
func TestLayoutsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1, 2, 3, 10, 100, 1000} {
		base := tree.Random(n, rand.NewPCG(uint64(n), 9))
		par := make([]int, n)
		for i := range par {
			par[i] = base.Parent(i)
		}
		forest := append([]int(nil), par...)
		for i := range forest {
			if i == 0 || rng.IntN(4) == 0 {
				forest[i] = -1
			}
		}
		wts := make([]float64, n)
		for i := range wts {
			wts[i] = 3 * rng.Float64()
		}
		for _, cfg := range []struct {
			name   string
			parent []int
			weight []float64
		}{
			{"tree", par, nil},
			{"weighted tree", par, wts},
			{"forest", forest, nil},
			{"weighted forest", forest, wts},
		} {
			t1, err := tree.FromParents(cfg.parent, cfg.weight, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			t2 := t1.BreadthFirst()
			if !t2.Order().Identity {
				t.Fatalf("n=%d %s: BreadthFirst is not the identity layout", n, cfg.name)
			}
			a, b := randomDist(rng, n), randomDist(rng, n)
			a2, b2 := make([]float64, n), make([]float64, n)
			for i := 0; i < n; i++ {
				j, _ := t2.Index(t1.Name(i))
				a2[j], b2[j] = a[i], b[i]
			}
			g1, g2 := make([]float64, n), make([]float64, n)
			v1 := NewWorkspace(t1).DistanceGrad(g1, a, b)
			v2 := NewWorkspace(t2).DistanceGrad(g2, a2, b2)
			if d := math.Abs(v1 - v2); d > 1e-12*max(1, v1) {
				t.Errorf("n=%d %s: values %v and %v", n, cfg.name, v1, v2)
			}
			for i := 0; i < n; i++ {
				j, _ := t2.Index(t1.Name(i))
				if math.Abs(g1[i]-g2[j]) > 1e-12*max(1, math.Abs(g1[i])) {
					t.Fatalf("n=%d %s: gradient of %q: %v vs %v", n, cfg.name, t1.Name(i), g1[i], g2[j])
				}
			}
			ws := NewWorkspace(t1)
			e1, e2 := make([]float64, n), make([]float64, n)
			ws.Embed(e1, a)
			ws.Embed(e2, b)
			var l1 float64
			for i := range e1 {
				l1 += math.Abs(e1[i] - e2[i])
			}
			if math.Abs(l1-v1) > 1e-12*max(1, v1) {
				t.Errorf("n=%d %s: ‖Φ(a)−Φ(b)‖₁ = %v, TW = %v", n, cfg.name, l1, v1)
			}
		}
	}
}
