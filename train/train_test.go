package train_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/internal/testutil"
	"github.com/twl-ldl/twl/labeldist"
	"github.com/twl-ldl/twl/loss"
	"github.com/twl-ldl/twl/model"
	"github.com/twl-ldl/twl/optim"
	"github.com/twl-ldl/twl/train"
	"github.com/twl-ldl/twl/tree"
)

// teacher returns n rows of standard normal features and, as targets,
// exactly softmax(scale·(W*·x + b*)) for a random teacher (W*, b*) with
// standard normal entries: data that the softmax-linear model fits with
// zero KL loss.
func teacher(seed uint64, n, in, L int, scale float64) (train.Data, []float64) {
	rng := rand.New(rand.NewPCG(seed, 99))
	wb := make([]float64, L*in+L)
	for i := range wb {
		wb[i] = rng.NormFloat64()
	}
	d := train.Data{X: make([]float64, n*in), Y: make([]float64, 0, n*L), N: n, In: in, L: L}
	for i := range d.X {
		d.X[i] = rng.NormFloat64()
	}
	z := make([]float64, L)
	for r := range n {
		for j := range L {
			z[j] = wb[L*in+j]
			for k := range in {
				z[j] += wb[j*in+k] * d.X[r*in+k]
			}
			z[j] *= scale
		}
		d.Y = append(d.Y, testutil.Softmax(z)...)
	}
	return d, wb
}

// meanKL is the mean KL(y‖h(x)) of m over the rows of d, with the
// reference softmax and KL of this file.
func meanKL(m *model.Linear, d train.Data, rows []int) float64 {
	z := make([]float64, d.L)
	var s float64
	for _, r := range rows {
		m.Logits(z, d.X[r*d.In:(r+1)*d.In])
		s += testutil.KL(d.Y[r*d.L:(r+1)*d.L], testutil.Softmax(z))
	}
	return s / float64(len(rows))
}

func allRows(n int) []int {
	r := make([]int, n)
	for i := range r {
		r[i] = i
	}
	return r
}

// TestFitKnownOptimum trains on targets generated exactly by a
// softmax-linear teacher, so the minimum of the mean KL over the model
// class is 0 (attained at the teacher up to the softmax's shift
// invariance), and so is the minimum of KL + λ·TW (both terms vanish at
// p = y). From a loss near 0.5 at initialization, the trained model must
// reach a mean KL below 1e-3; since KL(y‖p) ≈ ½ Σ (p−y)²/y, that is
// predictions within a few percent, well within what 2000 Adam steps at
// lr 0.02 reach and far from the untrained loss. The check uses klRef, not
// the loss under test.
func TestFitKnownOptimum(t *testing.T) {
	const n, in, L = 200, 3, 4
	data, _ := teacher(1, n, in, L, 1)
	chain := tree.Chain(L)
	for _, c := range []struct {
		name string
		l    loss.Loss
	}{
		{"kl", loss.NewKL(L)},
		{"kl+1·tw", loss.NewKLTW(chain, 1)},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := model.NewLinear(in, L, rand.NewPCG(2, 3))
			before := meanKL(m, data, allRows(n))
			h, err := train.Fit(m, c.l, data, train.Config{Epochs: 100, Batch: 10, Seed: 4, Adam: optim.Adam{LR: 0.02}})
			if err != nil {
				t.Fatal(err)
			}
			after := meanKL(m, data, allRows(n))
			t.Logf("mean KL %.3g → %.3g", before, after)
			if before < 0.1 {
				t.Fatalf("untrained loss %v is already small: the test would prove nothing", before)
			}
			if after > 1e-3 {
				t.Errorf("mean KL after training %v, want < 1e-3", after)
			}
			if len(h.Epochs) != 100 || h.BestEpoch != 100 || h.Stopped || h.Resumed != 0 {
				t.Errorf("history: %d epochs, best %d, stopped %v, resumed %d", len(h.Epochs), h.BestEpoch, h.Stopped, h.Resumed)
			}
			// The TW term is first order in |p − y| (KL is second order), so
			// the training loss itself only has to fall by a factor 100.
			if first, last := h.Epochs[0].TrainLoss, h.Epochs[len(h.Epochs)-1].TrainLoss; !(last < first/100) {
				t.Errorf("train loss went %v → %v", first, last)
			}
		})
	}
}

// fit is Fit on a fresh model from a fixed initialization.
func fit(t *testing.T, l loss.Loss, data train.Data, cfg train.Config) (*model.Linear, train.History, error) {
	t.Helper()
	m := model.NewLinear(data.In, data.L, rand.NewPCG(5, 6))
	h, err := train.Fit(m, l, data, cfg)
	return m, h, err
}

// sameHistory compares histories ignoring timings.
func sameHistory(a, b train.History) bool {
	if a.BestEpoch != b.BestEpoch || a.Stopped != b.Stopped || len(a.Epochs) != len(b.Epochs) {
		return false
	}
	for i := range a.Epochs {
		x, y := a.Epochs[i], b.Epochs[i]
		if x.Epoch != y.Epoch || x.TrainLoss != y.TrainLoss || x.ValLoss != y.ValLoss {
			return false
		}
	}
	return true
}

// TestFitDeterministic: the same seed gives the same parameters bit for
// bit, also with a different GOMAXPROCS (the package promises
// reproducibility independent of the parallel split); another seed
// shuffles differently and gives other parameters.
func TestFitDeterministic(t *testing.T) {
	// 70 features and 300 labels: shapes where gonum's Dgemm would sum
	// differently depending on how the labels are split across goroutines.
	data, _ := teacher(7, 120, 70, 300, 0.3)
	l := loss.NewKLTW(tree.Random(300, rand.NewPCG(8, 9)), 0.5)
	cfg := train.Config{Epochs: 3, Batch: 10, Seed: 10, ValRows: []int{0, 5, 50}}
	run := func(procs int, seed uint64) (*model.Linear, train.History) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		c := cfg
		c.Seed = seed
		m, h, err := fit(t, l, data, c)
		if err != nil {
			t.Fatal(err)
		}
		return m, h
	}
	m1, h1 := run(1, 10)
	m2, h2 := run(2, 10)
	m3, h3 := run(4, 10)
	if !slices.Equal(m1.Params, m2.Params) || !slices.Equal(m1.Params, m3.Params) || !sameHistory(h1, h2) || !sameHistory(h1, h3) {
		t.Error("same seed, different results for GOMAXPROCS 1, 2, 4")
	}
	m4, _ := run(2, 11)
	if slices.Equal(m1.Params, m4.Params) {
		t.Error("different seeds gave identical parameters")
	}
}

// resumeData is a small problem with validation for the checkpoint tests.
func resumeData() (train.Data, loss.Loss, train.Config) {
	data, _ := teacher(12, 57, 5, 6, 1)
	l := loss.NewKLTW(tree.Random(6, rand.NewPCG(13, 14)), 1)
	cfg := train.Config{Epochs: 6, Batch: 8, Seed: 15, Adam: optim.Adam{LR: 0.05, WeightDecay: 1e-3}, ValRows: []int{3, 1, 40, 22, 9}}
	return data, l, cfg
}

// TestResume: a run stopped after 3 epochs (Epochs: 3, checkpoint
// written at the end) and resumed with Epochs: 6 gives the parameters and
// history of the uninterrupted 6-epoch run bit for bit. Epochs is not part
// of the checkpoint's identity, so extending a finished run is supported.
// A finished checkpoint is not trained further by a rerun.
func TestResume(t *testing.T) {
	data, l, cfg := resumeData()
	want, wantH, err := fit(t, l, data, cfg)
	if err != nil {
		t.Fatal(err)
	}

	for _, every := range []int{0, 1, 2, 3} {
		t.Run(fmt.Sprintf("every=%d", every), func(t *testing.T) {
			ck := filepath.Join(t.TempDir(), "run.ckpt")
			c := cfg
			c.Checkpoint, c.CheckpointEvery = ck, every
			c.Epochs = 3
			if _, _, err := fit(t, l, data, c); err != nil {
				t.Fatal(err)
			}
			c.Epochs = 6
			got, h, err := fit(t, l, data, c)
			if err != nil {
				t.Fatal(err)
			}
			if h.Resumed != 3 {
				t.Errorf("Resumed = %d, want 3", h.Resumed)
			}
			if !slices.Equal(got.Params, want.Params) || !sameHistory(h, wantH) {
				t.Errorf("resumed run differs from the uninterrupted one:\n%v\n%v", h.Epochs, wantH.Epochs)
			}
			// A rerun finds the finished checkpoint and returns its result.
			again, h2, err := fit(t, l, data, c)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(again.Params, want.Params) || h2.Resumed != 6 || !sameHistory(h2, wantH) {
				t.Errorf("rerun of a finished checkpoint: resumed %d, params equal %v", h2.Resumed, slices.Equal(again.Params, want.Params))
			}
		})
	}
}

// crash is a Progress writer that panics on the line of epoch `at`, which
// Fit writes before that epoch's checkpoint: it simulates a process killed
// in the middle of epoch `at`.
type crash struct{ at int }

func (c crash) Write(p []byte) (int, error) {
	if strings.HasPrefix(string(p), fmt.Sprintf("epoch %d/", c.at)) {
		panic("crash")
	}
	return len(p), nil
}

// TestResumeAfterCrash: a run killed during epoch 5 with checkpoints every
// epoch (the last one after epoch 4), or every 3 epochs (after epoch 3),
// resumes to the uninterrupted result.
func TestResumeAfterCrash(t *testing.T) {
	data, l, cfg := resumeData()
	want, wantH, err := fit(t, l, data, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ every, resumed int }{{1, 4}, {3, 3}} {
		ck := filepath.Join(t.TempDir(), "run.ckpt")
		cc := cfg
		cc.Checkpoint, cc.CheckpointEvery = ck, c.every
		cc.Progress = crash{at: 5}
		if ok, _ := testutil.Panics(func() { fit(t, l, data, cc) }); !ok {
			t.Fatal("the crash writer did not stop the run")
		}
		cc.Progress = nil
		got, h, err := fit(t, l, data, cc)
		if err != nil {
			t.Fatal(err)
		}
		if h.Resumed != c.resumed || !slices.Equal(got.Params, want.Params) || !sameHistory(h, wantH) {
			t.Errorf("every %d: resumed after %d (want %d); equal params %v",
				c.every, h.Resumed, c.resumed, slices.Equal(got.Params, want.Params))
		}
	}
}

// TestCheckpointOtherRun: a checkpoint of a run with another seed,
// learning rate, batch size or loss is refused with an error that says so,
// and the model is left untouched.
func TestCheckpointOtherRun(t *testing.T) {
	data, l, cfg := resumeData()
	ck := filepath.Join(t.TempDir(), "run.ckpt")
	cfg.Checkpoint, cfg.Epochs = ck, 2
	if _, _, err := fit(t, l, data, cfg); err != nil {
		t.Fatal(err)
	}
	other := cfg
	other.Seed++
	lr := cfg
	lr.Adam.LR = 0.1
	batch := cfg
	batch.Batch = 9
	for _, c := range []struct {
		name string
		l    loss.Loss
		cfg  train.Config
	}{
		{"seed", l, other},
		{"lr", l, lr},
		{"batch", l, batch},
		{"loss", loss.NewKL(data.L), cfg},
	} {
		m := model.NewLinear(data.In, data.L, rand.NewPCG(5, 6))
		p0 := slices.Clone(m.Params)
		_, err := train.Fit(m, c.l, data, c.cfg)
		if err == nil || !strings.Contains(err.Error(), "another run") || !strings.Contains(err.Error(), ck) {
			t.Errorf("%s: error %v, want one naming %s and \"another run\"", c.name, err, ck)
		}
		if !slices.Equal(m.Params, p0) {
			t.Errorf("%s: refused checkpoint changed the model", c.name)
		}
	}
}

// TestCheckpointCorrupt: damaged checkpoint files give errors, never
// panics or silent fresh starts.
func TestCheckpointCorrupt(t *testing.T) {
	data, l, cfg := resumeData()
	dir := t.TempDir()
	good := filepath.Join(dir, "good.ckpt")
	cfg.Checkpoint, cfg.Epochs = good, 2
	want, _, err := fit(t, l, data, cfg)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	var saved struct{ State []byte }
	if err := json.Unmarshal(raw, &saved); err != nil {
		t.Fatal(err)
	}
	state := saved.State // parameters, step count, two moment buffers
	// edit returns the good checkpoint with one field replaced.
	edit := func(key string, v any) []byte {
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		m[key] = v
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, c := range []struct {
		name     string
		contents []byte
		want     string // a substring of the error
	}{
		{"empty", nil, "corrupt"},
		{"garbage", []byte("\x00\x01not json"), "corrupt"},
		{"truncated", raw[:len(raw)/2], "corrupt"},
		{"other format", edit("format", "something/2"), "not a twl checkpoint"},
		{"state short", edit("state", []byte{1, 2, 3}), "corrupt"},
		{"state without the moments", edit("state", state[:len(state)-16*len(want.Params)]), "corrupt"},
		{"state missing", edit("state", nil), "corrupt"},
		{"best parameters short", edit("best_params", []byte{1, 2, 3, 4, 5, 6, 7, 8}), "corrupt"},
		{"rng state", edit("rng", []byte("xx")), "ckpt"},
		{"state wrong type", edit("state", 12), "corrupt"},
	} {
		path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".ckpt")
		if err := os.WriteFile(path, c.contents, 0o644); err != nil {
			t.Fatal(err)
		}
		cc := cfg
		cc.Checkpoint = path
		var err error
		if ok, v := testutil.Panics(func() { _, _, err = fit(t, l, data, cc) }); ok {
			t.Errorf("%s: panic %v", c.name, v)
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

// TestCheckpointEvery: with CheckpointEvery 2 over 5 epochs the file is
// written after epochs 2, 4 and 5 (the end). The Progress line of epoch e
// is written before that epoch's checkpoint, so at that moment the file
// holds the last earlier one.
func TestCheckpointEvery(t *testing.T) {
	data, l, cfg := resumeData()
	ck := filepath.Join(t.TempDir(), "run.ckpt")
	var seen []int
	cfg.Checkpoint, cfg.CheckpointEvery, cfg.Epochs = ck, 2, 5
	cfg.Progress = writerFunc(func(p []byte) (int, error) {
		seen = append(seen, checkpointEpoch(t, ck))
		return len(p), nil
	})
	if _, _, err := fit(t, l, data, cfg); err != nil {
		t.Fatal(err)
	}
	seen = append(seen, checkpointEpoch(t, ck))
	if want := []int{0, 0, 2, 2, 4, 5}; !slices.Equal(seen, want) {
		t.Errorf("checkpoint epochs seen %v, want %v", seen, want)
	}
}

type writerFunc func(p []byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// checkpointEpoch returns the "epoch" field of the checkpoint file, 0 if
// there is none yet.
func checkpointEpoch(t *testing.T, path string) int {
	raw, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	var c struct{ Epoch int }
	if err := json.Unmarshal(raw, &c); err != nil {
		t.Fatal(err)
	}
	return c.Epoch
}

// earlyStopData trains on a teacher's targets and validates on rows whose
// targets are softmax(0.3·(W*x + b*)): as the model moves from uniform
// predictions towards the teacher, the validation loss first falls, then
// rises once the predictions are sharper than the validation targets, so
// early stopping has a minimum in the middle to find.
func earlyStopData() (train.Data, []int) {
	const n, in, L = 100, 4, 5
	data, _ := teacher(16, n, in, L, 1)
	soft, _ := teacher(16, n, in, L, 0.3) // same features and teacher
	val := []int{}
	for r := 0; r < n; r += 4 {
		val = append(val, r)
		copy(data.Y[r*L:(r+1)*L], soft.Y[r*L:(r+1)*L])
	}
	return data, val
}

// TestEarlyStopping: with Patience 3, training stops 3 epochs after the
// best validation loss, the history says so, and the returned parameters
// are those at BestEpoch, checked bit for bit against a run of BestEpoch
// epochs (validation does not influence training, so that run follows the
// same path).
func TestEarlyStopping(t *testing.T) {
	data, val := earlyStopData()
	l := loss.NewKL(data.L)
	cfg := train.Config{Epochs: 200, Batch: 5, Seed: 17, Adam: optim.Adam{LR: 0.005}, ValRows: val, Patience: 3}
	var progress bytes.Buffer
	cfg.Progress = &progress
	m, h, err := fit(t, l, data, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !h.Stopped {
		t.Fatalf("did not stop early in %d epochs", len(h.Epochs))
	}
	if h.BestEpoch < 2 || len(h.Epochs) != h.BestEpoch+3 {
		t.Fatalf("best epoch %d, %d epochs run; want best > 1 and 3 more", h.BestEpoch, len(h.Epochs))
	}
	best := h.Epochs[h.BestEpoch-1].ValLoss
	for _, e := range h.Epochs {
		if e.ValLoss < best || (e.Epoch != h.BestEpoch && e.ValLoss == best && e.Epoch < h.BestEpoch) {
			t.Errorf("epoch %d has validation loss %v, best epoch %d has %v", e.Epoch, e.ValLoss, h.BestEpoch, best)
		}
	}
	if !strings.Contains(progress.String(), "(no improvement for 3 epochs: stopping)") {
		t.Errorf("progress does not report the stop:\n%s", progress.String())
	}
	// Evaluate on the validation rows, in Fit's batches, reproduces the best
	// validation loss bit for bit.
	if v, err := train.Evaluate(m, l, data, val, cfg.Batch); err != nil || v != best {
		t.Errorf("Evaluate on the returned model = %v, %v; best validation loss %v", v, err, best)
	}

	ref := cfg
	ref.Epochs, ref.Patience, ref.Progress = h.BestEpoch, 0, nil
	mb, hb, err := fit(t, l, data, ref)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.Params, mb.Params) || hb.BestEpoch != h.BestEpoch {
		t.Error("returned parameters are not those of the best epoch")
	}

	// Without Patience the run goes on, and still returns the best epoch.
	all := cfg
	all.Epochs, all.Patience, all.Progress = h.BestEpoch+6, 0, nil
	ma, ha, err := fit(t, l, data, all)
	if err != nil {
		t.Fatal(err)
	}
	if ha.Stopped || len(ha.Epochs) != h.BestEpoch+6 || ha.BestEpoch != h.BestEpoch || !slices.Equal(ma.Params, m.Params) {
		t.Errorf("Patience 0: stopped %v after %d epochs, best %d", ha.Stopped, len(ha.Epochs), ha.BestEpoch)
	}
}

// TestDiverged: a learning rate of 1e307 moves every weight by about 1e307
// per step (Adam's step is about lr), so within a few steps W·x overflows
// to ±Inf and the KL becomes NaN (Inf − Inf in log p = z − logΣe^z); NaN
// features do it at once. Both are ErrDiverged, never a silently NaN
// model. (Smaller rates, even 1e306, give huge but finite losses in 5
// epochs: nothing diverges numerically.)
func TestDiverged(t *testing.T) {
	data, _ := teacher(18, 30, 3, 4, 1)
	l := loss.NewKL(4)
	if _, _, err := fit(t, l, data, train.Config{Epochs: 5, Adam: optim.Adam{LR: 1e307}}); !errors.Is(err, train.ErrDiverged) {
		t.Errorf("huge learning rate: error %v, want ErrDiverged", err)
	}
	bad := data
	bad.X = slices.Clone(data.X)
	bad.X[7] = math.NaN()
	_, h, err := fit(t, l, bad, train.Config{Epochs: 5, Batch: 30})
	if !errors.Is(err, train.ErrDiverged) || !strings.Contains(err.Error(), "epoch 1") {
		t.Errorf("NaN feature: error %v, want ErrDiverged at epoch 1", err)
	}
	if len(h.Epochs) != 0 {
		t.Errorf("history of a run diverged in epoch 1 has %d epochs", len(h.Epochs))
	}
	// A NaN in a validation row alone: training is finite, the validation
	// loss is not, and that is divergence too, not an epoch without
	// improvement.
	_, _, err = fit(t, l, bad, train.Config{Epochs: 5, Batch: 30, ValRows: []int{7 / 3}})
	if !errors.Is(err, train.ErrDiverged) || !strings.Contains(err.Error(), "validation") {
		t.Errorf("NaN validation loss: error %v, want ErrDiverged", err)
	}
}

// TestProgress checks the per-epoch line: epoch k/N, train loss, validation
// loss with * on improvement, elapsed and remaining time.
func TestProgress(t *testing.T) {
	data, _ := teacher(19, 40, 3, 4, 1)
	var buf bytes.Buffer
	_, h, err := fit(t, loss.NewKL(4), data, train.Config{Epochs: 4, Progress: &buf, ValRows: []int{0, 1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d progress lines, want 4:\n%s", len(lines), buf.String())
	}
	re := regexp.MustCompile(`^epoch (\d)/4  loss (\S+)  val (\S+)( \*)?  elapsed (\S+ \S+)  remaining (\S+ \S+)$`)
	for i, line := range lines {
		f := re.FindStringSubmatch(line)
		if f == nil {
			t.Errorf("line %q does not match %s", line, re)
			continue
		}
		if f[1] != fmt.Sprint(i+1) || f[2] != fmt.Sprintf("%.6g", h.Epochs[i].TrainLoss) || f[3] != fmt.Sprintf("%.6g", h.Epochs[i].ValLoss) {
			t.Errorf("line %q does not report epoch %d: %+v", line, i+1, h.Epochs[i])
		}
		if i == 3 && f[6] != "0 s" {
			t.Errorf("last line has remaining time %s, want 0 s", f[6])
		}
	}
	if !strings.Contains(lines[0], " *") {
		t.Errorf("first epoch is always an improvement: %q", lines[0])
	}
}

// TestEvaluate compares Evaluate with the mean of klRef over the rows, for
// several batch sizes (the batched mean must not depend on them beyond
// rounding), and an empty row set.
func TestEvaluate(t *testing.T) {
	data, _ := teacher(20, 23, 3, 5, 1)
	m := model.NewLinear(3, 5, rand.NewPCG(21, 22))
	rows := []int{22, 0, 5, 5, 13, 7, 1}
	want := meanKL(m, data, rows)
	for _, b := range []int{0, 1, 3, 7, 100} {
		got, err := train.Evaluate(m, loss.NewKL(5), data, rows, b)
		if err != nil || math.Abs(got-want) > 1e-13 {
			t.Errorf("batch %d: Evaluate = %v, %v; reference %v", b, got, err, want)
		}
	}
	if v, err := train.Evaluate(m, loss.NewKL(5), data, nil, 0); v != 0 || err != nil {
		t.Errorf("Evaluate on no rows = %v, %v", v, err)
	}
}

// TestFitErrors covers the data-dependent error and the programmer errors.
func TestFitErrors(t *testing.T) {
	data, _ := teacher(23, 4, 2, 3, 1)
	l := loss.NewKL(3)
	if _, _, err := fit(t, l, data, train.Config{ValRows: []int{0, 1, 2, 3}}); err == nil {
		t.Error("no training rows: no error")
	}
	m := model.NewLinear(2, 3, rand.NewPCG(1, 1))
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"model In", func() { train.Fit(model.NewLinear(3, 3, rand.NewPCG(1, 1)), l, data, train.Config{}) }},
		{"loss L", func() { train.Fit(m, loss.NewKL(4), data, train.Config{}) }},
		{"short X", func() { d := data; d.X = d.X[:5]; train.Fit(m, l, d, train.Config{}) }},
		{"negative epochs", func() { train.Fit(m, l, data, train.Config{Epochs: -1}) }},
		{"negative batch", func() { train.Fit(m, l, data, train.Config{Batch: -2}) }},
		{"validation row out of range", func() { train.Fit(m, l, data, train.Config{ValRows: []int{4}}) }},
		{"validation row repeated", func() { train.Fit(m, l, data, train.Config{ValRows: []int{1, 1}}) }},
		{"nil model", func() { train.Fit(nil, l, data, train.Config{}) }},
		{"nil loss", func() { train.Fit(m, nil, data, train.Config{}) }},
		{"nil learner", func() { train.Train(nil, l, train.Config{}) }},
		{"Evaluate nil model", func() { train.Evaluate(nil, l, data, nil, 0) }},
		{"EvaluateLearner nil learner", func() { train.EvaluateLearner(nil, l, nil, 0) }},
	} {
		ok, v := testutil.Panics(c.f)
		if !ok {
			t.Errorf("%s: no panic", c.name)
			continue
		}
		if s, _ := v.(string); !strings.HasPrefix(s, "train: ") {
			t.Errorf("%s: panic value %v does not start with \"train: \"", c.name, v)
		}
	}
}

// TestFitDataErrors checks the errors of data and settings that Fit
// returns rather than panics on: Patience without validation rows (the
// command line refuses --patience without --val the same way), and a
// negative or non-finite target mass. Each error names what is wrong (the
// row and label of a bad value), and the model is left as it was.
func TestFitDataErrors(t *testing.T) {
	data, _ := teacher(23, 4, 2, 3, 1) // 4 rows, 2 features, 3 labels
	l := loss.NewKL(3)
	with := func(f func(d *train.Data)) train.Data {
		d := data
		d.X, d.Y = slices.Clone(data.X), slices.Clone(data.Y)
		f(&d)
		return d
	}
	for _, c := range []struct {
		name string
		data train.Data
		cfg  train.Config
		want string // in the message
	}{
		{"patience without validation", data, train.Config{Patience: 3}, "Patience 3 needs validation rows"},
		{"patience with empty validation", data, train.Config{Patience: 1, ValRows: []int{}}, "needs validation rows"},
		{"negative target", with(func(d *train.Data) { d.Y[2*3+1] = -0.25 }), train.Config{}, "row 2, label 1: target mass -0.25"},
		{"NaN target", with(func(d *train.Data) { d.Y[0] = math.NaN() }), train.Config{}, "row 0, label 0: target mass NaN"},
		{"infinite target", with(func(d *train.Data) { d.Y[3*3+2] = math.Inf(1) }), train.Config{}, "row 3, label 2: target mass +Inf"},
	} {
		m := model.NewLinear(2, 3, rand.NewPCG(1, 1))
		before := slices.Clone(m.Params)
		var err error
		if ok, v := testutil.Panics(func() { _, err = train.Fit(m, l, c.data, c.cfg) }); ok {
			t.Errorf("%s: panicked with %v, want an error", c.name, v)
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "train: ") {
			t.Errorf("%s: error %v, want \"train: …%s…\"", c.name, err, c.want)
		}
		if !slices.Equal(m.Params, before) {
			t.Errorf("%s: the model changed", c.name)
		}
	}
	// Zero targets and targets that do not sum to 1 are accepted as given.
	ok := with(func(d *train.Data) { d.Y[0], d.Y[1], d.Y[2] = 0, 0, 2 })
	if _, err := train.Fit(model.NewLinear(2, 3, rand.NewPCG(1, 1)), l, ok, train.Config{Epochs: 1}); err != nil {
		t.Errorf("targets (0, 0, 2): %v", err)
	}
}

// Example fits a one-feature, two-label softmax-linear model to targets
// generated by p(label 1 | x) = σ(2x) and prints the fitted probability at
// x = 1, σ(2) = 0.881 (up to the optimizer's residual error).
func Example() {
	const n = 50
	data := train.Data{N: n, In: 1, L: 2}
	for i := range n {
		x := -2 + 4*float64(i)/(n-1)
		p := 1 / (1 + math.Exp(-2*x))
		data.X = append(data.X, x)
		data.Y = append(data.Y, 1-p, p)
	}
	m := model.NewLinear(1, 2, rand.NewPCG(1, 2))
	if _, err := train.Fit(m, loss.NewKL(2), data, train.Config{Epochs: 200, Adam: optim.Adam{LR: 0.05}}); err != nil {
		panic(err)
	}
	p := make([]float64, 2)
	m.Predict(p, []float64{1})
	fmt.Printf("p(label 1 | x = 1) = %.3f\n", p[1])
	// Output:
	// p(label 1 | x = 1) = 0.881
}

// TestTrainContext stops a run through its context during epoch 3 (the
// context is cancelled while epoch 2's progress line is written, before its
// checkpoint): the error wraps context.Canceled, the directory holds only
// the checkpoint, of epoch 2, and resuming from it gives the parameters of
// a run never stopped, bit for bit.
func TestTrainContext(t *testing.T) {
	data, l, cfg := resumeData()
	want, wantH, err := fit(t, l, data, cfg)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ck := filepath.Join(dir, "run.ckpt")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := cfg
	c.Checkpoint, c.Context = ck, ctx
	lines := 0
	c.Progress = writerFunc(func(p []byte) (int, error) {
		if lines++; lines == 2 {
			cancel()
		}
		return len(p), nil
	})
	if _, _, err := fit(t, l, data, c); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled run returned %v, want context.Canceled", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("the directory holds %d files, want only the checkpoint", len(ents))
	}
	if e := checkpointEpoch(t, ck); e != 2 {
		t.Errorf("the checkpoint holds epoch %d, want 2", e)
	}
	c.Context, c.Progress = nil, nil
	got, h, err := fit(t, l, data, c)
	if err != nil {
		t.Fatal(err)
	}
	if h.Resumed != 2 || !slices.Equal(got.Params, want.Params) || !sameHistory(h, wantH) {
		t.Errorf("resumed from epoch %d; parameters equal %v", h.Resumed, slices.Equal(got.Params, want.Params))
	}
}

// sparseOf returns the rows of the dense N×L matrix Y by their non-zero
// masses.
func sparseOf(Y []float64, L int) *labeldist.Rows {
	s := &labeldist.Rows{Off: []int{0}}
	for r := 0; r*L < len(Y); r++ {
		var idx []int
		var mass []float64
		for j, v := range Y[r*L : (r+1)*L] {
			if v != 0 {
				idx, mass = append(idx, j), append(mass, v)
			}
		}
		s.Append(idx, mass)
	}
	return s
}

// TestFitSparseTargets: targets held sparsely train to the same parameters
// and history, bit for bit, as the same targets held densely, with
// validation and a loss with a tree term; a checkpoint written with one
// form is not resumed by the other (the data hash differs).
func TestFitSparseTargets(t *testing.T) {
	data, l, cfg := resumeData()
	// Sparsify: zero the smaller half of every row's masses, then rescale.
	L := data.L
	for r := range data.N {
		row := data.Y[r*L : (r+1)*L]
		var sum float64
		for j := range row {
			if j%2 == r%2 {
				row[j] = 0
			}
			sum += row[j]
		}
		for j := range row {
			row[j] /= sum
		}
	}
	want, wantH, err := fit(t, l, data, cfg)
	if err != nil {
		t.Fatal(err)
	}
	sp := data
	sp.Y, sp.YSparse = nil, sparseOf(data.Y, L)
	if len(sp.YSparse.Mass) >= data.N*L*2/3 {
		t.Fatalf("%d non-zero masses of %d: not sparse", len(sp.YSparse.Mass), data.N*L)
	}
	got, h, err := fit(t, l, sp, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Params, want.Params) || !sameHistory(h, wantH) {
		t.Error("sparse targets train differently from dense ones")
	}

	bad := sp
	bad.YSparse = sparseOf(data.Y, L)
	bad.YSparse.Mass[5] = -1
	if _, _, err := fit(t, l, bad, cfg); err == nil || !strings.Contains(err.Error(), "target mass -1") {
		t.Errorf("a negative sparse target: %v", err)
	}
	for name, mutate := range map[string]func(s *labeldist.Rows){
		"rows":   func(s *labeldist.Rows) { s.Off = s.Off[:len(s.Off)-1] },
		"range":  func(s *labeldist.Rows) { s.Index[0] = L },
		"length": func(s *labeldist.Rows) { s.Mass = s.Mass[:len(s.Mass)-1] },
	} {
		b := sp
		b.YSparse = sparseOf(data.Y, L)
		mutate(b.YSparse)
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			fit(t, l, b, cfg)
		}()
	}
}

// TestEpochEnd: the hook sees every epoch's record, as the history holds
// it, in order, each before the epoch's checkpoint is written. An error
// from it stops training at that epoch: Train returns it wrapped, naming
// the epoch, with the history up to and including that epoch, and the
// checkpoint stays that of the epoch before, from which a rerun resumes
// (without calling the hook for the epochs resumed after) and ends with
// the parameters and history of an uninterrupted run.
func TestEpochEnd(t *testing.T) {
	data, l, cfg := resumeData()
	var seen []train.Epoch
	c := cfg
	c.EpochEnd = func(ep train.Epoch) error {
		seen = append(seen, ep)
		return nil
	}
	want, wantH, err := fit(t, l, data, c)
	if err != nil {
		t.Fatal(err)
	}
	if !sameHistory(train.History{Epochs: seen, BestEpoch: wantH.BestEpoch}, wantH) {
		t.Errorf("the hook saw %+v, the history holds %+v", seen, wantH.Epochs)
	}

	ck := filepath.Join(t.TempDir(), "run.ckpt")
	errStop := errors.New("loss too high")
	seen = nil
	c.Checkpoint = ck
	c.EpochEnd = func(ep train.Epoch) error {
		if got := checkpointEpoch(t, ck); got != ep.Epoch-1 {
			t.Errorf("at the end of epoch %d the checkpoint holds epoch %d: the hook runs before the checkpoint", ep.Epoch, got)
		}
		seen = append(seen, ep)
		if ep.Epoch == 3 {
			return errStop
		}
		return nil
	}
	_, h, err := fit(t, l, data, c)
	if !errors.Is(err, errStop) || !strings.Contains(err.Error(), "train: epoch 3: loss too high") {
		t.Fatalf("a hook's error returned %v, want it wrapped with epoch 3", err)
	}
	if len(seen) != 3 || len(h.Epochs) != 3 || h.Epochs[2].Epoch != 3 {
		t.Errorf("the hook ran %d times and the history holds %d epochs, want 3 and 3", len(seen), len(h.Epochs))
	}
	if e := checkpointEpoch(t, ck); e != 2 {
		t.Errorf("the checkpoint holds epoch %d, want 2 (none for the epoch the hook refused)", e)
	}

	seen = nil
	c.EpochEnd = func(ep train.Epoch) error {
		seen = append(seen, ep)
		return nil
	}
	got, h, err := fit(t, l, data, c)
	if err != nil {
		t.Fatal(err)
	}
	if h.Resumed != 2 || !slices.Equal(got.Params, want.Params) || !sameHistory(h, wantH) {
		t.Errorf("resumed after epoch %d; parameters equal %v", h.Resumed, slices.Equal(got.Params, want.Params))
	}
	if len(seen) != cfg.Epochs-2 || seen[0].Epoch != 3 {
		t.Errorf("resumed after epoch 2, the hook saw epochs %+v, want 3 to %d", seen, cfg.Epochs)
	}
}

// TestFitTerms checks that targets' terms given in Config.Terms, computed
// here row by row as Σ y log y over the y > 0 from the definition, train
// the same parameters and history, bit for bit, as those Fit computes
// itself, with validation rows; and that terms of the wrong length panic.
func TestFitTerms(t *testing.T) {
	data, _ := teacher(21, 60, 6, 9, 1)
	l := loss.NewKLTW(tree.Random(9, rand.NewPCG(22, 23)), 0.5)
	cfg := train.Config{Epochs: 3, Batch: 7, Seed: 24, ValRows: []int{2, 30, 41}}
	m1, h1, err := fit(t, l, data, cfg)
	if err != nil {
		t.Fatal(err)
	}
	terms := make([]float64, data.N)
	for r := range terms {
		for _, y := range data.Y[r*data.L : (r+1)*data.L] {
			if y > 0 {
				terms[r] += y * math.Log(y)
			}
		}
	}
	cfg.Terms = terms
	m2, h2, err := fit(t, l, data, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m1.Params, m2.Params) || !sameHistory(h1, h2) {
		t.Error("the terms given in Config.Terms trained other parameters or history than Fit's own")
	}
	// Terms one more each are used as given: the losses are one more (the
	// gradient does not depend on them).
	more := make([]float64, len(terms))
	for r, v := range terms {
		more[r] = v + 1
	}
	cfg.Terms = more
	m3, h3, err := fit(t, l, data, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for e := range h1.Epochs {
		if d := h3.Epochs[e].TrainLoss - h1.Epochs[e].TrainLoss; math.Abs(d-1) > 1e-9 || !slices.Equal(m1.Params, m3.Params) {
			t.Errorf("epoch %d: terms one more gave a training loss %v more, parameters equal %v; want 1 more, equal", e+1, d, slices.Equal(m1.Params, m3.Params))
		}
	}
	cfg.Terms = terms[1:]
	defer func() {
		if recover() == nil {
			t.Error("terms of the wrong length did not panic")
		}
	}()
	fit(t, l, data, cfg)
}
