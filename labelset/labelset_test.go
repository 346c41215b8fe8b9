package labelset

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/tree"
)

// randomForest returns a random tree of n labels: with forest, several
// top-level labels under a virtual root; nodes numbered in random order, so
// that user order is not the breadth-first order.
func randomForest(t testing.TB, rng *rand.Rand, n int, forest bool) *tree.Tree {
	perm := rng.Perm(n) // perm[k]: the user index of the k-th node made
	parent := make([]int, n)
	names := make([]string, n)
	for k := range n {
		i := perm[k]
		names[i] = strconv.Itoa(i)
		switch {
		case k == 0 || forest && rng.IntN(4) == 0:
			parent[i] = -1
		default:
			parent[i] = perm[rng.IntN(k)]
		}
	}
	tr, err := tree.FromParents(parent, nil, names, nil)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// randomMasses returns a distribution over n labels; with ties, masses
// drawn from a few values so that many are equal.
func randomMasses(rng *rand.Rand, n int, ties bool) []float64 {
	p := make([]float64, n)
	var s float64
	for i := range p {
		if ties {
			p[i] = float64(rng.IntN(3))
		} else {
			p[i] = -math.Log(1 - rng.Float64())
		}
		s += p[i]
	}
	for i := range p {
		if s > 0 {
			p[i] /= s
		}
	}
	return p
}

// bruteClosed returns the highest total mass of a set closed under
// ancestors of at most k labels (k = 0: any number) each of mass ≥ min, by
// trying every subset of the labels.
func bruteClosed(tr *tree.Tree, p []float64, k int, min float64) float64 {
	n := tr.Len()
	best := math.Inf(-1)
	for set := 0; set < 1<<n; set++ {
		size := 0
		ok := true
		var sum float64
		for v := range n {
			if set&(1<<v) == 0 {
				continue
			}
			size++
			sum += p[v]
			if p[v] < min {
				ok = false
			}
			if u := tr.Parent(v); u >= 0 && set&(1<<u) == 0 {
				ok = false
			}
		}
		if ok && (k == 0 || size <= k) {
			best = math.Max(best, sum)
		}
	}
	return best
}

// checkSet checks that got is a set of distinct labels by decreasing mass
// (ties in label order), closed under ancestors when closed, each of mass ≥
// min, at most k (k > 0).
func checkSet(t *testing.T, tr *tree.Tree, p []float64, got []int, k int, min float64, closed bool) {
	t.Helper()
	if len(slices.Compact(slices.Sorted(slices.Values(got)))) != len(got) {
		t.Fatalf("labels %v repeat", got)
	}
	if k > 0 && len(got) > k {
		t.Fatalf("%d labels %v, more than %d", len(got), got, k)
	}
	for i, v := range got {
		if p[v] < min {
			t.Fatalf("label %d of mass %v < %v", v, p[v], min)
		}
		if i > 0 && !better(p, got[i-1], v) {
			t.Fatalf("labels %v not by decreasing mass (%v)", got, p)
		}
		if u := tr.Parent(v); closed && u >= 0 && !slices.Contains(got, u) {
			t.Fatalf("labels %v: %d without its parent %d", got, v, u)
		}
	}
}

// TestClosedBruteForce compares Closed with every subset of the labels of
// random trees and forests of up to 12 labels: the set must be closed,
// within the bound and the threshold, and of the highest total mass.
func TestClosedBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 600 {
		n := 1 + rng.IntN(12)
		tr := randomForest(t, rng, n, trial%2 == 1)
		d := NewDecoder(tr)
		for range 4 {
			p := randomMasses(rng, n, trial%5 == 0)
			k := rng.IntN(n + 2)
			min := 0.0
			if rng.IntN(2) == 0 {
				min = rng.Float64() * 2 / float64(n)
			}
			got := d.Closed(nil, p, k, min)
			checkSet(t, tr, p, got, k, min, true)
			var sum float64
			for _, v := range got {
				sum += p[v]
			}
			want := bruteClosed(tr, p, k, min)
			if math.Abs(sum-want) > 1e-12 {
				t.Fatalf("trial %d, %v, p %v, k %d, min %v: %v of mass %v, the best closed set has %v", trial, tr, p, k, min, got, sum, want)
			}
			// No bound, or a bound above what the threshold keeps: every
			// label whose ancestors and itself reach the threshold.
			if k == 0 {
				for v := range n {
					in := true
					for u := v; u >= 0; u = tr.Parent(u) {
						in = in && p[u] >= min
					}
					if in != slices.Contains(got, v) {
						t.Fatalf("trial %d: label %d in %v is %v, want %v", trial, v, got, !in, in)
					}
				}
			}
		}
	}
}

// TestClosedExample works out a case by hand: the forest
//
//	a (0.20) ── a1 (0.45)
//	b (0.25)
//	c (0.10)
//
// With K = 2 the best closed set is {a1, a} (0.65), not the two labels of
// highest mass {a1, b} (not closed), nor {b, a} (0.45), which taking the
// most probable label whose parent is in the set, from the top, would give.
// With K = 1 it is {b}; with a threshold 0.21, which a fails, {b} whatever
// K.
func TestClosedExample(t *testing.T) {
	tr, err := tree.Read(stringsReader("a\ta1\nb\nc\n"), "f", nil)
	if err != nil {
		t.Fatal(err)
	}
	idx := func(name string) int { i, _ := tr.Index(name); return i }
	p := make([]float64, tr.Len())
	p[idx("a")], p[idx("a1")], p[idx("b")], p[idx("c")] = 0.20, 0.45, 0.25, 0.10
	d := NewDecoder(tr)
	for _, c := range []struct {
		k    int
		min  float64
		want []string
	}{
		{2, 0, []string{"a1", "a"}},
		{1, 0, []string{"b"}},
		{3, 0, []string{"a1", "b", "a"}},
		{0, 0, []string{"a1", "b", "a", "c"}},
		{2, 0.21, []string{"b"}},
		{0, 0.21, []string{"b"}},
		{0, 0.5, nil},
	} {
		var got []string
		for _, v := range d.Closed(nil, p, c.k, c.min) {
			got = append(got, tr.Name(v))
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("K %d, min %v: %q, want %q", c.k, c.min, got, c.want)
		}
	}
}

// TestTopBruteForce compares Top with sorting all the labels.
func TestTopBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 2000 {
		n := 1 + rng.IntN(30)
		p := randomMasses(rng, n, trial%3 == 0)
		k := rng.IntN(n + 3)
		min := 0.0
		if rng.IntN(2) == 0 {
			min = rng.Float64() * 2 / float64(n)
		}
		var want []int
		for v := range n {
			if p[v] >= min {
				want = append(want, v)
			}
		}
		sort.SliceStable(want, func(a, b int) bool { return p[want[a]] > p[want[b]] })
		if k > 0 && len(want) > k {
			want = want[:k]
		}
		got := Top([]int{-1}, p, k, min)
		if got[0] != -1 || !slices.Equal(got[1:], want) {
			t.Fatalf("p %v k %d min %v: %v, want %v", p, k, min, got[1:], want)
		}
	}
}

// TestNoAllocs checks that a Decoder reuses its memory.
func TestNoAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	tr := randomForest(t, rng, 200, true)
	p := randomMasses(rng, 200, false)
	d := NewDecoder(tr)
	dst := make([]int, 0, 200)
	d.Closed(dst, p, 5, 0)
	for _, k := range []int{0, 5} {
		if a := testing.AllocsPerRun(20, func() { dst = d.Closed(dst[:0], p, k, 0) }); a != 0 {
			t.Errorf("K %d: %v allocations a call", k, a)
		}
		if a := testing.AllocsPerRun(20, func() { dst = Top(dst[:0], p, k, 0) }); a != 0 {
			t.Errorf("Top %d: %v allocations a call", k, a)
		}
	}
}

func BenchmarkClosed(b *testing.B) {
	for _, n := range []int{38, 1000} {
		for _, k := range []int{5, 20} {
			b.Run(fmt.Sprintf("L%d/K%d", n, k), func(b *testing.B) {
				rng := rand.New(rand.NewPCG(7, 8))
				tr := randomForest(b, rng, n, true)
				p := randomMasses(rng, n, false)
				d := NewDecoder(tr)
				dst := make([]int, 0, n)
				b.ReportAllocs()
				for b.Loop() {
					dst = d.Closed(dst[:0], p, k, 0)
				}
			})
		}
	}
}

func stringsReader(s string) *strings.Reader { return strings.NewReader(s) }
