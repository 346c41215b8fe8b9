package emd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// checkTree verifies the invariants of the spanning-tree structure from
// scratch: parent links form a tree rooted at the root, the thread is a
// preorder in which every subtree is the contiguous run of size[u] nodes
// from u ending at last[u], rev inverts thread, flows are non-negative and
// conserve the masses, the tree is strongly feasible (zero-flow arcs point
// to the root), and tree arcs have zero reduced cost.
func checkTree(w *network, a, b []float64) error {
	n, m := w.n, w.m
	N := n + m + 1
	root := w.root
	if w.parent[root] != -1 {
		return fmt.Errorf("root has parent %d", w.parent[root])
	}
	// Preorder positions along the thread.
	pos := make([]int, N)
	for k := range pos {
		pos[k] = -1
	}
	u := root
	for k := 0; k < N; k++ {
		if pos[u] >= 0 {
			return fmt.Errorf("thread revisits node %d", u)
		}
		pos[u] = k
		if w.rev[w.thread[u]] != u {
			return fmt.Errorf("rev[thread[%d]] = %d", u, w.rev[w.thread[u]])
		}
		u = w.thread[u]
	}
	if u != root {
		return fmt.Errorf("thread is not a cycle of length %d", N)
	}
	// Subtree sizes from parent links, via depth.
	size := make([]int, N)
	for v := int32(0); v < int32(N); v++ {
		for x := v; x >= 0; x = w.parent[x] {
			size[x]++
			if size[x] > N {
				return fmt.Errorf("parent links have a cycle")
			}
		}
	}
	for v := int32(0); v < int32(N); v++ {
		if int(w.size[v]) != size[v] {
			return fmt.Errorf("size[%d] = %d, want %d", v, w.size[v], size[v])
		}
		if pos[w.last[v]] != pos[v]+size[v]-1 {
			return fmt.Errorf("last[%d] = %d at position %d, want position %d", v, w.last[v], pos[w.last[v]], pos[v]+size[v]-1)
		}
		if v != root {
			p := w.parent[v]
			// v must lie inside p's run.
			if pos[v] <= pos[p] || pos[v] >= pos[p]+size[p] {
				return fmt.Errorf("node %d outside its parent's run", v)
			}
		}
	}
	// Arcs, flows and reduced costs.
	net := make([]float64, N)
	for v := int32(0); v < root; v++ {
		p, e, f := w.parent[v], w.pred[v], w.flow[v]
		if !(f >= 0) {
			return fmt.Errorf("flow[%d] = %v", v, f)
		}
		if e < 0 {
			if p != root {
				return fmt.Errorf("artificial arc of %d to non-root %d", v, p)
			}
			if f != 0 {
				return fmt.Errorf("artificial arc of %d carries %v", v, f)
			}
			continue
		}
		i, j := int32(e/m), int32(n+e%m)
		if !(i == v && j == p) && !(i == p && j == v) {
			return fmt.Errorf("pred[%d] = (%d,%d) does not join %d and its parent %d", v, i, j, v, p)
		}
		if f == 0 && !w.up(v) {
			return fmt.Errorf("zero-flow arc (%d,%d) points away from the root", i, j)
		}
		if rc := w.cost[w.rowOff[i]+int(j)-n] + w.pi[i] - w.pi[j]; math.Abs(rc) > 1e-9 {
			return fmt.Errorf("tree arc (%d,%d) has reduced cost %v", i, j, rc)
		}
		net[i] += f
		net[j] -= f
	}
	for i := 0; i < n; i++ {
		if math.Abs(net[i]-a[i]) > 1e-12 {
			return fmt.Errorf("row %d sends %v, want %v", i, net[i], a[i])
		}
	}
	for j := 0; j < m; j++ {
		if math.Abs(-net[n+j]-b[j]) > 1e-12 {
			return fmt.Errorf("column %d receives %v, want %v", j, -net[n+j], b[j])
		}
	}
	return nil
}

// TestTreeInvariants runs the pivot loop by hand on random problems and
// checks the tree structure after every pivot, so that a broken update is
// caught at the pivot that breaks it rather than by a wrong final cost.
func TestTreeInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for trial := 0; trial < 200; trial++ {
		n, m := 1+rng.IntN(25), 1+rng.IntN(25)
		cost := make([]float64, n*m)
		levels := 1 + rng.IntN(6) // few levels: many ties
		for k := range cost {
			cost[k] = float64(rng.IntN(levels))
		}
		var a, b []float64
		if trial%2 == 0 {
			a, b = randHist(rng, n, 0), randHist(rng, m, 0)
		} else {
			// Small integer masses: many ties in the ratio test.
			a, b = make([]float64, n), make([]float64, m)
			for i := range a {
				a[i] = float64(1 + rng.IntN(3))
			}
			for range int(sumOf(a)) {
				b[rng.IntN(m)]++
			}
			a, b = positive(a), positive(b)
			n, m = len(a), len(b)
			if m == 0 {
				continue
			}
			cost = cost[:n*m]
		}
		var s Solver
		if _, err := s.prepare(cost, a, b); err != nil {
			t.Fatal(err)
		}
		w := &s.w
		if err := checkTree(w, a, b); err != nil {
			t.Fatalf("trial %d, starting tree: %v", trial, err)
		}
		for it := 0; ; it++ {
			if it%5 == 4 {
				w.prune() // exercise shortlist pruning, normally rare
			}
			in, ok := w.findEntering()
			if !ok {
				break
			}
			w.pivot(int(in.i), int(in.j), in.c)
			if err := checkTree(w, a, b); err != nil {
				t.Fatalf("trial %d (%d×%d), after pivot %d: %v", trial, n, m, it+1, err)
			}
		}
		// At the end no non-tree arc has a negative reduced cost.
		for i := 0; i < n; i++ {
			for j := 0; j < m; j++ {
				if rc := cost[i*m+j] + w.pi[i] - w.pi[n+j]; rc < -1e-9 {
					t.Fatalf("trial %d: arc (%d,%d) has reduced cost %v at the end", trial, i, j, rc)
				}
			}
		}
	}
}

// sumOf returns the sum of x.
func sumOf(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v
	}
	return s
}

// positive returns the positive entries of x.
func positive(x []float64) []float64 {
	var p []float64
	for _, v := range x {
		if v > 0 {
			p = append(p, v)
		}
	}
	return p
}
