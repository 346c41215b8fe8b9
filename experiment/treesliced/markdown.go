package treesliced

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/twl-ldl/twl/internal/plotutil"

	"github.com/twl-ldl/twl/experiment/report"
)

// ReferencePOT is the file, relative to the repository root, that holds
// the figures of POT measured on the same clouds at development time.
const ReferencePOT = "experiment/treesliced/REFERENCE_POT.md"

// dominating lists the builders whose tree distances are at least the
// Euclidean ones, so that TSW ≥ W1 on every pair.
var dominating = []string{BuilderCluster, BuilderQuad}

// Markdown returns the report: a summary at the largest T, a table per
// cell, the check that the dominating builders never fall below W1, and
// the setup.
func (r *Result) Markdown() string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	rc := r.Config
	s := rc.Settings
	Tmax := s.Trees[len(s.Trees)-1]

	p("# Tree-sliced Wasserstein against the exact W1 on random point clouds\n\n")
	p("How well the tree-sliced Wasserstein distance TSW (Le et al., NeurIPS 2019), the mean of the ")
	p("tree-Wasserstein distances on T random trees built on the points, approximates the exact ")
	p("1-Wasserstein distance W1 under the Euclidean ground cost, and at what cost. ")
	p("W1 is solved exactly by twl's network simplex (`ot/emd`) on the n×n cost matrix; ")
	p("TSW by package `tsw` on trees from package `pointtree`, built on the union of the two clouds.\n\n")
	p("**Protocol: %s.** d ∈ {%s}, n ∈ {%s} points per cloud, %s of clouds per (d, n), ", rc.Protocol, ints(s.Dims), ints(s.Sizes), plural(s.Pairs, "pair"))
	p("T ∈ {%s} trees (the first T of %s built per pair and builder), builders %s; %s masses; seed %d. ",
		ints(s.Trees), plural(Tmax, "tree"), strings.Join(rc.Builders, ", "), rc.Masses, rc.Seed)
	atATime := "one pair at a time"
	if rc.Workers > 1 {
		atATime = fmt.Sprintf("%d pairs at a time", rc.Workers)
	}
	p("Run in %s on %s (%d CPUs, GOMAXPROCS %d, %s), %s, each on one goroutine.\n\n",
		seconds(float64(r.Seconds)), orUnknown(r.CPU), r.Machine.CPUs, r.Machine.GOMAXPROCS, r.Machine.Go, atATime)

	p("## Summary at T = %d\n\n", Tmax)
	p("Correlation of TSW with W1 across the pairs, and the mean ratio TSW/W1 (its coefficient of variation in brackets).\n\n")
	heads := []string{"d", "n", "exact W1: mean (range)", "exact, per pair"}
	for _, name := range rc.Builders {
		heads = append(heads, name+": corr · ratio (cv)", "TSW per pair")
	}
	p("%s", report.TableHead(heads, "rrlr"+strings.Repeat("lr", len(rc.Builders))))
	for _, c := range r.Cells {
		p("| %d | %d | %s (%s–%s) | %s |", c.D, c.N, g3(c.W1Mean), g3(c.W1Min), g3(c.W1Max), seconds(float64(c.ExactSeconds)))
		for _, name := range rc.Builders {
			row := c.Row(name, Tmax)
			p(" %s · %s (%s) | %s |", f3(row.Corr), g3(row.RatioMean), f3(row.RatioStd/row.RatioMean), seconds(float64(row.EvalSeconds)))
		}
		p("\n")
	}
	p("\n")

	if f := r.findings(); len(f) > 0 {
		p("## Findings\n\n")
		for _, line := range f {
			p("- %s\n", line)
		}
		p("\n")
	}

	p("## Dominance check\n\n")
	p("A clustering tree's path between two points runs through the centres of their clusters, and a ")
	p("quadtree's edges are as long as the diameters of the cells below them, so both tree metrics are at ")
	p("least the Euclidean distance, and TSW ≥ W1 for every pair and every T (every transport plan costs at least as much under the larger metric). ")
	for _, name := range dominating {
		lo, ok := r.minRatio(name)
		if !ok {
			continue
		}
		verdict := "holds"
		if lo < 1-1e-9 {
			verdict = "**fails**"
		}
		p("%s: smallest TSW/W1 over every pair and T %s (%s). ", name, g6(lo), verdict)
	}
	if lo, ok := r.minRatio(BuilderClusterFit); ok {
		p("cluster+fit, whose fitted weights approximate rather than bound the distances, goes down to %s.", g6(lo))
	}
	p("\n\n")

	p("## Per cell\n\n")
	p("Columns: Pearson correlation of TSW and W1 across the pairs; the ratio TSW/W1: mean, range and coefficient of variation ")
	p("(std/mean, how far TSW is from W1 up to one constant factor); time to build one tree (for cluster+fit the clustering ")
	p("tree and its fit) and mean nodes per tree; time of one TSW evaluation of a pair on T trees already built; speed-up of TSW ")
	p("over the exact W1 (cost matrix + network simplex) with the trees reused across pairs, and with the T trees built for the pair.\n\n")
	for _, c := range r.Cells {
		p("### d = %d, n = %d\n\n", c.D, c.N)
		p("Exact W1 %s (%s–%s); per pair: cost matrix %s + network simplex %s = %s.\n\n",
			g3(c.W1Mean), g3(c.W1Min), g3(c.W1Max), seconds(float64(c.CostSeconds)), seconds(float64(c.SimplexSeconds)), seconds(float64(c.ExactSeconds)))
		p("| builder | T | corr | TSW/W1 mean | range | cv | build per tree | nodes | TSW per pair | speed-up, trees reused | with trees built |\n")
		p("|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|\n")
		for _, row := range c.Rows {
			p("| %s | %d | %s | %s | %s–%s | %s | %s | %s | %s | %s | %s |\n", row.Builder, row.Trees, f3(row.Corr),
				g3(row.RatioMean), g3(row.RatioMin), g3(row.RatioMax), f3(row.RatioStd/row.RatioMean),
				seconds(float64(row.BuildSeconds)), strconv.Itoa(int(math.Round(float64(row.Nodes)))),
				seconds(float64(row.EvalSeconds)), times(row.SpeedupEval), times(row.SpeedupBuild))
		}
		p("\n")
	}

	p("## POT\n\n")
	p("POT's `ot.emd2` and `ot.sinkhorn2` were timed on the same clouds at development time, side by side with twl's ")
	p("network simplex and TSW in the same runs; those recorded figures, with the machine and POT's version, are in ")
	p("`%s`. This run does not call POT.\n\n", ReferencePOT)

	p("## Setup\n\n")
	p("- Clouds: pair k of cell (d, n) is drawn from a PCG seeded by (seed, d, n, k). %d component means μ_c with standard normal ", rc.Components)
	p("coordinates; cloud A has mixture weights from Dirichlet(1, …, 1) and n points μ_c + %g·N(0, I_d); cloud B has its own weights ", rc.Spread)
	p("and means μ_c + s·N(0, I_d), with the shift s uniform on [0, 1) per pair, so that W1 ranges from sampling noise to a move of the clusters. ")
	if rc.Masses == MassesUniform {
		p("Every point has mass 1/n.\n")
	} else {
		p("Masses are drawn from Dirichlet(1, …, 1) per cloud.\n")
	}
	p("- Trees, on the 2n points of the union (A's masses on the first n, B's on the rest): cluster, `pointtree.Cluster` with K = %d, depth %d, %d Lloyd steps; ",
		rc.ClusterK, rc.ClusterDepth, rc.ClusterIters)
	p("quad, `pointtree.Quad` with depth %d and a random shift, edges the diameters of the cells; ", rc.QuadDepth)
	p("cluster+fit, the same clustering trees with weights refitted by `pointtree.FitWeights` (non-negative least squares on %d·2n sampled pairs of points). ", s.FitPairs)
	p("Tree t of pair k has its own seed, a hash of (seed, d, n, k, t, builder).\n")
	p("- Timings: the cost matrix (a plain float64 loop) and the network simplex are timed once per pair; each tree once; TSW on T trees ")
	p("as the fastest of %d blocks of back-to-back calls, each lasting at least %s, after one untimed call that allocates the workspaces. ",
		evalBlocks, seconds(minEval.Seconds()))
	p("Every value (W1, TSW) depends only on the seed; the times vary with the machine and its load.\n")
	if figs := r.Figures(); len(figs) > 0 {
		p("\n## Plots\n\n")
		for _, n := range s.Sizes {
			p("- `%s%d.png` (and `.svg`): the correlation against T at n = %d, per builder and d.\n", CorrPlot, n, n)
		}
	}
	return b.String()
}

// findings states what the tables show, computed from them: per builder
// the range of the correlation at the largest T and its mean over the
// cells for each T; the cells where quadtrees are nearly stars; and the
// cost of the exact W1 against TSW at the largest n.
func (r *Result) findings() []string {
	var out []string
	s := r.Config.Settings
	Tmax := s.Trees[len(s.Trees)-1]
	if len(r.Cells) == 0 {
		return nil
	}
	for _, name := range r.Config.Builders {
		lo, hi := math.Inf(1), math.Inf(-1)
		var at [2]string
		ratioLo, ratioHi := math.Inf(1), math.Inf(-1)
		for _, c := range r.Cells {
			row := c.Row(name, Tmax)
			if v := float64(row.Corr); v < lo {
				lo, at[0] = v, fmt.Sprintf("d = %d, n = %d", c.D, c.N)
			}
			if v := float64(row.Corr); v > hi {
				hi, at[1] = v, fmt.Sprintf("d = %d, n = %d", c.D, c.N)
			}
			ratioLo, ratioHi = min(ratioLo, float64(row.RatioMean)), max(ratioHi, float64(row.RatioMean))
		}
		line := fmt.Sprintf("%s, T = %d: correlation from %.3f (%s) to %.3f (%s); mean TSW/W1 from %s to %s per cell.",
			name, Tmax, lo, at[0], hi, at[1], sig3(ratioLo), sig3(ratioHi))
		if len(r.Cells) == 1 {
			line = fmt.Sprintf("%s, T = %d: correlation %.3f (%s); mean TSW/W1 %s.", name, Tmax, lo, at[0], sig3(ratioLo))
		}
		if len(s.Trees) > 1 {
			var parts []string
			for _, T := range s.Trees {
				var sum float64
				for _, c := range r.Cells {
					sum += float64(c.Row(name, T).Corr)
				}
				parts = append(parts, fmt.Sprintf("%.3f at T = %d", sum/float64(len(r.Cells)), T))
			}
			line += " Mean correlation over the cells: " + strings.Join(parts, ", ") + "."
		}
		out = append(out, line)
	}
	if slices.Contains(r.Config.Builders, BuilderQuad) {
		var stars []string
		for _, c := range r.Cells {
			if row := c.Row(BuilderQuad, Tmax); float64(row.Nodes) < 1.1*float64(2*c.N+1) {
				stars = append(stars, fmt.Sprintf("d = %d, n = %d (%.0f nodes for %d points)", c.D, c.N, float64(row.Nodes), 2*c.N))
			}
		}
		if len(stars) > 0 {
			out = append(out, "The quadtrees are nearly stars at "+strings.Join(stars, ", ")+
				": with 2^d cells per split, the first levels already put almost every point in a cell of its own, "+
				"so every shift gives nearly the same tree, more trees add little, and TSW is close to a multiple of the total variation. "+
				"The quadtree suits low dimensions.")
		}
	}
	var builtFor []string
	for _, name := range r.Config.Builders {
		var wins []string
		for _, c := range r.Cells {
			if row := c.Row(name, Tmax); row.SpeedupBuild >= 1 {
				wins = append(wins, fmt.Sprintf("d = %d, n = %d (%s)", c.D, c.N, times(row.SpeedupBuild)))
			}
		}
		switch len(wins) {
		case 0:
			builtFor = append(builtFor, name+" in no cell")
		case len(r.Cells):
			builtFor = append(builtFor, name+" in every cell")
		default:
			builtFor = append(builtFor, name+" only at "+strings.Join(wins, ", "))
		}
	}
	out = append(out, fmt.Sprintf("With its %d trees built for the one pair, TSW is faster than the exact W1: %s. "+
		"With trees built once and reused over many pairs, it costs only the evaluation (below).", Tmax, strings.Join(builtFor, "; ")))
	nmax := slices.Max(s.Sizes)
	for _, c := range r.Cells {
		if c.N != nmax {
			continue
		}
		var parts []string
		for _, name := range r.Config.Builders {
			row := c.Row(name, Tmax)
			parts = append(parts, fmt.Sprintf("%s %s to evaluate (%s faster), %s per tree to build",
				name, seconds(float64(row.EvalSeconds)), times(row.SpeedupEval), seconds(float64(row.BuildSeconds))))
		}
		out = append(out, fmt.Sprintf("d = %d, n = %d: the exact W1 takes %s per pair; TSW with T = %d: %s.",
			c.D, c.N, seconds(float64(c.ExactSeconds)), Tmax, strings.Join(parts, "; ")))
	}
	return out
}

// minRatio is the smallest TSW/W1 of builder over every cell and T.
func (r *Result) minRatio(builder string) (float64, bool) {
	lo, ok := math.Inf(1), false
	for _, c := range r.Cells {
		for _, row := range c.Rows {
			if row.Builder == builder {
				lo, ok = min(lo, float64(row.RatioMin)), true
			}
		}
	}
	return lo, ok
}

// Figures returns the plots by file name without extension: per n, the
// correlation of TSW with W1 against log₂ T, one line per builder and d.
func (r *Result) Figures() map[string]*plotutil.Figure {
	figs := map[string]*plotutil.Figure{}
	s := r.Config.Settings
	if len(s.Trees) < 2 {
		return figs
	}
	for _, n := range s.Sizes {
		var series []plotutil.Series
		for bi, name := range r.Config.Builders {
			for di, d := range s.Dims {
				c := r.Cell(d, n)
				if c == nil {
					continue
				}
				sr := plotutil.Series{Name: fmt.Sprintf("%s, d = %d", name, d), Color: plotutil.Color(bi), Marker: di%5 + 1}
				for _, T := range s.Trees {
					sr.X = append(sr.X, math.Log2(float64(T)))
					sr.Y = append(sr.Y, float64(c.Row(name, T).Corr))
				}
				series = append(series, sr)
			}
		}
		figs[CorrPlot+strconv.Itoa(n)] = plotutil.Curves(fmt.Sprintf("TSW against exact W1, n = %d", n),
			"log₂ T (trees)", "Pearson correlation across pairs", false, series)
	}
	return figs
}

// seconds formats a duration in seconds with 3 significant digits and a
// unit from ns to s.
func seconds(s float64) string {
	switch {
	case math.IsNaN(s) || math.IsInf(s, 0):
		return "—"
	case s >= 1:
		return sig3(s) + " s"
	case s >= 1e-3:
		return sig3(s*1e3) + " ms"
	case s >= 1e-6:
		return sig3(s*1e6) + " µs"
	}
	return sig3(s*1e9) + " ns"
}

// sig3 formats v with 3 significant digits, without an exponent.
func sig3(v float64) string {
	if v == 0 {
		return "0"
	}
	dec := max(0, 2-int(math.Floor(math.Log10(math.Abs(v)))))
	return strconv.FormatFloat(v, 'f', dec, 64)
}

func times(v report.Float) string {
	if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
		return "—"
	}
	return sig3(float64(v)) + "×"
}

func g3(v report.Float) string {
	if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
		return "—"
	}
	return sig3(float64(v))
}

func g6(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }

func f3(v report.Float) string {
	if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
		return "—"
	}
	return fmt.Sprintf("%.3f", float64(v))
}

func orUnknown(s string) string {
	if s == "" {
		return "an unknown CPU"
	}
	return s
}
