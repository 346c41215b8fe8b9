package main

import (
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"strconv"
	"time"

	expreport "github.com/twl-ldl/twl/experiment/report"
	"github.com/twl-ldl/twl/experiment/synthetic"
	"github.com/twl-ldl/twl/internal/atomicfile"
)

const allAbout = `
All runs every experiment into one report folder: efficiency (the paper's
Table 3) and synthetic (Table 1, with --protocol reduced or paper), then
writes DIR/REPORT.md, which gathers both tables with the paper's numbers,
the plots, the options chosen and how the run differs from the paper's
protocol. Each experiment also keeps its own files (efficiency.*,
synthetic.*, runs/) in DIR. The synthetic runs are resumable: rerunning the
same command skips the (loss, seed) runs already finished in DIR, so an
interrupted 'all' continues where it stopped. Progress goes to standard
error.`

const allExamples = `  # The reduced protocol, about 5 minutes on 2 cores.
  twl experiment all --out report

  # The paper's synthetic protocol (days with the W¹ losses; see
  # 'twl experiment synthetic --help' to run a subset of the losses).
  twl experiment all --out report-paper --protocol paper`

func runAll(e *env, args []string) error {
	f := newExpFlags("all", "twl experiment all [flags]", allAbout, allExamples, "report", "write the report to `DIR` (created if needed)", false, true)
	var syn synthetic.Config
	f.set("protocol", "Protocol", &syn.Protocol, synthetic.ProtocolReduced, "the synthetic experiment's `PROTOCOL`: reduced or paper")
	protocol := &syn.Protocol
	quick := f.Bool("quick", false, "tiny sizes (a smoke test of the whole pipeline in seconds; the numbers mean nothing)")
	err := f.parseArgs(e, args)
	switch {
	case err != nil:
		return err
	case f.out == "":
		return f.fail("--out is required")
	}
	if _, err := syn.Resolve(); err != nil {
		return f.configError(err)
	}
	if err := f.checkOut(true); err != nil {
		return err
	}
	progress := e.stderr
	if f.quiet {
		progress = io.Discard
	}
	// Each experiment prints its own report on standard output; 'all'
	// writes REPORT.md instead, so their standard output is discarded.
	sub := &env{ctx: e.ctx, stdin: e.stdin, stdout: io.Discard, stderr: progress}
	start := time.Now()
	steps := []struct {
		name string
		run  func(*env, []string) error
		args []string
	}{
		{"efficiency", runEfficiency, []string{"--out", f.out}},
		{"synthetic", runSynthetic, []string{"--out", f.out, "--protocol", *protocol, "--quiet=" + strconv.FormatBool(f.quiet)}},
	}
	if *quick {
		steps[0].args = append(steps[0].args, "--labels", "100,300", "--repeats", "1", "--min-time", "1ms", "--no-rss")
		steps[1].args = append(steps[1].args, "--nodes", "20", "--epochs", "2", "--seeds", "2", "--train", "40", "--test", "40")
	}
	for i, step := range steps {
		fmt.Fprintf(progress, "experiment all: %s (%d/%d) into %s\n", step.name, i+1, len(steps), f.out)
		if err := step.run(sub, step.args); err != nil {
			return fmt.Errorf("%s: %w", step.name, err)
		}
	}
	if err := e.stopped(); err != nil {
		return err
	}
	cmd := "twl experiment all --protocol " + *protocol
	if *quick {
		cmd += " --quick"
	}
	head := fmt.Sprintf("# twl: reproduction of *Computationally Efficient Wasserstein Loss for Structured Labels*\n\n"+
		"Written by `%s` in %s on %d CPUs (%s/%s, %s), %s.\n\n", cmd, time.Since(start).Round(time.Second), runtime.NumCPU(),
		runtime.GOOS, runtime.GOARCH, runtime.Version(), time.Now().UTC().Format("2006-01-02 15:04 UTC"))
	if *quick {
		head += "**--quick: tiny sizes, a smoke test of the pipeline. These numbers say nothing about the paper's claims.**\n\n"
	}
	head += "Both experiments put the paper's published numbers beside twl's. What each measures, the options " +
		"chosen where the paper leaves a choice open, and how this run differs from the paper's protocol are " +
		"stated in each section. The JSON files beside this report hold every measurement.\n\n"
	text, err := expreport.Gather(f.out, head, expreport.Part{Title: "Efficiency: the paper's Table 3", File: "efficiency.md"},
		expreport.Part{Title: "Synthetic data: the paper's Table 1", File: "synthetic.md"})
	if err != nil {
		return err
	}
	path := filepath.Join(f.out, "REPORT.md")
	if err := atomicfile.WriteFile(path, text, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "wrote %s (%s)\n", path, time.Since(start).Round(time.Second))
	return nil
}
