package bag

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/twl-ldl/twl/internal/testutil"
	"github.com/twl-ldl/twl/vocab"
)

// smallEnsemble is smallModel beside a bag of its 7 words alone, every
// parameter random, with the documents of each member: the second's are
// the word rows of the first's.
func smallEnsemble(seed uint64) (*Ensemble, [][][]int32) {
	m, docs := smallModel(seed)
	x, err := NewIndex(7, Features{WordNgrams: 1, Buckets: 1}, nil)
	if err != nil {
		panic(err)
	}
	w := New(x, 3, 4)
	rng := rand.New(rand.NewPCG(seed, 2))
	for i := range w.Params {
		w.Params[i] = float32(rng.NormFloat64())
	}
	words := make([][]int32, len(docs))
	for r, d := range docs {
		for _, f := range d {
			if f < 7 {
				words[r] = append(words[r], f)
			}
		}
	}
	return NewEnsemble(m, w), [][][]int32{docs, words}
}

// TestEnsembleLogits: the softmax of the ensemble's logits is the mean of
// its members' softmax, computed directly from the members' logits (the
// layers' forward functions) to 1e-12; logits of ±1000, whose softmax
// underflows to 0 in places, still give finite logits and the mean.
func TestEnsembleLogits(t *testing.T) {
	e, docs := smallEnsemble(11)
	L := e.Outputs()
	enc := make([][]int32, len(docs[0]))
	for r := range enc {
		for k := range e.Members {
			enc[r] = append(enc[r], int32(len(docs[k][r])))
			enc[r] = append(enc[r], docs[k][r]...)
		}
	}
	got := make([]float64, len(enc)*L)
	e.NewLogits()(got, enc)
	z0, z1 := forward(e.Members[0], docs[0]), forward(e.Members[1], docs[1])
	for r := range enc {
		p := testutil.Softmax(got[r*L : (r+1)*L])
		p0, p1 := testutil.Softmax(z0[r*L:(r+1)*L]), testutil.Softmax(z1[r*L:(r+1)*L])
		for j := range p {
			if want := (p0[j] + p1[j]) / 2; math.Abs(p[j]-want) > 1e-12 {
				t.Errorf("document %d, label %d: %v, want the mean %v", r, j, p[j], want)
			}
		}
	}
	// Extreme logits: member 1 puts all its mass on label 0, member 2 on
	// label 3; the mean is ½ on each, and the others' logits are finite.
	z := [][]float64{{1000, -1000, 0, -1000}, {-1000, 0, -1000, 1000}}
	dst := make([]float64, 4)
	combine(dst, z, 0, 4)
	p := testutil.Softmax(dst)
	for j, v := range dst {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			t.Fatalf("logit %d: %v", j, v)
		}
	}
	if math.Abs(p[0]-0.5) > 1e-12 || math.Abs(p[3]-0.5) > 1e-12 {
		t.Errorf("extreme logits: %v, want ½ on labels 0 and 3", p)
	}
}

// TestEnsembleLearner: a step of the EnsembleLearner, given the gradient
// of each member's own mean KL loss in its block, leaves every member
// exactly where a Learner of that member alone leaves it after the same
// step; Targets repeats each row's target per member; and the results do
// not depend on the number of workers.
func TestEnsembleLearner(t *testing.T) {
	run := func(workers int) ([]float32, []float32) {
		e, docs := smallEnsemble(5)
		alone, _ := smallEnsemble(5)
		L, K := e.Outputs(), len(e.Members)
		y := make([]float64, len(docs[0])*L)
		rng := rand.New(rand.NewPCG(6, 7))
		for r := range docs[0] {
			copy(y[r*L:], testutil.Dist(rng, L))
		}
		opts := LearnerOptions{LR: 0.4, Steps: 6, Workers: workers}
		el := NewEnsembleLearner(e, docs, y, opts)
		var solo []*Learner
		for k, m := range alone.Members {
			solo = append(solo, NewLearner(m, docs[k], y, opts))
		}
		for step, rows := range [][]int{{3, 0, 1}, {4, 2}, {0, 4, 1, 2, 3}} {
			B := len(rows)
			z := make([]float64, B*K*L)
			el.Logits(z, rows)
			yt := make([]float64, B*K*L)
			el.Targets(yt, rows)
			dz := make([]float64, B*K*L)
			for k, ln := range solo {
				zk := make([]float64, B*L)
				ln.Logits(zk, rows)
				yk := make([]float64, B*L)
				ln.Targets(yk, rows)
				_, g := klLoss(zk, yk, L)
				for i := range B {
					if !slices.Equal(z[(i*K+k)*L:(i*K+k+1)*L], zk[i*L:(i+1)*L]) || !slices.Equal(yt[(i*K+k)*L:(i*K+k+1)*L], yk[i*L:(i+1)*L]) {
						t.Fatalf("step %d, member %d, row %d: logits or targets differ from the member's own", step, k, i)
					}
					for j := range L {
						g[i*L+j] /= float64(B)
						dz[(i*K+k)*L+j] = g[i*L+j]
					}
				}
				ln.Update(g)
			}
			el.Update(dz)
		}
		for k := range e.Members {
			if !slices.Equal(e.Members[k].Params, alone.Members[k].Params) {
				t.Errorf("workers %d: member %d after 3 steps differs from the member trained alone", workers, k+1)
			}
		}
		p0, p1 := slices.Clone(e.Members[0].Params), slices.Clone(e.Members[1].Params)
		checkRestored(t, el, e, p0, p1)
		return p0, p1
	}
	a0, a1 := run(1)
	b0, b1 := run(3)
	if !slices.Equal(a0, b0) || !slices.Equal(a1, b1) {
		t.Error("1 and 3 workers give different members")
	}
}

// TestEnsembleEncodePayload: Encode gives each member's count and
// features in turn, and a payload read back is the same ensemble.
func TestEnsembleEncodePayload(t *testing.T) {
	words := []string{"<unk>", "a", "b", "c", "d", "e", "f"}
	v, err := vocab.New(words)
	if err != nil {
		t.Fatal(err)
	}
	e, _ := smallEnsemble(2)
	var tk vocab.Tokenizer
	text := "a b zz c"
	got := e.Encode(nil, v, &tk, text)
	m0 := e.Members[0].Encode(nil, v, &tk, text)
	m1 := e.Members[1].Encode(nil, v, &tk, text)
	want := append(append(append([]int32{int32(len(m0))}, m0...), int32(len(m1))), m1...)
	if !slices.Equal(got, want) || !slices.Equal(m1, []int32{v.ID("a"), v.ID("b"), v.ID("c")}) {
		t.Errorf("Encode(%q) = %v, want %v (words alone %v)", text, got, want, m1)
	}
	var buf bytes.Buffer
	if err := e.WritePayload(&buf); err != nil {
		t.Fatal(err)
	}
	if int64(buf.Len()) != e.Config().PayloadBytes() {
		t.Fatalf("payload %d bytes, PayloadBytes %d", buf.Len(), e.Config().PayloadBytes())
	}
	back, err := ReadEnsemblePayload(e.Config(), bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	for k := range e.Members {
		if !slices.Equal(back.Members[k].Params, e.Members[k].Params) || !slices.Equal(back.Members[k].Index.Kept, e.Members[k].Index.Kept) {
			t.Errorf("member %d read back differs", k+1)
		}
	}
	if _, err := ReadEnsemblePayload(e.Config(), bytes.NewReader(buf.Bytes()[:buf.Len()-4])); err == nil {
		t.Error("a payload cut short read")
	}
	bad := e.Config()
	bad.Members[1].Labels = 3
	if bad.Check() == nil {
		t.Error("members of 4 and 3 labels accepted")
	}
}

// checkRestored: the learner's state and parameters, saved, then changed
// by a step, come back with SetState and SetParams (p0, p1: the members'
// parameters when saved); states that are short, or whose members have
// made different numbers of steps, are refused before any member changes.
func checkRestored(t *testing.T, el *EnsembleLearner, e *Ensemble, p0, p1 []float32) {
	t.Helper()
	state, params := el.AppendState(nil), el.AppendParams(nil)
	steps := el.Members()[0].Step()
	step := func() {
		rows := []int{0, 1}
		z := make([]float64, len(rows)*el.Labels())
		el.Logits(z, rows)
		for i := range z {
			z[i] = 0.1 * float64(i%3)
		}
		el.Update(z)
	}
	step()
	if slices.Equal(e.Members[0].Params, p0) || slices.Equal(e.Members[1].Params, p1) {
		t.Fatal("a step changed nothing")
	}
	if err := el.SetState(state); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(e.Members[0].Params, p0) || !slices.Equal(e.Members[1].Params, p1) || el.Members()[1].Step() != steps {
		t.Error("SetState did not restore the members")
	}
	step()
	if err := el.SetParams(params); err != nil || !slices.Equal(e.Members[0].Params, p0) || !slices.Equal(e.Members[1].Params, p1) {
		t.Errorf("SetParams did not restore the members: %v", err)
	}
	if el.SetState(state[1:]) == nil || el.SetParams(params[1:]) == nil {
		t.Error("a state or parameters one byte short accepted")
	}
	// Member 2 with one step more than member 1: refused, member 1 as it was.
	el.SetState(state)
	bad := slices.Clone(state)
	binary.LittleEndian.PutUint64(bad[len(bad)-8:], uint64(steps+1))
	step()
	before := slices.Clone(e.Members[0].Params)
	if err := el.SetState(bad); err == nil || !slices.Equal(e.Members[0].Params, before) {
		t.Errorf("members of different step counts: %v, member 1 changed: %v", err, !slices.Equal(e.Members[0].Params, before))
	}
}

// TestEnsembleLogitsBatches: the function of NewLogits gives every
// document the logits it gives the document alone, over batches that
// grow past the workers' chunks and shrink again.
func TestEnsembleLogitsBatches(t *testing.T) {
	e, docs := smallEnsemble(9)
	L := e.Outputs()
	var enc [][]int32
	for i := range 300 {
		r := i % len(docs[0])
		d := []int32{int32(len(docs[0][r]))}
		d = append(d, docs[0][r]...)
		d = append(d, int32(len(docs[1][r])))
		enc = append(enc, append(d, docs[1][r]...))
	}
	one := make([][]float64, len(docs[0]))
	for r := range one {
		one[r] = make([]float64, L)
		e.NewLogits()(one[r], enc[r:r+1])
	}
	f := e.NewLogits()
	for _, n := range []int{3, 300, 130, 1, 257} {
		dst := make([]float64, n*L)
		f(dst, enc[:n])
		for i := range n {
			if !slices.Equal(dst[i*L:(i+1)*L], one[i%len(docs[0])]) {
				t.Fatalf("batch of %d, document %d: %v, alone %v", n, i, dst[i*L:(i+1)*L], one[i%len(docs[0])])
			}
		}
	}
}
