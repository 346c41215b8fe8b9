package ldl

import (
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/twl-ldl/twl/loss"
	"github.com/twl-ldl/twl/ot/sinkhorn"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/tsw"
)

// The defaults of Options, chosen by 10-fold cross-validation on SJAFFE
// (star tree, KL, seed 1), mean Chebyshev distance (published SA-BFGS:
// .092–.107):
//
//	weight decay 0, 0.01, 0.03, 0.1 (lr 1e-3):  .12–.15, .105, .093, .086
//	features not standardized:                 .120 (the level of predicting the mean)
//	lr 0.01 instead of 1e-3:                    .01–.04 worse
//	50–200 epochs, batch 8–32:                  within .002
//
// 0.03 reproduces PyLDL's numbers on all six measures. More decay helps
// SJAFFE further but hurts data with many ordinal labels of uneven
// frequency (FG-Net: wasserstein 6.1 without decay, 16.3 with 0.03), partly
// because the biases are decayed too. With these defaults, 10 × 10-fold
// cross-validation on SJAFFE gives Chebyshev .093 ± .009 (PyLDL's SA-BFGS
// .092 ± .010). The paper's setting for its synthetic data is 500 epochs,
// batch 10 and no weight decay.
const (
	DefaultEpochs      = 100
	DefaultBatch       = 32
	DefaultLR          = 1e-3 // Adam's step size, the paper's
	DefaultWeightDecay = 0.03
	DefaultLambda      = 1
	DefaultSinkhornReg = sinkhorn.DefaultLambda // the paper's 50
	DefaultIters       = 10                     // the paper's 10 Sinkhorn iterations
	DefaultMassCost    = 1                      // kl+utw's μ: moves over 2 unit edges or more cost 2
)

// MaxSinkhornLabels bounds the labels of kl+sinkhorn, whose L×L cost
// matrix and kernel take 16·L² bytes (1.6 GB at 10⁴ labels).
const MaxSinkhornLabels = 10000

// Options control Fit and CrossValidate. The zero value trains softmax
// regression on KL with the defaults above: 100 epochs of mini-batches of
// 32 rows, Adam at 1e-3, L2 weight decay 0.03 on the weights (not the
// biases), standardized features, no validation, seed 0.
type Options struct {
	// Loss is the training loss by name, in the grammar of loss.Parse:
	// kl, kl+tw, kl+sinkhorn (also kl+w1), kl+tsw, kl+utw, with an optional
	// weight (kl+0.5tw). "" means kl. The model is softmax(W·x + b) and
	// the loss, averaged over each mini-batch, is
	//
	//	kl            KL(y ‖ p)
	//	kl+tw         KL(y ‖ p) + λ·TW(p, y), TW the tree-Wasserstein distance on the data's tree
	//	kl+sinkhorn   KL(y ‖ p) + λ·W(p, y), W by Sinkhorn on the tree metric
	//	              (dense L×L, at most MaxSinkhornLabels labels)
	//	kl+tsw        KL(y ‖ p) + λ·TSW(p, y), the tree-sliced distance over Trees
	//	kl+utw        KL(y ‖ p) + λ·UTW_μ(p, y), the unbalanced tree-Wasserstein
	//	              distance (loss.UTW): W1 under the tree metric truncated at 2μ
	Loss string
	// Lambda is λ for a Loss that writes no weight (kl+tw): 0 means 1
	// (DefaultLambda), a negative value λ = 0. A Loss that writes a weight
	// and a non-zero Lambda are an error.
	Lambda float64
	// SinkhornReg is kl+sinkhorn's kernel parameter λs of exp(−λs·C)
	// (POT's reg is 1/λs); 0 means 50 (DefaultSinkhornReg).
	SinkhornReg float64
	// SinkhornIters is kl+sinkhorn's number of Sinkhorn iterations per
	// gradient; 0 means 10 (DefaultIters).
	SinkhornIters int
	// MassCost is kl+utw's cost μ of a unit of mass created or destroyed;
	// 0 means 1 (DefaultMassCost).
	MassCost float64
	// UTWSets and UTWScale are kl+utw's Sets and Scale (loss.UTW): with
	// UTWSets the target is the indicator of the row's support (a label
	// set, one unit per label) and the prediction is scaled by UTWScale
	// (0 means 1), such as the mean size of the training label sets.
	UTWSets  bool
	UTWScale float64
	// Trees is the tree-sliced distance of kl+tsw, over the labels of the
	// data in order (load the data with a flat tree of them,
	// LoadOptions.Tree). Only kl+tsw uses it, and it needs it.
	Trees *tsw.Sliced

	Epochs int     // passes over the training rows; 0 means 100
	Batch  int     // rows per mini-batch; 0 means 32
	LR     float64 // Adam's step size; 0 means 1e-3
	// WeightDecay is the L2 coefficient added to the gradient of the
	// weights; 0 means 0.03 (DefaultWeightDecay), a negative value none.
	WeightDecay float64
	// DecayBias applies WeightDecay to the biases too. By default only the
	// weights decay: decayed biases pull predictions toward uniform.
	DecayBias bool
	// Raw uses the features as they are. By default they are standardized
	// (mean 0, variance 1 on the rows trained on), and the model keeps the
	// standardization.
	Raw bool
	// Val holds out this fraction of the rows, in [0, 1), for validation:
	// the parameters of the epoch with the lowest validation loss are
	// kept. 0: none; 0.1 to 0.2 is usual.
	Val float64
	// Patience stops training after this many epochs without a lower
	// validation loss; 0: never. It needs Val.
	Patience int
	// Seed drives everything random: the initial weights, the validation
	// split, the shuffling and CrossValidate's folds. The same options
	// give the same model bit for bit.
	Seed uint64

	// Progress, when not nil, receives one line per epoch (epoch, losses,
	// elapsed and remaining time). CrossValidate does not use it.
	Progress io.Writer
	// Checkpoint, when not empty, is a file that the state of training is
	// saved to atomically every CheckpointEvery epochs (0 means 1) and
	// after the last; if it exists when Fit starts and matches the run,
	// training resumes from it with the same result, bit for bit, as an
	// uninterrupted run (train.Config). CrossValidate does not use it.
	Checkpoint      string
	CheckpointEvery int
}

// Streams of the PCG generator, so that one seed drives independent random
// choices.
const (
	streamInit  = 0x696e6974 // "init": the model's initial weights
	streamVal   = 0x76616c   // "val": the validation split
	streamFolds = 0x666f6c64 // "fold": the folds of repeat r use streamFolds + r
)

// settings are Options with the defaults filled in and the loss parsed.
type settings struct {
	Options
	name   loss.Name
	lambda float64
	decay  float64
}

// resolve checks o and fills in its defaults.
func (o *Options) resolve() (settings, error) {
	s := settings{Options: *o}
	if s.Loss == "" {
		s.Loss = "kl"
	}
	name, err := loss.Parse(s.Loss)
	if err != nil {
		return s, fmt.Errorf("ldl: %w", err)
	}
	s.name = name
	switch {
	case name.Weighted && o.Lambda != 0:
		return s, fmt.Errorf("ldl: the loss %s has its weight; Lambda %v would be a second one", s.Loss, o.Lambda)
	case math.IsNaN(o.Lambda) || math.IsInf(o.Lambda, 0):
		return s, fmt.Errorf("ldl: Lambda %v is not finite", o.Lambda)
	case name.Weighted:
		s.lambda = name.Lambda
	case o.Lambda < 0:
		s.lambda = 0
	case o.Lambda > 0:
		s.lambda = o.Lambda
	default:
		s.lambda = DefaultLambda
	}
	if s.SinkhornReg == 0 {
		s.SinkhornReg = DefaultSinkhornReg
	}
	if s.SinkhornIters == 0 {
		s.SinkhornIters = DefaultIters
	}
	if s.MassCost == 0 {
		s.MassCost = DefaultMassCost
	}
	if s.Epochs == 0 {
		s.Epochs = DefaultEpochs
	}
	if s.Batch == 0 {
		s.Batch = DefaultBatch
	}
	if s.LR == 0 {
		s.LR = DefaultLR
	}
	switch {
	case s.WeightDecay == 0:
		s.decay = DefaultWeightDecay
	case s.WeightDecay > 0:
		s.decay = s.WeightDecay
	}
	switch {
	case !(s.SinkhornReg > 0) || math.IsInf(s.SinkhornReg, 1):
		return s, fmt.Errorf("ldl: SinkhornReg must be a finite number > 0, not %v", s.SinkhornReg)
	case s.SinkhornIters < 1:
		return s, fmt.Errorf("ldl: SinkhornIters must be at least 1, not %d", s.SinkhornIters)
	case !(s.MassCost > 0) || math.IsInf(s.MassCost, 1):
		return s, fmt.Errorf("ldl: MassCost must be a finite number > 0, not %v", s.MassCost)
	case !(s.UTWScale >= 0) || math.IsInf(s.UTWScale, 1):
		return s, fmt.Errorf("ldl: UTWScale must be a finite number ≥ 0, not %v", s.UTWScale)
	case s.Epochs < 1:
		return s, fmt.Errorf("ldl: Epochs must be at least 1, not %d", s.Epochs)
	case s.Batch < 1:
		return s, fmt.Errorf("ldl: Batch must be at least 1, not %d", s.Batch)
	case !(s.LR > 0) || math.IsInf(s.LR, 1):
		return s, fmt.Errorf("ldl: LR must be a finite number > 0, not %v", s.LR)
	case math.IsNaN(s.WeightDecay) || math.IsInf(s.WeightDecay, 1):
		return s, fmt.Errorf("ldl: WeightDecay must be finite, not %v", s.WeightDecay)
	case !(s.Val >= 0 && s.Val < 1):
		return s, fmt.Errorf("ldl: Val must be a fraction in [0, 1), not %v", s.Val)
	case s.Patience < 0:
		return s, fmt.Errorf("ldl: Patience must be ≥ 0, not %d", s.Patience)
	case s.Patience > 0 && s.Val == 0:
		return s, errors.New("ldl: Patience needs a validation split (Val)")
	case s.CheckpointEvery < 0:
		return s, fmt.Errorf("ldl: CheckpointEvery must be ≥ 0, not %d", s.CheckpointEvery)
	}
	return s, nil
}

// LabelLimitError is the error of NewLoss, Fit and CrossValidate for
// kl+sinkhorn over more than MaxSinkhornLabels labels.
type LabelLimitError struct {
	Labels int // the labels of the tree
}

// Error says how much memory the loss would need and what to use instead.
func (e *LabelLimitError) Error() string {
	return fmt.Sprintf("kl+sinkhorn needs two %d×%d matrices (%.3g GB); it is limited to %d labels: use kl+tw",
		e.Labels, e.Labels, 16*float64(e.Labels)*float64(e.Labels)/1e9, MaxSinkhornLabels)
}

// NewLoss returns the training loss of opts (Loss, Lambda, the Sinkhorn
// settings, Trees) for distributions over the nodes of t. An unknown loss
// name, kl+tsw without Trees and kl+sinkhorn over more than
// MaxSinkhornLabels labels (*LabelLimitError) are errors.
func NewLoss(t *tree.Tree, opts *Options) (loss.Loss, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	s, err := o.resolve()
	if err != nil {
		return nil, err
	}
	return s.newLoss(t)
}

func (s *settings) newLoss(t *tree.Tree) (loss.Loss, error) {
	L := t.Len()
	switch s.name.Term {
	case loss.TermTSW:
		if s.Trees == nil {
			return nil, errors.New("ldl: the loss kl+tsw needs Options.Trees")
		}
		return loss.NewKLTSW(s.Trees, s.lambda), nil
	case loss.TermTW:
		return loss.NewKLTW(t, s.lambda), nil
	case loss.TermUTW:
		return loss.NewKLUTW(t, s.lambda, loss.UTW{MassCost: s.MassCost, Sets: s.UTWSets, Scale: s.UTWScale}), nil
	case loss.TermSinkhorn:
		if L > MaxSinkhornLabels {
			return nil, &LabelLimitError{Labels: L}
		}
		cost := t.DistanceMatrix(nil).RawMatrix().Data
		return loss.NewKLSinkhorn(cost, L, s.lambda, sinkhorn.Settings{Lambda: s.SinkhornReg, Iters: s.SinkhornIters, Tol: -1})
	}
	return loss.NewKL(L), nil
}
