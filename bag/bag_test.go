package bag

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/twl-ldl/twl/internal/testutil"
	"github.com/twl-ldl/twl/vocab"
)

// smallModel is a model of 7 words and 5 n-gram rows, dimension 3 and 4
// labels, every parameter random, and documents with a repeated feature
// and an empty one.
func smallModel(seed uint64) (*Model, [][]int32) {
	x, err := NewIndex(7, Features{WordNgrams: 2, Buckets: 11}, []int32{3, 0, 9, 4, 10})
	if err != nil {
		panic(err)
	}
	m := New(x, 3, 4)
	rng := rand.New(rand.NewPCG(seed, 1))
	for i := range m.Params {
		m.Params[i] = float32(rng.NormFloat64())
	}
	docs := [][]int32{{1, 2, 8, 11}, {}, {6, 6, 3, 7}, {10, 0, 4, 9, 9, 5}, {2}}
	return m, docs
}

// klLoss returns Σ_rows KL(y_r ‖ softmax(z_r)) and its gradient with
// respect to z, softmax(z) − y per row.
func klLoss(z, y []float64, L int) (float64, []float64) {
	var s float64
	dz := make([]float64, len(z))
	for r := 0; r < len(z)/L; r++ {
		p := testutil.Softmax(z[r*L : (r+1)*L])
		s += testutil.KL(y[r*L:(r+1)*L], p)
		for j := range p {
			dz[r*L+j] = p[j] - y[r*L+j]
		}
	}
	return s, dz
}

// forward computes the logits of docs with the layers' forward functions.
func forward(m *Model, docs [][]int32) []float64 {
	D, L := m.Dim, m.Labels
	z := make([]float64, len(docs)*L)
	h := make([]float32, D)
	for r, d := range docs {
		meanForward(h, m.Emb, d, D)
		linearForward(z[r*L:(r+1)*L], h, m.W, m.B, L, D)
	}
	return z
}

// gradient returns the gradient of Σ_r loss_r with respect to Params, by
// the layers' backward functions, for dz the gradient of the logits.
func gradient(m *Model, docs [][]int32, dz []float64) []float32 {
	D, L := m.Dim, m.Labels
	grad := make([]float32, len(m.Params))
	n := len(m.Emb)
	demb, dw, db := grad[:n], grad[n:n+L*D], grad[n+L*D:]
	h, dh := make([]float32, D), make([]float32, D)
	for r, d := range docs {
		meanForward(h, m.Emb, d, D)
		clear(dh)
		linearBackward(dh, dw, db, dz[r*L:(r+1)*L], h, m.W, L, D)
		meanBackward(demb, dh, d, D)
	}
	return grad
}

// TestGradFiniteDifferences compares the gradient of the backward
// functions of a KL loss with central finite differences of the loss,
// computed by the forward functions alone, for every parameter, at step
// 2⁻⁸. The forward pass runs in float32, so a difference quotient carries
// rounding noise of about 1e-7·|loss|/h ≈ 1e-4; the loss is quadratic at
// most in each parameter's neighbourhood up to O(h²) ≈ 1e-5 terms. The
// tolerance, 2e-3 relative plus 2e-3 absolute, is above both and far below
// a real mistake (a missing 1/n or a transposed W changes gradients by
// O(1)). Rows of the table that no document lists must get exactly 0.
func TestGradFiniteDifferences(t *testing.T) {
	m, docs := smallModel(3)
	L := m.Labels
	y := make([]float64, len(docs)*L)
	rng := rand.New(rand.NewPCG(4, 5))
	for r := range docs {
		copy(y[r*L:], testutil.Dist(rng, L))
	}
	loss := func() float64 { v, _ := klLoss(forward(m, docs), y, L); return v }
	_, dz := klLoss(forward(m, docs), y, L)
	grad := gradient(m, docs, dz)
	const h = 1.0 / 256
	used := map[int]bool{}
	for _, d := range docs {
		for _, f := range d {
			used[int(f)] = true
		}
	}
	for i := range m.Params {
		old := m.Params[i]
		m.Params[i] = old + h
		up := loss()
		m.Params[i] = old - h
		down := loss()
		m.Params[i] = old
		num := (up - down) / (2 * h)
		if i < len(m.Emb) && !used[i/m.Dim] {
			if grad[i] != 0 || num != 0 {
				t.Errorf("param %d of an unused row: gradient %v, finite difference %v", i, grad[i], num)
			}
			continue
		}
		if d := math.Abs(float64(grad[i]) - num); d > 2e-3+2e-3*math.Abs(num) {
			t.Errorf("param %d: gradient %v, finite difference %v", i, grad[i], num)
		}
	}
}

// TestLearnerStep: one Update equals a step of gradient descent on the
// gradient of the backward functions, g_r = B·dz_r being each document's
// gradient: the output layer bit for bit (the same sums in the same
// order), the table's rows within float32 rounding (the learner adds each
// document's part to a row as it goes, the reference sums them first).
func TestLearnerStep(t *testing.T) {
	m, docs := smallModel(7)
	L, D := m.Labels, m.Dim
	y := make([]float64, len(docs)*L)
	rng := rand.New(rand.NewPCG(8, 9))
	for r := range docs {
		copy(y[r*L:], testutil.Dist(rng, L))
	}
	ref := slices.Clone(m.Params)
	ln := NewLearner(m, docs, y, LearnerOptions{LR: 0.3, Steps: 10, Workers: 2})
	rows := []int{3, 0, 1, 4, 2}
	z := make([]float64, len(rows)*L)
	ln.Logits(z, rows)
	batch := make([][]int32, len(rows))
	yb := make([]float64, len(rows)*L)
	for k, r := range rows {
		batch[k] = docs[r]
		copy(yb[k*L:], y[r*L:(r+1)*L])
	}
	if want := forward(m, batch); !slices.Equal(z, want) {
		t.Fatalf("Logits %v, the forward functions %v", z, want)
	}
	_, g := klLoss(z, yb, L) // each document's gradient
	dz := make([]float64, len(g))
	for i := range g {
		dz[i] = g[i] / float64(len(rows)) // the gradient of the mean
	}
	// B·dz must give back g exactly for the comparison to be bit for bit:
	// with B = 5 it does for these values (checked here).
	for i := range g {
		if float64(len(rows))*dz[i] != g[i] {
			t.Skip("B·(g/B) ≠ g in float64 for this draw")
		}
	}
	grad := gradient(m, batch, g)
	ln.Update(dz)
	eta := float32(0.3) // the first step: η₀
	n := len(m.Emb)
	for i := range ref {
		want := ref[i] - eta*grad[i]
		got := m.Params[i]
		if i >= n {
			if got != want {
				t.Errorf("output param %d: %v, want %v", i-n, got, want)
			}
		} else if math.Abs(float64(got-want)) > 1e-6*(1+math.Abs(float64(want))) {
			t.Errorf("row %d, %d: %v, want %v", i/D, i%D, got, want)
		}
	}
	if ln.Step() != 1 || ln.LR(1) != 0.3*0.9 {
		t.Errorf("after a step: step %d, LR(1) %v, want 1 and 0.27", ln.Step(), ln.LR(1))
	}
}

// trainSteps runs steps of training on a larger random problem with
// workers goroutines and returns the parameters.
func trainSteps(workers int) []float32 {
	x, _ := NewIndex(50, Features{WordNgrams: 2, Buckets: 100}, []int32{5, 17, 33, 2, 99, 64, 71, 80})
	m := New(x, 8, 6)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range m.Emb {
		m.Emb[i] = float32(rng.NormFloat64() * 0.3)
	}
	docs := make([][]int32, 40)
	y := make([]float64, 40*6)
	for r := range docs {
		for range rng.IntN(30) {
			docs[r] = append(docs[r], int32(rng.IntN(58)))
		}
		y[r*6+rng.IntN(6)] = 1
	}
	ln := NewLearner(m, docs, y, LearnerOptions{LR: 0.5, Steps: 20, Workers: workers})
	z := make([]float64, 10*6)
	for s := range 20 {
		rows := make([]int, 10)
		for k := range rows {
			rows[k] = (s*7 + k*3) % 40
		}
		ln.Logits(z, rows)
		yb := make([]float64, len(z))
		ln.Targets(yb, rows)
		_, g := klLoss(z, yb, 6)
		for i := range g {
			g[i] /= 10
		}
		ln.Update(g)
	}
	return m.Params
}

// TestLearnerWorkers: the same steps give the same parameters bit for bit
// with 1, 2, 3 and 5 workers.
func TestLearnerWorkers(t *testing.T) {
	want := trainSteps(1)
	for _, w := range []int{2, 3, 5} {
		if got := trainSteps(w); !slices.Equal(got, want) {
			t.Errorf("%d workers give other parameters than 1", w)
		}
	}
}

// TestLearnerState: a learner's state restored into another learner of
// the same model continues identically.
func TestLearnerState(t *testing.T) {
	m, docs := smallModel(1)
	y := make([]float64, len(docs)*m.Labels)
	for r := range docs {
		y[r*m.Labels+r%m.Labels] = 1
	}
	ln := NewLearner(m, docs, y, LearnerOptions{LR: 0.1, Steps: 5})
	z := make([]float64, 2*m.Labels)
	ln.Logits(z, []int{0, 2})
	ln.Update(z) // any gradient will do
	st := ln.AppendState(nil)
	m2, _ := smallModel(99)
	ln2 := NewLearner(m2, docs, y, LearnerOptions{LR: 0.1, Steps: 5})
	if err := ln2.SetState(st); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m2.Params, m.Params) || ln2.Step() != 1 {
		t.Error("the state restored differs")
	}
	if ln2.SetState(st[:len(st)-1]) == nil {
		t.Error("a cut state was accepted")
	}
}

// TestFeatures: the raw features of a text, worked out by hand: each
// token's word ID when the vocabulary has it, then (WordNgrams 2) the
// bucket of the bigram it ends; Encode keeps words and the buckets that
// have a row, in that order; truncation keeps the first or last tokens.
func TestFeatures(t *testing.T) {
	v, err := vocab.New([]string{"<unk>", "the", "cat", "sat"})
	if err != nil {
		t.Fatal(err)
	}
	f := Features{WordNgrams: 2, Buckets: 1000}
	var tk vocab.Tokenizer
	raw, n := AppendRaw(nil, f, v, &tk, "The cat sat, purring")
	V := int32(v.Len())
	bigram := func(a, b string) int32 {
		h := uint64(hashOf(a))*ngramMul + uint64(hashOf(b))
		return V + int32(h%1000)
	}
	want := []int32{1, 2, bigram("the", "cat"), 3, bigram("cat", "sat"), bigram("sat", "purring")}
	if n != 4 || !slices.Equal(raw, want) {
		t.Fatalf("AppendRaw: %v (%d tokens), want %v (4)", raw, n, want)
	}
	x, err := NewIndex(v.Len(), f, []int32{bigram("sat", "purring") - V})
	if err != nil {
		t.Fatal(err)
	}
	enc := x.Encode(nil, v, &tk, "The cat sat, purring")
	if w := []int32{1, 2, 3, 4}; !slices.Equal(enc, w) {
		t.Errorf("Encode: %v, want %v", enc, w)
	}
	if m := x.MapRaw(nil, raw); !slices.Equal(m, enc) {
		t.Errorf("MapRaw: %v, want Encode's %v", m, enc)
	}
	first, _ := AppendRaw(nil, f, v, &vocab.Tokenizer{MaxLen: 2}, "the cat sat")
	last, _ := AppendRaw(nil, f, v, &vocab.Tokenizer{MaxLen: 2, Keep: vocab.Last}, "the cat sat")
	if w := []int32{1, 2, bigram("the", "cat")}; !slices.Equal(first, w) {
		t.Errorf("first 2 tokens: %v, want %v", first, w)
	}
	if w := []int32{2, 3, bigram("cat", "sat")}; !slices.Equal(last, w) {
		t.Errorf("last 2 tokens: %v, want %v", last, w)
	}
	// Character n-grams of 3 characters of "cat": <ca, cat, at>.
	fc := Features{WordNgrams: 1, MinN: 3, MaxN: 3, Buckets: 1000}
	rc, _ := AppendRaw(nil, fc, v, &tk, "cat")
	wc := []int32{2, V + int32(hashOf("<ca")%1000), V + int32(hashOf("cat")%1000), V + int32(hashOf("at>")%1000)}
	if !slices.Equal(rc, wc) {
		t.Errorf("character n-grams: %v, want %v", rc, wc)
	}
	// KeepBuckets: by count, then bucket.
	docs := [][]int32{{V + 5, 1, V + 3}, {V + 3, V + 9, V + 5, V + 3}}
	if got, w := KeepBuckets(docs, int(V), Features{WordNgrams: 2, Buckets: 10}, 2), []int32{3, 5}; !slices.Equal(got, w) {
		t.Errorf("KeepBuckets: %v, want %v", got, w)
	}
}

// hashOf is FNV-1a with each byte sign-extended (fastText's), written out
// here from its definition (offset 2166136261, prime 16777619).
func hashOf(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h = (h ^ uint32(int8(s[i]))) * 16777619
	}
	return h
}
