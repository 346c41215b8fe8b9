package synthetic

import (
	"fmt"
	"strings"
	"time"

	"github.com/twl-ldl/twl/metric"

	"github.com/twl-ldl/twl/experiment/report"
)

// columnLabel heads the columns of Table 1, as the paper does.
var columnLabel = map[string]string{
	"wasserstein": "Wasserstein ↓", "kl": "KL ↓", "chebyshev": "Cheby ↓", "clark": "Clark ↓",
	"canberra": "Canbe ↓", "cosine": "Cos ↑", "intersection": "IntSec ↑",
}

// Plot file names (without extension), written by WriteFiles.
const (
	CurvesPlot  = "synthetic_curves"  // training loss per epoch, per loss
	MetricsPlot = "synthetic_metric_" // + metric name: the metric per loss, with error bars
)

// Markdown returns the report: Table 1 with the paper's values beside
// twl's, the paper's findings and whether this run reproduces them, the
// paired comparisons, the setup and how it differs from the paper's
// protocol, and the plots that WriteFiles writes.
func (r *Result) Markdown() string {
	var b strings.Builder
	s := r.Config.Settings
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }

	p("# Synthetic experiment (Table 1 of the paper)\n\n")
	p("twl's reproduction of Sec. 5.1 of *Computationally Efficient Wasserstein Loss for Structured Labels*: ")
	p("a softmax-linear model trained with five losses on the synthetic data of Algorithm 1, ")
	p("scored on a test set with seven metrics.\n\n")
	p("**Protocol: %s.** ", r.Config.Protocol)
	if diff := r.Differences; len(diff) == 0 {
		p("This run follows the paper's protocol: %d nodes, %d training and %d test samples, %d epochs, batch %d, Adam lr %g, %d seeds.\n\n",
			s.Nodes, s.Train, s.Test, s.Epochs, s.Batch, s.LR, s.Seeds)
	} else {
		p("It differs from the paper's protocol (%d nodes, %d/%d samples, %d epochs, batch %d, lr %g, %d seeds) in: %s.\n\n",
			Paper.Nodes, Paper.Train, Paper.Test, Paper.Epochs, Paper.Batch, Paper.LR, Paper.Seeds, strings.Join(diff, "; "))
	}
	p("%s (%s × %s", report.Plural(len(r.Runs), "run", "runs"), report.Plural(len(r.Config.Losses), "loss", "losses"), report.Plural(s.Seeds, "seed", "seeds"))
	if r.Kept > 0 {
		p(", %d of them kept from an earlier call", r.Kept)
	}
	p("); wall-clock time of this call %s, training time of all runs %s, on %d CPUs (GOMAXPROCS %d, %s/%s, %s).\n\n",
		duration(float64(r.Seconds)), duration(float64(r.TrainSeconds)), r.Machine.CPUs, r.Machine.GOMAXPROCS,
		r.Machine.GOOS, r.Machine.GOARCH, r.Machine.Go)

	// Table 1.
	p("## Table 1\n\n")
	p("Mean ± standard deviation across %s of each run's mean over the %s. ", report.Plural(s.Seeds, "seed", "seeds"), report.Plural(s.Test, "test sample", "test samples"))
	p("↓: lower is better, ↑: higher is better. **Bold**: the best loss of the column, among twl's rows and among the paper's rows separately.")
	if s.Nodes != Paper.Nodes {
		p(" The paper's values are for a tree of %d nodes, twl's for %d: Wasserstein, KL, Clark and Canberra grow with the number of labels, so compare the order of the rows, not the values.", Paper.Nodes, s.Nodes)
	}
	p("\n\n| Loss | |")
	for _, name := range metric.Names {
		p(" %s |", columnLabel[name])
	}
	p("\n|---|---|")
	for range metric.Names {
		p("---:|")
	}
	p("\n")
	paperBest := map[string]string{}
	for _, name := range metric.Names {
		paperBest[name] = report.Best(LossIDs, metric.LowerIsBetter(name), func(id string) float64 { return float64(PaperTable[id][name].Mean) })
	}
	for _, id := range r.Config.Losses {
		p("| %s | twl |", LossLabel(id))
		for _, name := range metric.Names {
			c := report.Cell(r.Table[id][name])
			if r.Best[name] == id {
				c = "**" + c + "**"
			}
			p(" %s |", c)
		}
		p("\n| | paper |")
		for _, name := range metric.Names {
			c := report.Cell(PaperTable[id][name])
			if paperBest[name] == id {
				c = "**" + c + "**"
			}
			p(" %s |", c)
		}
		p("\n")
	}

	// Findings.
	if len(r.Findings) > 0 {
		p("\n## The paper's findings\n\n")
		p("The paper: \"The proposed linear combinations of KL and TW outperformed the others in terms of Wasserstein and Chebyshev metric, but they performed poorly in terms of the other metrics.\" ")
		p("In its Table 1, the TW losses have the two lowest Wasserstein values (KL + TW the lowest) and the two lowest Chebyshev, KL alone the best KL, Cosine and Intersection, and KL + W¹ the best Clark and Canberra. ")
		yes, sig := 0, 0
		for _, f := range r.Findings {
			if f.Reproduced {
				yes++
				if f.Significant() {
					sig++
				}
			}
		}
		p("This run reproduces %d of these %d claims, %d of them with p < 0.05 in the deciding paired comparison.\n\n", yes, len(r.Findings), sig)
		p("| Claim | Reproduced | Deciding paired comparison | twl's ranking |\n|---|---|---|---|\n")
		for _, f := range r.Findings {
			c := f.Test
			t, pv := report.TP(c)
			p("| %s | %s | %s − %s = %+.4g, t = %s, p = %s, %s better on %d of %s | %s |\n",
				f.Claim, f.Verdict, paren(LossLabel(c.B)), paren(LossLabel(c.A)), float64(c.MeanDiff), t, pv,
				LossLabel(c.B), c.BBetter, report.Plural(c.N, "seed", "seeds"), f.Detail)
		}
		p("\nThe deciding comparison pits the claimed winner against the runner-up (or the actual winner against the claimed one). ")
		p("A difference with p ≥ 0.05, or one that holds on only some seeds, is not established by this run; with few seeds, only a large and consistent difference reaches p < 0.05.\n")
	}

	// Paired comparisons.
	if len(r.Comparisons) > 0 {
		p("\n## Paired comparisons across seeds\n\n")
		p("For each seed both losses start from the same initial weights and see the same mini-batches, so the per-seed differences B − A isolate the loss. ")
		p("t = mean/(sd/√n) with n − 1 degrees of freedom; p is two-sided (Student's t). \"B better\" counts the seeds on which B beat A in the metric's direction.\n")
		for i := 0; i < len(r.Comparisons); {
			a, bb := r.Comparisons[i].A, r.Comparisons[i].B
			p("\n### %s against %s\n\n", LossLabel(bb), LossLabel(a))
			p("| Metric | mean of %s − %s | sd | t | p | %s better |\n|---|---:|---:|---:|---:|---:|\n", paren(LossLabel(bb)), paren(LossLabel(a)), LossLabel(bb))
			for ; i < len(r.Comparisons) && r.Comparisons[i].A == a && r.Comparisons[i].B == bb; i++ {
				c := r.Comparisons[i]
				t, pv := report.TP(c)
				p("| %s | %+.4g | %.3g | %s | %s | %d of %d |\n", columnLabel[c.Metric], float64(c.MeanDiff),
					float64(c.SDDiff), t, pv, c.BBetter, c.N)
			}
		}
	}

	// Setup.
	d := r.Config.Data
	p("\n## Setup\n\n")
	p("- **Data** (package synth, Algorithm 1), drawn from data seed %d", r.Config.DataSeed)
	if r.Config.VaryData {
		p(" + k for seed k (new data per seed)")
	} else {
		p(", the same for every seed")
	}
	p(": a uniformly random labelled tree of %d nodes with unit edge weights; x ∈ ℝ^%d, W₁ %d×%d, W₂ %d×%d; ",
		d.Nodes, d.Features, d.Features, d.Hidden, d.Hidden, d.Nodes+1)
	p("x ~ %s, W₁ ~ %s, W₂ ~ %s; features: %s; F ∝ exp(%sd/σ²) + …, σ = %g·sigmoid(·).\n",
		distLabel(d.X.String()), distLabel(d.W1.String()), distLabel(d.W2.String()), inputLabel(d.Input.String()), signLabel(d.Sign.String()), d.Scale)
	p("  The paper leaves these choices open; see `twl synth --help` for the reasons behind each default.\n")
	td := r.TrainData
	p("  Training set: %d distinct v, %d distinct u, %d distinct (v, u) pairs; σ from %.3g to %.3g, median %.3g; %.1f%% of the samples have σ < 0.5 (targets nearly on v and u).\n",
		td.DistinctV, td.DistinctU, td.DistinctPairs, td.SigmaMin, td.SigmaMax, td.SigmaMedian, 100*td.SigmaBelowHalf)
	p("- **Model**: softmax(W·x + b), %d → %d, initialized uniformly in ±1/√%d (PyTorch's default) from seed k; no feature standardization, no weight decay, no validation split: the weights after the last epoch are scored, as in the paper.\n",
		d.InputDim(), d.Nodes, d.InputDim())
	p("- **Training**: Adam, lr %g, batch %d, %s, mini-batches shuffled per epoch from seed k; losses averaged over each mini-batch.\n", s.LR, s.Batch, report.Plural(s.Epochs, "epoch", "epochs"))
	p("- **Losses**: KL(y ‖ p) + λ·D(p, y), λ ∈ {0, ½, 1}; D = TW, the exact tree-Wasserstein distance (package tw), or W¹ by Sinkhorn (package ot/sinkhorn) in the log domain with λ = %g (POT reg %g) and exactly %d iterations on the tree's shortest-path cost matrix, the paper's baseline.\n",
		SinkhornSettings.Lambda, 1/SinkhornSettings.Lambda, SinkhornSettings.Iters)
	p("- **Metrics** (package metric), on the test set: Wasserstein is the exact 1-Wasserstein distance under the tree metric (the paper used POT's exact solver); the others as in Geng (2016), without clipping.\n")
	p("- **Differences from the paper's protocol**: ")
	if len(r.Differences) == 0 {
		p("none.\n")
	} else {
		p("%s.\n", strings.Join(r.Differences, "; "))
	}
	p("- Beyond the protocol, twl is not the paper's code: float64 Go on the CPU instead of PyTorch (Sinkhorn on a GPU in the paper), and the paper's unstated choices above are twl's own.\n")

	p("\n## Plots\n\n")
	p("![training loss per epoch](%s.png)\n\n", CurvesPlot)
	for _, name := range metric.Names {
		p("![%s per loss](%s%s.png)\n", metricLabel[name], MetricsPlot, name)
	}
	return b.String()
}

// duration formats seconds as "42 s", "3 min 5 s" or "2 h 10 min".
func duration(sec float64) string {
	d := time.Duration(sec * float64(time.Second)).Round(time.Second)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%.1f s", sec)
	case d < time.Hour:
		return fmt.Sprintf("%d min %d s", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%d h %d min", int(d.Hours()), int(d.Minutes())%60)
}

func distLabel(s string) string {
	switch s {
	case "normal":
		return "N(0, 1)"
	case "uniform":
		return "U[0, 1)"
	case "symmetric":
		return "U[−1, 1)"
	}
	return s
}

func inputLabel(s string) string {
	switch s {
	case "raw":
		return "the raw x"
	case "hidden":
		return "the hidden layer sigmoid(W₁ᵀx)"
	case "output":
		return "the output layer, as Algorithm 1 prints it (leaks v, u and σ)"
	}
	return s
}

func signLabel(s string) string {
	if s == "grow" {
		return "+"
	}
	return "−"
}

// paren puts a loss label with a "+" in parentheses, for differences.
func paren(label string) string {
	if strings.Contains(label, "+") {
		return "(" + label + ")"
	}
	return label
}
