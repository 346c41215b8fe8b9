package synthetic

import (
	"math"

	"github.com/twl-ldl/twl/experiment/report"
	"github.com/twl-ldl/twl/synth"
)

// Settings are the numbers of a protocol: those of each run, and the
// number of seeds.
type Settings struct {
	RunSettings
	Seeds int `json:"seeds"` // seeds 1 … Seeds
}

// RunSettings are the Settings that shape one run: all but the number of
// seeds, so that more seeds can be added to an experiment.
type RunSettings struct {
	Nodes  int     `json:"nodes"`  // tree nodes (labels)
	Train  int     `json:"train"`  // training samples
	Test   int     `json:"test"`   // test samples
	Epochs int     `json:"epochs"` // training epochs
	Batch  int     `json:"batch"`  // mini-batch size
	LR     float64 `json:"lr"`     // Adam learning rate
}

// Paper is the paper's protocol (Sec. 5.1).
var Paper = Settings{RunSettings: RunSettings{Nodes: 1000, Train: 1000, Test: 1000, Epochs: 500, Batch: 10, LR: 1e-3}, Seeds: 10}

// Reduced is the default protocol, 3 to 4 minutes on 2 cores. It keeps
// the paper's sample counts, batch size, learning rate and all five
// losses, and cuts the work where the time goes: 200 nodes instead of 1000
// (Sinkhorn's cost grows with the square of the nodes and more: 0.4 s per
// epoch at 200 nodes, 17 to 29 s at 1000, against 0.02 and 0.1 s for KL
// and KL + TW), 50 epochs instead of 500 (5000 Adam steps; the test
// metrics of this overparameterized model get slightly worse, not better,
// after the first few dozen epochs, and the losses keep their order) and
// 5 seeds instead of 10 (enough for a paired t-test with 4 degrees of
// freedom).
var Reduced = Settings{RunSettings: RunSettings{Nodes: 200, Train: 1000, Test: 1000, Epochs: 50, Batch: 10, LR: 1e-3}, Seeds: 5}

// Protocol names.
const (
	ProtocolReduced = report.ProtocolReduced // the default: minutes on 2 cores
	ProtocolPaper   = report.ProtocolPaper   // Sec. 5.1 of the paper
)

// Config controls Run. The zero value runs the reduced protocol on the
// default synthetic data and writes nothing.
type Config struct {
	// Protocol is ProtocolReduced ("" means it) or ProtocolPaper. It sets
	// the values of the settings below that are nil.
	Protocol string

	// Seeds, Epochs, Nodes, Train, Test, Batch and LR, when not nil,
	// replace the protocol's value: Nodes from 2 to 20000 (the W¹ losses
	// and the data hold dense matrices), the others from 1 to 10⁷, LR
	// positive.
	Seeds, Epochs, Nodes, Train, Test, Batch *int
	LR                                       *float64

	// Data holds the choices of Algorithm 1 (package synth); its Nodes is
	// replaced by the protocol's Nodes. The zero value is synth's defaults.
	Data synth.Config
	// DataSeed seeds the data: tree, W₁, W₂ and samples (0 is a valid seed
	// and the default).
	DataSeed uint64
	// VaryData draws new data for every seed k, from DataSeed + k, instead
	// of one data set for all seeds.
	VaryData bool

	// Losses are the IDs of the losses to run, a subset of LossIDs in any
	// order; nil means all five.
	Losses []string

	// OutDir, when not empty, receives one JSON file per finished run
	// (runs/LOSS-seedK.json) and the checkpoints of unfinished ones, and
	// finished runs found there are not run again. Run writes no report:
	// see Result.WriteFiles.
	OutDir string
	// CheckpointEvery, when not nil, is the number of epochs between
	// checkpoints of a run in progress, at least 1; nil means 10. Only
	// with OutDir.
	CheckpointEvery *int

	// RunOptions: progress: a line per run and a few per training run;
	// stopped at the next mini-batch, finished runs and the last complete
	// checkpoint staying, so that a later Run with the same directory
	// resumes.
	report.RunOptions
}

// Resolved is a Config with every default filled in: what a Result records.
type Resolved struct {
	Protocol string       `json:"protocol"`
	Settings Settings     `json:"settings"`
	Data     synth.Config `json:"data"`
	DataSeed uint64       `json:"data_seed"`
	VaryData bool         `json:"vary_data"`
	Losses   []string     `json:"losses"`
}

// ErrConfig is wrapped by the errors that report an invalid Config.
var ErrConfig = report.ErrConfigOf("synthetic")

// Resolve fills in the defaults of cfg and checks it. Its errors are
// *report.ConfigError, wrapping ErrConfig.
func (cfg Config) Resolve() (Resolved, error) {
	c := report.Checker{Kind: ErrConfig}
	protocol, s, err := report.Protocol(c, cfg.Protocol, []string{ProtocolReduced, ProtocolPaper}, Reduced, Paper)
	if err != nil {
		return Resolved{}, err
	}
	const most = 1e7
	for _, err := range []error{
		c.Int(&s.Seeds, cfg.Seeds, "Seeds", 1, most), c.Int(&s.Epochs, cfg.Epochs, "Epochs", 1, most),
		c.Int(&s.Nodes, cfg.Nodes, "Nodes", 2, 20000), c.Int(&s.Train, cfg.Train, "Train", 1, most),
		c.Int(&s.Test, cfg.Test, "Test", 1, most), c.Int(&s.Batch, cfg.Batch, "Batch", 1, most),
		c.Positive(&s.LR, cfg.LR, "LR"), c.Int(new(0), cfg.CheckpointEvery, "CheckpointEvery", 1, math.MaxInt),
	} {
		if err != nil {
			return Resolved{}, err
		}
	}
	data := cfg.Data
	data.Nodes = s.Nodes
	if err := data.Validate(); err != nil {
		return Resolved{}, &report.ConfigError{Kind: ErrConfig, Setting: "Data", Problem: err.Error()}
	}
	losses, err := c.Subset("Losses", cfg.Losses, LossIDs)
	if err != nil {
		return Resolved{}, err
	}
	return Resolved{
		Protocol: protocol, Settings: s, Data: data.Defaults(), DataSeed: cfg.DataSeed,
		VaryData: cfg.VaryData, Losses: losses,
	}, nil
}

// Differences lists how r differs from the paper's protocol, one phrase per
// difference, empty when it is the paper's. The choices the paper leaves
// open (package synth) are not differences; they are listed in the report.
func (r Resolved) Differences() []string {
	s, p := r.Settings, Paper
	return report.TrainingDifferences(s.Seeds, p.Seeds, s.LR, p.LR, r.Losses, len(LossIDs),
		report.Count("%s tree nodes", "%s tree node", s.Nodes, p.Nodes),
		report.Count("%s training samples", "%s training sample", s.Train, p.Train),
		report.Count("%s test samples", "%s test sample", s.Test, p.Test),
		report.Count("%s epochs", "%s epoch", s.Epochs, p.Epochs),
		report.Count("%s samples per batch", "%s sample per batch", s.Batch, p.Batch))
}
