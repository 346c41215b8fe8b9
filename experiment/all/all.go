package all

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/twl-ldl/twl/experiment/efficiency"
	"github.com/twl-ldl/twl/experiment/report"
	"github.com/twl-ldl/twl/experiment/synthetic"
	"github.com/twl-ldl/twl/internal/atomicfile"
)

// ReportFile is the name of the gathered report in the folder.
const ReportFile = "REPORT.md"

// Config controls Run.
type Config struct {
	// OutDir is the report folder, created if needed (required).
	OutDir string
	// Protocol is the synthetic experiment's protocol ("" means
	// synthetic.ProtocolReduced).
	Protocol string
	// Quick runs tiny sizes: a smoke test of the whole pipeline in
	// seconds, whose numbers mean nothing.
	Quick bool
	// RunOptions: the progress and the stops of the experiments.
	report.RunOptions
}

// ErrConfig is wrapped by the errors that report an invalid Config.
var ErrConfig = report.ErrConfigOf("all")

// Run runs efficiency, then synthetic, writing their files to cfg.OutDir,
// then writes REPORT.md there, and returns its path. Errors: an invalid
// cfg (*report.ConfigError), and those of the experiments.
func Run(cfg Config) (string, error) {
	c := report.Checker{Kind: ErrConfig}
	if cfg.OutDir == "" {
		return "", c.Bad("OutDir", nil, "is required: the runs are kept there")
	}
	syn := synthetic.Config{Protocol: cfg.Protocol, OutDir: cfg.OutDir, RunOptions: cfg.RunOptions}
	eff := efficiency.Config{RunOptions: cfg.RunOptions}
	if cfg.Quick {
		eff.Labels, eff.Repeats, eff.MinTime, eff.NoRSS = []int{100, 300}, new(1), new(time.Millisecond), true
		syn.Nodes, syn.Epochs, syn.Seeds, syn.Train, syn.Test = new(20), new(2), new(2), new(40), new(40)
	}
	r, err := syn.Resolve()
	if err != nil {
		return "", err
	}
	progress, _, err := report.Setup(cfg.Progress, cfg.Context)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(cfg.OutDir, 0o755); err != nil {
		return "", err
	}
	start := time.Now()
	fmt.Fprintf(progress, "experiment all: efficiency (1/2) into %s\n", cfg.OutDir)
	effRes, err := efficiency.Run(eff)
	if err == nil {
		_, err = effRes.WriteFiles(cfg.OutDir)
	}
	if err != nil {
		return "", fmt.Errorf("efficiency: %w", err)
	}
	fmt.Fprintf(progress, "experiment all: synthetic, %s protocol (2/2) into %s\n", r.Protocol, cfg.OutDir)
	synRes, err := synthetic.Run(syn)
	if err == nil {
		_, err = synRes.WriteFiles(cfg.OutDir)
	}
	if err != nil {
		return "", fmt.Errorf("synthetic: %w", err)
	}
	text, err := report.Gather(cfg.OutDir, head(r.Protocol, cfg.Quick, time.Since(start)),
		report.Part{Title: "Efficiency: the paper's Table 3", File: efficiency.MarkdownFile},
		report.Part{Title: "Synthetic data: the paper's Table 1", File: synthetic.MarkdownFile})
	if err != nil {
		return "", err
	}
	path := filepath.Join(cfg.OutDir, ReportFile)
	return path, atomicfile.WriteFile(path, text, 0o644)
}

// head is the beginning of REPORT.md: the title, the command, the machine
// and what the sections hold.
func head(protocol string, quick bool, took time.Duration) string {
	cmd := "twl experiment all --protocol " + protocol
	if quick {
		cmd += " --quick"
	}
	s := "# twl: reproduction of *Computationally Efficient Wasserstein Loss for Structured Labels*\n\n" +
		fmt.Sprintf("Written by `%s` in %s on %d CPUs (%s/%s, %s), %s.\n\n", cmd, took.Round(time.Second), runtime.NumCPU(),
			runtime.GOOS, runtime.GOARCH, runtime.Version(), time.Now().UTC().Format("2006-01-02 15:04 UTC"))
	if quick {
		s += "**--quick: tiny sizes, a smoke test of the pipeline. These numbers say nothing about the paper's claims.**\n\n"
	}
	return s + "Both experiments put the paper's published numbers beside twl's. What each measures, the options " +
		"chosen where the paper leaves a choice open, and how this run differs from the paper's protocol are " +
		"stated in each section. The JSON files beside this report hold every measurement.\n\n"
}
