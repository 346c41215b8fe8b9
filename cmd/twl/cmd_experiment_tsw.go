package main

import (
	"context"
	"io"
	"strings"

	"github.com/twl-ldl/twl/experiment/treesliced"
)

const tswAbout = `
Tsw measures how well the tree-sliced Wasserstein distance TSW, the mean of
the tree-Wasserstein distances on T random trees built on the points,
approximates the exact 1-Wasserstein distance W1 between point clouds under
the Euclidean cost, and at what cost.

For each dimension d and size n, --pairs pairs of clouds of n points are
drawn from random Gaussian mixtures (the second cloud's clusters moved by a
random amount, so that W1 varies across the pairs). For each pair: the
exact W1 by twl's network simplex on the n×n cost matrix, and TSW on the
first T of the trees built on the union of the two clouds by each builder:

  cluster       recursive k-means (K = 4, depth 6), edges between centres
  quad          randomly shifted quadtree, edges the cells' diameters
  cluster+fit   the clustering trees, weights fitted by least squares

The report gives, per (d, n, builder, T), the correlation of TSW with W1
across the pairs, the mean and range of TSW/W1, the time to build a tree,
the time of TSW per pair, the time of the exact W1 per pair and the
speed-ups; it checks that cluster and quad never fall below W1 (their tree
distances dominate the Euclidean ones). Every value depends only on --seed;
the times are those of one core, one pair at a time (--workers runs more
pairs at once, at the price of noisier timings). POT's figures on the same
clouds are recorded in experiment/treesliced/REFERENCE_POT.md.

--protocol reduced, the default: d = 2, 10, 100, 300, n = 100, 1000, 20
pairs, T = 1, 4, 16 (70–80 s on 2 cores). --protocol large: n up to 3000,
50 pairs, T up to 64 (over an hour). --dims, --sizes, --trees, --pairs and
--builders override the protocol's values.

Writes to --out, each file atomically: treesliced.md (the report),
treesliced.json (every measurement of every pair) and
treesliced_corr_nN.png/.svg (correlation against T). Prints the Markdown
(--format text) or the JSON. Progress on standard error.`

const tswExamples = `  # The reduced protocol into ./report (70–80 s on 2 cores).
  twl experiment tsw --out report

  # The quadtree alone in the plane, 50 pairs, up to 64 trees, JSON.
  twl experiment tsw --dims 2 --builders quad --pairs 50 --trees 1,4,16,64 --format json --out ""`

func runTSWExperiment(e *env, args []string) error {
	var cfg treesliced.Config
	f := newExpFlags("tsw", "twl experiment tsw [flags]", tswAbout, tswExamples,
		"report", "write the report files to `DIR` (created if needed; \"\" writes none)", true, true)
	f.set("protocol", "Protocol", &cfg.Protocol, treesliced.ProtocolReduced, "the `PROTOCOL`: reduced or large")
	f.set("seed", "Seed", &cfg.Seed, uint64(1), "`S` seeds the clouds and the trees")
	f.set("dims", "Dims", &cfg.Dims, nil, "comma-separated dimensions `D` (default: the protocol's)")
	f.set("sizes", "Sizes", &cfg.Sizes, nil, "comma-separated points per cloud `N`, at least 2 (default: the protocol's)")
	f.set("trees", "Trees", &cfg.Trees, nil, "comma-separated numbers of trees `T` (default: the protocol's)")
	f.set("pairs", "Pairs", &cfg.Pairs, nil, "`P` pairs of clouds per (d, n) (default: the protocol's, 20 or 50)")
	f.set("builders", "Builders", &cfg.Builders, nil, "comma-separated tree `BUILDERS` (default "+strings.Join(treesliced.Builders, ",")+")")
	f.set("masses", "Masses", &cfg.Masses, treesliced.MassesUniform, "the points' `MASSES`: uniform or random (Dirichlet)")
	f.set("workers", "Workers", &cfg.Workers, nil, "process `N` pairs at once (default 1)")
	if err := f.parseArgs(e, args); err != nil {
		return err
	}
	if _, err := cfg.Resolve(); err != nil {
		return f.configError(err)
	}
	if err := f.checkOut(false); err != nil {
		return err
	}
	return runReport(e, f, func(ctx context.Context, progress io.Writer) (*treesliced.Result, error) {
		cfg.Context, cfg.Progress = ctx, progress
		return treesliced.Run(cfg)
	})
}
