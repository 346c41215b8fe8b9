package main

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/twl-ldl/twl/labeldist"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/tw"
)

// A distanceMethod computes distances between distributions on a tree.
// Matrices are row-major with t.Len() columns, as in package tw. rows stores
// d(A_r, B_r) in dst[r]; pairs stores d(A_i, B_j) in dst[i*nB+j]. Adding a
// method (exact OT with ot/emd, entropic OT with ot/sinkhorn on the tree
// metric) is one more entry in distanceMethods; the error return is for
// solvers that can fail, such as one that does not converge.
type distanceMethod struct {
	name  string
	about string
	rows  func(dst []float64, t *tree.Tree, A, B []float64) error
	pairs func(dst []float64, t *tree.Tree, A, B []float64) error
}

var distanceMethods = []distanceMethod{
	{
		name:  "tw",
		about: "tree-Wasserstein distance, exact, O(L) per pair",
		rows: func(dst []float64, t *tree.Tree, A, B []float64) error {
			tw.NewBatch(t, 0).Distance(dst, A, B)
			return nil
		},
		pairs: func(dst []float64, t *tree.Tree, A, B []float64) error {
			tw.NewBatch(t, 0).Pairwise(dst, A, B)
			return nil
		},
	},
}

// plannedMethods are method names that are being written; asking for one
// gets a clearer message than an unknown name.
var plannedMethods = []string{"emd", "sinkhorn"}

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
	for _, p := range plannedMethods {
		if name == p {
			return nil, fs.fail("--method %s is not available yet (available: %s)", name, methodNames())
		}
	}
	return nil, fs.fail("unknown --method %q (available: %s)", name, methodNames())
}

const distanceAbout = `
Distance prints the tree-Wasserstein distance between the distributions on
line r of A.jsonl and line r of B.jsonl, one number per line, or with
--pairwise the distance between every row of A and every row of B, as a
tab-separated matrix with one line per row of A.

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

  # Try it on the demo's files.
  twl demo --dir twl-demo
  twl distance --tree twl-demo/figure1.tree twl-demo/predictions.jsonl twl-demo/targets.jsonl`

func runDistance(e *env, args []string) error {
	fs := newFlags("distance", "twl distance --tree TREE [flags] A.jsonl B.jsonl", distanceAbout, distanceExamples)
	treePath := fs.String("tree", "", "the label tree, an edge-list `FILE` (required)")
	pairwise := fs.Bool("pairwise", false, "print the matrix of distances between every row of A and every row of B")
	normalize := fs.Bool("normalize", false, "rescale every row to sum 1, instead of requiring it")
	method := fs.String("method", "tw", "the distance `METHOD` to compute; available: "+methodNames())
	out := fs.String("out", "", "write the output to `FILE`, all or nothing, instead of standard output")
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

	t, err := tree.ReadFile(*treePath, nil)
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

	var buf bytes.Buffer
	if *pairwise {
		d := make([]float64, A.Rows*B.Rows)
		if err := m.pairs(d, t, A.Data, B.Data); err != nil {
			return err
		}
		writeMatrix(&buf, d, A.Rows, B.Rows)
	} else {
		if err := sameRows(A, B); err != nil {
			return err
		}
		d := make([]float64, A.Rows)
		if err := m.rows(d, t, A.Data, B.Data); err != nil {
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
