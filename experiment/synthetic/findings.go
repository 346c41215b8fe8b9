package synthetic

import (
	"fmt"
	"slices"
	"strings"

	"github.com/twl-ldl/twl/metric"

	"github.com/twl-ldl/twl/experiment/report"
)

// Finding is one qualitative claim of the paper about Table 1 and whether
// this run reproduces it.
type Finding struct {
	Claim      string `json:"claim"`
	Reproduced bool   `json:"reproduced"`
	// Test is the paired comparison that decides the claim: the winner of
	// the metric against the runner-up for a claim that a loss is best,
	// KL + TW against the best of the others for the Chebyshev claim.
	Test   report.Comparison `json:"test"`
	Detail string            `json:"detail"` // the ranking of the losses on the metric
	// Verdict is "yes" or "no", followed by "(not significant)" when the
	// deciding comparison has p ≥ 0.05 (or is undefined).
	Verdict string `json:"verdict"`
}

// Significant reports whether the deciding paired comparison has p < 0.05.
func (f Finding) Significant() bool { return float64(f.Test.P) < 0.05 }

// findings checks the paper's claims on the runs; there are none unless
// all five losses were run.
func (r *Result) findings() []Finding {
	if len(r.Config.Losses) != len(LossIDs) {
		return nil
	}
	mean := func(id, name string) float64 { return float64(r.Table[id][name].Mean) }
	ranked := func(name string, ids []string) []string {
		ids = slices.Clone(ids)
		lower := metric.LowerIsBetter(name)
		slices.SortStableFunc(ids, func(a, b string) int {
			va, vb := mean(a, name), mean(b, name)
			if !lower {
				va, vb = -va, -vb
			}
			switch {
			case va < vb:
				return -1
			case va > vb:
				return 1
			}
			return 0
		})
		return ids
	}
	ranking := func(name string) string {
		ids := ranked(name, r.Config.Losses)
		parts := make([]string, len(ids))
		for i, id := range ids {
			parts[i] = fmt.Sprintf("%s %.5g", LossLabel(id), mean(id, name))
		}
		sep := " < "
		if !metric.LowerIsBetter(name) {
			sep = " > "
		}
		return metricLabel[name] + ": " + strings.Join(parts, sep)
	}
	// test compares b against a on metric name.
	test := func(a, b, name string) report.Comparison {
		c := report.PairedT(r.values(a, name), r.values(b, name), metric.LowerIsBetter(name))
		c.A, c.B, c.Metric = a, b, name
		return c
	}
	// best checks that id is the best loss on name, against the runner-up
	// (or, if id is not the best, the best against id).
	best := func(claim, id, name string) Finding {
		ids := ranked(name, r.Config.Losses)
		f := Finding{Claim: claim, Reproduced: ids[0] == id, Detail: ranking(name)}
		if f.Reproduced {
			f.Test = test(ids[1], id, name)
		} else {
			f.Test = test(id, ids[0], name)
		}
		return f
	}

	var out []Finding
	tw := ranked("wasserstein", []string{"kl+0.5tw", "kl+tw"})
	nonTW := ranked("wasserstein", []string{"kl", "kl+0.5w1", "kl+w1"})
	out = append(out, Finding{
		Claim:      "The TW losses (KL + ½TW, KL + TW) have the two lowest Wasserstein values (the paper's text).",
		Reproduced: mean(tw[1], "wasserstein") < mean(nonTW[0], "wasserstein"),
		Test:       test(nonTW[0], tw[1], "wasserstein"),
		Detail:     ranking("wasserstein"),
	})
	out = append(out, best("KL + TW has the lowest Wasserstein of the five losses (Table 1).", "kl+tw", "wasserstein"))
	others := ranked("chebyshev", []string{"kl", "kl+0.5w1", "kl+w1"})
	out = append(out, Finding{
		Claim:      "KL + TW has a lower Chebyshev than KL and the two W¹ losses (the lowest in the paper is KL + ½TW's).",
		Reproduced: mean("kl+tw", "chebyshev") < mean(others[0], "chebyshev"),
		Test:       test(others[0], "kl+tw", "chebyshev"),
		Detail:     ranking("chebyshev"),
	})
	for _, name := range []string{"kl", "cosine", "intersection"} {
		out = append(out, best(fmt.Sprintf("KL alone has the best %s.", metricLabel[name]), "kl", name))
	}
	for _, name := range []string{"clark", "canberra"} {
		out = append(out, best(fmt.Sprintf("KL + W¹ has the best %s (Table 1; not stated in the text).", metricLabel[name]), "kl+w1", name))
	}
	for i := range out {
		f := &out[i]
		f.Verdict = "no"
		if f.Reproduced {
			f.Verdict = "yes"
		}
		if !f.Significant() {
			f.Verdict += " (not significant)"
		}
	}
	return out
}

// metricLabel names the metrics as the text of the report does.
var metricLabel = map[string]string{
	"wasserstein": "Wasserstein", "kl": "KL", "chebyshev": "Chebyshev", "clark": "Clark",
	"canberra": "Canberra", "cosine": "Cosine", "intersection": "Intersection",
}
