package textmodel

import (
	"github.com/twl-ldl/twl/bag"
)

// BagOptions are the settings of the bag of n-grams (Options.Model
// KindBag) that Options does not hold. Zero fields mean DefaultBag's.
type BagOptions struct {
	// Features: word n-grams, character n-grams and buckets. A zero
	// WordNgrams, Buckets or (with MaxN > 0) MinN means DefaultBag's.
	Features bag.Features
	// MinCount is the number of times a bucket must occur in the training
	// documents to get a row (rarer n-grams are left out of every
	// document).
	MinCount int
	// WordScale is the standard deviation of the random vectors of words
	// that the word vectors lack (0: that of the vectors found,
	// embedding.NewTable); NgramScale the bound of the n-gram rows'
	// uniform initial values (0 in DefaultBag: zero rows).
	WordScale, NgramScale float64
	// TrainingWordsOnly keeps the vocabulary to the words of the training
	// documents. By default the words of the word vectors (Options.Emb)
	// that the tokenizer reads as they are join it, with their vectors, as
	// fastText's -pretrainedVectors adds them to its dictionary: a word
	// never seen in training then still counts at prediction, through its
	// vector, which training leaves as it is.
	TrainingWordsOnly bool
	// ConstantLR keeps the learning rate constant instead of decaying it
	// linearly to zero over the epochs.
	ConstantLR bool
	// Single trains one bag. By default, when the bag has n-grams (word
	// n-grams or character n-grams), a second bag of the same words alone
	// is trained beside it, on the same mini-batches with the same loss,
	// and the model predicts the mean of their two distributions
	// (bag.Ensemble): on the validation splits of docs/results/text.md
	// that raised ROC-AUC on every set and helped most where documents
	// are few or short, for about 1.5 times the CPU time of one bag (on
	// two cores, where the two bags step at once, 1.0–1.1 times its wall
	// time).
	Single bool
	// Epochs, Batch, LR and Patience are Options' defaults for the bag.
	// DefaultBag's Patience is 0: the learning rate decays to 0 over the
	// epochs, and the validation loss, noisy while the rate is high,
	// chooses the epoch kept (when there are validation documents) rather
	// than when to stop.
	Epochs, Batch, Patience int
	LR                      float64
}

// DefaultBagLambda is the weight λ of the transport term of KL + λ·TW (or
// Sinkhorn's W) that 'twl text train' gives the bag when none is given:
// twice the paper's 1, chosen on validation splits (docs/results/text.md).
// The loss is the caller's (Options.Loss); Fit does not apply it.
const DefaultBagLambda = 2

// DefaultBagVal is the fraction of the training documents that 'twl text
// train' holds out for validation with the bag when it is given no
// validation documents: none, so that every document trains the model and
// the model of the last epoch, where the learning rate has decayed to 0,
// is kept. On validation splits this beat holding out a fifth (and keeping
// the epoch of the best validation loss) on every data set tried, short
// documents included (docs/results/text.md). DefaultLSTMVal is the
// LSTM's, which has no decaying rate and needs the validation loss to
// choose its epoch.
const (
	DefaultBagVal  = 0.0
	DefaultLSTMVal = 0.2
)

// DefaultBag holds the defaults of the bag of n-grams.
var DefaultBag = BagOptions{
	Features: bag.Features{WordNgrams: 2, MinN: 3, MaxN: 0, Buckets: 2_000_000},
	MinCount: 2,
	Epochs:   40, Batch: 8, LR: 1,
}

// withDefaults returns o with its zero fields set to DefaultBag's.
func (o BagOptions) withDefaults() BagOptions {
	d := DefaultBag
	f := &o.Features
	if f.WordNgrams == 0 {
		f.WordNgrams = d.Features.WordNgrams
	}
	if f.Buckets == 0 {
		f.Buckets = d.Features.Buckets
	}
	if f.MaxN > 0 && f.MinN == 0 {
		f.MinN = d.Features.MinN
	}
	if o.MinCount == 0 {
		o.MinCount = d.MinCount
	}
	if o.WordScale == 0 {
		o.WordScale = d.WordScale
	}
	if o.NgramScale == 0 {
		o.NgramScale = d.NgramScale
	}
	if o.Epochs == 0 {
		o.Epochs = d.Epochs
	}
	if o.Batch == 0 {
		o.Batch = d.Batch
	}
	if o.LR == 0 {
		o.LR = d.LR
	}
	if o.Patience == 0 {
		o.Patience = d.Patience
	}
	return o
}
