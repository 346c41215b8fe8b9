package text

import (
	"fmt"
	"strings"

	"github.com/twl-ldl/twl/experiment/report"
	"github.com/twl-ldl/twl/loss"
	"github.com/twl-ldl/twl/textmodel"
)

// PaperTable is Table 2 of the paper, on BlurbGenreCollection-EN: per loss
// the mean and standard deviation over its 10 seeds of pseudo-recall,
// top-5 cost and ROC-AUC, as printed.
var PaperTable = map[string]map[string]report.Stat{
	"kl":       paperRow(.679, .008, 1.013, .015, .971, .001),
	"kl+0.5w1": paperRow(.675, .008, 1.009, .013, .970, .002),
	"kl+w1":    paperRow(.678, .004, 1.008, .018, .970, .001),
	"kl+0.5tw": paperRow(.678, .010, .993, .013, .971, .002),
	"kl+tw":    paperRow(.678, .009, .991, .017, .970, .001),
}

func paperRow(v ...float64) map[string]report.Stat {
	row := map[string]report.Stat{}
	for i, n := range []string{"pseudo_recall", "top_k_cost", "roc_auc"} {
		row[n] = report.Stat{Mean: report.Float(v[2*i]), Std: report.Float(v[2*i+1])}
	}
	return row
}

// Markdown returns the report: Table 2 with the paper's values beside
// twl's, the other measures, the paired comparisons with KL, the setup and
// how it differs from the paper's, and the plots.
func (r *Result) Markdown() string {
	if r.Config.Model == textmodel.KindBag {
		return r.markdownBag()
	}
	var b strings.Builder
	s := r.Config.Settings
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	c := r.Config

	p("# Text experiment (Table 2 of the paper)\n\n")
	p("twl's reproduction of Sec. 4.2 of *Computationally Efficient Wasserstein Loss for Structured Labels*: ")
	p("an LSTM text classifier (word vectors, one LSTM layer of %d units, a fully connected layer with ReLU, a softmax over the labels) ", s.Hidden)
	p("trained with five losses, scored on test documents with the multi-label measures of Table 2.\n\n")
	p("**Data.** Training documents %s", c.Files.Train)
	if c.Files.Dev != "" {
		p(", validation %s", c.Files.Dev)
	}
	if c.Files.Test != "" {
		p(", test %s", c.Files.Test)
	}
	p("; split: %s. Label tree %s. ", c.Split, c.Tree.Source)
	p("%s, ", VectorsText(c.Embeddings, len(r.Runs), func(i int) (int, *Scores) { return r.Runs[i].Seed, &r.Runs[i].Scores }))
	if c.TrainEmb {
		p("trained with the model. ")
	} else {
		p("frozen. ")
	}
	if c.AsGiven {
		p("Targets: %s on the label set as the files give it.\n\n", c.Target)
	} else {
		p("Targets: %s on the label set closed under ancestors.\n\n", c.Target)
	}
	if len(r.Runs) > 0 {
		run := r.Runs[0]
		p("Seed 1: %d training, %d validation, %d test documents; a vocabulary of %s; %d training tokens per epoch.\n\n",
			run.Docs[0], run.Docs[1], run.Docs[2], report.Plural(run.Vocab, "word", "words"), run.Tokens)
	}
	p("**Protocol: %s.** ", c.Protocol)
	if diff := r.Differences; len(diff) == 0 {
		p("The paper's: hidden %d, %d epochs, batch %d, Adam lr %g, %d seeds (documents cut at %d tokens, which the paper does not state).\n\n",
			s.Hidden, s.Epochs, s.Batch, s.LR, s.Seeds, s.MaxLen)
	} else {
		p("It differs from the paper's (hidden %d, %d epochs, batch %d, lr %g, %d seeds; twl cuts documents at %d tokens) in: %s.\n\n",
			Paper.Hidden, Paper.Epochs, Paper.Batch, Paper.LR, Paper.Seeds, Paper.MaxLen, strings.Join(diff, "; "))
	}
	var tps, n float64
	for _, run := range r.Runs {
		if run.TokensPerSecond > 0 {
			tps += float64(run.TokensPerSecond)
			n++
		}
	}
	p("%s (%s × %s", report.Plural(len(r.Runs), "run", "runs"), report.Plural(len(c.Losses), "loss", "losses"), report.Plural(s.Seeds, "seed", "seeds"))
	if r.Kept > 0 {
		p(", %d kept from an earlier call", r.Kept)
	}
	p("); wall-clock time of this call %s, training time of all runs %s", report.Duration(float64(r.Seconds)), report.Duration(float64(r.TrainSeconds)))
	if len(r.Runs) > 0 {
		p(" (%s per run", report.Duration(float64(r.TrainSeconds)/float64(len(r.Runs))))
		if n > 0 {
			p(", %.0f training tokens/s", tps/n)
		}
		p(")")
	}
	p(", on %d CPUs (GOMAXPROCS %d, %s/%s, %s).\n\n", r.Machine.CPUs, r.Machine.GOMAXPROCS, r.Machine.GOOS, r.Machine.GOARCH, r.Machine.Go)
	if e := r.PaperEstimate; e != nil {
		p("**The paper's protocol** (hidden %d, documents cut at %d tokens, %d epochs, %d seeds × 5 losses) would take about %s per epoch, %s per run and %s in all on these data on this machine: ",
			Paper.Hidden, Paper.MaxLen, Paper.Epochs, Paper.Seeds, report.Duration(float64(e.EpochSeconds)), report.Duration(float64(e.RunSeconds)), report.Duration(float64(e.AllSeconds)))
		p("an estimate from %d training and %d validation tokens per epoch (seed 1's split) and %.0f training tokens/s, measured now on the paper's model (validation counted as a third of training, forward only).\n\n",
			e.TrainTokens, e.ValTokens, float64(e.TokensPerSecond))
	} else if c.Protocol == ProtocolPaper {
		p("This is the paper's protocol: the times above are its times on these data on this machine.\n\n")
	}

	p("## Table 2\n\n")
	p("Mean ± standard deviation across %s of each run's mean over the test documents; ↓ lower is better, ↑ higher. ", report.Plural(s.Seeds, "seed", "seeds"))
	p("**Bold**: the best of twl's rows. The paper's values are for BlurbGenreCollection-EN: compare the order of the rows, not the values, on other data.\n\n")
	head := []string{"pseudo_recall", "top_k_cost", "roc_auc"}
	p("| Loss | |")
	for _, name := range head {
		p(" %s %s |", report.MeasureLabel(name, s.K), report.Arrow(name))
	}
	p("\n|---|---|---:|---:|---:|\n")
	for _, id := range c.Losses {
		p("| %s | twl |", loss.PaperLabel(id))
		for _, name := range head {
			v := report.Cell(r.Table[id][name])
			if r.Best[name] == id {
				v = "**" + v + "**"
			}
			p(" %s |", v)
		}
		p("\n| | paper |")
		for _, name := range head {
			p(" %s |", report.Cell(PaperTable[id][name]))
		}
		p("\n")
	}
	p("\nThe paper computes ROC-AUC \"using the output distribution of each model as a score vector\" without saying how it averages; twl's micro average pools every (document, label) pair.\n\n")

	p("## Other measures\n\n")
	report.MeasureTable(&b, "Loss", c.Losses, loss.PaperLabel, Measures[3:], r.Table, r.Best, s.K)
	p("\nThe LDL measures compare each prediction with the target distribution of its label set (%s), Wasserstein being the exact tree-Wasserstein distance.\n\n", c.Target)

	if len(r.Comparisons) > 0 {
		p("## Each loss against KL\n\n")
		report.ComparisonTable(&b, "Loss", "loss", s.Seeds, r.Comparisons, []string{"pseudo_recall", "top_k_cost", "roc_auc", "wasserstein"}, loss.PaperLabel, s.K)
		p("\nAll comparisons, on every measure, are in %s.\n\n", JSONFile)
	}

	p("## Plots\n\n")
	p("- `%s.png` / `.svg`: validation loss per epoch, mean over seeds.\n", CurvesPlot)
	for _, name := range []string{"pseudo_recall", "top_k_cost", "roc_auc", "wasserstein"} {
		p("- `%s%s.png` / `.svg`: %s per loss, mean ± sd across seeds.\n", MeasurePlot, name, report.MeasureLabel(name, s.K))
	}
	return b.String()
}
