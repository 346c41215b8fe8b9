package lstm_test

import (
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/twl-ldl/twl/loss"
	"github.com/twl-ldl/twl/lstm"
	"github.com/twl-ldl/twl/optim"
	"github.com/twl-ldl/twl/train"
	"github.com/twl-ldl/twl/tree"
)

var _ train.Learner = (*lstm.Learner)(nil)
var _ train.Counter = (*lstm.Learner)(nil)

// toyTask is a corpus whose label is the first "signal" token of each
// document (IDs 1…L, L = 4), hidden among noise tokens (IDs L+1 … V−1) at a
// random position; the targets put all mass on that label. An LSTM must
// carry the signal to the end of the document to solve it.
func toyTask(seed uint64, n int) (docs [][]int32, y []float64, cfg lstm.Config) {
	const V, L = 20, 4
	rng := rand.New(rand.NewPCG(seed, 7))
	y = make([]float64, n*L)
	for r := range n {
		length := 3 + rng.IntN(10)
		d := make([]int32, length)
		for i := range d {
			d[i] = int32(L + 1 + rng.IntN(V-L-1))
		}
		label := rng.IntN(L)
		d[rng.IntN(length)] = int32(1 + label)
		docs = append(docs, d)
		y[r*L+label] = 1
	}
	return docs, y, lstm.Config{Vocab: V, Dim: 8, Hidden: 16, Labels: L}
}

// TestLearnerLearns trains on the toy task with train.Train: the loss,
// ln 4 = 1.39 for a uniform prediction, must fall below 0.1, which needs the
// signal to reach the output through the recurrence.
func TestLearnerLearns(t *testing.T) {
	docs, y, cfg := toyTask(1, 400)
	m := lstm.NewModel(cfg)
	m.Init(rand.NewPCG(2, 3))
	ln := lstm.NewLearner(m, docs, y, lstm.LearnerOptions{Adam: optim.Adam32{LR: 0.02}, TrainEmb: true})
	h, err := train.Train(ln, loss.NewKL(cfg.Labels), train.Config{Epochs: 30, Batch: 20, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	if first, last := h.Epochs[0].TrainLoss, h.Epochs[len(h.Epochs)-1].TrainLoss; last > 0.1 {
		t.Errorf("training loss %.3g → %.3g, want below 0.1", first, last)
	}
}

// run trains a fresh model on the toy task with KL + TW and returns its
// parameters.
func run(t *testing.T, epochs int, ckpt string, trainEmb bool) ([]float32, train.History) {
	t.Helper()
	docs, y, cfg := toyTask(5, 60)
	m := lstm.NewModel(cfg)
	m.Init(rand.NewPCG(6, 7))
	ln := lstm.NewLearner(m, docs, y, lstm.LearnerOptions{Adam: optim.Adam32{LR: 0.01}, TrainEmb: trainEmb})
	l := loss.NewKLTW(tree.Random(cfg.Labels, rand.NewPCG(8, 9)), 0.5)
	h, err := train.Train(ln, l, train.Config{Epochs: epochs, Batch: 7, Seed: 10, ValRows: []int{0, 3, 11, 40}, Checkpoint: ckpt})
	if err != nil {
		t.Fatal(err)
	}
	return slices.Clone(m.Params), h
}

// TestLearnerDeterministic: the same seed gives the same parameters bit for
// bit with 1, 2 and 4 threads, with frozen and trained word vectors.
func TestLearnerDeterministic(t *testing.T) {
	for _, emb := range []bool{false, true} {
		var ref []float32
		for _, procs := range []int{1, 2, 4} {
			old := runtime.GOMAXPROCS(procs)
			p, _ := run(t, 3, "", emb)
			runtime.GOMAXPROCS(old)
			if ref == nil {
				ref = p
			} else if !slices.Equal(p, ref) {
				t.Errorf("train_emb %v: GOMAXPROCS %d differs from 1", emb, procs)
			}
		}
	}
}

// TestLearnerResume: 2 epochs with a checkpoint, then resumed to 4, equal
// the uninterrupted 4-epoch run bit for bit (parameters and history).
func TestLearnerResume(t *testing.T) {
	for _, emb := range []bool{false, true} {
		want, wantH := run(t, 4, "", emb)
		ck := filepath.Join(t.TempDir(), "run.ckpt")
		run(t, 2, ck, emb)
		got, h := run(t, 4, ck, emb)
		if h.Resumed != 2 || !slices.Equal(got, want) {
			t.Errorf("train_emb %v: resumed after %d, equal %v", emb, h.Resumed, slices.Equal(got, want))
		}
		for i := range h.Epochs {
			if h.Epochs[i].TrainLoss != wantH.Epochs[i].TrainLoss || h.Epochs[i].ValLoss != wantH.Epochs[i].ValLoss {
				t.Errorf("train_emb %v: epoch %d differs", emb, i+1)
			}
		}
	}
}

// TestLearnerDeterministicParallel: at shapes where every parallel loop
// splits its work (64 documents of 0 to 79 tokens, 96 hidden units, so
// that the cell steps, the bias gradient, the products and Adam all run in
// several parts), the same seed gives the same parameters bit for bit with
// 1, 2 and 3 threads, word vectors trained.
func TestLearnerDeterministicParallel(t *testing.T) {
	if testing.Short() {
		t.Skip("a few seconds of training")
	}
	cfg := lstm.Config{Vocab: 50, Dim: 16, Hidden: 96, Labels: 6}
	rng := rand.New(rand.NewPCG(20, 21))
	docs := make([][]int32, 64)
	y := make([]float64, len(docs)*cfg.Labels)
	for i := range docs {
		docs[i] = make([]int32, rng.IntN(80))
		for k := range docs[i] {
			docs[i][k] = int32(rng.IntN(cfg.Vocab))
		}
		y[i*cfg.Labels+rng.IntN(cfg.Labels)] = 1
	}
	var ref []float32
	for _, procs := range []int{1, 2, 3} {
		old := runtime.GOMAXPROCS(procs)
		m := lstm.NewModel(cfg)
		m.Init(rand.NewPCG(22, 23))
		ln := lstm.NewLearner(m, docs, y, lstm.LearnerOptions{Adam: optim.Adam32{LR: 0.01}, TrainEmb: true})
		_, err := train.Train(ln, loss.NewKL(cfg.Labels), train.Config{Epochs: 2, Batch: 64, Seed: 24})
		runtime.GOMAXPROCS(old)
		if err != nil {
			t.Fatal(err)
		}
		if ref == nil {
			ref = slices.Clone(m.Params)
		} else if !slices.Equal(m.Params, ref) {
			t.Errorf("GOMAXPROCS %d differs from 1", procs)
		}
	}
}
