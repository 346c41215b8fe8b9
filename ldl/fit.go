package ldl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"time"

	"github.com/twl-ldl/twl/dataset"
	"github.com/twl-ldl/twl/internal/parallel"
	"github.com/twl-ldl/twl/loss"
	"github.com/twl-ldl/twl/model"
	"github.com/twl-ldl/twl/optim"
	"github.com/twl-ldl/twl/train"
)

// ErrDiverged is wrapped by the error of a run whose loss stayed finite
// but grew far too large: more than DivergedFactor times that of
// predicting the uniform distribution. A loss that is not finite is an
// error wrapping train.ErrDiverged instead.
var ErrDiverged = errors.New("training diverged")

// DivergedFactor is how many times the loss of predicting the uniform
// distribution a run's loss may reach before the run is called diverged. A
// run that learns anything stays below that loss; one whose steps are far
// too large (LR 1e10) is orders of magnitude above it from the first epoch
// on.
const DivergedFactor = 100

// SplitError is the error of Fit when Options.Val leaves no row for
// validation or none for training.
type SplitError struct {
	Val              float64 // Options.Val
	Rows             int     // the rows split
	ValRows, Trained int     // the rows of each part
}

// Error says how many rows each part of the split would get.
func (e *SplitError) Error() string {
	return fmt.Sprintf("a validation fraction of %g of %d rows leaves %d for validation and %d for training; both need at least one",
		e.Val, e.Rows, e.ValRows, e.Trained)
}

// Fit trains a linear label-distribution model, softmax(W·x + b), on the
// rows of d with Adam on shuffled mini-batches (see Options), and returns
// its model file, ready for model.Save and model.File.Predict, with the
// history of training. The standardization is fitted on the rows trained
// on, the validation rows (Options.Val) excluded.
//
// A run that diverges, to a non-finite loss (an error wrapping
// train.ErrDiverged) or to one more than DivergedFactor times that of
// predicting the uniform distribution (ErrDiverged), stops at the first
// epoch that does and returns no model. When ctx is done, training stops
// before the next mini-batch with an error wrapping ctx.Err(), and the
// checkpoint, if any, keeps the last complete epoch. Invalid options and
// a validation split that leaves a part empty (*SplitError) are errors.
// d is not modified.
func Fit(ctx context.Context, d *Data, opts *Options) (*model.File, train.History, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	s, err := o.resolve()
	if err != nil {
		return nil, train.History{}, err
	}
	return fit(ctx, d, nil, &s, s.Progress, s.Checkpoint)
}

// fit trains a model on rows of d (nil: all rows), holding out a
// validation fraction of them if s.Val > 0.
func fit(ctx context.Context, d *Data, rows []int, s *settings, progress io.Writer, checkpoint string) (*model.File, train.History, error) {
	// The features are copied, to be standardized in place; the targets
	// are only read, and need no copy when every row is trained on.
	subY := d.Y
	if rows == nil {
		rows = make([]int, d.Len())
		for i := range rows {
			rows[i] = i
		}
	} else {
		subY = d.Y.Subset(rows)
	}
	subX := subsetX(d.X, rows)
	n, in := len(rows), d.X.RawMatrix().Cols
	L := d.Tree.Len()
	var valRows, trainRows []int
	if s.Val > 0 {
		trainRows, valRows = dataset.Split(n, 1-s.Val, rand.NewPCG(s.Seed, streamVal))
		if len(valRows) == 0 || len(trainRows) == 0 {
			return nil, train.History{}, &SplitError{Val: s.Val, Rows: n, ValRows: len(valRows), Trained: len(trainRows)}
		}
	}
	var std *model.Standardization
	if !s.Raw {
		var st dataset.Standardizer
		st.Fit(subX, trainRows) // nil: all rows
		st.Transform(subX, subX)
		std = &model.Standardization{Mean: st.Mean, Scale: st.Scale}
	}
	l, err := s.newLoss(d.Tree)
	if err != nil {
		return nil, train.History{}, err
	}
	m := model.NewLinear(in, L, rand.NewPCG(s.Seed, streamInit))
	decayEnd := len(m.W()) // W precedes b in Params: the weights only
	if s.DecayBias {
		decayEnd = 0
	}
	cfg := train.Config{
		Epochs: s.Epochs, Batch: s.Batch, Seed: s.Seed,
		Adam:    optim.Adam{LR: s.LR, WeightDecay: s.decay, DecayEnd: decayEnd},
		ValRows: valRows, Patience: s.Patience, Progress: progress,
		Checkpoint: checkpoint, CheckpointEvery: s.CheckpointEvery, Context: ctx,
		Tag: "tree " + d.Tree.Hash(),
	}
	start := time.Now()
	data := train.Data{X: subX.RawMatrix().Data, YSparse: subY, N: n, In: in, L: L}
	// A loss with a term of the targets alone (KL's Σ y log y) gets the
	// terms of every row computed once, for the baselines and training.
	var terms []float64
	if tl, ok := l.(loss.Targeted); ok {
		terms = targetTerms(tl, data)
		cfg.Terms = terms
	}
	base := uniformBaselines(l, data, trainRows, valRows, terms)
	cfg.EpochEnd = base.epochEnd
	h, err := train.Fit(m, l, data, cfg)
	if err == nil {
		err = base.final(h)
	}
	if err != nil {
		return nil, h, err
	}
	f := model.NewFile(m, d.Tree.Names())
	f.Tree = d.Ref
	f.Standardize = std
	f.Loss = l.Name()
	info := &model.TrainInfo{
		Data: d.Path, Rows: n - len(valRows), ValRows: len(valRows), Epochs: s.Epochs, EpochsRun: len(h.Epochs),
		BestEpoch: h.BestEpoch, Stopped: h.Stopped, Resumed: h.Resumed, Batch: s.Batch, LR: s.LR,
		WeightDecay: s.decay, Patience: s.Patience, Seed: s.Seed, Seconds: time.Since(start).Seconds(),
	}
	if k := len(h.Epochs); k > 0 {
		info.TrainLoss = h.Epochs[k-1].TrainLoss
		if len(valRows) > 0 && h.BestEpoch > 0 && h.BestEpoch <= k {
			v := h.Epochs[h.BestEpoch-1].ValLoss
			info.ValLoss = &v
		}
	}
	if s.name.Term == loss.TermSinkhorn {
		info.SinkhornReg, info.Iters = s.SinkhornReg, s.SinkhornIters
	}
	f.Train = info
	return f, h, nil
}

// baselines are the losses of the uniform prediction (zero logits) on the
// training and the validation rows of a run (at most 4096 rows of each are
// evaluated), which its losses are checked against: NaN where there are no
// such rows or the loss cannot be evaluated, and then nothing is checked.
// A baseline is evaluated when a check needs it: a loss no more than
// DivergedFactor times a lower bound of its baseline, which costs no
// evaluation, passes without it.
type baselines struct {
	l     loss.Loss
	data  train.Data
	rows  [2][]int // the training [0] and validation [1] rows
	terms []float64
	value [2]float64 // the baselines, once known
	known [2]bool
	bound [2]float64 // lower bounds of the baselines, or NaN
}

// uniformBaselines returns the baselines of a run on data with loss l;
// trainRows nil means all rows. terms, when not nil, are the targets'
// terms of every row of data (l is then a loss.Targeted).
func uniformBaselines(l loss.Loss, data train.Data, trainRows, valRows []int, terms []float64) *baselines {
	if trainRows == nil {
		trainRows = make([]int, data.N)
		for i := range trainRows {
			trainRows[i] = i
		}
	}
	b := &baselines{l: l, data: data, rows: [2][]int{trainRows, valRows}, terms: terms}
	for k, rows := range b.rows {
		b.bound[k] = uniformBound(l, data, rows, terms)
		if len(rows) == 0 {
			b.value[k], b.known[k] = math.NaN(), true // no rows, nothing to check
		}
	}
	return b
}

// uniform returns baseline k (0 training, 1 validation), evaluating it the
// first time.
func (b *baselines) uniform(k int) float64 {
	if !b.known[k] {
		b.value[k] = uniformLoss(b.l, b.data, b.rows[k], b.terms)
		b.known[k] = true
	}
	return b.value[k]
}

// check is exceeds for the loss got against baseline k.
func (b *baselines) check(what string, got float64, k int) error {
	if lb := b.bound[k]; !math.IsNaN(lb) && !(got > DivergedFactor*max(lb, 1e-3)) {
		// got ≤ DivergedFactor·max(lb, 1e-3) ≤ DivergedFactor·max(baseline, 1e-3).
		return nil
	}
	return exceeds(what, got, b.uniform(k))
}

// uniformBound returns a lower bound of uniformLoss(l, data, rows, terms)
// without evaluating l, or NaN where none is known: for KL, alone or plus
// λ ≥ 0 times TW or tree-sliced TW (distances that are never negative),
// given the terms. The KL of the uniform prediction on a row is
// Σ y log y + log L·Σ y over the y > 0; the bound is their mean less 10⁻⁹
// of the mean of their magnitudes, far more than the rounding of the
// evaluation.
func uniformBound(l loss.Loss, data train.Data, rows []int, terms []float64) float64 {
	m, ok := l.(*loss.Mixed)
	if !ok || terms == nil || len(rows) == 0 {
		return math.NaN()
	}
	switch m.Dist.(type) {
	case nil, *loss.TW, *loss.TSW:
	default:
		if m.Lambda != 0 {
			return math.NaN()
		}
	}
	rows = rows[:min(len(rows), 4096)]
	L := data.L
	logL := math.Log(float64(L))
	var sum, mag float64
	for _, r := range rows {
		var ys []float64
		if data.Y == nil {
			_, ys = data.YSparse.Row(r)
		} else {
			ys = data.Y[r*L : (r+1)*L]
		}
		var s float64
		for _, y := range ys {
			if y > 0 {
				s += y
			}
		}
		sum += terms[r] + logL*s
		mag += math.Abs(terms[r]) + logL*s
	}
	lb := (sum - 1e-9*mag) / float64(len(rows))
	if math.IsNaN(lb) || math.IsInf(lb, 0) {
		return math.NaN()
	}
	return lb
}

// uniformLoss returns the mean loss l of zero logits on (at most the first
// 4096 of) rows, NaN for no rows or a loss that fails. terms, when not nil,
// are the targets' terms of every row of data (l is then a loss.Targeted),
// which give the value of Eval without its logarithms.
func uniformLoss(l loss.Loss, data train.Data, rows []int, terms []float64) float64 {
	rows = rows[:min(len(rows), 4096)]
	if len(rows) == 0 {
		return math.NaN()
	}
	L := data.L
	const batch = 64
	z := make([]float64, batch*L)
	y := make([]float64, batch*L)
	tb := make([]float64, batch)
	var sum float64
	for s := 0; s < len(rows); s += batch {
		part := rows[s:min(s+batch, len(rows))]
		B := len(part)
		for k, r := range part {
			denseTargets(y[k*L:(k+1)*L], data, r)
		}
		clear(z[:B*L])
		var v float64
		var err error
		if terms != nil {
			for k, r := range part {
				tb[k] = terms[r]
			}
			v, err = l.(loss.Targeted).EvalTerms(z[:B*L], z[:B*L], y[:B*L], tb[:B])
		} else {
			v, err = l.Eval(z[:B*L], z[:B*L], y[:B*L])
		}
		if err != nil {
			return math.NaN() // no baseline, no verdict
		}
		sum += v * float64(B)
	}
	return sum / float64(len(rows))
}

// targetTerms returns the terms of the targets alone of every row of data
// for the loss tl (loss.Targeted.TargetTerms), the rows split across the
// processors. A row that lists every label in order is its own dense row;
// the others are made dense in a buffer of each part.
func targetTerms(tl loss.Targeted, data train.Data) []float64 {
	L := data.L
	terms := make([]float64, data.N)
	workers := runtime.GOMAXPROCS(0)
	const grain = 16
	bufs := make([][]float64, parallel.Parts(data.N, workers, grain))
	parallel.ForParts(data.N, workers, grain, func(p, lo, hi int) {
		for r := lo; r < hi; r++ {
			y := fullRow(data, r)
			if y == nil {
				if bufs[p] == nil {
					bufs[p] = make([]float64, L)
				}
				y = bufs[p]
				denseTargets(y, data, r)
			}
			tl.TargetTerms(terms[r:r+1], y)
		}
	})
	return terms
}

// fullRow returns the targets of row r of data where they are held as a
// dense row (a row of Y, or a sparse row that lists every label in order),
// and otherwise nil.
func fullRow(data train.Data, r int) []float64 {
	L := data.L
	if data.Y != nil {
		return data.Y[r*L : (r+1)*L]
	}
	idx, mass := data.YSparse.Row(r)
	if len(idx) != L {
		return nil
	}
	for j, i := range idx {
		if i != j {
			return nil
		}
	}
	return mass
}

// denseTargets stores the targets of row r of data in dst (L masses).
func denseTargets(dst []float64, data train.Data, r int) {
	L := data.L
	if data.Y == nil {
		data.YSparse.Dense(dst, r)
	} else {
		copy(dst, data.Y[r*L:(r+1)*L])
	}
}

// exceeds returns an error wrapping ErrDiverged when the loss got on the
// rows named by what is more than DivergedFactor times uniform, the loss of
// the uniform prediction on them. A finite but huge loss is as much a
// divergence as a NaN one.
func exceeds(what string, got, uniform float64) error {
	if math.IsNaN(uniform) || !(got > DivergedFactor*max(uniform, 1e-3)) {
		return nil
	}
	return fmt.Errorf("%w: the %s loss is %.3g, %.3g times the %.3g of predicting the uniform distribution",
		ErrDiverged, what, got, got/max(uniform, 1e-300), uniform)
}

// epochEnd is train.Config.EpochEnd: it stops a run at the first epoch whose
// training loss, or validation loss, exceeds DivergedFactor times its
// baseline.
func (b *baselines) epochEnd(ep train.Epoch) error {
	if err := b.check("training", ep.TrainLoss, 0); err != nil {
		return err
	}
	return b.check("validation", ep.ValLoss, 1)
}

// final checks the loss that training ended with, on the validation rows
// if there are any (the best epoch's) or else on the training rows (the
// last epoch's), against its baseline. epochEnd has checked every epoch
// this process trained; final also covers the epochs of a checkpoint a run
// resumed after, and one that had finished.
func (b *baselines) final(h train.History) error {
	if len(h.Epochs) == 0 {
		return nil
	}
	if !math.IsNaN(b.uniform(1)) && h.BestEpoch > 0 && h.BestEpoch <= len(h.Epochs) {
		return b.check("validation", h.Epochs[h.BestEpoch-1].ValLoss, 1)
	}
	return b.check("training", h.Epochs[len(h.Epochs)-1].TrainLoss, 0)
}
