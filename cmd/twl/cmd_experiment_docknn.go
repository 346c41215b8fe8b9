package main

import (
	"context"
	"io"

	"github.com/twl-ldl/twl/experiment/docknn"
)

func runDocKNN(e *env, args []string) error {
	var cfg docknn.Config
	f := newExpFlags("docknn", "twl experiment docknn --train FILE --test FILE --emb VEC [flags]",
		"report-docknn", "write the report to `DIR` (created if needed; \"\" writes none)", true, true, false)
	paths := corpusPaths{treeless: true}
	paths.add(f, " (required)", "", "", "word vectors `FILE`: .vec/.txt or fastText .bin (required)")
	f.set("docs-train", "DocsTrain", &cfg.DocsTrain, nil, "draw `N` training documents (default 1000)")
	f.set("docs-test", "DocsTest", &cfg.DocsTest, nil, "draw `N` test documents (default 300)")
	f.set("words", "Words", &cfg.Words, nil, "keep the `M` most frequent words of each document (default 40)")
	f.set("keep-headers", "KeepHeaders", &cfg.KeepHeaders, nil, "keep the header blocks of e-mail and news posts (default: drop them but for the subject)")
	f.set("trees", "Trees", &cfg.Trees, nil, "comma-separated numbers of trees `T` (default 1,4,16)")
	f.set("k", "Ks", &cfg.Ks, nil, "comma-separated numbers of neighbours `K` (default: those of 1,3,…,19 at most --docs-train)")
	f.set("builders", "Builders", &cfg.Builders, nil, "comma-separated tree `BUILDERS`: cluster, quad (default cluster,quad)")
	f.set("cluster-k", "ClusterK", &cfg.ClusterK, nil, "clustering trees: split each node into `K` clusters (default 4)")
	f.set("cluster-depth", "ClusterDepth", &cfg.ClusterDepth, nil, "clustering trees: at most `D` levels of clusters (default 6)")
	f.set("quad-depth", "QuadDepth", &cfg.QuadDepth, nil, "quadtrees: at most `D` levels of cells (default 12)")
	f.set("seed", "Seed", &cfg.Seed, uint64(1), "`S` seeds the documents drawn and the trees")
	f.set("workers", "Workers", &cfg.Workers, nil, "compute `N` test documents' distances at once (default: one per CPU)")
	err := f.parseArgs(e, args, "train", "test", "emb")
	if err == nil {
		err = f.configError(cfg.CheckSettings()) // before the data are read
	}
	if err == nil {
		err = paths.read(f, nil)
	}
	if err != nil {
		return err
	}
	cfg.Train, cfg.Test, cfg.Emb, cfg.EmbSource = paths.docs[0], paths.docs[1], paths.vecs, paths.emb
	return runReport(e, f, func(ctx context.Context, progress io.Writer) (*docknn.Result, error) {
		cfg.Context, cfg.Progress = ctx, progress
		return docknn.Run(cfg)
	})
}
