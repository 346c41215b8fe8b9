package main

import (
	"bufio"
	"fmt"
	"github.com/twl-ldl/twl/internal/human"
	"os"
	"time"

	"github.com/twl-ldl/twl/embedding"
	"github.com/twl-ldl/twl/pointtree"
)

var trees = &group{
	name: "tree",
	noun: "command",
	subs: []*command{
		{"build", "build a label tree from points: word vectors or label-name embeddings (clustering tree, quadtree)", runTreeBuild},
	},
}

func runTree(e *env, args []string) error { return trees.run(e, args) }

func runTreeBuild(e *env, args []string) error {
	fs := newFlags("tree build", "twl tree build --emb VECTORS [--labels FILE] [flags] --out TREE")
	emb := fs.String("emb", "", "word vectors `FILE`: .vec text or fastText .bin (required)")
	labels := fs.String("labels", "", "build over the labels named in `FILE`, one per line, instead of every word")
	method := fs.String("method", "cluster", "the tree: `cluster` or quad")
	k := fs.Int("k", 4, "cluster: the number of branches `K` of a split")
	depth := fs.Int("depth", 0, "the most levels of clusters (at most 64) or cells (at most 50) (0: the method's default: cluster 6, quad 12)")
	seed := fs.Uint64("seed", 1, "the random `SEED` of the seeding (cluster) or the shift (quad)")
	fit := fs.Bool("fit", false, "refit the edge weights by non-negative least squares on sampled pairs")
	maxWords := fs.Int("max-words", 0, "use only the first `N` words of a .vec file (0: all)")
	out := fs.OutFile("out", "write the tree to `FILE`, all or nothing (required)")
	quiet := fs.Bool("quiet", false, "print no summary on standard error")
	pos, err := fs.parse(e, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) != 0:
		return fs.fail("takes no arguments; give the vectors with --emb")
	case *emb == "":
		return fs.fail("--emb is required")
	case *out == "":
		return fs.fail("--out is required")
	case *method != "cluster" && *method != "quad":
		return fs.fail("--method must be cluster or quad, not %q", *method)
	case *k < 2:
		return fs.fail("--k must be at least 2")
	case *depth < 0 || *depth > 64:
		return fs.fail("--depth must be between 0 and 64")
	case *method == "quad" && *depth > 50:
		return fs.fail("--depth must be at most 50 with --method quad (cells of 2⁻⁵⁰ of the data's extent)")
	case *maxWords < 0:
		return fs.fail("--max-words must be ≥ 0")
	case *method == "quad" && fs.isSet("k"):
		return fs.fail("--k applies only with --method cluster")
	case *labels != "" && fs.isSet("max-words"):
		return fs.fail("--max-words applies only without --labels")
	}
	files := fs.files()
	files.Input("--emb", *emb)
	files.Input("--labels", *labels)
	if err := fs.checkFiles(files); err != nil {
		return err
	}
	w, err := e.create(*out) // an unwritable --out fails before the work
	if err != nil {
		return err
	}
	defer w.Abort()

	t0 := time.Now()
	pts, err := readPoints(*emb, *labels, *maxWords)
	if err != nil {
		return err
	}
	if err := e.stopped(); err != nil {
		return err
	}
	t, err := pointtree.Build(pts, &pointtree.BuildOptions{Method: *method, K: *k, Depth: *depth, Seed: *seed, Fit: *fit})
	if err != nil {
		return err
	}
	if err := e.stopped(); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	if err := t.Write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := w.Commit(); err != nil {
		return err
	}
	if pts.Skipped > 0 {
		fmt.Fprintf(e.stderr, "twl tree build: warning: left out %s that cannot name a node (the first: %s)\n", plural(pts.Skipped, "word"), pts.SkipWhy)
	}
	if !*quiet {
		fmt.Fprintf(e.stderr, "twl tree build: wrote %s: %s tree of %s (%s of %d dimensions, %d internal), in %s\n",
			*out, *method, plural(t.Len(), "node"), plural(pts.Len(), "point"), pts.D, t.Len()-pts.Len(), human.Seconds(time.Since(t0).Seconds()))
	}
	return nil
}

// readPoints reads the points of 'tree build': the words of the vectors
// file emb (the first maxWords, 0: all), or the labels listed in the file
// labels, each at the mean of its words' vectors.
func readPoints(emb, labels string, maxWords int) (*pointtree.Points, error) {
	src, err := embedding.ReadFile(emb)
	if err != nil {
		return nil, err
	}
	if labels == "" {
		return pointtree.WordPoints(src, emb, maxWords)
	}
	f, err := os.Open(labels)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return pointtree.LabelPoints(src, emb, f, labels)
}
