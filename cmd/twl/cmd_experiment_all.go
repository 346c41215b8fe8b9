package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

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

const allExamples = `  # The reduced protocol (a few minutes).
  twl experiment all --out report

  # The paper's synthetic protocol (days with the W¹ losses; see
  # 'twl experiment synthetic --help' to run a subset of the losses).
  twl experiment all --out report-paper --protocol paper`

func runAll(e *env, args []string) error {
	fs := newFlags("experiment all", "twl experiment all [flags]", allAbout, allExamples)
	out := fs.OutDir("out", "report", "write the report to `DIR` (created if needed)")
	protocol := fs.String("protocol", synthetic.ProtocolReduced, "the synthetic experiment's `PROTOCOL`: reduced or paper")
	quiet := fs.Bool("quiet", false, "no progress on standard error")
	quick := fs.Bool("quick", false, "tiny sizes (a smoke test of the whole pipeline in seconds; the numbers mean nothing)")
	pos, err := fs.parse(e, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) > 0:
		return fs.fail("experiment all takes no arguments, got %q", pos)
	case *out == "":
		return fs.fail("--out is required")
	case *protocol != synthetic.ProtocolReduced && *protocol != synthetic.ProtocolPaper:
		return fs.fail("--protocol must be %s or %s, not %q", synthetic.ProtocolReduced, synthetic.ProtocolPaper, *protocol)
	}
	if err := e.stopped(); err != nil {
		return err
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	progress := e.stderr
	if *quiet {
		progress = io.Discard
	}
	// Each experiment prints its own report on standard output; 'all'
	// writes REPORT.md instead, so their standard output is discarded.
	sub := &env{ctx: e.ctx, stdin: e.stdin, stdout: io.Discard, stderr: progress}
	start := time.Now()
	fmt.Fprintf(progress, "experiment all: efficiency (1/2) into %s\n", *out)
	effArgs := []string{"--out", *out}
	if *quick {
		effArgs = append(effArgs, "--labels", "100,300", "--repeats", "1", "--min-time", "1ms", "--no-rss")
	}
	if err := runEfficiency(sub, effArgs); err != nil {
		return fmt.Errorf("efficiency: %w", err)
	}
	fmt.Fprintf(progress, "experiment all: synthetic, %s protocol (2/2) into %s\n", *protocol, *out)
	synArgs := []string{"--out", *out, "--protocol", *protocol}
	if *quick {
		synArgs = append(synArgs, "--nodes", "20", "--epochs", "2", "--seeds", "2", "--train", "40", "--test", "40")
	}
	if *quiet {
		synArgs = append(synArgs, "--quiet")
	}
	if err := runSynthetic(sub, synArgs); err != nil {
		return fmt.Errorf("synthetic: %w", err)
	}
	if err := e.stopped(); err != nil {
		return err
	}
	report, err := allReport(*out, *protocol, *quick, time.Since(start))
	if err != nil {
		return err
	}
	path := filepath.Join(*out, "REPORT.md")
	if err := atomicfile.WriteFile(path, report, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "wrote %s (%s)\n", path, time.Since(start).Round(time.Second))
	return nil
}

// allReport assembles REPORT.md from the experiments' Markdown reports,
// demoting their headings one level under a section each.
func allReport(dir, protocol string, quick bool, took time.Duration) ([]byte, error) {
	var b bytes.Buffer
	cmd := "twl experiment all --protocol " + protocol
	if quick {
		cmd += " --quick"
	}
	fmt.Fprintf(&b, "# twl: reproduction of *Computationally Efficient Wasserstein Loss for Structured Labels*\n\n")
	fmt.Fprintf(&b, "Written by `%s` in %s on %d CPUs (%s/%s, %s), %s.\n\n",
		cmd, took.Round(time.Second), runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, runtime.Version(),
		time.Now().UTC().Format("2006-01-02 15:04 UTC"))
	if quick {
		b.WriteString("**--quick: tiny sizes, a smoke test of the pipeline. These numbers say nothing about the paper's claims.**\n\n")
	}
	b.WriteString("Both experiments put the paper's published numbers beside twl's. What each measures, the options " +
		"chosen where the paper leaves a choice open, and how this run differs from the paper's protocol are " +
		"stated in each section. The JSON files beside this report hold every measurement.\n\n")
	b.WriteString("- [Efficiency: the paper's Table 3](#efficiency-the-papers-table-3)\n")
	b.WriteString("- [Synthetic data: the paper's Table 1](#synthetic-data-the-papers-table-1)\n\n")
	for _, part := range []struct{ title, file string }{
		{"Efficiency: the paper's Table 3", "efficiency.md"},
		{"Synthetic data: the paper's Table 1", "synthetic.md"},
	} {
		text, err := os.ReadFile(filepath.Join(dir, part.file))
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "## %s\n\n", part.title)
		for _, line := range strings.Split(strings.TrimRight(string(text), "\n"), "\n") {
			if strings.HasPrefix(line, "#") {
				if strings.HasPrefix(line, "# ") {
					continue // the part's own title: the section heading replaces it
				}
				line = "#" + line
			}
			b.WriteString(line)
			b.WriteByte('\n')
		}
		b.WriteByte('\n')
	}
	return b.Bytes(), nil
}
