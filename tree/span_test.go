package tree_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/twl-ldl/twl/tree"
)

// TestSpan checks Order.Span against a brute force over user indices:
// the span's nodes are the given nodes, the root and every node that is
// the lowest common ancestor of two given nodes (by walking parents); each
// node's span parent is its nearest proper ancestor among them, and the
// edge length the sum of the weights on the path (Parent and Weight).
func TestSpan(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 10))
	var s tree.Span
	for trial := range 200 {
		n := 1 + rng.IntN(40)
		var tr *tree.Tree
		if trial%3 == 0 {
			// A forest: the virtual root joins the components.
			parent := make([]int, n)
			w := make([]float64, n)
			for i := range parent {
				parent[i] = rng.IntN(i+1) - 1
				w[i] = float64(rng.IntN(4)) / 2
			}
			var err error
			tr, err = tree.FromParents(parent, w, nil, &tree.Options{VirtualRootWeight: 0.75})
			if err != nil {
				t.Fatal(err)
			}
		} else {
			tr = tree.Random(n, rand.NewPCG(uint64(trial), 1))
		}
		o := tr.Order()
		k := 1 + rng.IntN(6)
		pos := make([]int32, k)
		for i := range pos {
			pos[i] = o.Position[rng.IntN(n)]
		}
		o.Span(&s, pos)

		// ancestors of user node u, u first; -1 stands for the virtual root.
		anc := func(u int) []int {
			var a []int
			for ; u >= 0; u = tr.Parent(u) {
				a = append(a, u)
			}
			if tr.Virtual() {
				a = append(a, -1)
			}
			return a
		}
		lca := func(u, v int) int {
			in := map[int]bool{}
			for _, x := range anc(u) {
				in[x] = true
			}
			for _, x := range anc(v) {
				if in[x] {
					return x
				}
			}
			panic("no common ancestor")
		}
		label := func(p int32) int { return int(o.Label[p]) }
		want := map[int]bool{label(0): true}
		for _, p := range pos {
			want[label(p)] = true
			for _, q := range pos {
				want[lca(label(p), label(q))] = true
			}
		}
		if s.Nodes() != len(want) {
			t.Fatalf("trial %d: %d span nodes, want %d", trial, s.Nodes(), len(want))
		}
		for j, p := range s.Pos {
			if !want[label(p)] {
				t.Fatalf("trial %d: node %d not in the span", trial, label(p))
			}
			if j == 0 {
				if p != 0 || s.Parent[0] != -1 {
					t.Fatalf("trial %d: span root %d parent %d", trial, p, s.Parent[0])
				}
				continue
			}
			// Walk up to the nearest ancestor in the span, summing weights.
			u := label(p)
			var length float64
			var up int
			for {
				length += weightAbove(tr, u)
				up = tr.Parent(u)
				if up < 0 && tr.Virtual() {
					up = -1
				}
				if want[up] {
					break
				}
				u = up
			}
			q := s.Parent[j]
			if q < 0 || q >= int32(j) || label(s.Pos[q]) != up {
				t.Fatalf("trial %d: parent of %d is %d, want %d", trial, label(p), label(s.Pos[q]), up)
			}
			if math.Abs(s.Len[j]-length) > 1e-12 {
				t.Fatalf("trial %d: edge length %v, want %v", trial, s.Len[j], length)
			}
		}
		for i, p := range pos {
			if s.Pos[s.Of[i]] != p {
				t.Fatalf("trial %d: Of[%d] wrong", trial, i)
			}
		}
	}
}

func weightAbove(tr *tree.Tree, u int) float64 {
	if u < 0 {
		return 0
	}
	return tr.Weight(u)
}
