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
pairs, T = 1, 4, 16 (a minute or two). --protocol large: n up to 3000,
50 pairs, T up to 64 (over an hour). --dims, --sizes, --trees, --pairs and
--builders override the protocol's values.

Writes to --out, each file atomically: treesliced.md (the report),
treesliced.json (every measurement of every pair) and
treesliced_corr_nN.png/.svg (correlation against T). Prints the Markdown
(--format text) or the JSON. Progress on standard error.`

const tswExamples = `  # The reduced protocol into ./report (a minute or two).
  twl experiment tsw --out report

  # The quadtree alone in the plane, 50 pairs, up to 64 trees, JSON.
  twl experiment tsw --dims 2 --builders quad --pairs 50 --trees 1,4,16,64 --format json --out ""`

func runTSWExperiment(e *env, args []string) error {
	fs := newFlags("experiment tsw", "twl experiment tsw [flags]", tswAbout, tswExamples)
	var cfg treesliced.Config
	fs.StringVar(&cfg.Protocol, "protocol", treesliced.ProtocolReduced, "the `PROTOCOL`: reduced or large")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "`S` seeds the clouds and the trees")
	var dims, sizes, trees intList
	fs.Var(&dims, "dims", "comma-separated dimensions `D` (default: the protocol's)")
	fs.Var(&sizes, "sizes", "comma-separated points per cloud `N`, at least 2 (default: the protocol's)")
	fs.Var(&trees, "trees", "comma-separated numbers of trees `T` (default: the protocol's)")
	fs.IntVar(&cfg.Pairs, "pairs", 0, "`P` pairs of clouds per (d, n) (default: the protocol's, 20 or 50)")
	builders := fs.String("builders", strings.Join(treesliced.Builders, ","), "comma-separated tree `BUILDERS`")
	fs.StringVar(&cfg.Masses, "masses", treesliced.MassesUniform, "the points' `MASSES`: uniform or random (Dirichlet)")
	fs.IntVar(&cfg.Workers, "workers", 1, "process `N` pairs at once")
	o := addReportFlags(fs, "report", "write the report files to `DIR` (created if needed; \"\" writes none)", true)
	pos, err := fs.parse(e, args)
	if err != nil {
		return err
	}
	if err := noArgs(fs, "tsw", pos); err != nil {
		return err
	}
	switch {
	case o.format != "text" && o.format != "json":
		return o.badFormat(fs)
	case cfg.Pairs < 0:
		return fs.fail("--pairs must be at least 1, got %d", cfg.Pairs)
	case cfg.Workers < 1:
		return fs.fail("--workers must be at least 1, got %d", cfg.Workers)
	}
	if dims != nil {
		cfg.Dims = dims
	}
	if sizes != nil {
		cfg.Sizes = sizes
	}
	if trees != nil {
		cfg.Trees = trees
	}
	if cfg.Builders = commaList(*builders); len(cfg.Builders) == 0 {
		return fs.fail("--builders names no builder; want some of %s", strings.Join(treesliced.Builders, ", "))
	}
	if _, err := cfg.Resolve(); err != nil {
		return fs.fail("%v", err)
	}
	return runReport(e, fs, o, treesliced.ErrConfig, func(ctx context.Context, progress io.Writer) (*treesliced.Result, error) {
		cfg.Context, cfg.Progress = ctx, progress
		return treesliced.Run(cfg)
	})
}
