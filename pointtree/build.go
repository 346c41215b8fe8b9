package pointtree

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/twl-ldl/twl/embedding"
	"github.com/twl-ldl/twl/internal/jsonscan"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/vocab"
)

// Points are named points in R^d, the input of Build.
type Points struct {
	Names []string
	X     []float64 // Len()×D, row-major
	D     int

	// Skipped counts the words WordPoints left out because they cannot
	// name a node (tree.ValidName), and SkipWhy says why the first was.
	Skipped int
	SkipWhy string
}

// Len returns the number of points.
func (p *Points) Len() int { return len(p.Names) }

// WordPoints returns the words of src (a *embedding.Vectors or an
// *embedding.FastText), the first max of them (0: all), at their vectors.
// Words that cannot name a node of a tree (a no-break space, a word
// starting with '#') are left out and counted in Skipped. file names src in
// errors: no words at all, or a coordinate that is not finite.
func WordPoints(src embedding.Source, file string, max int) (*Points, error) {
	var words []string
	switch s := src.(type) {
	case *embedding.Vectors:
		words = s.Words
	case *embedding.FastText:
		words = s.Words()
	}
	if max > 0 && max < len(words) {
		words = words[:max]
	}
	p := &Points{D: src.Dim()}
	for _, word := range words {
		if ok, why := tree.ValidName(word); !ok {
			if p.Skipped == 0 {
				p.SkipWhy = why
			}
			p.Skipped++
			continue
		}
		p.Names = append(p.Names, word)
	}
	if len(p.Names) == 0 {
		return nil, fmt.Errorf("%s: no words", file)
	}
	v := make([]float32, p.D)
	p.X = make([]float64, 0, len(p.Names)*p.D)
	for _, word := range p.Names {
		src.Lookup(v, word)
		for _, x := range v {
			p.X = append(p.X, float64(x))
		}
	}
	return p, p.checkFinite(file)
}

// MaxLabelLine is the longest line of a file of labels read by
// LabelPoints: 1 MiB.
const MaxLabelLine = 1 << 20

// LabelPoints reads label names from r, one per line (blank lines and
// lines starting with '#' are skipped; a line is at most MaxLabelLine
// bytes), and places each label at the mean
// of the vectors in src of the words of its name (tokenized by
// vocab.Tokenizer). labels names r and srcFile names src in errors: a
// label listed twice, a label none of whose words has a vector, fewer than
// two labels, a coordinate that is not finite.
func LabelPoints(src embedding.Source, srcFile string, r io.Reader, labels string) (*Points, error) {
	p := &Points{D: src.Dim()}
	var tk vocab.Tokenizer
	seen := map[string]int{}
	lines := jsonscan.NewLines(r)
	lines.SetMax(MaxLabelLine)
	for lines.Next() {
		b, _ := lines.Line()
		i := lines.Num() - 1
		name := strings.TrimSpace(string(b))
		if name == "" || strings.HasPrefix(name, "#") {
			continue
		}
		if first, dup := seen[name]; dup {
			return nil, fmt.Errorf("%s:%d: the label %q is listed twice (first on line %d)", labels, i+1, name, first)
		}
		seen[name] = i + 1
		mean := make([]float64, p.D)
		words := tk.Append(nil, name)
		if embedding.Mean(mean, src, words) == 0 {
			return nil, fmt.Errorf("%s:%d: no word of the label %q has a vector in %s (words: %s)", labels, i+1, name, srcFile, strings.Join(words, ", "))
		}
		p.Names = append(p.Names, name)
		p.X = append(p.X, mean...)
	}
	if err := lines.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", labels, lines.Num(), err)
	}
	if n := len(p.Names); n < 2 {
		noun := " labels"
		if n == 1 {
			noun = " label"
		}
		return nil, fmt.Errorf("%s: %s%s; a tree needs at least 2", labels, strconv.Itoa(n), noun)
	}
	return p, p.checkFinite(srcFile)
}

// checkFinite refuses coordinates that are not finite, naming file.
func (p *Points) checkFinite(file string) error {
	for i, x := range p.X {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("%s: the vector of %q has a coordinate %v", file, p.Names[i/p.D], x)
		}
	}
	return nil
}

// BuildOptions chooses the tree Build makes. The zero value builds a
// clustering tree with the defaults of ClusterOptions.
type BuildOptions struct {
	// Method is "cluster" (Cluster, the default when empty) or "quad"
	// (Quad).
	Method string

	// K is the number of branches of a cluster split, Depth the most
	// levels, Seed the random seed (see ClusterOptions and QuadOptions).
	K, Depth int
	Seed     uint64

	// Fit refits the edge weights by non-negative least squares on
	// sampled pairs of points (FitWeights, with the same Seed).
	Fit bool
}

// Build returns a tree whose leaves are the points of p, named as them,
// made by o.Method and, with o.Fit, with its weights refitted.
func Build(p *Points, o *BuildOptions) (*tree.Tree, error) {
	if o == nil {
		o = &BuildOptions{}
	}
	var (
		t   *tree.Tree
		err error
	)
	switch o.Method {
	case "quad":
		t, err = Quad(p.X, p.Len(), p.D, p.Names, &QuadOptions{Depth: o.Depth, Seed: o.Seed})
	case "", "cluster":
		t, err = Cluster(p.X, p.Len(), p.D, p.Names, &ClusterOptions{K: o.K, Depth: o.Depth, Seed: o.Seed})
	default:
		return nil, &Error{Err: ErrOption, Msg: fmt.Sprintf("unknown method %q: want cluster or quad", o.Method)}
	}
	if err != nil || !o.Fit {
		return t, err
	}
	return FitWeights(t, p.X, p.Len(), p.D, p.Names, &FitOptions{Seed: o.Seed})
}

// normalWeight rounds a positive edge weight below 2.2e-308, the smallest
// normal float64, up to it: package tree refuses subnormal weights (they
// hold too few digits to compute with), and rounding up rather than down
// keeps the quadtree's distances above the Euclidean ones.
func normalWeight(w float64) float64 {
	const smallestNormal = 0x1p-1022
	if w > 0 && w < smallestNormal {
		return smallestNormal
	}
	return w
}
