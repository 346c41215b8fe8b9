package synthetic

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/twl-ldl/twl/synth"
)

// Protocol names.
const (
	ProtocolReduced = "reduced" // the default: minutes on 2 cores
	ProtocolPaper   = "paper"   // Sec. 5.1 of the paper
)

// ErrConfig is wrapped by the errors that report an invalid Config.
var ErrConfig = errors.New("synthetic: invalid configuration")

// Settings are the numbers of a protocol.
type Settings struct {
	Nodes  int     `json:"nodes"`  // tree nodes (labels)
	Train  int     `json:"train"`  // training samples
	Test   int     `json:"test"`   // test samples
	Epochs int     `json:"epochs"` // training epochs
	Batch  int     `json:"batch"`  // mini-batch size
	LR     float64 `json:"lr"`     // Adam learning rate
	Seeds  int     `json:"seeds"`  // seeds 1 … Seeds
}

// Paper is the paper's protocol (Sec. 5.1).
var Paper = Settings{Nodes: 1000, Train: 1000, Test: 1000, Epochs: 500, Batch: 10, LR: 1e-3, Seeds: 10}

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
var Reduced = Settings{Nodes: 200, Train: 1000, Test: 1000, Epochs: 50, Batch: 10, LR: 1e-3, Seeds: 5}

// Config controls Run. The zero value runs the reduced protocol on the
// default synthetic data and writes nothing.
type Config struct {
	// Protocol is ProtocolReduced ("" means it) or ProtocolPaper. It sets
	// the defaults of the fields below that are zero.
	Protocol string

	// Seeds, Epochs, Nodes, Train, Test, Batch and LR override the
	// protocol's value when not zero.
	Seeds, Epochs, Nodes, Train, Test, Batch int
	LR                                       float64

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
	// CheckpointEvery is the number of epochs between checkpoints of a run
	// in progress; 0 means 10. Only with OutDir.
	CheckpointEvery int

	// Progress receives a line per run and a few per training run.
	Progress io.Writer
	// Context, when not nil, stops the experiment at the next mini-batch
	// once it is done: finished runs and the last complete checkpoint stay,
	// and a later Run with the same directory resumes.
	Context context.Context
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

// Resolve fills in the defaults of cfg and checks it. Errors wrap
// ErrConfig.
func (cfg Config) Resolve() (Resolved, error) {
	bad := func(format string, args ...any) (Resolved, error) {
		return Resolved{}, fmt.Errorf("%w: %s", ErrConfig, fmt.Sprintf(format, args...))
	}
	var s Settings
	switch cfg.Protocol {
	case "", ProtocolReduced:
		s, cfg.Protocol = Reduced, ProtocolReduced
	case ProtocolPaper:
		s = Paper
	default:
		return bad("unknown protocol %q (want %s or %s)", cfg.Protocol, ProtocolReduced, ProtocolPaper)
	}
	for _, f := range []struct {
		dst  *int
		v    int
		name string
	}{
		{&s.Seeds, cfg.Seeds, "Seeds"}, {&s.Epochs, cfg.Epochs, "Epochs"}, {&s.Nodes, cfg.Nodes, "Nodes"},
		{&s.Train, cfg.Train, "Train"}, {&s.Test, cfg.Test, "Test"}, {&s.Batch, cfg.Batch, "Batch"},
	} {
		if f.v < 0 {
			return bad("%s must not be negative, got %d", f.name, f.v)
		}
		if f.v > 0 {
			*f.dst = f.v
		}
	}
	if cfg.LR != 0 {
		if !(cfg.LR > 0) || math.IsInf(cfg.LR, 1) {
			return bad("LR must be positive and finite, got %v", cfg.LR)
		}
		s.LR = cfg.LR
	}
	if s.Nodes < 2 {
		return bad("Nodes must be at least 2, got %d", s.Nodes)
	}
	if cfg.CheckpointEvery < 0 {
		return bad("CheckpointEvery must not be negative")
	}
	data := cfg.Data
	data.Nodes = s.Nodes
	if err := data.Validate(); err != nil {
		return Resolved{}, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	losses := LossIDs
	if cfg.Losses != nil {
		if len(cfg.Losses) == 0 {
			return bad("no losses to run")
		}
		losses = nil
		for _, id := range LossIDs { // the order of Table 1
			if slices.Contains(cfg.Losses, id) {
				losses = append(losses, id)
			}
		}
		for _, id := range cfg.Losses {
			if !slices.Contains(LossIDs, id) {
				return bad("unknown loss %q (want %s)", id, synth.Choices(LossIDs))
			}
		}
	}
	return Resolved{
		Protocol: cfg.Protocol, Settings: s, Data: data.Defaults(), DataSeed: cfg.DataSeed,
		VaryData: cfg.VaryData, Losses: slices.Clone(losses),
	}, nil
}

// Differences lists how r differs from the paper's protocol, one phrase per
// difference, empty when it is the paper's. The choices the paper leaves
// open (package synth) are not differences; they are listed in the report.
func (r Resolved) Differences() []string {
	var d []string
	s, p := r.Settings, Paper
	for _, f := range []struct {
		noun      string
		got, want int
	}{
		{"tree nodes", s.Nodes, p.Nodes}, {"training samples", s.Train, p.Train}, {"test samples", s.Test, p.Test},
		{"epochs", s.Epochs, p.Epochs}, {"samples per batch", s.Batch, p.Batch}, {"seeds", s.Seeds, p.Seeds},
	} {
		if f.got != f.want {
			d = append(d, fmt.Sprintf("%d %s instead of %d", f.got, f.noun, f.want))
		}
	}
	if s.LR != p.LR {
		d = append(d, fmt.Sprintf("learning rate %g instead of %g", s.LR, p.LR))
	}
	if len(r.Losses) != len(LossIDs) {
		d = append(d, fmt.Sprintf("losses %v only", r.Losses))
	}
	return d
}
