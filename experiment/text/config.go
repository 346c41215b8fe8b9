package text

import (
	"math"
	"slices"

	"github.com/twl-ldl/twl/bag"
	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/embedding"
	"github.com/twl-ldl/twl/experiment/report"
	"github.com/twl-ldl/twl/loss"
	"github.com/twl-ldl/twl/textmodel"
	"github.com/twl-ldl/twl/tree"
)

// Settings are the numbers of a protocol.
type Settings struct {
	Hidden   int     `json:"hidden"`    // LSTM hidden size
	Epochs   int     `json:"epochs"`    // training epochs
	Batch    int     `json:"batch"`     // documents per mini-batch
	LR       float64 `json:"lr"`        // Adam's step size
	MaxLen   int     `json:"max_len"`   // tokens kept per document
	MinCount int64   `json:"min_count"` // vocabulary: least count of a word
	Seeds    int     `json:"seeds"`
	K        int     `json:"k"` // the k of top-k cost
}

// Paper is the paper's protocol (Sec. 4.2); MaxLen and MinCount are twl's
// choices, the paper stating neither.
var Paper = Settings{Hidden: 200, Epochs: 100, Batch: 100, LR: 1e-3, MaxLen: 200, MinCount: 2, Seeds: 10, K: 5}

// Reduced is the default protocol. It keeps the model's structure, the
// batch, the measures and all five losses, and shrinks the work: hidden
// size 100 (a third of the matrix products), documents cut at 100 tokens,
// 18 epochs at a learning rate of 4e-3 instead of 100 at 1e-3 (on 20
// Newsgroups the validation loss reaches its minimum at epochs 12 to 17 of
// a 30-epoch run; at 3e-3 it still falls at epoch 15, at 6e-3 it turns up
// after 10), and 3 seeds (a paired t-test with 2 degrees of freedom: enough
// to see a large effect, not a small one). About a minute and a half per
// run on 20 Newsgroups on 2 cores.
var Reduced = Settings{Hidden: 100, Epochs: 18, Batch: 100, LR: 4e-3, MaxLen: 100, MinCount: 2, Seeds: 3, K: 5}

// Bag is the protocol of the bag of n-grams (Config.Model
// textmodel.KindBag): the defaults of 'twl text train' (textmodel.DefaultBag:
// 40 epochs of batches of 8, SGD at lr 1 decaying linearly to 0, documents
// not cut, a bag of words beside the bag of n-grams), and 5 seeds, a paired
// t-test with 4 degrees of freedom: a bag's
// run takes seconds to a minute. Hidden is unused.
var Bag = Settings{Epochs: textmodel.DefaultBag.Epochs, Batch: textmodel.DefaultBag.Batch, LR: textmodel.DefaultBag.LR, MinCount: 2, Seeds: 5, K: 5}

// BagLosses are the losses of a bag experiment by default: KL, KL + ½TW,
// KL + TW and KL + 2TW, the weight textmodel.DefaultBagLambda that 'twl
// text train' gives the bag.
var BagLosses = []string{"kl", "kl+0.5tw", "kl+tw", BagDefaultLoss}

// BagDefaultLoss is KL + 2TW, which the bag's experiment runs besides
// loss.PaperIDs.
const BagDefaultLoss = "kl+2tw"

// Protocol names.
const (
	ProtocolReduced = report.ProtocolReduced // the default: minutes on 2 cores
	ProtocolPaper   = report.ProtocolPaper   // Sec. 4.2 of the paper
	ProtocolBag     = "bag"                  // the bag of n-grams (Bag)
)

// ProtocolOptions choose the protocol of a run on text and its numbers:
// the text experiment's (Config) and the label-tree study's.
type ProtocolOptions struct {
	// Protocol is ProtocolReduced ("" means it) or ProtocolPaper. It sets
	// the values of the settings below that are nil.
	Protocol string
	// Hidden, Epochs, Batch, MaxLen, Seeds and LR, when not nil, replace
	// the protocol's value: the integers from 1 to 10⁷, LR positive.
	Hidden, Epochs, Batch, MaxLen, Seeds *int
	LR                                   *float64
}

// Config controls Run.
type Config struct {
	// ProtocolOptions: the protocol and the numbers that replace its own.
	ProtocolOptions

	// Train holds the training documents, read with the label tree; Dev
	// and Test, when not nil, the validation and test documents (read with
	// the same tree). Dev without Test is an error. See the package
	// documentation for the splits.
	Train, Dev, Test *corpus.Corpus
	// TreeSource names the tree in the report ("hierarchy.txt").
	TreeSource string

	// Emb gives pretrained word vectors (nil: random ones); EmbRef names
	// them. TrainEmb trains them with the model.
	Emb      embedding.Source
	EmbRef   textmodel.EmbeddingRef
	TrainEmb bool
	// Target makes target distributions of the label sets; AsGiven
	// records that the corpora were read with corpus.Options.AsGiven.
	Target  corpus.Target
	AsGiven bool

	// Losses are the IDs of the losses to run, a subset of loss.PaperIDs
	// in any order; nil means all five, or BagLosses for the bag.
	Losses []string

	// Model is the text model: textmodel.KindLSTM ("" means it), the
	// paper's, under the protocols Reduced and Paper; or
	// textmodel.KindBag, the bag of n-grams under the protocol Bag
	// (Protocol must be "", Hidden nil, TrainEmb false).
	Model string
	// FastText, with the bag, runs fastText on the same documents as an
	// outside row of the report (see FastText); nil: no such row, and
	// FastTextSkipped says why, in the report.
	FastText        *FastText
	FastTextSkipped string

	// OutDir, when not empty, receives one JSON file per finished run and
	// the checkpoints of unfinished ones; runs found there are kept.
	OutDir string
	// CheckpointEvery, when not nil, is the number of epochs between
	// checkpoints of a run in progress, at least 1; nil means 1 for the
	// LSTM, and none for the bag, whose runs take seconds to a minute and
	// whose checkpoints hold its whole table (an interrupted run starts
	// again; finished runs are kept).
	CheckpointEvery *int

	// RunOptions: progress: a line per run and per epoch; stopped at the
	// next mini-batch, finished runs and the last complete checkpoint
	// staying, so that a later Run with the same directory resumes.
	report.RunOptions

	// EstimatePaper times a few training steps of the paper's model (hidden
	// 200, 200 tokens a document) to estimate how long the paper's protocol
	// would take on these data on this machine (Result.PaperEstimate): a
	// few seconds. Unused with ProtocolPaper, whose report has the real
	// times.
	EstimatePaper bool
}

// Resolved is what a Result records of its Config.
type Resolved struct {
	Protocol   string   `json:"protocol"`
	Settings   Settings `json:"settings"`
	Losses     []string `json:"losses"`
	Files      Files    `json:"files"`
	Tree       tree.Ref `json:"tree"`
	Embeddings Vectors  `json:"embeddings"`
	TrainEmb   bool     `json:"train_embeddings"`
	Target     string   `json:"target"`
	AsGiven    bool     `json:"as_given"` // label sets not closed under ancestors
	Split      string   `json:"split"`    // how the data were split
	// Model is "bag" for the bag of n-grams, "" for the LSTM; Bag its
	// settings besides Settings (textmodel.DefaultBag's).
	Model string       `json:"model,omitempty"`
	Bag   *BagSettings `json:"bag,omitempty"`
	// FastText is the outside row's run, with the bag; FastTextSkipped why
	// there is none.
	FastText        *FastTextRun `json:"fasttext,omitempty"`
	FastTextSkipped string       `json:"fasttext_skipped,omitempty"`
}

// Files names the data.
type Files struct {
	Train string `json:"train"`
	Dev   string `json:"dev,omitempty"`
	Test  string `json:"test,omitempty"`
}

// ErrConfig is wrapped by the errors that report an invalid Config.
var ErrConfig = report.ErrConfigOf("text")

// Resolve fills in the defaults of cfg and checks it. Its errors are
// *report.ConfigError, wrapping ErrConfig.
func (cfg Config) Resolve() (Resolved, error) {
	c := report.Checker{Kind: ErrConfig}
	bad := func(setting, format string, args ...any) (Resolved, error) {
		return Resolved{}, c.Bad(setting, nil, format, args...)
	}
	var (
		protocol string
		s        Settings
		err      error
		bagOpts  *BagSettings
	)
	switch cfg.Model {
	case "", textmodel.KindLSTM:
		protocol, s, err = cfg.Settings(c)
		if cfg.FastText != nil {
			return bad("FastText", "fastText is an outside row of the bag's experiment, not the LSTM's")
		}
	case textmodel.KindBag:
		protocol, s, err = cfg.bagSettings(c)
		bagOpts = new(BagSettingsOf(textmodel.DefaultBag))
	default:
		return bad("Model", "%q: want %s or %s", cfg.Model, textmodel.KindBag, textmodel.KindLSTM)
	}
	if err != nil {
		return Resolved{}, err
	}
	if err := c.Int(new(0), cfg.CheckpointEvery, "CheckpointEvery", 1, math.MaxInt); err != nil {
		return Resolved{}, err
	}
	switch {
	case cfg.Train == nil || cfg.Train.Tree == nil:
		return bad("Train", "no training documents read with a label tree")
	case cfg.Dev != nil && cfg.Test == nil:
		return bad("Dev", "validation documents without test documents: give both, or the test documents alone")
	}
	for _, c := range []*corpus.Corpus{cfg.Dev, cfg.Test} {
		if c != nil && c.Tree != cfg.Train.Tree {
			return bad("Test", "%s was read with another tree than %s", c.File, cfg.Train.File)
		}
	}
	if s.K > cfg.Train.Tree.Len() {
		s.K = cfg.Train.Tree.Len()
	}
	ids := cfg.Losses
	if ids == nil && bagOpts != nil {
		ids = BagLosses
	}
	known := loss.PaperIDs
	if bagOpts != nil {
		known = append(slices.Clip(known), BagDefaultLoss)
	}
	losses, err := c.Subset("Losses", ids, known)
	if err != nil {
		return Resolved{}, err
	}
	r := Resolved{Protocol: protocol, Settings: s, Losses: losses,
		Files: Files{Train: cfg.Train.File}, Tree: tree.RefOf(cfg.Train.Tree, cfg.TreeSource),
		Embeddings: VectorsOf(cfg.EmbRef), TrainEmb: cfg.TrainEmb, Target: cfg.Target.String(), AsGiven: cfg.AsGiven}
	if bagOpts != nil {
		r.Model, r.Bag = textmodel.KindBag, bagOpts
		if cfg.FastText != nil {
			if r.FastText, err = cfg.FastText.resolve(c, cfg.Emb); err != nil {
				return Resolved{}, err
			}
		} else {
			r.FastTextSkipped = cfg.FastTextSkipped
		}
	}
	switch {
	case cfg.Test == nil && bagOpts != nil:
		r.Split = "random 80/20 split of the training documents by seed; no validation documents (the last epoch kept)"
	case cfg.Test == nil:
		r.Split = "random 64/16/20 split of the training documents by seed"
	case cfg.Dev == nil && bagOpts != nil:
		r.Files.Test = cfg.Test.File
		r.Split = "the test file; every training document trains, no validation documents (the last epoch kept)"
	case cfg.Dev == nil:
		r.Files.Test = cfg.Test.File
		r.Split = "the test file; validation: 20% of the training documents by seed"
	default:
		r.Files.Dev, r.Files.Test = cfg.Dev.File, cfg.Test.File
		r.Split = "the files' own: train, dev, test"
	}
	return r, nil
}

// Settings returns the protocol that o names and its settings, those of
// o that are not nil in place of the protocol's, checked by c.
func (cfg ProtocolOptions) Settings(c report.Checker) (string, Settings, error) {
	protocol, s, err := report.Protocol(c, cfg.Protocol, []string{ProtocolReduced, ProtocolPaper}, Reduced, Paper)
	if err != nil {
		return "", s, err
	}
	const most = 1e7
	for _, err := range []error{
		c.Int(&s.Hidden, cfg.Hidden, "Hidden", 1, most), c.Int(&s.Epochs, cfg.Epochs, "Epochs", 1, most),
		c.Int(&s.Batch, cfg.Batch, "Batch", 1, most), c.Int(&s.MaxLen, cfg.MaxLen, "MaxLen", 1, most),
		c.Int(&s.Seeds, cfg.Seeds, "Seeds", 1, most), c.Positive(&s.LR, cfg.LR, "LR"),
	} {
		if err != nil {
			return "", s, err
		}
	}
	return protocol, s, nil
}

// BagSettings are the settings of the bag of n-grams that Settings has
// not (textmodel.BagOptions'), as a report records them.
type BagSettings struct {
	Features          bag.Features `json:"features"`
	MinNgramCount     int          `json:"min_ngram_count"`
	WordScale         float64      `json:"word_scale"`  // 0: that of the vectors found
	NgramScale        float64      `json:"ngram_scale"` // 0: zero rows
	TrainingWordsOnly bool         `json:"training_words_only"`
	ConstantLR        bool         `json:"constant_lr"`
	Patience          int          `json:"patience"`  // 0: never stop early
	WordsBag          bool         `json:"words_bag"` // a bag of the words alone beside, the predictions averaged
}

// BagSettingsOf returns the BagSettings of o.
func BagSettingsOf(o textmodel.BagOptions) BagSettings {
	return BagSettings{Features: o.Features, MinNgramCount: o.MinCount, WordScale: o.WordScale, NgramScale: o.NgramScale,
		TrainingWordsOnly: o.TrainingWordsOnly, ConstantLR: o.ConstantLR, Patience: o.Patience, WordsBag: !o.Single}
}

// Options returns the textmodel.BagOptions of b and s.
func (b BagSettings) Options(s Settings) textmodel.BagOptions {
	return textmodel.BagOptions{Features: b.Features, MinCount: b.MinNgramCount, WordScale: b.WordScale, NgramScale: b.NgramScale,
		TrainingWordsOnly: b.TrainingWordsOnly, ConstantLR: b.ConstantLR, Patience: b.Patience, Single: !b.WordsBag, Epochs: s.Epochs, Batch: s.Batch, LR: s.LR}
}

// bagSettings returns the protocol of the bag, "bag", and its settings,
// those of cfg that are not nil in place of Bag's, checked by c.
func (cfg Config) bagSettings(c report.Checker) (string, Settings, error) {
	s := Bag
	switch {
	case cfg.Protocol != "" && cfg.Protocol != ProtocolBag:
		return "", s, c.Bad("Protocol", cfg.Protocol, "the protocols reduced and paper are the LSTM's; the bag's settings are those of 'twl text train'")
	case cfg.Hidden != nil:
		return "", s, c.Bad("Hidden", *cfg.Hidden, "the bag of n-grams has no hidden layer")
	case cfg.TrainEmb:
		return "", s, c.Bad("TrainEmb", nil, "the bag of n-grams always trains its word vectors")
	}
	const most = 1e7
	for _, err := range []error{
		c.Int(&s.Epochs, cfg.Epochs, "Epochs", 1, most), c.Int(&s.Batch, cfg.Batch, "Batch", 1, most),
		c.Int(&s.MaxLen, cfg.MaxLen, "MaxLen", 1, most), c.Int(&s.Seeds, cfg.Seeds, "Seeds", 1, most),
		c.Positive(&s.LR, cfg.LR, "LR"),
	} {
		if err != nil {
			return "", s, err
		}
	}
	return ProtocolBag, s, nil
}

// Differences lists how r differs from the paper's protocol, one phrase per
// difference, empty when it is the paper's.
func (r Resolved) Differences() []string {
	if r.Model == textmodel.KindBag {
		return []string{"the bag of n-grams instead of the paper's LSTM"}
	}
	s, p := r.Settings, Paper
	return report.TrainingDifferences(s.Seeds, p.Seeds, s.LR, p.LR, r.Losses, len(loss.PaperIDs),
		report.Count("%s hidden units", "%s hidden unit", s.Hidden, p.Hidden),
		report.Count("%s epochs", "%s epoch", s.Epochs, p.Epochs),
		report.Count("%s documents per batch", "%s document per batch", s.Batch, p.Batch),
		report.Count("%s tokens per document at most", "%s token per document at most", s.MaxLen, p.MaxLen))
}
