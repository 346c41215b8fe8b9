package text

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/dataset"
	"github.com/twl-ldl/twl/experiment/report"
	"github.com/twl-ldl/twl/loss"
	"github.com/twl-ldl/twl/lstm"
	"github.com/twl-ldl/twl/metric"
	"github.com/twl-ldl/twl/textmodel"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/vocab"
)

// RunFormat identifies the JSON of a run file.
const RunFormat = "twl-text-run/1"

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
	// Outside describes fastText's run (FastTextID): its executable and
	// settings.
	Outside string `json:"outside,omitempty"`
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
	// Model is "bag" for the bag of n-grams, "" for the LSTM; Bag the
	// bag's other settings (none for the LSTM); Split how the bag's data
	// were split (Resolved.Split; none for the LSTM).
	Model string      `json:"model,omitempty"`
	Bag   BagSettings `json:"bag,omitzero"`
	Split string      `json:"split,omitempty"`
}

// RunSettingsOf returns the RunSettings of s, for the LSTM.
func RunSettingsOf(s Settings) RunSettings {
	return RunSettings{Hidden: s.Hidden, Epochs: s.Epochs, Batch: s.Batch, LR: s.LR, MaxLen: s.MaxLen, MinCount: s.MinCount, K: s.K}
}

// runSettings returns the RunSettings of r's runs.
func (r Resolved) runSettings() RunSettings {
	rs := RunSettingsOf(r.Settings)
	if r.Bag != nil {
		rs.Model, rs.Bag, rs.Split = r.Model, *r.Bag, r.Split
	}
	return rs
}

// LossRun is one (loss, seed) training run and its scores on the test set.
type LossRun struct {
	Format string `json:"format"`
	RunKey
	Scores
}

// runStore returns the store of the run files in dir ("" keeps none).
func runStore(dir string) *report.Store[RunKey, LossRun] {
	return &report.Store[RunKey, LossRun]{
		Dir: dir, Experiment: "text", Format: RunFormat,
		Header: func(run *LossRun) (string, RunKey) { return run.Format, run.RunKey },
		Complete: func(run *LossRun) bool {
			return run.Complete() || run.Loss == FastTextID && len(run.Measures) == len(Measures)
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
	res := &Result{Outcome: report.Outcome[Resolved, LossRun]{Format: ResultFormat, Config: r, Differences: r.Differences(), Machine: report.ThisMachine()}}
	began, s, dataHash := time.Now(), r.Settings, report.HashCorpora(cfg.Train, cfg.Dev, cfg.Test)
	progress, _, _ := report.Setup(cfg.Progress, nil)
	t := cfg.Train.Tree
	var cost []float64 // the tree metric, for the Sinkhorn losses
	var prep *prepared // the data of the seed, made by its first run that trains
	settings := r.runSettings()
	key := func(id string, seed int) RunKey {
		k := RunKey{Loss: id, Seed: seed, Settings: settings, Data: dataHash, Tree: r.Tree.SHA256,
			Embeddings: cfg.EmbRef, TrainEmb: r.TrainEmb, Target: r.Target}
		if id == FastTextID {
			b, _ := json.Marshal(r.FastText)
			k.Outside = string(b)
		}
		return k
	}
	ids := r.Losses
	if r.FastText != nil {
		ids = append(slices.Clip(ids), FastTextID)
	}
	res.Runs, res.Kept, err = report.Each(runStore(report.RunDir(cfg.OutDir)), progress, s.Seeds, ids, key, func(run *LossRun) string { return run.Finished },
		func(id string, seed int, key RunKey, tag, checkpoint string) (*LossRun, error) {
			if id == FastTextID {
				fmt.Fprintf(progress, "%s: training fastText (%s)\n", tag, r.FastText.Path)
				run, err := fastTextRun(cfg, r, key, report.RunDir(cfg.OutDir))
				if err != nil {
					return nil, fmt.Errorf("%s: %w", tag, err)
				}
				fmt.Fprintf(progress, "%s: done in %.0f s; test pseudo-recall %.4f, top-%d cost %.4f, roc_auc %.4f\n",
					tag, float64(run.Seconds), float64(run.Measures["pseudo_recall"]), s.K,
					float64(run.Measures["top_k_cost"]), float64(run.Measures["roc_auc"]))
				return run, nil
			}
			if prep == nil || prep.seed != seed {
				if prep, err = prepare(cfg, r, seed); err != nil {
					return nil, err
				}
				fmt.Fprintf(progress, "text: seed %d: %d training, %d validation, %d test documents; %d words; %d training tokens\n",
					seed, prep.NTrain, len(prep.Docs)-prep.NTrain, len(prep.Test), prep.Vocab.Len(), prep.Tokens)
			}
			if cost == nil && (id == "kl+0.5w1" || id == "kl+w1") { // the Sinkhorn losses
				cost = t.DistanceMatrix(nil).RawMatrix().Data
			}
			l, err := newLoss(id, t, cost)
			if err != nil {
				return nil, err
			}
			fmt.Fprintf(progress, "%s: training %s\n", tag, report.Plural(s.Epochs, "epoch", "epochs"))
			if r.Bag != nil && cfg.CheckpointEvery == nil {
				checkpoint = "" // a bag's run takes seconds: its checkpoints would cost more than they save
			}
			run, err := trainRun(cfg.Context, prep, key, l, checkpoint, report.Or(cfg.CheckpointEvery, 1), &report.EpochFilter{W: progress, Prefix: "    ", Every: 1})
			if err != nil {
				return nil, fmt.Errorf("%s: %w", tag, err)
			}
			fmt.Fprintf(progress, "%s: done in %.0f s (%.0f tokens/s); test pseudo-recall %.4f, top-%d cost %.4f, roc_auc %.4f\n",
				tag, float64(run.Seconds), float64(run.TokensPerSecond), float64(run.Measures["pseudo_recall"]), s.K,
				float64(run.Measures["top_k_cost"]), float64(run.Measures["roc_auc"]))
			return run, nil
		})
	if err != nil {
		return nil, err
	}
	res.summarize()
	if cfg.EstimatePaper && r.Protocol == ProtocolReduced {
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

// prepared is the data of one seed, with the test documents' label sets
// and targets.
type prepared struct {
	*SeedData
	seed     int
	testSets [][]int
	testY    []float64
}

// newLoss returns the loss id: one of loss.PaperIDs, or BagDefaultLoss.
func newLoss(id string, t *tree.Tree, cost []float64) (loss.Loss, error) {
	if id == BagDefaultLoss {
		return loss.NewKLTW(t, textmodel.DefaultBagLambda), nil
	}
	return loss.NewPaper(id, t, cost)
}

// prepare splits the data for seed (see the package documentation) and
// encodes it for the model of r.
func prepare(cfg Config, r Resolved, seed int) (*prepared, error) {
	trainSet, val, test, err := split(cfg, seed)
	if err != nil {
		return nil, err
	}
	opts := r.Settings.Options()
	if r.Bag != nil {
		opts.Model, opts.Bag = textmodel.KindBag, r.Bag.Options(r.Settings)
	}
	opts.Emb, opts.EmbRef, opts.TrainEmb, opts.Target = cfg.Emb, cfg.EmbRef, cfg.TrainEmb, cfg.Target
	d, err := PrepareSeed(trainSet, val, test, opts)
	if err != nil {
		return nil, err
	}
	pr := &prepared{SeedData: d, seed: seed, testY: test.Targets(cfg.Target)}
	for _, doc := range test.Docs {
		pr.testSets = append(pr.testSets, doc.Labels)
	}
	return pr, nil
}

// fastTextRun runs fastText on the split of key's seed, in a temporary
// folder under dir, and scores its predictions of the test documents.
func fastTextRun(cfg Config, r Resolved, key RunKey, dir string) (*LossRun, error) {
	fit, _, test, err := split(cfg, key.Seed)
	if err != nil {
		return nil, err
	}
	ctx := cfg.Context
	if ctx == nil {
		ctx = context.Background()
	}
	t := cfg.Train.Tree
	tk := vocab.Tokenizer{MaxLen: r.Settings.MaxLen}
	P, seconds, err := runFastText(ctx, r.FastText, fit, test, &tk, cfg.Emb, key.Seed, t.Len(), dir)
	if err != nil {
		return nil, err
	}
	var sets [][]int
	for _, d := range test.Docs {
		sets = append(sets, d.Labels)
	}
	sc := Scores{Measures: map[string]report.Float{}, MeasuresStd: map[string]report.Float{},
		Docs: [3]int{fit.Len(), 0, test.Len()}, Seconds: report.Float(seconds), Finished: time.Now().UTC().Format(time.RFC3339)}
	ml := metric.NewMultiLabel(t, key.Settings.K).Evaluate(P, sets)
	ldl := metric.NewEvaluator(t, nil).Evaluate(P, test.Targets(cfg.Target))
	sc.SetMeasures(metric.MultiLabelNames, ml.Mean, ml.Std)
	sc.SetMeasures(metric.Names, ldl.Mean, ldl.Std)
	return &LossRun{Format: RunFormat, RunKey: key, Scores: sc}, nil
}

// split returns the training, validation and test documents of seed: for
// the LSTM, Split's; for the bag without a dev set, as 'twl text train'
// trains it by default, no validation documents: every document of the
// training set trains (with no test set, seed k draws 80 % of them to
// train on and 20 % to test).
func split(cfg Config, seed int) (trainSet, val, test *corpus.Corpus, err error) {
	if cfg.Model == textmodel.KindBag && cfg.Dev == nil {
		trainSet, test = cfg.Train, cfg.Test
		if test == nil {
			a, b := dataset.Split(cfg.Train.Len(), 0.8, rand.NewPCG(uint64(seed), streamSplit))
			trainSet, test = cfg.Train.Subset(a), cfg.Train.Subset(b)
		}
		if trainSet.Len() == 0 || test.Len() == 0 {
			return nil, nil, nil, fmt.Errorf("text: %s has too few documents to split for seed %d", cfg.Train.File, seed)
		}
		return trainSet, nil, test, nil
	}
	trainSet, val, test, err = Split(cfg.Train, cfg.Dev, cfg.Test, seed)
	if err != nil {
		err = fmt.Errorf("text: %w", err)
	}
	return trainSet, val, test, err
}

// trainRun trains one run, predicts the test documents and scores them.
func trainRun(ctx context.Context, p *prepared, key RunKey, l loss.Loss, checkpoint string, every int, progress io.Writer) (*LossRun, error) {
	P, sc, err := p.Train(ctx, textmodel.Run{Seed: uint64(key.Seed), Loss: l, Checkpoint: checkpoint, CheckpointEvery: every}, progress)
	if err != nil {
		return nil, err
	}
	tree := p.Tree()
	ml := metric.NewMultiLabel(tree, key.Settings.K).Evaluate(P, p.testSets)
	ldl := metric.NewEvaluator(tree, nil).Evaluate(P, p.testY)
	sc.SetMeasures(metric.MultiLabelNames, ml.Mean, ml.Std)
	sc.SetMeasures(metric.Names, ldl.Mean, ldl.Std)
	return &LossRun{Format: RunFormat, RunKey: key, Scores: sc}, nil
}
