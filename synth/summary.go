package synth

import (
	"slices"
)

// Summary describes the spread of a generated set: how many distinct
// centres and σ values the samples have. A set whose samples share one
// (v, u, σ) is degenerate: every target is the same distribution.
type Summary struct {
	Samples        int     `json:"samples"`
	DistinctV      int     `json:"distinct_v"`
	DistinctU      int     `json:"distinct_u"`
	DistinctPairs  int     `json:"distinct_pairs"`
	SigmaMin       float64 `json:"sigma_min"`
	SigmaMedian    float64 `json:"sigma_median"`
	SigmaMax       float64 `json:"sigma_max"`
	SigmaBelowHalf float64 `json:"sigma_below_half"` // fraction of samples with σ < 0.5: targets nearly on {v, u}
}

// Summarize summarizes the draws of a set of samples. It returns the zero
// Summary for no samples.
func Summarize(info []Info) Summary {
	if len(info) == 0 {
		return Summary{}
	}
	vs := map[int]bool{}
	us := map[int]bool{}
	pairs := map[[2]int]bool{}
	sig := make([]float64, len(info))
	below := 0
	for i, in := range info {
		vs[in.V], us[in.U], pairs[[2]int{in.V, in.U}] = true, true, true
		sig[i] = in.Sigma
		if in.Sigma < 0.5 {
			below++
		}
	}
	slices.Sort(sig)
	med := sig[len(sig)/2]
	if len(sig)%2 == 0 {
		med = (sig[len(sig)/2-1] + sig[len(sig)/2]) / 2
	}
	return Summary{
		Samples: len(info), DistinctV: len(vs), DistinctU: len(us), DistinctPairs: len(pairs),
		SigmaMin: sig[0], SigmaMedian: med, SigmaMax: sig[len(sig)-1],
		SigmaBelowHalf: float64(below) / float64(len(info)),
	}
}
