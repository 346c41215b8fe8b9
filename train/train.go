package train

import (
	"context"
	"errors"
	"fmt"
	"github.com/twl-ldl/twl/internal/human"
	"io"
	"math"
	"math/rand/v2"
	"time"

	"github.com/twl-ldl/twl/labeldist"
	"github.com/twl-ldl/twl/loss"
	"github.com/twl-ldl/twl/model"
	"github.com/twl-ldl/twl/optim"
)

// Config controls Fit. The zero value trains 100 epochs with batch 10, Adam
// at lr 1e-3, seed 0, no validation and no checkpoints.
type Config struct {
	Epochs int        // number of epochs; 0 means 100
	Batch  int        // rows per mini-batch; 0 means 10 (the paper's synthetic setting)
	Seed   uint64     // seeds the shuffling (and nothing else)
	Adam   optim.Adam // the optimizer of Fit's linear model (Train's learners bring their own)

	// ValRows, if not nil, are rows of the data held out for validation:
	// they are not trained on, the loss on them is reported each epoch, and
	// the parameters of the epoch with the lowest validation loss are the
	// ones returned.
	ValRows []int
	// Patience stops training after this many epochs without a lower
	// validation loss; 0 means never stop early. It needs ValRows: a
	// positive Patience without validation rows is an error.
	Patience int

	// Progress receives one line per epoch (epoch, losses, elapsed and
	// remaining time) when not nil.
	Progress io.Writer

	// Checkpoint, when not empty, is a file written atomically every
	// CheckpointEvery epochs (0 means every epoch) and at the end. If it
	// exists when Fit starts and matches the run (same shapes, loss and
	// configuration), training resumes from it.
	Checkpoint      string
	CheckpointEvery int

	// Context, when not nil, stops training once it is done (cancelled or
	// past its deadline): Train checks it before every mini-batch and then
	// returns an error wrapping Context.Err(), without writing a checkpoint
	// for the unfinished epoch, so the last checkpoint written stays the
	// last complete one and a later run resumes from it.
	Context context.Context

	// EpochEnd, when not nil, is called at the end of each epoch this call
	// trains, with the epoch's record: after the record is appended to the
	// history and its progress line is written, and before the epoch's
	// checkpoint. It is how a caller stops a run on a condition of its own,
	// such as a loss far above a baseline. A non-nil error stops training at
	// once: Train returns the history so far, that epoch included, and an
	// error wrapping the one returned ("train: epoch N: ..."), and writes
	// no checkpoint for that epoch, so the last checkpoint written stays
	// that of an epoch EpochEnd accepted. The learner is then left with the
	// parameters at the end of that epoch, not the best ones. EpochEnd is
	// not called for the epochs a run resumes after (those of the
	// checkpoint).
	EpochEnd func(ep Epoch) error

	// BatchEnd, when not nil, is called after every mini-batch this call
	// trains with the epoch (1-based) and the number of its training rows
	// done so far, for progress within an epoch.
	BatchEnd func(epoch, rows int)
	// Resuming, when not nil, is called once, before training, when a
	// checkpoint is resumed, with the epoch it was saved after.
	Resuming func(epoch int)

	// Terms, when not nil, are the terms of the targets alone of every row
	// of the learner (by row: what loss.Targeted's TargetTerms gives for
	// the row's targets), computed by the caller for a loss that has them;
	// Train then does not compute them again. Their length must be the
	// learner's number of rows (else Train panics).
	Terms []float64

	// Tag identifies the run beyond the data and the settings Fit sees (for
	// example a hash of the label tree, which the loss depends on): a
	// checkpoint with another Tag is not resumed.
	Tag string

	// Validate, when not nil, scores the validation rows in place of the
	// learner and the training loss: for a learner of models trained side
	// by side, each on a block of the logits (loss.Blocks), whose
	// prediction combines theirs, it is the combined prediction and the
	// loss of one model. Its Labels need not be the learner's.
	Validate *Validation
}

// Validation is what scores the validation rows (Config.Validate): the
// logits and targets of rows from Scorer, evaluated by Loss.
type Validation struct {
	Scorer Scorer
	Loss   loss.Loss
}

// Scorer gives the logits and targets of rows, as a Learner does.
type Scorer interface {
	Labels() int
	Targets(dst []float64, rows []int)
	Logits(dst []float64, rows []int)
}

// Epoch is what one epoch reports.
type Epoch struct {
	Epoch     int     `json:"epoch"` // 1-based
	TrainLoss float64 `json:"train_loss"`
	ValLoss   float64 `json:"val_loss,omitempty"` // NaN-free: 0 when there is no validation
	Seconds   float64 `json:"seconds"`
	// TrainSeconds is the part of Seconds spent training, the validation
	// excluded.
	TrainSeconds float64 `json:"train_seconds"`
}

// History is the record of a run.
type History struct {
	Epochs    []Epoch `json:"epochs"`
	BestEpoch int     `json:"best_epoch"` // the epoch whose parameters were returned
	Stopped   bool    `json:"stopped_early"`
	Resumed   int     `json:"resumed_from"` // epoch the run resumed after, 0 if fresh
}

// ErrDiverged reports a loss that became NaN or infinite.
var ErrDiverged = errors.New("train: loss is not finite (diverged)")

// Data is a training set: X holds N rows of In features, Y N rows of L
// label masses, both row-major. Targets over many labels can be held
// sparsely instead: with Y nil, YSparse holds them by their non-zero
// masses, and each mini-batch's targets are made dense as the loss needs
// them, in reused memory. Both forms train to the same bits.
type Data struct {
	X, Y    []float64
	YSparse *labeldist.Rows
	N       int
	In, L   int
}

func (d Data) check(m *model.Linear, l loss.Loss) {
	if m == nil || l == nil {
		panic("train: nil model or loss")
	}
	if d.In != m.In || d.L != m.Out || l.Labels() != d.L {
		panic("train: data, model and loss dimensions differ")
	}
	if len(d.X) != d.N*d.In {
		panic("train: data slices do not match N×In and N×L")
	}
	if d.Y == nil && d.YSparse != nil {
		sy := d.YSparse
		if sy.Rows() != d.N || sy.Off[0] != 0 || sy.Off[d.N] != len(sy.Index) || len(sy.Index) != len(sy.Mass) {
			panic("train: YSparse does not have N rows")
		}
		for r := range d.N {
			if sy.Off[r+1] < sy.Off[r] {
				panic("train: YSparse offsets decrease")
			}
		}
		for _, i := range sy.Index {
			if uint(i) >= uint(d.L) {
				panic("train: YSparse label out of range")
			}
		}
		return
	}
	if len(d.Y) != d.N*d.L {
		panic("train: data slices do not match N×In and N×L")
	}
}

// checkTargets returns an error naming the first row and label of data
// whose target mass is negative or not finite: values that are data, not
// the programmer's mistakes, and that would otherwise train a wrong model
// quietly. (A non-finite feature makes the loss NaN at once: ErrDiverged.)
func (d Data) checkTargets() error {
	if d.Y == nil && d.YSparse != nil {
		sy := d.YSparse
		for r := range d.N {
			idx, mass := sy.Row(r)
			for k, v := range mass {
				if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
					return fmt.Errorf("train: row %d, label %d: target mass %v is negative or not finite", r, idx[k], v)
				}
			}
		}
		return nil
	}
	for k, v := range d.Y {
		if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("train: row %d, label %d: target mass %v is negative or not finite", k/d.L, k%d.L, v)
		}
	}
	return nil
}

// Fit trains the softmax-linear model m in place on data with loss l and
// Adam configured by cfg.Adam, and returns the history: Train with m, its
// data and its optimizer as the Learner.
//
// Shapes that disagree (data, model and loss), and a nil m or l, are
// programmer errors and panic. A target mass that is negative or not
// finite is an error naming its row and label, and so are the
// configuration errors of Train; m is then left unchanged. A feature that
// is not finite gives ErrDiverged in the first epoch.
// Targets need not sum to 1: the loss sees them as given.
func Fit(m *model.Linear, l loss.Loss, data Data, cfg Config) (History, error) {
	data.check(m, l)
	if err := data.checkTargets(); err != nil {
		return History{}, err
	}
	return Train(newLinear(m, data, cfg.Adam), l, cfg)
}

// Train trains the learner ln with loss l, and returns the history. The
// learner brings its own optimizer: cfg.Adam is Fit's, and Train does not
// use it. On return the learner holds the parameters of the best epoch
// (see Config.ValRows).
//
// A positive cfg.Patience without cfg.ValRows is an error. Negative
// Epochs, Batch or Patience, validation rows out of range or repeated, a
// nil learner or loss, and learner and loss of different sizes are
// programmer errors and panic.
func Train(ln Learner, l loss.Loss, cfg Config) (History, error) {
	if ln == nil || l == nil {
		panic("train: Train with a nil learner or loss")
	}
	if ln.Labels() != l.Labels() {
		panic("train: learner and loss have different numbers of labels")
	}
	epochs := cfg.Epochs
	if epochs == 0 {
		epochs = 100
	}
	batch := cfg.Batch
	if batch == 0 {
		batch = 10
	}
	if epochs < 0 || batch < 0 || cfg.Patience < 0 {
		panic("train: negative Epochs, Batch or Patience")
	}
	if v := cfg.Validate; v != nil && (v.Scorer == nil || v.Loss == nil || v.Scorer.Labels() != v.Loss.Labels()) {
		panic("train: Config.Validate needs a scorer and a loss of the same labels")
	}
	if cfg.Patience > 0 && len(cfg.ValRows) == 0 {
		return History{}, fmt.Errorf("train: Patience %d needs validation rows (Config.ValRows)", cfg.Patience)
	}
	n := ln.Rows()
	trainRows, valRows := splitRows(n, cfg.ValRows)
	if len(trainRows) == 0 {
		return History{}, errors.New("train: no training rows")
	}

	pcg := rand.NewPCG(cfg.Seed, 0x7477_6c) // "twl"
	rng := rand.New(pcg)
	var h History
	best := math.Inf(1)
	var bestParams []byte
	sinceBest := 0
	start := 0
	var key checkpointKey // only checkpoints need it (it hashes the data)
	if cfg.Checkpoint != "" {
		key = makeKey(ln, l, cfg, batch)
	}

	if cfg.Checkpoint != "" {
		ck, err := loadCheckpoint(cfg.Checkpoint)
		switch {
		case err == nil:
			if err := ck.matches(key, epochs); err != nil {
				return History{}, fmt.Errorf("%s: %w", cfg.Checkpoint, err)
			}
			if err := pcg.UnmarshalBinary(ck.RNG); err != nil {
				return History{}, fmt.Errorf("%s: %w", cfg.Checkpoint, err)
			}
			if bp := ck.BestParams; bp != nil {
				// Check the best parameters before the state changes
				// anything, then restore the state.
				saved := ln.AppendParams(nil)
				err := ln.SetParams(bp)
				ln.SetParams(saved)
				if err != nil {
					return History{}, fmt.Errorf("%s: corrupt checkpoint: best parameters: %w", cfg.Checkpoint, err)
				}
			}
			if err := ln.SetState(ck.State); err != nil {
				return History{}, fmt.Errorf("%s: corrupt checkpoint: %w", cfg.Checkpoint, err)
			}
			h = ck.History
			h.Resumed = ck.Epoch
			if cfg.Resuming != nil {
				cfg.Resuming(ck.Epoch)
			}
			best, bestParams, sinceBest, start = ck.Best, ck.BestParams, ck.SinceBest, ck.Epoch
			if ck.Done {
				return finish(ln, h, bestParams), nil
			}
		case !errors.Is(err, errNoCheckpoint):
			return History{}, err
		}
	}

	L := ln.Labels()
	// Each epoch shuffles the training rows afresh from their sorted order,
	// so that the order depends only on the generator's state, which the
	// checkpoint holds (shuffling last epoch's order again would make it
	// depend on every earlier epoch, which a resumed run does not have).
	order := make([]int, len(trainRows))
	yb := make([]float64, batch*L)
	zb := make([]float64, batch*L)
	// A loss with a term of the targets alone (KL's Σ y log y) gets it
	// computed once per row here rather than once per row and epoch.
	tl, _ := l.(loss.Targeted)
	var terms, tb []float64
	if tl != nil && cfg.Terms != nil {
		if len(cfg.Terms) != n {
			panic("train: len(Config.Terms) differs from the learner's rows")
		}
		terms, tb = cfg.Terms, make([]float64, batch)
	} else if tl != nil {
		terms = make([]float64, n)
		all := make([]int, n)
		for r := range all {
			all[r] = r
		}
		for s := 0; s < n; s += batch {
			rows := all[s:min(s+batch, n)]
			ln.Targets(yb[:len(rows)*L], rows)
			tl.TargetTerms(terms[s:s+len(rows)], yb[:len(rows)*L])
		}
		tb = make([]float64, batch)
	}
	counter, _ := ln.(Counter)
	// A learner that fuses a step with the next batch's logits and
	// targets gets the rows of the next batch of the epoch; they then wait
	// in zn and yn.
	fl, _ := ln.(fusedLearner)
	var zn, yn []float64
	if fl != nil {
		zn, yn = make([]float64, batch*L), make([]float64, batch*L)
	}
	began := time.Now()
	for e := start; e < epochs; e++ {
		t0 := time.Now()
		copy(order, trainRows)
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		var sum float64
		units := 0
		have := false // whether z and y hold the batch's logits and targets
		for s := 0; s < len(order); s += batch {
			if cfg.Context != nil && cfg.Context.Err() != nil {
				return h, fmt.Errorf("train: stopped in epoch %d: %w", e+1, cfg.Context.Err())
			}
			rows := order[s:min(s+batch, len(order))]
			B := len(rows)
			if tl != nil {
				for k, r := range rows {
					tb[k] = terms[r]
				}
			}
			y, z := yb[:B*L], zb[:B*L]
			if !have {
				ln.Targets(y, rows)
				ln.Logits(z, rows)
			}
			v, err := evalBatch(l, tl, z, y, tb[:min(B, len(tb))])
			if err != nil {
				return h, fmt.Errorf("train: epoch %d: %w", e+1, err)
			}
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return h, fmt.Errorf("%w at epoch %d", ErrDiverged, e+1)
			}
			sum += v * float64(B)
			if next := order[min(s+batch, len(order)):min(s+2*batch, len(order))]; fl != nil && len(next) > 0 {
				fl.UpdateNext(z, zn[:len(next)*L], yn[:len(next)*L], next)
				zb, zn = zn, zb
				yb, yn = yn, yb
				have = true
			} else {
				ln.Update(z)
				have = false
			}
			if counter != nil {
				units += counter.Count(rows)
			}
			if cfg.BatchEnd != nil {
				cfg.BatchEnd(e+1, s+B)
			}
		}
		trainSeconds := time.Since(t0).Seconds()
		ep := Epoch{Epoch: e + 1, TrainLoss: sum / float64(len(trainRows)), TrainSeconds: trainSeconds}
		improved := true
		if len(valRows) > 0 {
			var vl float64
			var err error
			if v := cfg.Validate; v != nil {
				vl, err = evaluate(v.Scorer, v.Loss, valRows, batch, nil)
			} else {
				vl, err = evaluate(ln, l, valRows, batch, terms)
			}
			if err != nil {
				return h, fmt.Errorf("train: epoch %d: validation: %w", e+1, err)
			}
			if math.IsNaN(vl) || math.IsInf(vl, 0) {
				return h, fmt.Errorf("%w at epoch %d (the validation loss is %v)", ErrDiverged, e+1, vl)
			}
			ep.ValLoss = vl
			improved = vl < best
			if improved {
				best = vl
				bestParams = ln.AppendParams(bestParams[:0])
				h.BestEpoch = e + 1
				sinceBest = 0
			} else {
				sinceBest++
			}
		} else {
			h.BestEpoch = e + 1
		}
		ep.Seconds = time.Since(t0).Seconds()
		h.Epochs = append(h.Epochs, ep)
		stop := cfg.Patience > 0 && len(valRows) > 0 && sinceBest >= cfg.Patience
		if cfg.Progress != nil {
			done := e + 1 - start
			elapsed := time.Since(began)
			remaining := time.Duration(float64(elapsed) / float64(done) * float64(epochs-e-1))
			line := fmt.Sprintf("epoch %d/%d  loss %.6g", e+1, epochs, ep.TrainLoss)
			if len(valRows) > 0 {
				line += fmt.Sprintf("  val %.6g", ep.ValLoss)
				if improved {
					line += " *"
				}
			}
			if counter != nil && trainSeconds > 0 {
				line += fmt.Sprintf("  %.0f %s/s", float64(units)/trainSeconds, counter.Unit())
			}
			line += fmt.Sprintf("  elapsed %s  remaining %s", human.Seconds(elapsed.Seconds()), human.Seconds(remaining.Seconds()))
			if stop {
				line += fmt.Sprintf("  (no improvement for %d epochs: stopping)", cfg.Patience)
			}
			fmt.Fprintln(cfg.Progress, line)
		}
		if cfg.EpochEnd != nil {
			if err := cfg.EpochEnd(ep); err != nil {
				return h, fmt.Errorf("train: epoch %d: %w", e+1, err)
			}
		}
		if stop {
			h.Stopped = true
		}
		last := stop || e+1 == epochs
		if cfg.Checkpoint != "" && (last || cfg.CheckpointEvery <= 1 || (e+1)%cfg.CheckpointEvery == 0) {
			rngState, _ := pcg.MarshalBinary()
			ck := checkpoint{
				Key: key, Epoch: e + 1, Done: last, State: ln.AppendState(nil), RNG: rngState,
				History: h, Best: best, BestParams: bestParams, SinceBest: sinceBest,
			}
			if err := ck.save(cfg.Checkpoint); err != nil {
				return h, err
			}
		}
		if stop {
			break
		}
	}
	return finish(ln, h, bestParams), nil
}

// fusedLearner is a Learner that makes its step and computes the logits
// and targets of the next rows in one pass: UpdateNext(dz, logits,
// targets, rows) does what Update(dz), Logits(logits, rows) and
// Targets(targets, rows) do, to the same bits.
type fusedLearner interface {
	UpdateNext(dz, logits, targets []float64, rows []int)
}

func finish(ln Learner, h History, bestParams []byte) History {
	if bestParams != nil {
		if err := ln.SetParams(bestParams); err != nil {
			panic("train: " + err.Error()) // not reached: the learner wrote them
		}
	}
	return h
}

// splitRows returns the training rows (all rows not in val) and a copy of
// the validation rows. Out-of-range or repeated validation rows panic.
func splitRows(n int, val []int) (trainRows, valRows []int) {
	held := make([]bool, n)
	for _, r := range val {
		if r < 0 || r >= n || held[r] {
			panic("train: validation rows out of range or repeated")
		}
		held[r] = true
	}
	for r := 0; r < n; r++ {
		if !held[r] {
			trainRows = append(trainRows, r)
		}
	}
	return trainRows, append([]int(nil), val...)
}

// Evaluate returns the mean loss of m on the given rows of data, computed in
// mini-batches of the given size (0: 256). Like Fit, it panics on a nil m
// or l and on shapes that disagree.
func Evaluate(m *model.Linear, l loss.Loss, data Data, rows []int, batch int) (float64, error) {
	data.check(m, l)
	return evaluate(newLinear(m, data, optim.Adam{}), l, rows, batch, nil)
}

// EvaluateLearner returns the mean loss of the learner on the given rows,
// computed in mini-batches of the given size (0: 256).
func EvaluateLearner(ln Learner, l loss.Loss, rows []int, batch int) (float64, error) {
	if ln == nil || l == nil {
		panic("train: nil learner or loss")
	}
	return evaluate(ln, l, rows, batch, nil)
}

// evalBatch evaluates l on one batch, with the targets' terms tb when the
// loss takes them (tl != nil; the result is the same as Eval's).
func evalBatch(l loss.Loss, tl loss.Targeted, z, y, tb []float64) (float64, error) {
	if tl != nil {
		return tl.EvalTerms(z, z, y, tb)
	}
	return l.Eval(z, z, y)
}

// evaluate is Evaluate given the targets' terms of every row (nil: the
// loss computes them, or takes none).
func evaluate(ln Scorer, l loss.Loss, rows []int, batch int, terms []float64) (float64, error) {
	if batch <= 0 {
		batch = 256
	}
	L := ln.Labels()
	yb := make([]float64, batch*L)
	zb := make([]float64, batch*L)
	var tl loss.Targeted
	var tb []float64
	if terms != nil {
		tl, _ = l.(loss.Targeted)
		tb = make([]float64, batch)
	}
	var sum float64
	for s := 0; s < len(rows); s += batch {
		part := rows[s:min(s+batch, len(rows))]
		B := len(part)
		if tl != nil {
			for k, r := range part {
				tb[k] = terms[r]
			}
		}
		y, z := yb[:B*L], zb[:B*L]
		ln.Targets(y, part)
		ln.Logits(z, part)
		v, err := evalBatch(l, tl, z, y, tb[:min(B, len(tb))])
		if err != nil {
			return 0, err
		}
		sum += v * float64(B)
	}
	if len(rows) == 0 {
		return 0, nil
	}
	return sum / float64(len(rows)), nil
}
