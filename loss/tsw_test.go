package loss_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/internal/testutil"
	"github.com/twl-ldl/twl/loss"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/tsw"
	"github.com/twl-ldl/twl/tw"
)

// labelNames returns "l0" … "l{L-1}".
func labelNames(L int) []string {
	s := make([]string, L)
	for i := range s {
		s[i] = fmt.Sprintf("l%d", i)
	}
	return s
}

// labelTree is a random tree whose nodes are exactly the labels, in the
// order perm: user node perm[i] is label i. Weights in [0.25, 2.25).
type labelTree struct {
	t    *tree.Tree
	perm []int
}

func newLabelTree(tb testing.TB, rng *rand.Rand, names []string) labelTree {
	L := len(names)
	perm := rng.Perm(L)
	un := make([]string, L)
	for i, u := range perm {
		un[u] = names[i]
	}
	w := testutil.UniformWeights(rng, L)
	for i := range w {
		w[i] += 0.25
	}
	t, err := tree.FromParents(testutil.RandomParents(rng, L, 1), w, un, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return labelTree{t, perm}
}

// toTree and fromTree move a B×L matrix between label order and the tree's
// user order.
func (lt labelTree) toTree(x []float64) []float64 {
	L := len(lt.perm)
	y := make([]float64, len(x))
	for r := 0; r < len(x); r += L {
		for i, u := range lt.perm {
			y[r+u] = x[r+i]
		}
	}
	return y
}

func (lt labelTree) fromTree(y []float64) []float64 {
	L := len(lt.perm)
	x := make([]float64, len(y))
	for r := 0; r < len(y); r += L {
		for i, u := range lt.perm {
			x[r+i] = y[r+u]
		}
	}
	return x
}

// TestKLTSWMeanOfKLTW: when every tree's nodes are exactly the labels, TSW
// is the mean of the trees' TW, so KL + λ·TSW is the mean over the trees of
// the existing KL + λ·TW loss on each (KL does not depend on the tree), in
// value, gradient (linear in the distance's gradient) and parts. Each tree
// numbers the labels in its own random order: logits and targets are
// permuted into it and the gradient back, by the test's own permutation.
// Same terms summed in another order: 1e-12.
func TestKLTSWMeanOfKLTW(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	for _, c := range []struct {
		L, T, rows int
		lambda     float64
	}{{2, 1, 1, 1}, {6, 3, 4, 0.5}, {15, 5, 7, 1}, {30, 8, 300, 2}} {
		names := labelNames(c.L)
		lts := make([]labelTree, c.T)
		trees := make([]*tree.Tree, c.T)
		for k := range lts {
			lts[k] = newLabelTree(t, rng, names)
			trees[k] = lts[k].t
		}
		s, err := tsw.New(trees, names)
		if err != nil {
			t.Fatal(err)
		}
		z := randLogits(rng, c.rows, c.L, 1)
		y := randTargets(rng, c.rows, c.L, 3)
		l := loss.NewKLTSW(s, c.lambda)
		v, g := eval(t, l, z, y)
		var wv, wkl, wd float64
		wg := make([]float64, len(z))
		for _, lt := range lts {
			lk := loss.NewKLTW(lt.t, c.lambda)
			vk, gk := eval(t, lk, lt.toTree(z), lt.toTree(y))
			wv += vk
			wkl += lk.Last().KL
			wd += lk.Last().Dist
			for i, x := range lt.fromTree(gk) {
				wg[i] += x
			}
		}
		T := float64(c.T)
		wv, wkl, wd = wv/T, wkl/T, wd/T
		if math.Abs(v-wv) > 1e-12*math.Max(1, wv) {
			t.Errorf("%+v: KL+λTSW = %.17g, mean of KL+λTW %.17g", c, v, wv)
		}
		for i := range g {
			if math.Abs(g[i]-wg[i]/T) > 1e-12 {
				t.Errorf("%+v: gradient[%d] = %.17g, mean of KL+λTW's %.17g", c, i, g[i], wg[i]/T)
				break
			}
		}
		if p := l.Last(); math.Abs(p.KL-wkl) > 1e-12 || math.Abs(p.Dist-wd) > 1e-12 {
			t.Errorf("%+v: Last() = %+v, want {KL: %v, Dist: %v}", c, p, wkl, wd)
		}
	}
}

// leafTrees returns T random trees with a leaf per label under internal
// nodes of their own (a random recursive tree on m nodes), and the Sliced
// on them.
func leafTrees(tb testing.TB, rng *rand.Rand, L, T, m int) (*tsw.Sliced, []*tree.Tree) {
	names := labelNames(L)
	trees := make([]*tree.Tree, T)
	for k := range trees {
		parent := make([]int, m+L)
		all := make([]string, m+L)
		parent[0] = -1
		for j := range m {
			if j > 0 {
				parent[j] = rng.IntN(j)
			}
			all[j] = fmt.Sprintf("n%d", j)
		}
		for i, name := range names {
			parent[m+i] = rng.IntN(m)
			all[m+i] = name
		}
		w := testutil.UniformWeights(rng, m+L)
		for i := range w {
			w[i] += 0.25
		}
		t, err := tree.FromParents(parent, w, all, nil)
		if err != nil {
			tb.Fatal(err)
		}
		trees[k] = t
	}
	s, err := tsw.New(trees, names)
	if err != nil {
		tb.Fatal(err)
	}
	return s, trees
}

// tswRef is the reference TSW(p, y) on trees with the labels at nodes
// m..m+L−1 (leafTrees): the mean of tw.Distance on vectors scattered there.
func tswRef(trees []*tree.Tree, m int, p, y []float64) float64 {
	var s float64
	for _, t := range trees {
		P, Y := make([]float64, t.Len()), make([]float64, t.Len())
		copy(P[m:], p)
		copy(Y[m:], y)
		s += tw.Distance(t, P, Y)
	}
	return s / float64(len(trees))
}

// TestKLTSWValue checks KL + λ·TSW on trees with internal nodes of their
// own against the mean over rows of testutil.KL plus λ times tswRef, the
// softmax by testutil.Softmax (math.Exp): 1e-12.
func TestKLTSWValue(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 44))
	for _, c := range []struct {
		L, T, m, rows int
		lambda        float64
	}{{3, 2, 1, 2, 1}, {10, 4, 5, 3, 0.5}, {40, 6, 20, 5, 2.5}} {
		s, trees := leafTrees(t, rng, c.L, c.T, c.m)
		z := randLogits(rng, c.rows, c.L, 1)
		y := randTargets(rng, c.rows, c.L, 4)
		l := loss.NewKLTSW(s, c.lambda)
		v, _ := eval(t, l, z, y)
		var kl, d float64
		for r := range c.rows {
			p := testutil.Softmax(z[r*c.L : (r+1)*c.L])
			yr := y[r*c.L : (r+1)*c.L]
			kl += testutil.KL(yr, p)
			d += tswRef(trees, c.m, p, yr)
		}
		kl /= float64(c.rows)
		d /= float64(c.rows)
		if want := kl + c.lambda*d; math.Abs(v-want) > 1e-12*math.Max(1, want) {
			t.Errorf("%+v: KL+λTSW = %.17g, reference %.17g", c, v, want)
		}
		if p := l.Last(); math.Abs(p.KL-kl) > 1e-12 || math.Abs(p.Dist-d) > 1e-12 {
			t.Errorf("%+v: Last() = %+v, want {KL: %v, Dist: %v}", c, p, kl, d)
		}
		// Targeted: EvalTerms with the precomputed terms is Eval.
		terms := make([]float64, c.rows)
		l.TargetTerms(terms, y)
		g2 := make([]float64, len(z))
		if v2, err := l.EvalTerms(g2, z, y, terms); err != nil || v2 != v {
			t.Errorf("%+v: EvalTerms = %v, %v; Eval %v", c, v2, err, v)
		}
	}
}

// minKinkTSW returns the smallest |subtree difference of p − y| over the
// edges of all trees (leafTrees layout) whose subtree holds a label,
// walking up with Tree.Parent: the distance to the nearest kink of
// TSW(·, y) at p. (The difference below an edge whose subtree holds no
// label is zero whatever p is: it makes no kink.)
func minKinkTSW(trees []*tree.Tree, m int, p, y []float64) float64 {
	k := math.Inf(1)
	for _, t := range trees {
		d := make([]float64, t.Len())
		labels := make([]int, t.Len())
		for i := range p {
			for v := m + i; v >= 0; v = t.Parent(v) {
				d[v] += p[i] - y[i]
				labels[v]++
			}
		}
		for v, x := range d {
			if t.Parent(v) >= 0 && labels[v] > 0 {
				k = min(k, math.Abs(x))
			}
		}
	}
	return k
}

// TestKLTSWGradFD checks the KL + λ·TSW gradient against central
// differences of the loss value, at points at least 1e-3 from every kink
// of every tree, where TSW is linear in p: h = 1e-6, tolerance 1e-6 as for
// KL + λ·TW.
func TestKLTSWGradFD(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 46))
	for _, c := range []struct {
		L, T, m int
		lambda  float64
	}{{2, 3, 1, 1}, {5, 4, 3, 0.5}, {9, 3, 6, 1}} {
		s, trees := leafTrees(t, rng, c.L, c.T, c.m)
		const rows = 2
		var z, y []float64
		for try := 0; ; try++ {
			if try == 1000 {
				t.Fatalf("%+v: no sample away from kinks", c)
			}
			z = randLogits(rng, rows, c.L, 1)
			y = randTargets(rng, rows, c.L, c.L)
			ok := true
			for r := range rows {
				p := testutil.Softmax(z[r*c.L : (r+1)*c.L])
				ok = ok && minKinkTSW(trees, c.m, p, y[r*c.L:(r+1)*c.L]) >= 1e-3
			}
			if ok {
				break
			}
		}
		checkFD(t, fmt.Sprintf("%+v", c), loss.NewKLTSW(s, c.lambda), z, y, 1e-6, 1e-6, nil)
	}
}

// TestKLTSWName: the name gives λ, T and a hash of the trees, which tells
// two tree sets apart and is the same for equal ones.
func TestKLTSWName(t *testing.T) {
	rng := rand.New(rand.NewPCG(47, 48))
	s1, trees := leafTrees(t, rng, 6, 3, 4)
	s2, _ := leafTrees(t, rng, 6, 3, 4)
	same, err := tsw.New(trees, labelNames(6))
	if err != nil {
		t.Fatal(err)
	}
	l1, l2, l3 := loss.NewKLTSW(s1, 0.5), loss.NewKLTSW(s2, 0.5), loss.NewKLTSW(same, 0.5)
	if l1.Labels() != 6 {
		t.Errorf("Labels = %d", l1.Labels())
	}
	if n := l1.Name(); !strings.HasPrefix(n, "kl+0.5·tsw(T=3,trees=") || len(n) != len("kl+0.5·tsw(T=3,trees=)")+8 {
		t.Errorf("Name = %q", n)
	}
	if l1.Name() == l2.Name() {
		t.Errorf("different trees, same name %q", l1.Name())
	}
	if l1.Name() != l3.Name() {
		t.Errorf("same trees: %q and %q", l1.Name(), l3.Name())
	}
	if n := loss.NewKLTSW(s1, 0).Name(); n != "kl" {
		t.Errorf("λ = 0: Name = %q", n)
	}
	for _, f := range []func(){
		func() { loss.NewKLTSW(nil, 1) },
		func() { loss.NewKLTSW(s1, -1) },
		func() { loss.NewKLTSW(s1, math.Inf(1)) },
	} {
		if ok, v := testutil.Panics(f); !ok || !strings.HasPrefix(fmt.Sprint(v), "loss: ") {
			t.Errorf("panic %v, want a \"loss: \" message", v)
		}
	}
}
