package text

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/dataset"
	"github.com/twl-ldl/twl/experiment/report"
	"github.com/twl-ldl/twl/loss"
	"github.com/twl-ldl/twl/lstm"
	"github.com/twl-ldl/twl/metric"
	"github.com/twl-ldl/twl/textmodel"
	"github.com/twl-ldl/twl/vocab"
)

// RunFormat identifies the JSON of a run file.
const RunFormat = "twl-text-run/1"

// streamSplit is the PCG stream of the splits of seed k.
const streamSplit = 0x7370_6c69_74 // "split"

// RunKey is everything that determines the outcome of one run: a run file
// whose key differs belongs to another experiment.
type RunKey struct {
	Loss       string                 `json:"loss"`
	Seed       int                    `json:"seed"`
	Settings   RunSettings            `json:"settings"`
	Data       string                 `json:"data"` // a hash of the documents and their labels
	Tree       string                 `json:"tree"` // SHA-256 of the tree
	Embeddings textmodel.EmbeddingRef `json:"embeddings"`
	TrainEmb   bool                   `json:"train_embeddings"`
	Target     string                 `json:"target"`
}

// RunSettings are the Settings that shape one run: all but the number of
// seeds, so that more seeds can be added to an experiment.
type RunSettings struct {
	Hidden   int     `json:"hidden"`
	Epochs   int     `json:"epochs"`
	Batch    int     `json:"batch"`
	LR       float64 `json:"lr"`
	MaxLen   int     `json:"max_len"`
	MinCount int64   `json:"min_count"`
	K        int     `json:"k"`
}

func runSettings(s Settings) RunSettings {
	return RunSettings{Hidden: s.Hidden, Epochs: s.Epochs, Batch: s.Batch, LR: s.LR, MaxLen: s.MaxLen, MinCount: s.MinCount, K: s.K}
}

// LossRun is one (loss, seed) training run and its scores on the test set.
type LossRun struct {
	Format string `json:"format"`
	RunKey
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
	// per epoch.
	Docs   [3]int `json:"documents"`
	Vocab  int    `json:"vocab"`
	Tokens int    `json:"tokens"`
	// Seconds is the training time (resumed parts included, validation
	// included); TokensPerSecond the training throughput of the epochs.
	Seconds         report.Float `json:"seconds"`
	TokensPerSecond report.Float `json:"tokens_per_second"`
	Finished        string       `json:"finished"` // RFC 3339
}

// runStore returns the store of the run files in dir ("" keeps none).
func runStore(dir string) *report.Store[RunKey, LossRun] {
	return &report.Store[RunKey, LossRun]{
		Dir: dir, Experiment: "text", Format: RunFormat,
		Header: func(run *LossRun) (string, RunKey) { return run.Format, run.RunKey },
		Complete: func(run *LossRun) bool {
			return len(run.Measures) == len(metric.MultiLabelNames)+len(metric.Names) && len(run.TrainLoss) > 0
		},
	}
}

// Run trains every loss of cfg on every seed, scores the test set, and
// summarizes the runs. With cfg.OutDir, finished runs found there are kept
// and new ones are written there as they finish. Errors: an invalid cfg
// (wrapping ErrConfig), a run file of other settings in OutDir, I/O, and
// training errors (a diverged loss).
func Run(cfg Config) (*Result, error) {
	r, err := cfg.Resolve()
	if err != nil {
		return nil, err
	}
	began := time.Now()
	progress := cfg.Progress
	if progress == nil {
		progress = io.Discard
	}
	every := cfg.CheckpointEvery
	if every == 0 {
		every = 1
	}
	store := runStore(report.RunDir(cfg.OutDir))
	if err := store.Open(); err != nil {
		return nil, err
	}
	s := r.Settings
	res := &Result{Format: ResultFormat, Config: r, Differences: r.Differences(), Machine: report.ThisMachine()}
	dataHash := report.HashCorpora(cfg.Train, cfg.Dev, cfg.Test)
	t := cfg.Train.Tree
	var cost []float64 // the tree metric, for the Sinkhorn losses
	total := s.Seeds * len(r.Losses)
	done := 0
	for seed := 1; seed <= s.Seeds; seed++ {
		var prep *prepared // made on the first run of the seed that needs it
		for _, id := range r.Losses {
			done++
			key := RunKey{Loss: id, Seed: seed, Settings: runSettings(s), Data: dataHash, Tree: r.Tree.SHA256,
				Embeddings: r.Embeddings, TrainEmb: r.TrainEmb, Target: r.Target}
			tag := fmt.Sprintf("[%d/%d] %s seed %d", done, total, id, seed)
			run, err := store.Load(id, seed, key)
			if err != nil {
				return nil, err
			}
			if run != nil {
				fmt.Fprintf(progress, "%s: kept from %s (finished %s)\n", tag, store.Path(id, seed), run.Finished)
				res.Runs = append(res.Runs, *run)
				res.Kept++
				continue
			}
			if prep == nil {
				if prep, err = prepare(cfg, s, seed); err != nil {
					return nil, err
				}
				fmt.Fprintf(progress, "text: seed %d: %d training, %d validation, %d test documents; %d words; %d training tokens\n",
					seed, prep.NTrain, len(prep.Docs)-prep.NTrain, len(prep.test), prep.Vocab.Len(), prep.Tokens)
			}
			if cost == nil && (id == "kl+0.5w1" || id == "kl+w1") {
				cost = t.DistanceMatrix(nil).RawMatrix().Data
			}
			l, err := loss.NewPaper(id, t, cost)
			if err != nil {
				return nil, err
			}
			fmt.Fprintf(progress, "%s: training %d epochs\n", tag, s.Epochs)
			run, err = trainRun(cfg.Context, prep, key, l, store.Checkpoint(id, seed, key), every, &report.EpochFilter{W: progress, Prefix: "    ", Every: 1})
			if err != nil {
				return nil, fmt.Errorf("%s: %w", tag, err)
			}
			fmt.Fprintf(progress, "%s: done in %.0f s (%.0f tokens/s); test pseudo-recall %.4f, top-%d cost %.4f, roc_auc %.4f\n",
				tag, float64(run.Seconds), float64(run.TokensPerSecond), float64(run.Measures["pseudo_recall"]), s.K,
				float64(run.Measures["top_k_cost"]), float64(run.Measures["roc_auc"]))
			if err := store.Save(id, seed, key, run); err != nil {
				return nil, err
			}
			res.Runs = append(res.Runs, *run)
		}
	}
	res.summarize()
	if cfg.EstimatePaper && r.Protocol != ProtocolPaper {
		fmt.Fprintf(progress, "text: timing the paper's model to estimate its protocol\n")
		if res.PaperEstimate, err = paperEstimate(cfg); err != nil {
			return nil, err
		}
	}
	res.Seconds = report.Float(time.Since(began).Seconds())
	return res, nil
}

// paperEstimate times training steps of the paper's model on this
// machine and counts the tokens of an epoch of the paper's protocol on
// seed 1's split.
func paperEstimate(cfg Config) (*Estimate, error) {
	p := Paper
	trainSet, val, _, err := split(cfg, 1)
	if err != nil {
		return nil, err
	}
	tk := vocab.Tokenizer{MaxLen: p.MaxLen}
	e := &Estimate{}
	count := func(c *corpus.Corpus) (n int) {
		for _, d := range c.Docs {
			n += min(tk.Count(d.Text), p.MaxLen)
		}
		return n
	}
	e.TrainTokens, e.ValTokens = count(trainSet), count(val)
	dim := 100
	if cfg.Emb != nil {
		dim = cfg.Emb.Dim()
	}
	c := lstm.Config{Vocab: 20000, Dim: dim, Hidden: p.Hidden, Labels: cfg.Train.Tree.Len()}
	step := lstm.BenchStep(c, p.Batch, p.MaxLen, cfg.TrainEmb, nil, 1)
	step() // buffers grow
	const steps = 3
	t0 := time.Now()
	for range steps {
		step()
	}
	e.TokensPerSecond = report.Float(float64(steps*p.Batch*p.MaxLen) / time.Since(t0).Seconds())
	e.EpochSeconds = report.Float((float64(e.TrainTokens) + float64(e.ValTokens)/3) / float64(e.TokensPerSecond))
	e.RunSeconds = report.Float(p.Epochs) * e.EpochSeconds
	e.AllSeconds = report.Float(p.Seeds*len(loss.PaperIDs)) * e.RunSeconds
	return e, nil
}

// prepared is the data of one seed: textmodel's prepared training and
// validation documents, and the test documents with their label sets and
// targets.
type prepared struct {
	*textmodel.Prepared
	test     [][]int32
	testSets [][]int
	testY    []float64
}

// prepare splits the data for seed (see the package documentation) and
// encodes it.
func prepare(cfg Config, s Settings, seed int) (*prepared, error) {
	trainSet, val, test, err := split(cfg, seed)
	if err != nil {
		return nil, err
	}
	opts := textmodel.Options{
		Tokenizer: vocab.Tokenizer{MaxLen: s.MaxLen}, Vocab: vocab.Options{MinCount: s.MinCount}, Hidden: s.Hidden,
		Emb: cfg.Emb, EmbRef: cfg.EmbRef, TrainEmb: cfg.TrainEmb, Target: cfg.Target,
		Epochs: s.Epochs, Batch: s.Batch, LR: s.LR,
	}
	p, err := textmodel.Prepare(trainSet, val, opts)
	if err != nil {
		return nil, err
	}
	tk := vocab.Tokenizer{MaxLen: s.MaxLen}
	pr := &prepared{Prepared: p, testY: test.Targets(cfg.Target)}
	for _, d := range test.Docs {
		pr.test = append(pr.test, p.Vocab.Encode(nil, &tk, d.Text))
		pr.testSets = append(pr.testSets, d.Labels)
	}
	return pr, nil
}

// split returns the training, validation and test documents of seed.
func split(cfg Config, seed int) (trainSet, val, test *corpus.Corpus, err error) {
	trainSet, val, test = cfg.Train, cfg.Dev, cfg.Test
	src := rand.NewPCG(uint64(seed), streamSplit)
	switch {
	case test == nil:
		parts := dataset.Partition(trainSet.Len(), []float64{0.64, 0.16, 0.20}, src)
		trainSet, val, test = cfg.Train.Subset(parts[0]), cfg.Train.Subset(parts[1]), cfg.Train.Subset(parts[2])
	case val == nil:
		fit, held := dataset.Split(trainSet.Len(), 0.8, src)
		trainSet, val = cfg.Train.Subset(fit), cfg.Train.Subset(held)
	}
	for _, c := range []*corpus.Corpus{trainSet, val, test} {
		if c.Len() == 0 {
			return nil, nil, nil, fmt.Errorf("text: %s has too few documents to split for seed %d", cfg.Train.File, seed)
		}
	}
	return trainSet, val, test, nil
}

// trainRun trains one run, predicts the test documents and scores them.
func trainRun(ctx context.Context, p *prepared, key RunKey, l loss.Loss, checkpoint string, every int, progress io.Writer) (*LossRun, error) {
	m, h, err := p.Fit(textmodel.Run{Seed: uint64(key.Seed), Loss: l, Progress: progress, Checkpoint: checkpoint, CheckpointEvery: every, Context: ctx})
	if err != nil {
		return nil, err
	}
	L := len(p.Labels)
	P := make([]float64, len(p.test)*L)
	pred := m.NewPredictor()
	for s := 0; s < len(p.test); s += 256 {
		e := min(s+256, len(p.test))
		pred.PredictIDs(P[s*L:e*L], p.test[s:e])
	}
	tree := p.Tree()
	ml := metric.NewMultiLabel(tree, key.Settings.K).Evaluate(P, p.testSets)
	ldl := metric.NewEvaluator(tree, nil).Evaluate(P, p.testY)
	run := &LossRun{Format: RunFormat, RunKey: key, Measures: map[string]report.Float{}, MeasuresStd: map[string]report.Float{},
		BestEpoch: h.BestEpoch, Docs: [3]int{p.NTrain, len(p.Docs) - p.NTrain, len(p.test)}, Vocab: p.Vocab.Len(),
		Tokens: p.Tokens, Finished: time.Now().UTC().Format(time.RFC3339)}
	for _, name := range metric.MultiLabelNames {
		run.Measures[name] = report.Float(ml.Mean[name])
		if sd, ok := ml.Std[name]; ok {
			run.MeasuresStd[name] = report.Float(sd)
		}
	}
	for _, name := range metric.Names {
		run.Measures[name] = report.Float(ldl.Mean[name])
		run.MeasuresStd[name] = report.Float(ldl.Std[name])
	}
	run.TrainLoss, run.ValLoss, run.Seconds, run.TokensPerSecond = report.Curves(h, p.Tokens)
	return run, nil
}
