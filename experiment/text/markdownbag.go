package text

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/twl-ldl/twl/experiment/report"
	"github.com/twl-ldl/twl/textmodel"
)

// mainMeasures are the measures of the bag's main table: Table 2's and the
// Wasserstein distance, which the TW term is meant to lower.
var mainMeasures = []string{"pseudo_recall", "top_k_cost", "roc_auc", "wasserstein"}

// markdownBag is Markdown for the bag of n-grams: the losses side by side,
// fastText's row, whether TW helps, and the paired comparisons.
func (r *Result) markdownBag() string {
	var b strings.Builder
	s, c := r.Config.Settings, r.Config
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	labels := make([]string, len(c.Losses))
	for i, id := range c.Losses {
		labels[i] = rowLabel(id)
	}
	list := strings.Join(labels, ", ")
	if n := len(labels); n > 1 {
		list = strings.Join(labels[:n-1], ", ") + " and " + labels[n-1]
	}
	p("# Text experiment: the bag of n-grams with %s\n\n", list)
	p("twl's bag of n-grams, the default model of `twl text train` (fastText's kind of model), trained with each loss on the same documents, ")
	p("from the same initial weights and in the same order of mini-batches for a seed, and scored on test documents with the multi-label measures of the paper's Table 2 ")
	p("and the Wasserstein distance to the targets, which the TW term is meant to lower.")
	if c.FastText != nil {
		p(" fastText, trained on the same documents, is an outside row.")
	}
	p("\n\n")
	p("**Data.** Training documents %s", c.Files.Train)
	if c.Files.Dev != "" {
		p(", validation %s", c.Files.Dev)
	}
	if c.Files.Test != "" {
		p(", test %s", c.Files.Test)
	}
	p("; split: %s. Label tree %s. ", c.Split, c.Tree.Source)
	p("%s. ", VectorsText(c.Embeddings, len(r.Runs), func(i int) (int, *Scores) { return r.Runs[i].Seed, &r.Runs[i].Scores }))
	if c.AsGiven {
		p("Targets: %s on the label set as the files give it.\n\n", c.Target)
	} else {
		p("Targets: %s on the label set closed under ancestors.\n\n", c.Target)
	}
	for _, run := range r.Runs {
		if run.Loss != FastTextID {
			p("Seed %d: %d training, %d validation, %d test documents; a vocabulary of %s; %d training tokens per epoch.\n\n",
				run.Seed, run.Docs[0], run.Docs[1], run.Docs[2], report.Plural(run.Vocab, "word", "words"), run.Tokens)
			break
		}
	}
	o := BagSettingsOf(textmodel.DefaultBag)
	if c.Bag != nil {
		o = *c.Bag
	}
	f := o.Features
	p("**Model.** Word 1- to %d-grams", f.WordNgrams)
	if f.MaxN > 0 {
		p(" and character %d- to %d-grams of words", f.MinN, f.MaxN)
	}
	p(" hashed into %d buckets, a vector for every n-gram seen at least %d times in training", f.Buckets, o.MinNgramCount)
	if o.WordsBag {
		p(", and beside it a bag of the same words alone, trained on the same mini-batches, the model predicting the mean of the two distributions")
	}
	kept := "the epoch of the best validation loss kept"
	if !r.hasValidation() {
		kept = "the last epoch kept"
	}
	p("; %d epochs of batches of %d, SGD at lr %g decaying linearly to 0, %s", s.Epochs, s.Batch, s.LR, kept)
	if s.MaxLen > 0 {
		p("; documents cut at %d tokens", s.MaxLen)
	}
	p("; %s. ", report.Plural(s.Seeds, "seed", "seeds"))
	p("%s (%s × %s", report.Plural(len(r.Runs), "run", "runs"), report.Plural(len(r.ids()), "row", "rows"), report.Plural(s.Seeds, "seed", "seeds"))
	if r.Kept > 0 {
		p(", %d kept from an earlier call", r.Kept)
	}
	p("); wall-clock time of this call %s, training time of all runs %s, on %d CPUs (GOMAXPROCS %d, %s/%s, %s).\n\n",
		report.Duration(float64(r.Seconds)), report.Duration(float64(r.TrainSeconds)), r.Machine.CPUs, r.Machine.GOMAXPROCS, r.Machine.GOOS, r.Machine.GOARCH, r.Machine.Go)
	if ft := c.FastText; ft != nil {
		p("**fastText** (`%s`): `fasttext supervised %s -dim %d -thread %d -seed K`", ft.Path, strings.Join(ft.Args, " "), ft.Dim, ft.Threads)
		switch ft.Vectors {
		case VectorsAll:
			p(" with `-pretrainedVectors`: every vector of the file above")
		case VectorsOfTraining:
			p(" with `-pretrainedVectors`: the vectors the fastText model above gives the words of the training documents")
		}
		if r.hasValidation() {
			p(", on each seed's training documents (not its validation documents, which fastText has no use for), their text as twl's tokenizer splits it and their label sets as twl reads them; ")
		} else {
			p(", on each seed's training documents (twl's), their text as twl's tokenizer splits it and their label sets as twl reads them; ")
		}
		p("the test documents predicted by `fasttext predict-prob MODEL FILE -1`, each distribution normalized to sum 1, and scored as twl's.")
		if ft.Threads > 1 {
			p(" With %d threads fastText's results vary from run to run.", ft.Threads)
		}
		p("\n\n")
	} else if c.FastTextSkipped != "" {
		p("**fastText**: no row (%s).\n\n", c.FastTextSkipped)
	}

	rows := r.ids()
	p("## Results\n\n")
	p("Mean ± standard deviation across %s of each run's mean over the test documents; ↓ lower is better, ↑ higher. **Bold**: the best row.\n\n", report.Plural(s.Seeds, "seed", "seeds"))
	report.MeasureTable(&b, "Loss", rows, rowLabel, mainMeasures, r.Table, r.Best, s.K)
	p("\n")

	if len(c.Losses) > 1 && slices.Contains(c.Losses, "kl") {
		p("## Does TW help?\n\n")
		p("Each loss against KL, paired across seeds: a difference counts where its two-sided p-value is below .05.\n\n")
		for _, id := range c.Losses {
			if id != "kl" {
				p("- %s\n", r.verdict(id))
			}
		}
		p("\n")
	}

	p("## Other measures\n\n")
	var others []string
	for _, name := range Measures {
		if !slices.Contains(mainMeasures, name) {
			others = append(others, name)
		}
	}
	report.MeasureTable(&b, "Loss", rows, rowLabel, others, r.Table, r.Best, s.K)
	p("\nThe LDL measures compare each prediction with the target distribution of its label set (%s), Wasserstein being the exact tree-Wasserstein distance.\n\n", c.Target)

	if len(r.Comparisons) > 0 {
		p("## Each row against KL\n\n")
		report.ComparisonTableWith(&b, "Row", "row", "KL", s.Seeds, r.Comparisons, mainMeasures, rowLabel, s.K)
		p("\n")
	}
	if len(r.AgainstFastText) > 0 {
		p("## Each loss against fastText\n\n")
		report.ComparisonTableWith(&b, "Loss", "loss", "fastText", s.Seeds, r.AgainstFastText, mainMeasures, rowLabel, s.K)
		p("\n")
	}
	if len(r.Comparisons) > 0 || len(r.AgainstFastText) > 0 {
		p("All comparisons, on every measure, are in %s.\n\n", JSONFile)
	}

	p("## Plots\n\n")
	if r.hasValidation() {
		p("- `%s.png` / `.svg`: validation loss per epoch, mean over seeds.\n", CurvesPlot)
	} else {
		p("- `%s.png` / `.svg`: training loss per epoch, mean over seeds (no validation documents).\n", CurvesPlot)
	}
	for _, name := range mainMeasures {
		p("- `%s%s.png` / `.svg`: %s per row, mean ± sd across seeds.\n", MeasurePlot, name, report.MeasureLabel(name, s.K))
	}
	return b.String()
}

// verdict says how loss id compares with KL on the main measures: where it
// is better, worse, or not clearly different.
func (r *Result) verdict(id string) string {
	var better, worse, same, untested []string
	for _, name := range mainMeasures {
		var c *report.Comparison
		for i := range r.Comparisons {
			if x := &r.Comparisons[i]; x.A == "kl" && x.B == id && x.Metric == name {
				c = x
			}
		}
		label := report.MeasureLabel(name, r.Config.Settings.K)
		switch {
		case c == nil || c.N < 2:
			untested = append(untested, label)
		case math.IsNaN(float64(c.P)) || c.P >= 0.05:
			_, pv := report.TP(*c)
			same = append(same, fmt.Sprintf("%s (d = %+.4f, p = %s)", label, float64(c.MeanDiff), pv))
		case (c.MeanDiff < 0) == report.LowerIsBetter(name):
			_, pv := report.TP(*c)
			better = append(better, fmt.Sprintf("%s (d = %+.4f, p = %s, on %d of %d seeds)", label, float64(c.MeanDiff), pv, c.BBetter, c.N))
		default:
			_, pv := report.TP(*c)
			worse = append(worse, fmt.Sprintf("%s (d = %+.4f, p = %s, on %d of %d seeds)", label, float64(c.MeanDiff), pv, c.ABetter, c.N))
		}
	}
	var parts []string
	if len(better) > 0 {
		parts = append(parts, "better on "+strings.Join(better, ", "))
	}
	if len(worse) > 0 {
		parts = append(parts, "worse on "+strings.Join(worse, ", "))
	}
	if len(same) > 0 {
		parts = append(parts, "no clear difference on "+strings.Join(same, ", "))
	}
	if len(untested) > 0 {
		parts = append(parts, "not tested on "+strings.Join(untested, ", ")+" (fewer than 2 seeds)")
	}
	s := fmt.Sprintf("**%s** against KL: %s.", rowLabel(id), strings.Join(parts, "; "))
	if len(better) == 0 && len(untested) == 0 {
		s += " It does not help on these data."
	}
	return s
}
