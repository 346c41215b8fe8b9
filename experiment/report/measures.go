package report

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/twl-ldl/twl/metric"
)

// LowerIsBetter tells the direction of a measure of the text experiments:
// a multi-label measure (metric.MultiLabelNames) or an LDL one
// (metric.Names).
func LowerIsBetter(name string) bool {
	for _, n := range metric.MultiLabelNames {
		if n == name {
			return metric.MultiLabelLowerIsBetter(name)
		}
	}
	return metric.LowerIsBetter(name)
}

// MeasureLabel names a measure in tables and plots; k is the k of top-k
// cost.
func MeasureLabel(name string, k int) string {
	switch name {
	case "pseudo_recall":
		return "Pseudo-recall"
	case "top_k_cost":
		return fmt.Sprintf("Top-%d cost", k)
	case "roc_auc":
		return "ROC-AUC (micro)"
	case "roc_auc_macro":
		return "ROC-AUC (macro)"
	case "roc_auc_samples":
		return "ROC-AUC (samples)"
	case "kl":
		return "KL"
	}
	return strings.ToUpper(name[:1]) + name[1:]
}

// Arrow is ↓ for a measure where lower is better (LowerIsBetter), ↑
// otherwise.
func Arrow(name string) string {
	if LowerIsBetter(name) {
		return "↓"
	}
	return "↑"
}

// Cell formats mean ± std with 3 decimals, as the paper's Table 2 does.
func Cell(s Stat) string {
	m, sd := float64(s.Mean), float64(s.Std)
	switch {
	case math.IsNaN(m) || math.IsInf(m, 0):
		return strings.TrimPrefix(fmt.Sprint(m), "+")
	case math.IsNaN(sd):
		return fmt.Sprintf("%.3f", m)
	}
	return fmt.Sprintf("%.3f ± %.3f", m, sd)
}

// Duration formats seconds rounded to the second, as time.Duration does.
func Duration(s float64) string {
	return time.Duration(s * float64(time.Second)).Round(time.Second).String()
}
