package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/twl-ldl/twl/labeldist"
	"github.com/twl-ldl/twl/ot/emd"
	"github.com/twl-ldl/twl/ot/sinkhorn"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/tw"
)

// A distanceMethod computes distances between distributions on a tree.
// Matrices are row-major with t.Len() columns, as in package tw. rows stores
// d(A_r, B_r) in dst[r]; pairs stores d(A_i, B_j) in dst[i*nB+j].
type distanceMethod struct {
	name  string
	about string
	rows  func(dst []float64, c *distanceCtx, A, B []float64) error
	pairs func(dst []float64, c *distanceCtx, A, B []float64) error
}

// distanceCtx holds what the methods share: the tree, and for the general
// solvers the dense cost matrix of the tree metric, built on first use.
type distanceCtx struct {
	t        *tree.Tree
	A, B     *labeldist.Set // for the FILE:LINE of a row a solver fails on
	sink     sinkhorn.Settings
	maxBytes byteSize
	cost     []float64
}

// costMatrix returns the L×L shortest-path distance matrix of the tree, or
// an error if it would exceed the memory limit.
func (c *distanceCtx) costMatrix(method string) ([]float64, error) {
	if c.cost != nil {
		return c.cost, nil
	}
	L := c.t.Len()
	need := 8 * float64(L) * float64(L)
	if need > float64(c.maxBytes) {
		return nil, fmt.Errorf("--method %s needs the %d×%d cost matrix of the tree metric, %s, more than --max-memory %s (--method tw needs none)",
			method, L, L, formatBytes(need), c.maxBytes.String())
	}
	c.cost = c.t.DistanceMatrix(nil).RawMatrix().Data
	return c.cost, nil
}

// forPairs calls f(dst[k], a, b) for the pairs of rows the method is asked
// for: row r of A with row r of B (pairs == false) or every row of A with
// every row of B.
func forPairs(dst []float64, c *distanceCtx, A, B []float64, pairs bool, f func(a, b []float64) (float64, error)) error {
	L := c.t.Len()
	nA, nB := len(A)/L, len(B)/L
	for i := 0; i < nA; i++ {
		a := A[i*L : (i+1)*L]
		if !pairs {
			v, err := f(a, B[i*L:(i+1)*L])
			if err != nil {
				return fmt.Errorf("%s and %s: %w", c.A.At(i), c.B.At(i), err)
			}
			dst[i] = v
			continue
		}
		for j := 0; j < nB; j++ {
			v, err := f(a, B[j*L:(j+1)*L])
			if err != nil {
				return fmt.Errorf("%s and %s: %w", c.A.At(i), c.B.At(j), err)
			}
			dst[i*nB+j] = v
		}
	}
	return nil
}

func emdPairs(pairs bool) func(dst []float64, c *distanceCtx, A, B []float64) error {
	return func(dst []float64, c *distanceCtx, A, B []float64) error {
		cost, err := c.costMatrix("emd")
		if err != nil {
			return err
		}
		var s emd.Solver
		return forPairs(dst, c, A, B, pairs, func(a, b []float64) (float64, error) {
			return s.Cost(cost, a, b)
		})
	}
}

func sinkhornPairs(pairs bool) func(dst []float64, c *distanceCtx, A, B []float64) error {
	return func(dst []float64, c *distanceCtx, A, B []float64) error {
		L := c.t.Len()
		set := c.sink
		set.MaxBytes = int64(c.maxBytes)
		if need := sinkhorn.Bytes(L, L, set); float64(need)+8*float64(L)*float64(L) > float64(c.maxBytes) {
			return fmt.Errorf("--method sinkhorn on %d labels needs about %s (cost matrix and kernel), more than --max-memory %s (--method tw needs none)",
				L, formatBytes(float64(need)+8*float64(L)*float64(L)), c.maxBytes.String())
		}
		cost, err := c.costMatrix("sinkhorn")
		if err != nil {
			return err
		}
		s, err := sinkhorn.New(cost, L, L, set)
		if err != nil {
			return err
		}
		return forPairs(dst, c, A, B, pairs, func(a, b []float64) (float64, error) {
			r, err := s.Solve(a, b)
			if err == nil && set.Tol >= 0 && r.MarginalErr > 2*set.Tol {
				// The iterate is not a transport plan within the tolerance:
				// its cost is no approximation of the distance (it can
				// even fall below the exact value).
				err = fmt.Errorf("sinkhorn did not converge in %d iterations (marginal error %.3g, --tol %g): raise --iters, lower --reg, or pass a negative --tol to accept a fixed number of iterations",
					r.Iters, r.MarginalErr, set.Tol)
			}
			return r.Value, err
		})
	}
}

var distanceMethods = []distanceMethod{
	{
		name:  "tw",
		about: "tree-Wasserstein distance: exact, O(L) per pair, no cost matrix",
		rows: func(dst []float64, c *distanceCtx, A, B []float64) error {
			tw.NewBatch(c.t, 0).Distance(dst, A, B)
			return nil
		},
		pairs: func(dst []float64, c *distanceCtx, A, B []float64) error {
			tw.NewBatch(c.t, 0).Pairwise(dst, A, B)
			return nil
		},
	},
	{
		name:  "emd",
		about: "exact W1 by the network simplex on the tree's L×L cost matrix (equals tw)",
		rows:  emdPairs(false),
		pairs: emdPairs(true),
	},
	{
		name:  "sinkhorn",
		about: "entropic OT by Sinkhorn on the L×L cost matrix: the transport cost of the entropic plan",
		rows:  sinkhornPairs(false),
		pairs: sinkhornPairs(true),
	},
}

func methodNames() string {
	names := make([]string, len(distanceMethods))
	for i, m := range distanceMethods {
		names[i] = m.name
	}
	return strings.Join(names, ", ")
}

func findMethod(fs *flags, name string) (*distanceMethod, error) {
	for i := range distanceMethods {
		if distanceMethods[i].name == name {
			return &distanceMethods[i], nil
		}
	}
	return nil, fs.fail("unknown --method %q (available: %s)", name, methodNames())
}

const distanceAbout = `
Distance prints the tree-Wasserstein distance between the distributions on
line r of A.jsonl and line r of B.jsonl, one number per line, or with
--pairwise the distance between every row of A and every row of B, as a
tab-separated matrix with one line per row of A.

--method chooses how the distance is computed, with the tree's shortest-path
metric as the ground cost:

  tw         the closed form, exact, O(L) per pair (the default)
  emd        exact optimal transport by the network simplex on the L×L cost
             matrix: equal to tw up to rounding, much slower, a cross-check
  sinkhorn   entropic optimal transport (Cuturi 2013) with kernel exp(−λ·C):
             prints the transport cost ⟨C, P⟩ of the entropic plan, which is
             above the exact distance and approaches it as --reg λ grows.
             --reg is the paper's "regularization parameter" λ (default 50;
             POT's reg is 1/λ); --iters caps the iterations (default 1000);
             --tol stops them once the marginal error is below it (default
             1e-9; a negative --tol runs exactly --iters iterations, as the
             paper's baseline does with 10)

emd and sinkhorn need the dense L×L cost matrix (8·L² bytes): a tree larger
than --max-memory allows is refused with the memory it would need.

TREE is an edge-list file: one edge per line, parent<TAB>child[<TAB>weight].
A.jsonl and B.jsonl hold one distribution per line, either a JSON object
{"label": mass, ...} (absent labels have mass 0) or a JSON array of one mass
per node of the tree, in the order the nodes first appear in TREE. Blank lines
are skipped. Masses must be finite and non-negative, and each row must sum to
1 within 1e-6 unless --normalize is given. Either file may be '-' for
standard input.

Nothing is written unless every row is valid: an error in the input is
reported as FILE:LINE: what is wrong, with exit status 1.`

const distanceExamples = `  # One distance per pair of lines.
  twl distance --tree labels.tree predictions.jsonl targets.jsonl

  # All pairs, as a matrix, from counts rather than probabilities.
  twl distance --tree labels.tree --pairwise --normalize votes.jsonl votes.jsonl

  # Exact OT and Sinkhorn beside the closed form.
  twl distance --tree labels.tree --method emd predictions.jsonl targets.jsonl
  twl distance --tree labels.tree --method sinkhorn --reg 50 --iters 10 --tol -1 predictions.jsonl targets.jsonl

  # Try it on the demo's files.
  twl demo --dir twl-demo
  twl distance --tree twl-demo/figure1.tree twl-demo/predictions.jsonl twl-demo/targets.jsonl`

func runDistance(e *env, args []string) error {
	fs := newFlags("distance", "twl distance --tree TREE [flags] A.jsonl B.jsonl", distanceAbout, distanceExamples)
	treePath := fs.String("tree", "", "the label `TREE`: an edge-list file, a toolkit taxonomy (FILE.taxonomy or taxonomy:FILE), or chain:N or star:N for labels named 0 … N−1 (required)")
	pairwise := fs.Bool("pairwise", false, "print the matrix of distances between every row of A and every row of B")
	normalize := fs.Bool("normalize", false, "rescale every row to sum 1, instead of requiring it")
	method := fs.String("method", "tw", "the distance `METHOD` to compute; available: "+methodNames())
	out := fs.String("out", "", "write the output to `FILE`, all or nothing, instead of standard output")
	reg := fs.Float64("reg", sinkhorn.DefaultLambda, "sinkhorn: the regularization parameter `λ` of the kernel exp(−λ·C)")
	iters := fs.Int("iters", sinkhorn.DefaultIters, "sinkhorn: at most `N` iterations")
	tol := fs.Float64("tol", sinkhorn.DefaultTol, "sinkhorn: stop when the relative marginal error is below `TOL`; negative: run all --iters")
	maxMem := byteSize(4 << 30)
	fs.Var(&maxMem, "max-memory", "emd, sinkhorn: refuse a cost matrix that needs more than `SIZE`")
	pos, err := fs.parse(e, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return fs.fail("want two files of distributions, A.jsonl B.jsonl; got %d arguments", len(pos))
	}
	if pos[0] == "-" && pos[1] == "-" {
		return fs.fail("only one of A and B can be standard input ('-')")
	}
	if *treePath == "" {
		return fs.fail("--tree is required")
	}
	m, err := findMethod(fs, *method)
	if err != nil {
		return err
	}
	if m.name != "sinkhorn" {
		fs.Visit(func(f *flag.Flag) {
			if f.Name == "reg" || f.Name == "iters" || f.Name == "tol" {
				fmt.Fprintf(e.stderr, "twl distance: warning: --%s applies to --method sinkhorn only; ignored with --method %s\n", f.Name, m.name)
			}
		})
	}
	switch {
	case !(*reg > 0) || math.IsInf(*reg, 0):
		return fs.fail("--reg must be a positive number, not %v", *reg)
	case *iters < 1:
		return fs.fail("--iters must be at least 1")
	case math.IsNaN(*tol):
		return fs.fail("--tol must be a number")
	}

	if err := checkNotInput(fs, map[string]string{"out": *out}, map[string]string{"A": pos[0], "B": pos[1], "--tree": *treePath}); err != nil {
		return err
	}
	t, _, err := resolveTree(fs, *treePath, 0)
	if err != nil {
		return err
	}
	opts := &labeldist.Options{Normalize: *normalize}
	A, err := readSet(e, pos[0], t, opts)
	if err != nil {
		return err
	}
	B, err := readSet(e, pos[1], t, opts)
	if err != nil {
		return err
	}
	if !*pairwise {
		if err := sameRows(A, B); err != nil {
			return err
		}
	}
	// No output at all would look like success to a script.
	for _, s := range []*labeldist.Set{A, B} {
		if s.Rows == 0 {
			return fmt.Errorf("%s: no distributions (the file is empty or blank)", s.File)
		}
	}

	ctx := &distanceCtx{t: t, A: A, B: B, maxBytes: maxMem, sink: sinkhorn.Settings{Lambda: *reg, Iters: *iters, Tol: *tol}}
	var buf bytes.Buffer
	if *pairwise {
		d := make([]float64, A.Rows*B.Rows)
		if err := m.pairs(d, ctx, A.Data, B.Data); err != nil {
			return err
		}
		writeMatrix(&buf, d, A.Rows, B.Rows)
	} else {
		d := make([]float64, A.Rows)
		if err := m.rows(d, ctx, A.Data, B.Data); err != nil {
			return err
		}
		writeMatrix(&buf, d, A.Rows, 1)
	}
	return e.output(*out, buf.Bytes())
}

// readSet reads the distributions in the file path ("-": standard input).
// A ErrSum error gets a hint about --normalize.
func readSet(e *env, path string, t *tree.Tree, opts *labeldist.Options) (*labeldist.Set, error) {
	r, name, err := e.open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	s, err := labeldist.Read(r, name, t, opts)
	if errors.Is(err, labeldist.ErrSum) {
		return nil, fmt.Errorf("%w (use --normalize to rescale rows)", err)
	}
	return s, err
}

// sameRows checks that A and B can be paired row by row, and otherwise
// points at the first row without a partner.
func sameRows(A, B *labeldist.Set) error {
	if A.Rows == B.Rows {
		return nil
	}
	long, short := A, B
	if B.Rows > A.Rows {
		long, short = B, A
	}
	return fmt.Errorf("%s: distribution %d has no partner: %s has %s, %s has %d "+
		"(distance pairs them line by line; --pairwise compares all pairs)",
		long.At(short.Rows), short.Rows+1, A.File, plural(A.Rows, "distribution"), B.File, B.Rows)
}

// writeMatrix writes the rows×cols row-major matrix d as tab-separated
// lines, each number in the shortest form that reads back to the same
// float64.
func writeMatrix(buf *bytes.Buffer, d []float64, rows, cols int) {
	var num []byte
	for i := range rows {
		for j := range cols {
			if j > 0 {
				buf.WriteByte('\t')
			}
			num = strconv.AppendFloat(num[:0], d[i*cols+j], 'g', -1, 64)
			buf.Write(num)
		}
		buf.WriteByte('\n')
	}
}

// plural returns "1 distribution", "2 distributions".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
