// Command pairs compares two sets of runs seed by seed, for
// docs/results/text.md: each argument is a 'twl eval --multilabel --format
// json' output, named A-SEED.json or B-SEED.json (any prefix before the
// dash, the same seeds on both sides). It prints, for pseudo-recall, top-k
// cost, ROC-AUC and the Wasserstein distance, the mean ± sample standard
// deviation over the seeds of A and of B, and B − A with its paired t-test
// (experiment/report.PairedT), as a Markdown table.
//
//	go run ./bench/pairs kl-1.json … kl-5.json kltw-1.json … kltw-5.json
package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/twl-ldl/twl/experiment/report"
)

func main() {
	runs := map[string]map[string]map[string]float64{} // side → seed → measure → value
	var sides []string
	for _, path := range os.Args[1:] {
		side, seed, ok := strings.Cut(strings.TrimSuffix(filepath.Base(path), ".json"), "-")
		if !ok {
			fail("%s: want NAME-SEED.json", path)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			fail("%v", err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			fail("%s: %v", path, err)
		}
		if runs[side] == nil {
			runs[side] = map[string]map[string]float64{}
			sides = append(sides, side)
		}
		runs[side][seed] = map[string]float64{}
		for k, v := range m {
			if f, ok := v.(float64); ok {
				runs[side][seed][k] = f
			}
		}
	}
	if len(sides) != 2 {
		fail("want runs of two names, have %v", sides)
	}
	a, b := sides[0], sides[1]
	var seeds []string
	for s := range runs[a] {
		if runs[b][s] == nil {
			fail("seed %s of %s has no run of %s", s, a, b)
		}
		seeds = append(seeds, s)
	}
	sort.Strings(seeds)
	fmt.Printf("| measure | %s | %s | %s − %s | t | p | %s better |\n|---|---:|---:|---:|---:|---:|---:|\n", a, b, b, a, b)
	for _, ms := range []struct {
		key, name string
		lower     bool
	}{{"pseudo_recall", "pseudo-recall ↑", false}, {"top_k_cost", "top-5 cost ↓", true}, {"roc_auc", "ROC-AUC ↑", false}, {"wasserstein", "Wasserstein ↓", true}} {
		var xa, xb []float64
		for _, s := range seeds {
			xa = append(xa, runs[a][s][ms.key])
			xb = append(xb, runs[b][s][ms.key])
		}
		c := report.PairedT(xa, xb, ms.lower)
		fmt.Printf("| %s | %s | %s | %+.4f | %.2f | %.3g | %d of %d |\n", ms.name, meanSD(xa), meanSD(xb),
			float64(c.MeanDiff), float64(c.T), float64(c.P), c.BBetter, c.N)
	}
}

func meanSD(x []float64) string {
	var m, s float64
	for _, v := range x {
		m += v
	}
	m /= float64(len(x))
	for _, v := range x {
		s += (v - m) * (v - m)
	}
	return fmt.Sprintf("%.4f ± %.4f", m, math.Sqrt(s/float64(len(x)-1)))
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "pairs: "+format+"\n", args...)
	os.Exit(1)
}
