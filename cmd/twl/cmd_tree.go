package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"strings"
	"time"

	"github.com/twl-ldl/twl/embedding"
	"github.com/twl-ldl/twl/pointtree"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/vocab"
)

var trees = &group{
	name: "tree",
	noun: "command",
	subs: []*command{
		{"build", "build a label tree from points: word vectors or label-name embeddings (clustering tree, quadtree)", runTreeBuild},
	},
	about: `
Tree works with label trees themselves. 'twl tree build' makes one when there
is no hierarchy to start from: from the word vectors of a .vec or fastText
.bin file (every word a leaf), or from the names of flat labels through the
vectors of their words. The trees are ordinary edge lists with weights, for
every other command ('twl distance --tree', 'twl train --tree', ...), and
several of them, built with different seeds, give the tree-sliced Wasserstein
distance ('twl distance --trees T1,T2,...').`,
	examples: treeExamples,
}

const treeExamples = `  # A clustering tree over the 42k words of the novels' fastText vectors.
  twl tree build --emb ../shared/data/embeddings/novels-fasttext-100d.vec --out words.tree

  # Ten trees with different seeds, for the tree-sliced distance.
  for s in 1 2 3 4 5 6 7 8 9 10; do
    twl tree build --emb vectors.vec --seed $s --out words-$s.tree
  done

  # A tree over flat labels, from the vectors of the words of their names.
  twl tree build --emb vectors.vec --labels labels.txt --k 2 --out labels.tree`

func runTree(e *env, args []string) error { return trees.run(e, args) }

const treeBuildAbout = `
Build writes a label tree built from points in R^d, as an edge list
(parent<TAB>child<TAB>weight), with every point a leaf named as the point:

  cluster   the clustering tree of Le et al. (NeurIPS 2019): a recursive
            k-means partition (k-means++ seeding, --k branches, at most
            --depth levels); an edge weighs the Euclidean distance between
            the centres of a cluster and of its parent, a point's edge the
            distance from the point to its cluster's centre
  quad      a randomly shifted quadtree (Indyk & Thaper 2003): cells halve
            at every level and an edge weighs its cell's diameter, so that
            tree distances bound Euclidean distances from above

--fit refits the edge weights by non-negative least squares so that tree
distances approximate Euclidean distances on sampled pairs of points
(Yamada et al., TMLR 2022). See package pointtree for the exact rules.

The points are the words of --emb (a word2vec/fastText .vec text file, or a
fastText .bin model), all of them or the first --max-words, or, with
--labels FILE, the labels listed in FILE one per line, each at the mean of
the vectors of the words of its name (tokenized as 'twl text' does; a
fastText .bin model also gives vectors to words outside its vocabulary).
Internal nodes get names that cannot collide with the points'. Trees built
with the same inputs and --seed are identical.`

func runTreeBuild(e *env, args []string) error {
	fs := newFlags("tree build", "twl tree build --emb VECTORS [--labels FILE] [flags] --out TREE", treeBuildAbout, treeExamples)
	emb := fs.String("emb", "", "word vectors `FILE`: .vec text or fastText .bin (required)")
	labels := fs.String("labels", "", "build over the labels named in `FILE`, one per line, instead of every word")
	method := fs.String("method", "cluster", "the tree: `cluster` or quad")
	k := fs.Int("k", 4, "cluster: the number of branches `K` of a split")
	depth := fs.Int("depth", 0, "the most levels of clusters (at most 64) or cells (at most 50) (0: the method's default: cluster 6, quad 12)")
	seed := fs.Uint64("seed", 1, "the random `SEED` of the seeding (cluster) or the shift (quad)")
	fit := fs.Bool("fit", false, "refit the edge weights by non-negative least squares on sampled pairs")
	maxWords := fs.Int("max-words", 0, "use only the first `N` words of a .vec file (0: all)")
	out := fs.String("out", "", "write the tree to `FILE`, all or nothing (required)")
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
	if err := checkNotInput(fs, map[string]string{"out": *out}, map[string]string{"--emb": *emb, "--labels": *labels}); err != nil {
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
	t, err := buildTree(pts, *method, *k, *depth, *seed)
	if err != nil {
		return err
	}
	if *fit {
		if t, err = pointtree.FitWeights(t, pts.X, pts.n(), pts.d, pts.names, &pointtree.FitOptions{Seed: *seed}); err != nil {
			return err
		}
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
	if pts.skipped > 0 {
		fmt.Fprintf(e.stderr, "twl tree build: warning: left out %s that cannot name a node (the first: %s)\n", plural(pts.skipped, "word"), pts.skipWhy)
	}
	if !*quiet {
		fmt.Fprintf(e.stderr, "twl tree build: wrote %s: %s tree of %s (%s of %d dimensions, %d internal), in %s\n",
			*out, *method, plural(t.Len(), "node"), plural(pts.n(), "point"), pts.d, t.Len()-pts.n(), time.Since(t0).Round(time.Millisecond))
	}
	return nil
}

// points are named points in R^d.
type points struct {
	names   []string
	X       []float64 // n×d, row-major
	d       int
	skipped int    // words left out: they cannot name a node
	skipWhy string // why the first was
}

func (p *points) n() int { return len(p.names) }

// buildTree builds a tree of the method over the points.
func buildTree(p *points, method string, k, depth int, seed uint64) (*tree.Tree, error) {
	if method == "quad" {
		return pointtree.Quad(p.X, p.n(), p.d, p.names, &pointtree.QuadOptions{Depth: depth, Seed: seed})
	}
	return pointtree.Cluster(p.X, p.n(), p.d, p.names, &pointtree.ClusterOptions{K: k, Depth: depth, Seed: seed})
}

// readPoints reads the points of 'tree build': the words of the vectors
// file emb (the first maxWords, 0: all), or the labels listed in the file
// labels, each at the mean of its words' vectors.
func readPoints(emb, labels string, maxWords int) (*points, error) {
	src, err := embedding.ReadFile(emb)
	if err != nil {
		return nil, err
	}
	d := src.Dim()
	p := &points{d: d}
	if labels == "" {
		words := sourceWords(src)
		if maxWords > 0 && maxWords < len(words) {
			words = words[:maxWords]
		}
		// Words that cannot name a node (a no-break space, a word
		// starting with '#') are left out, and counted.
		kept := make([]string, 0, len(words))
		for _, word := range words {
			if ok, why := tree.ValidName(word); !ok {
				if p.skipped == 0 {
					p.skipWhy = why
				}
				p.skipped++
				continue
			}
			kept = append(kept, word)
		}
		words = kept
		if len(words) == 0 {
			return nil, fmt.Errorf("%s: no words", emb)
		}
		v := make([]float32, d)
		p.X = make([]float64, 0, len(words)*d)
		for _, word := range words {
			src.Lookup(v, word)
			for _, x := range v {
				p.X = append(p.X, float64(x))
			}
		}
		p.names = words
		return p, checkPoints(p, emb)
	}
	data, err := os.ReadFile(labels)
	if err != nil {
		return nil, err
	}
	var tk vocab.Tokenizer
	seen := map[string]int{}
	for i, line := range strings.Split(string(data), "\n") {
		name := strings.TrimSpace(strings.TrimSuffix(line, "\r"))
		if name == "" || strings.HasPrefix(name, "#") {
			continue
		}
		if first, dup := seen[name]; dup {
			return nil, fmt.Errorf("%s:%d: the label %q is listed twice (first on line %d)", labels, i+1, name, first)
		}
		seen[name] = i + 1
		mean := make([]float64, d)
		words := tk.Append(nil, name)
		if embedding.Mean(mean, src, words) == 0 {
			return nil, fmt.Errorf("%s:%d: no word of the label %q has a vector in %s (words: %s)", labels, i+1, name, emb, strings.Join(words, ", "))
		}
		p.names = append(p.names, name)
		p.X = append(p.X, mean...)
	}
	if len(p.names) < 2 {
		return nil, fmt.Errorf("%s: %s; a tree needs at least 2", labels, plural(len(p.names), "label"))
	}
	return p, checkPoints(p, emb)
}

// sourceWords returns the words of a vectors file in its order.
func sourceWords(src embedding.Source) []string {
	switch s := src.(type) {
	case *embedding.Vectors:
		return s.Words
	case *embedding.FastText:
		return s.Words()
	}
	return nil
}

// checkPoints refuses coordinates that are not finite.
func checkPoints(p *points, file string) error {
	for i, x := range p.X {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("%s: the vector of %q has a coordinate %v", file, p.names[i/p.d], x)
		}
	}
	return nil
}
