package text

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/dataset"
	"github.com/twl-ldl/twl/experiment/report"
	"github.com/twl-ldl/twl/metric"
	"github.com/twl-ldl/twl/textmodel"
	"github.com/twl-ldl/twl/vocab"
)

// This file holds what the text experiment shares with the experiments
// built on its model and protocols (package labeltrees).

// Vectors names the pretrained word vectors of an experiment; what they
// covered of each seed's vocabulary is in each run (Scores.Coverage).
type Vectors struct {
	Source string `json:"source,omitempty"` // the file, "" for random vectors
	SHA256 string `json:"sha256,omitempty"` // of the file
}

// VectorsOf returns the Vectors of ref.
func VectorsOf(ref textmodel.EmbeddingRef) Vectors {
	return Vectors{Source: ref.Source, SHA256: ref.SHA256}
}

// Coverage counts how a run's word vectors were made: the words of the
// seed's vocabulary found in the pretrained vectors, built from their
// subwords, and drawn at random (every word without pretrained vectors).
type Coverage struct {
	InVocab int `json:"in_vocabulary"`
	Subword int `json:"from_subwords"`
	Random  int `json:"random"`
}

// Scores is what a run of a text model records besides its key: its test
// measures, its training curves and the data it saw.
type Scores struct {
	// Measures and MeasuresStd are the test measures: the mean over the
	// test documents of metric.MultiLabelNames and metric.Names, and their
	// sample standard deviations (over documents, or labels for
	// roc_auc_macro; none for the micro roc_auc).
	Measures    map[string]report.Float `json:"measures"`
	MeasuresStd map[string]report.Float `json:"measures_std"`
	// TrainLoss and ValLoss are the curves of training, per epoch.
	TrainLoss []report.Float `json:"train_loss"`
	ValLoss   []report.Float `json:"val_loss"`
	BestEpoch int            `json:"best_epoch"`
	// Docs are the training, validation and test documents; Vocab the
	// words of the vocabulary (<unk> included); Tokens the training tokens
	// per epoch; Coverage how the vocabulary's vectors were made.
	Docs     [3]int   `json:"documents"`
	Vocab    int      `json:"vocab"`
	Tokens   int      `json:"tokens"`
	Coverage Coverage `json:"coverage"`
	// Seconds is the training time (resumed parts included, validation
	// included); TokensPerSecond the training throughput of the epochs.
	Seconds         report.Float `json:"seconds"`
	TokensPerSecond report.Float `json:"tokens_per_second"`
	Finished        string       `json:"finished"` // RFC 3339
}

// Complete tells whether s holds every measure and a training curve: the
// test of a whole run file.
func (s *Scores) Complete() bool {
	return len(s.Measures) == len(metric.MultiLabelNames)+len(metric.Names) && len(s.TrainLoss) > 0
}

// streamSplit is the PCG stream of the splits of seed k.
const streamSplit = 0x7370_6c69_74 // "split"

// Split returns the training, validation and test documents of seed:
// with test nil, a random 64/16/20 split of train; with dev nil, 80% of
// train for training and 20% for validation; else the three as given.
func Split(train, dev, test *corpus.Corpus, seed int) (fit, val, tst *corpus.Corpus, err error) {
	fit, val, tst = train, dev, test
	src := rand.NewPCG(uint64(seed), streamSplit)
	switch {
	case test == nil:
		parts := dataset.Partition(train.Len(), []float64{0.64, 0.16, 0.20}, src)
		fit, val, tst = train.Subset(parts[0]), train.Subset(parts[1]), train.Subset(parts[2])
	case dev == nil:
		a, b := dataset.Split(train.Len(), 0.8, src)
		fit, val = train.Subset(a), train.Subset(b)
	}
	for _, c := range []*corpus.Corpus{fit, val, tst} {
		if c.Len() == 0 {
			return nil, nil, nil, fmt.Errorf("%s has too few documents to split for seed %d", train.File, seed)
		}
	}
	return fit, val, tst, nil
}

// SeedData is the data of one seed: textmodel's prepared training and
// validation documents, and the test documents encoded.
type SeedData struct {
	*textmodel.Prepared
	Test [][]int32
}

// PrepareSeed prepares fit and val with opts and encodes test.
func PrepareSeed(fit, val, test *corpus.Corpus, opts textmodel.Options) (*SeedData, error) {
	p, err := textmodel.Prepare(fit, val, opts)
	if err != nil {
		return nil, err
	}
	d := &SeedData{Prepared: p}
	for _, doc := range test.Docs {
		d.Test = append(d.Test, p.Encode(doc.Text))
	}
	return d, nil
}

// Options are textmodel's options for protocol settings s.
func (s Settings) Options() textmodel.Options {
	return textmodel.Options{Tokenizer: vocab.Tokenizer{MaxLen: s.MaxLen}, Vocab: vocab.Options{MinCount: s.MinCount},
		Hidden: s.Hidden, Epochs: s.Epochs, Batch: s.Batch, LR: s.LR}
}

// Train trains the model of run on d, predicts the test documents and
// returns their predictions (one row of len(d.Labels) a document) and the
// run's Scores, less the measures, which the caller fills from P.
func (d *SeedData) Train(ctx context.Context, run textmodel.Run, progress io.Writer) (P []float64, s Scores, err error) {
	run.Context, run.Progress = ctx, progress
	m, h, err := d.Fit(run)
	if err != nil {
		return nil, Scores{}, err
	}
	L := len(d.Labels)
	P = make([]float64, len(d.Test)*L)
	pred := m.NewPredictor()
	for i := 0; i < len(d.Test); i += 256 {
		e := min(i+256, len(d.Test))
		pred.PredictIDs(P[i*L:e*L], d.Test[i:e])
	}
	s = Scores{Measures: map[string]report.Float{}, MeasuresStd: map[string]report.Float{}, BestEpoch: h.BestEpoch,
		Docs: [3]int{d.NTrain, len(d.Docs) - d.NTrain, len(d.Test)}, Vocab: d.Vocab.Len(), Tokens: d.Tokens,
		Coverage: Coverage{InVocab: m.Embeddings.InVocab, Subword: m.Embeddings.Subword, Random: m.Embeddings.Random},
		Finished: time.Now().UTC().Format(time.RFC3339)}
	s.TrainLoss, s.ValLoss, s.Seconds, s.TokensPerSecond = report.Curves(h, d.Tokens)
	return P, s, nil
}

// SetMeasures records the means and standard deviations of an
// evaluation's measures named names.
func (s *Scores) SetMeasures(names []string, mean, std map[string]float64) {
	for _, name := range names {
		s.Measures[name] = report.Float(mean[name])
		if sd, ok := std[name]; ok {
			s.MeasuresStd[name] = report.Float(sd)
		}
	}
}

// VectorsText says which word vectors the runs used and how much of each
// seed's vocabulary they covered: "Word vectors v.vec (seed 1: 900 of the
// 1000 words of the vocabulary found, 0 from subwords, 100 random)", or
// "Random word vectors" without a source. seedOf and scores give each
// run's seed and Scores.
func VectorsText(v Vectors, n int, run func(i int) (seed int, s *Scores)) string {
	if v.Source == "" {
		return "Random word vectors"
	}
	var parts []string
	seen := map[int]bool{}
	for i := range n {
		seed, s := run(i)
		if seen[seed] {
			continue
		}
		seen[seed] = true
		c := s.Coverage
		parts = append(parts, fmt.Sprintf("seed %d: %d of the %s of the vocabulary found, %d from subwords, %d random",
			seed, c.InVocab, report.Plural(c.InVocab+c.Subword+c.Random, "word", "words"), c.Subword, c.Random))
	}
	if len(parts) == 0 {
		return "Word vectors " + v.Source
	}
	return "Word vectors " + v.Source + " (" + strings.Join(parts, "; ") + ")"
}
