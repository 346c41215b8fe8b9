package emd

import "math"

var inf = math.Inf(1)

// initial builds a strongly feasible spanning tree carrying a feasible flow,
// from the supplies a (rows) and demands b (columns) of the reduced problem,
// all positive. It overwrites a and b.
//
// A greedy transport plan is built first (see greedy); every arc it uses
// exhausts a row or a column, so its support is a forest whose arcs all
// carry positive flow. Each tree of that forest is then hung below the root
// by an artificial arc u → root with zero flow. The tree is strongly
// feasible (Cunningham 1976): every arc with zero flow points towards the
// root. Potentials make every tree arc's reduced cost zero, with pi = 0 at
// the root and on the artificial arcs. The artificial arcs keep zero flow
// for ever: a cycle through the root crosses one of them against its
// direction, so that pivot is degenerate. They are never priced either, so
// their cost does not matter.
func (s *Solver) initial(a, b []float64) {
	w := &s.w
	n, m := w.n, w.m
	N := n + m + 1
	w.root = int32(n + m)

	arcs := s.greedy(a, b)

	// Adjacency lists of the forest.
	head := grow32(&s.head, N)
	for u := range head {
		head[u] = -1
	}
	next := grow32(&s.adjNext, 2*len(arcs))
	for k, ar := range arcs {
		u, v := ar.i, int32(n)+ar.j
		next[2*k] = head[u]
		head[u] = int32(2 * k)
		next[2*k+1] = head[v]
		head[v] = int32(2*k + 1)
	}

	// Depth-first search from each node not yet reached, which becomes the
	// root of its component below the artificial root. Popping a node and
	// pushing all its unvisited neighbours gives a preorder.
	parent, pred, flow, pi := w.parent, w.pred, w.flow, w.pi
	for u := range parent {
		parent[u] = -2 // not reached
	}
	order := grow32(&s.order, N)[:0]
	stack := grow32(&s.stack, N)[:0]
	root := w.root
	parent[root], pred[root], flow[root], pi[root] = -1, -1, 0, 0
	order = append(order, root)
	for r := range root {
		if parent[r] != -2 {
			continue
		}
		parent[r], pred[r], flow[r], pi[r] = root, -1, 0, 0
		stack = append(stack, r)
		for len(stack) > 0 {
			u := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			order = append(order, u)
			for h := head[u]; h >= 0; h = next[h] {
				ar := arcs[h/2]
				x := ar.i
				if x == u {
					x = int32(n) + ar.j
				}
				if parent[x] != -2 {
					continue
				}
				parent[x] = u
				pred[x] = int(ar.i)*m + int(ar.j)
				flow[x] = ar.f
				c := w.cost[w.rowOff[ar.i]+int(ar.j)]
				if int(x) < n {
					pi[x] = pi[u] - c // arc x → u
				} else {
					pi[x] = pi[u] + c // arc u → x
				}
				stack = append(stack, x)
			}
		}
	}

	// Thread, subtree sizes and subtree ends from the preorder.
	thread, rev, size, last := w.thread, w.rev, w.size, w.last
	pos := head // reused: position of each node in the preorder
	for k, u := range order {
		pos[u] = int32(k)
		size[u] = 1
		v := order[(k+1)%N]
		thread[u] = v
		rev[v] = u
	}
	for k := N - 1; k > 0; k-- {
		u := order[k]
		size[parent[u]] += size[u]
	}
	for _, u := range order {
		last[u] = order[pos[u]+size[u]-1]
	}
	s.order, s.stack = order, stack
}

// arc is a row–column pair carrying flow f in the greedy starting plan.
type arc struct {
	i, j int32
	f    float64
}

// greedy builds a starting plan, consuming the remaining masses a and b.
//
// First the least-cost rule on the shortlist: its arcs are taken by
// increasing cost (approximately, see sortByCost), and each sends as much as its row and column still
// allow. Rows left with mass (the shortlist did not reach a column with
// demand) then use the row-minimum rule on the full matrix: each sends its
// mass to the cheapest columns that still have demand.
//
// Each arc exhausts its row or its column (both when they tie), so there are
// at most n+m−1 arcs and they form a forest: ordered as added, the arcs have
// a triangular incidence matrix. Rounding may leave a tiny remainder of mass
// at the end, which the plan simply does not carry.
func (s *Solver) greedy(a, b []float64) []arc {
	w := &s.w
	n, m := w.n, w.m
	arcs := s.arcs[:0]

	sortByCost(w.short, &s.tmpShort, &s.count)
	for _, sa := range w.short {
		i, j := sa.i, sa.j
		if a[i] <= 0 || b[j] <= 0 {
			continue
		}
		arcs = append(arcs, arc{i, j, ship(a, b, int(i), int(j))})
	}

	act := grow32(&s.act, m)[:0] // columns with demand left
	for j := range m {
		if b[j] > 0 {
			act = append(act, int32(j))
		}
	}
	for i := 0; i < n && len(act) > 0; i++ {
		row := w.cost[w.rowOff[i] : w.rowOff[i]+m]
		for a[i] > 0 && len(act) > 0 {
			bk, bc := 0, inf
			for k, j := range act {
				if c := row[j]; c < bc {
					bk, bc = k, c
				}
			}
			j := act[bk]
			arcs = append(arcs, arc{int32(i), j, ship(a, b, i, int(j))})
			if b[j] <= 0 {
				act[bk] = act[len(act)-1]
				act = act[:len(act)-1]
			}
		}
	}
	s.act = act
	s.arcs = arcs
	return arcs
}

// sortByCost orders x by increasing cost, approximately: a counting sort
// into len(x) buckets of equal width between the smallest and the largest
// cost, keeping the order of x within a bucket. That is enough for a greedy
// heuristic, and takes a few linear passes whatever the costs. tmp and
// count are scratch, grown as needed.
func sortByCost(x []sarc, tmp *[]sarc, count *[]int32) {
	if len(x) < 2 {
		return
	}
	lo, hi := x[0].c, x[0].c
	for _, a := range x {
		lo = min(lo, a.c)
		hi = max(hi, a.c)
	}
	if lo == hi {
		return
	}
	B := len(x)
	scale := float64(B) / (hi - lo)
	bucket := func(c float64) int { return min(int((c-lo)*scale), B-1) }
	cnt := grow32(count, B+1)
	clear(cnt)
	for _, a := range x {
		cnt[bucket(a.c)+1]++
	}
	for k := 1; k <= B; k++ {
		cnt[k] += cnt[k-1]
	}
	if cap(*tmp) < len(x) {
		*tmp = make([]sarc, len(x))
	}
	t := (*tmp)[:len(x)]
	for _, a := range x {
		d := bucket(a.c)
		t[cnt[d]] = a
		cnt[d]++
	}
	copy(x, t)
}

func grow32(p *[]int32, n int) []int32 {
	if cap(*p) < n {
		*p = make([]int32, n)
	}
	*p = (*p)[:n]
	return *p
}

func growF(p *[]float64, n int) []float64 {
	if cap(*p) < n {
		*p = make([]float64, n)
	}
	*p = (*p)[:n]
	return *p
}

func growI(p *[]int, n int) []int {
	if cap(*p) < n {
		*p = make([]int, n)
	}
	*p = (*p)[:n]
	return *p
}

// ship moves f = min(a[i], b[j]) from supply i to demand j, leaving one of
// the two at exactly 0, and returns f.
func ship(a, b []float64, i, j int) float64 {
	if a[i] <= b[j] {
		f := a[i]
		a[i] = 0
		b[j] -= f
		return f
	}
	f := b[j]
	b[j] = 0
	a[i] -= f
	return f
}
