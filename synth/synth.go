package synth

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"

	"gonum.org/v1/gonum/mat"

	"github.com/twl-ldl/twl/dataset"
	"github.com/twl-ldl/twl/tree"
)

// PCG stream constants: one independent stream per use of a seed.
const (
	streamTree  = 0x7477_6c5f_7472_6565 // "twl_tree"
	streamW1    = 0x7477_6c5f_7731      // "twl_w1"
	streamW2    = 0x7477_6c5f_7732      // "twl_w2"
	streamTrain = 0x7477_6c5f_7472_6e   // "twl_trn"
	streamTest  = 0x7477_6c5f_7473_74   // "twl_tst"
)

// Generator holds the fixed parts of Algorithm 1 (the tree, W₁ and W₂) and
// draws samples. It is safe for concurrent use: Sample keeps its scratch
// memory per call.
type Generator struct {
	cfg Config
	// Tree is the random tree, with nodes named "0" … "l−1" after the
	// coordinates of Algorithm 1 (node s_{j+1} is named j) and numbered
	// breadth-first (tree.Tree.BreadthFirst), so that its edge-list file
	// reads back in the same order. Column k of the label distributions is
	// user node k of Tree.
	Tree *tree.Tree
	// W1 is n×m and W2 is m×(l+1).
	W1, W2 *mat.Dense

	node  []int   // coordinate j < l → user index in Tree
	start []int32 // adjacency of Tree in CSR form, by user index
	adj   []int32
}

// Info describes how one sample was drawn: the centres v and u (user
// indices of Tree) and σ.
type Info struct {
	V, U  int
	Sigma float64
}

// New draws the tree, W₁ and W₂ of Algorithm 1 from seed. It returns an
// error wrapping ErrConfig if cfg is invalid.
func New(cfg Config, seed uint64) (*Generator, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg = cfg.Defaults()
	l, n, m := cfg.Nodes, cfg.Features, cfg.Hidden
	g := &Generator{cfg: cfg}
	g.Tree = tree.Random(l, rand.NewPCG(seed, streamTree)).BreadthFirst()
	g.W1 = mat.NewDense(n, m, draw(nil, n*m, cfg.W1, rand.New(rand.NewPCG(seed, streamW1))))
	g.W2 = mat.NewDense(m, l+1, draw(nil, m*(l+1), cfg.W2, rand.New(rand.NewPCG(seed, streamW2))))

	g.node = make([]int, l)
	for j := range g.node {
		i, ok := g.Tree.Index(strconv.Itoa(j))
		if !ok {
			panic("synth: internal error: tree.Random names changed")
		}
		g.node[j] = i
	}
	// Adjacency lists for the breadth-first searches of Sample.
	g.start = make([]int32, l+1)
	for i := range l {
		if p := g.Tree.Parent(i); p >= 0 {
			g.start[i+1]++
			g.start[p+1]++
		}
	}
	for i := range l {
		g.start[i+1] += g.start[i]
	}
	g.adj = make([]int32, g.start[l])
	fill := append([]int32(nil), g.start[:l]...)
	for i := range l {
		if p := g.Tree.Parent(i); p >= 0 {
			g.adj[fill[i]] = int32(p)
			fill[i]++
			g.adj[fill[p]] = int32(i)
			fill[p]++
		}
	}
	return g, nil
}

// Config returns the configuration of g, defaults filled in.
func (g *Generator) Config() Config { return g.cfg }

// draw appends k values of distribution d drawn from rng to dst.
func draw(dst []float64, k int, d Dist, rng *rand.Rand) []float64 {
	for range k {
		var v float64
		switch d {
		case Uniform:
			v = rng.Float64()
		case Symmetric:
			v = 2*rng.Float64() - 1
		default:
			v = rng.NormFloat64()
		}
		dst = append(dst, v)
	}
	return dst
}

// sigmoid is 1/(1 + e^(−z)), exact to rounding for every z.
func sigmoid(z float64) float64 {
	if z >= 0 {
		return 1 / (1 + math.Exp(-z))
	}
	e := math.Exp(z)
	return e / (1 + e)
}

// Sample draws count samples from src: features X (count×InputDim) and
// label distributions Y (count×l, columns in the user order of g.Tree,
// Labels its node names), and how each was drawn. It panics if count < 1.
func (g *Generator) Sample(count int, src rand.Source) (*dataset.Dataset, []Info) {
	ds, info, _ := g.sample(nil, count, src)
	return ds, info
}

// SampleContext is Sample that stops, between samples, once ctx is done,
// and then returns an error wrapping ctx.Err(). The samples it returns are
// those of Sample, whatever ctx.
func (g *Generator) SampleContext(ctx context.Context, count int, src rand.Source) (*dataset.Dataset, []Info, error) {
	return g.sample(ctx, count, src)
}

// sample is Sample, watching ctx when it is not nil.
func (g *Generator) sample(ctx context.Context, count int, src rand.Source) (*dataset.Dataset, []Info, error) {
	if count < 1 {
		panic("synth: Sample needs at least one sample")
	}
	cfg := g.cfg
	l, n, m := cfg.Nodes, cfg.Features, cfg.Hidden
	d := cfg.InputDim()
	rng := rand.New(src)
	X := make([]float64, count*d)
	Y := make([]float64, count*l)
	info := make([]Info, count)

	x := make([]float64, n)
	h := make([]float64, m)
	z := make([]float64, l+1)
	dv := make([]float64, l)
	du := make([]float64, l)
	queue := make([]int32, 0, l)
	w1, w2 := g.W1.RawMatrix(), g.W2.RawMatrix()
	for i := range count {
		if ctx != nil && ctx.Err() != nil {
			return nil, nil, fmt.Errorf("synth: stopped after %d of %d samples: %w", i, count, ctx.Err())
		}
		x = draw(x[:0], n, cfg.X, rng)
		// h = sigmoid(W₁ᵀx), z = W₂ᵀh, row by row of W so that memory is
		// read in order.
		clear(h)
		for r, xr := range x {
			row := w1.Data[r*w1.Stride : r*w1.Stride+m]
			for c, w := range row {
				h[c] += xr * w
			}
		}
		for c := range h {
			h[c] = sigmoid(h[c])
		}
		clear(z)
		for r, hr := range h {
			row := w2.Data[r*w2.Stride : r*w2.Stride+l+1]
			for c, w := range row {
				z[c] += hr * w
			}
		}
		jmax, jmin := 0, 0
		for j := 1; j < l; j++ {
			if z[j] > z[jmax] {
				jmax = j
			}
			if z[j] < z[jmin] {
				jmin = j
			}
		}
		v, u := g.node[jmax], g.node[jmin]
		sigma := cfg.Scale * sigmoid(z[l])
		info[i] = Info{V: v, U: u, Sigma: sigma}
		g.distances(dv, v, queue)
		g.distances(du, u, queue)
		F(Y[i*l:(i+1)*l], dv, du, sigma, cfg.Sign)

		feat := X[i*d : (i+1)*d]
		switch cfg.Input {
		case Hidden:
			copy(feat, h)
		case Output:
			for c, zc := range z {
				feat[c] = sigmoid(zc)
			}
		default:
			copy(feat, x)
		}
	}
	ds := &dataset.Dataset{
		X:      mat.NewDense(count, d, X),
		Y:      mat.NewDense(count, l, Y),
		Labels: g.Tree.Names(),
	}
	return ds, info, nil
}

// distances stores d(s, k) for every node k in dst by a breadth-first
// search from s over the tree's edges, adding their weights.
func (g *Generator) distances(dst []float64, s int, queue []int32) {
	for k := range dst {
		dst[k] = -1
	}
	dst[s] = 0
	queue = append(queue[:0], int32(s))
	for h := 0; h < len(queue); h++ {
		a := queue[h]
		for _, b := range g.adj[g.start[a]:g.start[a+1]] {
			if dst[b] < 0 {
				// The edge (a, b) carries the weight of its lower end.
				w := g.Tree.Weight(int(b))
				if g.Tree.Parent(int(a)) == int(b) {
					w = g.Tree.Weight(int(a))
				}
				dst[b] = dst[a] + w
				queue = append(queue, b)
			}
		}
	}
}

// Data is a generated data set: the tree, a training and a test set drawn
// from the same tree, W₁ and W₂, and how each sample was drawn.
type Data struct {
	Config      Config // with defaults filled in
	Seed        uint64
	Tree        *tree.Tree
	Train, Test *dataset.Dataset // Test is nil when no test samples were asked for
	TrainInfo   []Info
	TestInfo    []Info
	Generator   *Generator
}

// Generate draws a data set of train training and test test samples from
// seed: New(cfg, seed), then the training samples and the test samples
// from two independent streams of the seed, so that the test set does not
// depend on train. test may be 0 (no test set); train must be at least 1.
// It returns an error wrapping ErrConfig for an invalid cfg or counts.
func Generate(cfg Config, seed uint64, train, test int) (*Data, error) {
	return GenerateContext(context.Background(), cfg, seed, train, test)
}

// GenerateContext is Generate that stops, between samples, once ctx is
// done, and then returns an error wrapping ctx.Err(). The data it returns
// are those of Generate.
func GenerateContext(ctx context.Context, cfg Config, seed uint64, train, test int) (*Data, error) {
	if train < 1 || test < 0 {
		return nil, errorf("want at least 1 training sample and no negative test count, got %d and %d", train, test)
	}
	g, err := New(cfg, seed)
	if err != nil {
		return nil, err
	}
	d := &Data{Config: g.Config(), Seed: seed, Tree: g.Tree, Generator: g}
	if d.Train, d.TrainInfo, err = g.sample(ctx, train, rand.NewPCG(seed, streamTrain)); err != nil {
		return nil, err
	}
	if test > 0 {
		if d.Test, d.TestInfo, err = g.sample(ctx, test, rand.NewPCG(seed, streamTest)); err != nil {
			return nil, err
		}
	}
	return d, nil
}
