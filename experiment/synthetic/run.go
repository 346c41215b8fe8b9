package synthetic

import (
	"context"
	"fmt"
	"github.com/twl-ldl/twl/internal/human"
	"io"
	"math/rand/v2"
	"time"

	"github.com/twl-ldl/twl/experiment/report"
	"github.com/twl-ldl/twl/metric"
	"github.com/twl-ldl/twl/model"
	"github.com/twl-ldl/twl/optim"
	"github.com/twl-ldl/twl/synth"
	"github.com/twl-ldl/twl/train"
)

// RunFormat identifies the JSON of a run file.
const RunFormat = "twl-synthetic-run/1"

// RunKey is everything that determines the outcome of one run: a run file
// whose key differs belongs to another experiment.
type RunKey struct {
	Loss string `json:"loss"`
	Seed int    `json:"seed"`
	RunSettings
	Data     synth.Config `json:"data"`
	DataSeed uint64       `json:"data_seed"` // the seed the data were drawn from
}

// LossRun is one (loss, seed) training run and its scores on the test set.
type LossRun struct {
	Format string `json:"format"`
	RunKey
	// Metrics and MetricsStd are the mean and the sample standard deviation
	// over the test samples of every metric of metric.Names.
	Metrics    map[string]report.Float `json:"metrics"`
	MetricsStd map[string]report.Float `json:"metrics_std"`
	// TrainLoss is the mean training loss of every epoch.
	TrainLoss []report.Float `json:"train_loss"`
	// Seconds is the training time (every epoch, resumed parts included).
	Seconds  report.Float `json:"seconds"`
	Finished string       `json:"finished"` // RFC 3339
}

// runStore returns the store of the run files in dir ("" keeps none).
func runStore(dir string) *report.Store[RunKey, LossRun] {
	return &report.Store[RunKey, LossRun]{
		Dir: dir, Experiment: "synthetic", Format: RunFormat,
		Header: func(run *LossRun) (string, RunKey) { return run.Format, run.RunKey },
		Complete: func(run *LossRun) bool {
			return len(run.Metrics) == len(metric.Names) && len(run.TrainLoss) > 0
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
	progress, _, _ := report.Setup(cfg.Progress, nil)
	began, every, s := time.Now(), report.Or(cfg.CheckpointEvery, 10), r.Settings
	res := &Result{Outcome: report.Outcome[Resolved, LossRun]{Format: ResultFormat, Config: r, Differences: r.Differences(), Machine: report.ThisMachine()}}

	datas := map[uint64]*experimentData{}
	getData := func(seed uint64) (*experimentData, error) {
		if d, ok := datas[seed]; ok {
			return d, nil
		}
		t0 := time.Now()
		d, err := synth.Generate(r.Data, seed, s.Train, s.Test)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(progress, "synthetic: data seed %d: tree of %d nodes, %d training and %d test samples (%s)\n",
			seed, s.Nodes, s.Train, s.Test, human.Seconds(time.Since(t0).Seconds()))
		ed := &experimentData{Data: d}
		datas[seed] = ed
		return ed, nil
	}

	dataSeed := func(seed int) uint64 {
		if r.VaryData {
			return r.DataSeed + uint64(seed)
		}
		return r.DataSeed
	}
	key := func(id string, seed int) RunKey {
		return RunKey{Loss: id, Seed: seed, RunSettings: s.RunSettings, Data: r.Data, DataSeed: dataSeed(seed)}
	}
	res.Runs, res.Kept, err = report.Each(runStore(report.RunDir(cfg.OutDir)), progress, s.Seeds, r.Losses, key, func(run *LossRun) string { return run.Finished },
		func(id string, seed int, key RunKey, tag, checkpoint string) (*LossRun, error) {
			d, err := getData(key.DataSeed)
			if err != nil {
				return nil, err
			}
			fmt.Fprintf(progress, "%s: training %s\n", tag, report.Plural(s.Epochs, "epoch", "epochs"))
			run, err := trainRun(cfg.Context, d, key, checkpoint, every, &report.EpochFilter{W: progress, Prefix: "    ", Every: max(1, s.Epochs/5)})
			if err != nil {
				return nil, fmt.Errorf("%s: %w", tag, err)
			}
			fmt.Fprintf(progress, "%s: done in %.1f s; test wasserstein %.4g, kl %.4g, chebyshev %.4g\n",
				tag, float64(run.Seconds), float64(run.Metrics["wasserstein"]), float64(run.Metrics["kl"]), float64(run.Metrics["chebyshev"]))
			return run, nil
		})
	if err != nil {
		return nil, err
	}
	// The data summary, from the data of the first seed (generated now if
	// every run was kept: it takes well under a second).
	d, err := getData(dataSeed(1))
	if err != nil {
		return nil, err
	}
	res.TrainData = synth.Summarize(d.TrainInfo)
	res.TestData = synth.Summarize(d.TestInfo)
	res.summarize()
	res.Seconds = report.Float(time.Since(began).Seconds())
	return res, nil
}

// experimentData is a generated data set with its cost matrix, computed for
// the first Sinkhorn loss and shared by the others.
type experimentData struct {
	*synth.Data
	cost []float64
}

// streamModel is the PCG stream of the initial weights of seed k.
const streamModel = 0x7477_6c5f_6d6f_64 // "twl_mod"

// trainRun trains and scores one run.
func trainRun(ctx context.Context, d *experimentData, key RunKey, checkpoint string, every int, progress io.Writer) (*LossRun, error) {
	tr, te := d.Train, d.Test
	n, in := tr.X.Dims()
	L := d.Tree.Len()
	m := model.NewLinear(in, L, rand.NewPCG(uint64(key.Seed), streamModel))
	l, err := newLoss(key.Loss, d.Tree, &d.cost)
	if err != nil {
		return nil, err
	}
	h, err := train.Fit(m, l, train.Data{X: tr.X.RawMatrix().Data, Y: tr.Y.RawMatrix().Data, N: n, In: in, L: L},
		train.Config{
			Epochs: key.Epochs, Batch: key.Batch, Seed: uint64(key.Seed), Adam: optim.Adam{LR: key.LR},
			Progress: progress, Checkpoint: checkpoint, CheckpointEvery: every, Context: ctx,
		})
	if err != nil {
		return nil, err
	}
	P := make([]float64, te.Len()*L)
	m.Predict(P, te.X.RawMatrix().Data)
	ev := metric.NewEvaluator(d.Tree, nil).Evaluate(P, te.Y.RawMatrix().Data)
	run := &LossRun{Format: RunFormat, RunKey: key, Metrics: map[string]report.Float{}, MetricsStd: map[string]report.Float{},
		Finished: time.Now().UTC().Format(time.RFC3339)}
	for _, name := range metric.Names {
		run.Metrics[name] = report.Float(ev.Mean[name])
		run.MetricsStd[name] = report.Float(ev.Std[name])
	}
	for _, e := range h.Epochs {
		run.TrainLoss = append(run.TrainLoss, report.Float(e.TrainLoss))
		run.Seconds += report.Float(e.Seconds)
	}
	return run, nil
}
