package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/twl-ldl/twl/distance"
	"github.com/twl-ldl/twl/labeldist"
	"github.com/twl-ldl/twl/ot/sinkhorn"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/tsw"
)

// A distanceMethod is a --method of 'twl distance': package distance
// computes it.
type distanceMethod struct {
	name  string
	about string
	slow  bool // milliseconds a pair: smaller chunks show progress sooner
}

var distanceMethods = []distanceMethod{
	{
		name:  "tw",
		about: "tree-Wasserstein distance: exact, no cost matrix, time in the rows' non-zero labels",
	},
	{
		name:  "emd",
		about: "exact W1 by the network simplex on the tree's L×L cost matrix (equals tw)",
		slow:  true,
	},
	{
		name:  "sinkhorn",
		about: "entropic OT by Sinkhorn on the L×L cost matrix: the transport cost of the entropic plan",
		slow:  true,
	},
	{
		name:  "utw",
		about: "unbalanced tree-Wasserstein distance: transport plus --mass-cost λ per unit of mass created or destroyed, rows of any total",
	},
}

// newDistance returns the distance.Method of m: over t, or for tsw over
// the tree-sliced distance sl; emd and sinkhorn refuse a cost matrix over
// maxMem with the memory it would need; utw has the mass cost massCost.
func newDistance(m *distanceMethod, t *tree.Tree, sl *tsw.Sliced, set sinkhorn.Settings, massCost float64, maxMem byteSize) (distance.Method, error) {
	o := &distance.Options{MaxBytes: int64(maxMem)}
	L := t.Len()
	switch m.name {
	case "utw":
		return distance.NewUTW(t, massCost, o), nil
	case "tsw":
		return distance.NewTSW(sl, o), nil
	case "emd":
		if need := distance.CostBytes(L); need > int64(maxMem) {
			return nil, fmt.Errorf("--method emd needs the %d×%d cost matrix of the tree metric, %s, more than --max-memory %s (--method tw needs none)",
				L, L, formatBytes(float64(need)), maxMem.String())
		}
		return distance.NewEMD(t, o)
	case "sinkhorn":
		set.MaxBytes = int64(maxMem)
		if need := distance.SinkhornBytes(L, set); need > int64(maxMem) {
			return nil, fmt.Errorf("--method sinkhorn on %d labels needs about %s (cost matrix and kernel), more than --max-memory %s (--method tw needs none)",
				L, formatBytes(float64(need)), maxMem.String())
		}
		return distance.NewSinkhorn(t, set, o)
	}
	return distance.NewTW(t, o), nil
}

// readSliced reads the comma-separated tree files of --trees and returns
// a flat tree of the first tree's leaves (the labels of the distributions)
// and the tree-sliced distance over them; every tree must have a node of
// each of those names.
func readSliced(fs *flags, list string) (*tree.Tree, *tsw.Sliced, error) {
	var ts []*tree.Tree
	paths := strings.Split(list, ",")
	for _, path := range paths {
		if path == "" {
			return nil, nil, fs.fail("--trees %q: an empty file name", list)
		}
		t, _, err := resolveTree(fs, path, 0)
		if err != nil {
			return nil, nil, err
		}
		ts = append(ts, t)
	}
	flat, sl, err := tsw.NewOverLeaves(ts, paths)
	if err != nil {
		return nil, nil, fmt.Errorf("--trees: %w", err)
	}
	return flat, sl, nil
}

// checkTreeFlags checks the --tree and --trees flags of a command that takes
// one of them: exactly one, and --trees not empty.
func checkTreeFlags(fs *flags, treePath, treeList string) error {
	switch {
	case fs.isSet("trees") && treeList == "":
		return fs.fail("--trees is empty: give the tree files, comma-separated")
	case treePath == "" && treeList == "":
		return fs.fail("--tree is required (or --trees for the tree-sliced distance)")
	case treePath != "" && treeList != "":
		return fs.fail("--tree and --trees exclude each other")
	}
	return nil
}

// readLabelTrees reads the labels of the distributions of a command with
// --tree or --trees (checked by checkTreeFlags): the tree of --tree, and a
// nil tree-sliced distance; or for --trees, a flat tree of the first
// tree's leaves, which reads the distributions, and the tree-sliced
// distance over them (readSliced).
func readLabelTrees(fs *flags, treePath, treeList string) (*tree.Tree, *tsw.Sliced, error) {
	if treeList != "" {
		return readSliced(fs, treeList)
	}
	t, _, err := resolveTree(fs, treePath, 0)
	return t, nil, err
}

// slicedMethod is the distance method of --trees.
var slicedMethod = &distanceMethod{
	name:  "tsw",
	about: "tree-sliced Wasserstein distance: the mean of the trees' TW",
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

func runDistance(e *env, args []string) (err error) {
	fs := newFlags("distance", "twl distance --tree TREE [flags] A.jsonl B.jsonl")
	treePath := treeFlag(fs, "required, or --trees")
	treeList := fs.String("trees", "", "the tree-sliced Wasserstein distance over the comma-separated `TREES` (from 'twl tree build'), whose leaves are the labels")
	pairwise := fs.Bool("pairwise", false, "print the matrix of distances between every row of A and every row of B")
	normalize := fs.Bool("normalize", false, "rescale every row to sum 1, instead of requiring it")
	method := fs.String("method", "tw", "the distance `METHOD` to compute; available: "+methodNames())
	out := fs.OutFile("out", "write the output to `FILE`, all or nothing, instead of standard output")
	reg := fs.Float64("reg", sinkhorn.DefaultLambda, "sinkhorn: the regularization parameter `λ` of the kernel exp(−λ·C)")
	iters := fs.Int("iters", sinkhorn.DefaultIters, "sinkhorn: at most `N` iterations")
	tol := fs.Float64("tol", sinkhorn.DefaultTol, "sinkhorn: stop when the relative marginal error is below `TOL`; negative: run all --iters")
	format := fs.String("format", "text", "output `FORMAT`: text, or json (one object: \"method\", \"pairwise\", \"distances\" and \"rows\", with --pairwise \"cols\")")
	massCost := fs.Float64("mass-cost", 0, "utw: the cost `λ` of creating or destroying a unit of mass (required with --method utw)")
	maxMemFlag := fs.maxMemoryFlag(4<<30, "refuse work that would hold more than `SIZE`: reading the tree (and a line of A or B: a sixteenth of it, 64 MiB at most), the cost matrix of emd and sinkhorn, B with --pairwise")
	pos, err := fs.parse(e, args)
	if err != nil {
		return err
	}
	maxMem := *maxMemFlag
	defer func() { err = memErr(err, maxMem) }()
	if len(pos) != 2 {
		return fs.fail("want two files of distributions, A.jsonl B.jsonl; got %s", plural(len(pos), "argument"))
	}
	if pos[0] == "-" && pos[1] == "-" {
		return fs.fail("only one of A and B can be standard input ('-')")
	}
	if err := checkTreeFlags(fs, *treePath, *treeList); err != nil {
		return err
	}
	if *treeList != "" && fs.isSet("method") {
		return fs.fail("--method applies only with --tree; --trees computes the tree-sliced distance")
	}
	m, err := findMethod(fs, *method)
	if err != nil {
		return err
	}
	if m.name != "sinkhorn" {
		for _, name := range []string{"reg", "iters", "tol"} {
			if fs.isSet(name) {
				return fs.fail("--%s applies only with --method sinkhorn, not --method %s", name, m.name)
			}
		}
	}
	switch {
	case m.name == "utw" && !fs.isSet("mass-cost"):
		return fs.fail("--method utw needs --mass-cost λ, the cost of creating or destroying a unit of mass")
	case m.name != "utw" && fs.isSet("mass-cost"):
		return fs.fail("--mass-cost applies only with --method utw, not --method %s", m.name)
	case m.name == "utw" && (!(*massCost > 0) || math.IsInf(*massCost, 0)):
		return fs.fail("--mass-cost must be a positive number, not %v", *massCost)
	case m.name == "utw" && *normalize:
		return fs.fail("--normalize does not apply to --method utw, which compares measures of any total mass as they are")
	case !(*reg > 0) || math.IsInf(*reg, 0):
		return fs.fail("--reg must be a positive number, not %v", *reg)
	case *iters < 1:
		return fs.fail("--iters must be at least 1")
	case math.IsNaN(*tol):
		return fs.fail("--tol must be a number")
	}

	if *format != "text" && *format != "json" {
		return fs.fail("--format must be text or json, not %q", *format)
	}
	files := fs.files()
	files.Input("A", pos[0])
	files.Input("B", pos[1])
	inputTrees(files, *treePath, *treeList)
	if err := fs.checkFiles(files); err != nil {
		return err
	}
	// The collector of twl unifrac (lazyGC): none while the heap is
	// small, the 30% rule once the matrix of --pairwise is large.
	gc := startLazyGC()
	defer gc.stop()
	gc.maxMemory(int64(maxMem))
	t, sl, err := readLabelTrees(fs, *treePath, *treeList)
	if err != nil {
		return err
	}
	if sl != nil {
		m = slicedMethod
	}
	// emd and sinkhorn refuse a cost matrix over --max-memory before any
	// input is read.
	dm, err := newDistance(m, t, sl, sinkhorn.Settings{Lambda: *reg, Iters: *iters, Tol: *tol}, *massCost, maxMem)
	if err != nil {
		return err
	}
	opts := &labeldist.Options{Normalize: *normalize, Measures: m.name == "utw", MaxLine: lineLimit(int64(maxMem))}
	d := &distanceRun{gc: gc, e: e, m: m, dm: dm, json: *format == "json", maxBytes: int64(maxMem), t: t, opts: opts}
	A, B, ca, cb, err := rowReaders(e, pos[0], pos[1], t, opts)
	if err != nil {
		return err
	}
	defer ca.Close()
	defer cb.Close()
	// The output is created before the work, so that an unwritable --out
	// fails at once.
	w, err := e.create(*out)
	if err != nil {
		return err
	}
	defer w.Abort()
	if *pairwise {
		err = d.pairs(w, A, B, cb, sameFile(ca, cb))
	} else {
		err = d.rows(w, A, B)
	}
	if err != nil {
		return err
	}
	return w.Commit()
}

// distanceRun streams the distances of one 'twl distance' command.
type distanceRun struct {
	e        *env
	m        *distanceMethod
	dm       distance.Method
	json     bool
	maxBytes int64
	t        *tree.Tree // the labels of the rows
	opts     *labeldist.Options
	gc       *lazyGC
}

// context returns the context the distances are computed under.
func (d *distanceRun) context() context.Context {
	if d.e.ctx == nil {
		return context.Background()
	}
	return d.e.ctx
}

// pairErr locates the pair of err, a *distance.PairError of rows of ra and
// rb, read from A and B, and words sinkhorn's non-convergence in flags.
func pairErr(err error, A, B *labeldist.Reader, ra, rb *labeldist.Rows) error {
	return sinkhornWords(distance.Locate(err, A, B, ra, rb))
}

// sinkhornWords words sinkhorn's non-convergence in a *distance.LineError
// in flags.
func sinkhornWords(err error) error {
	var (
		le *distance.LineError
		ce *distance.ConvergenceError
	)
	if errors.As(err, &le) && errors.As(le.Err, &ce) {
		le.Err = fmt.Errorf("sinkhorn did not converge in %d iterations (marginal error %.3g, --tol %g): raise --iters, lower --reg, or pass a negative --tol to accept a fixed number of iterations",
			ce.Iters, ce.MarginalErr, ce.Tol)
	}
	return err
}

// rows writes d(A_r, B_r) for every r (distance.WriteRows).
func (d *distanceRun) rows(w io.Writer, A, B *labeldist.Reader) error {
	chunk := chunkRows
	if d.m.slow {
		chunk = 64
	}
	prog := newProgress(d.e.stderr, "twl distance", "pairs")
	err := distance.WriteRows(d.context(), w, d.dm, A, B, &distance.StreamOptions{JSON: d.json, ChunkRows: chunk,
		Why:      "distance pairs them line by line; --pairwise compares all pairs",
		Progress: func(rows int) error { prog.tick(rows); return nil }})
	if err != nil {
		return rowsErr(sinkhornWords(err))
	}
	prog.done(A.Rows())
	return nil
}

// sameFile reports whether a and b, the files of A and B, are one regular
// file (os.SameFile).
func sameFile(a, b io.Closer) bool {
	fa, ok := a.(*os.File)
	fb, ok2 := b.(*os.File)
	if !ok || !ok2 {
		return false
	}
	sa, err := fa.Stat()
	sb, err2 := fb.Stat()
	return err == nil && err2 == nil && sa.Mode().IsRegular() && os.SameFile(sa, sb)
}

// pairs writes the matrix d(A_i, B_j): B is held in memory (sparse), A is
// read a row at a time and each row of the matrix written as it is done.
// When A and B are one file (same) and the method is symmetric (tw), each
// pair is computed once (distance.NewSelf) if the matrix fits in
// --max-memory beside B, and the rows written from it.
func (d *distanceRun) pairs(w io.Writer, A, B *labeldist.Reader, fb io.Closer, same bool) error {
	var rb labeldist.Rows
	if err := d.fill(&rb, B, fb); err != nil {
		return err
	}
	cols, err := d.dm.Columns(d.context(), &rb)
	if me := (*distance.MemoryError)(nil); errors.As(err, &me) && me.Method == "tw" {
		return fmt.Errorf("%s: --pairwise prepares all of its rows for the all-pairs computation, %s for %s, more than --max-memory %s",
			B.File(), formatBytes(float64(me.Need)), plural(rb.Rows(), "distribution"), byteSize(d.maxBytes))
	}
	if me := (*distance.MemoryError)(nil); errors.As(err, &me) {
		return fmt.Errorf("%s: --pairwise --trees holds the tree embeddings of all its rows in memory, %s after %s, more than --max-memory %s",
			B.File(), formatBytes(float64(me.Need)), plural(me.Rows, "distribution"), byteSize(d.maxBytes))
	}
	if err != nil {
		return err
	}
	nB := cols.Len()
	if 4*int64(nB)*int64(nB-1) >= lazyHeap/2 {
		// The pairs alone take half of lazyHeap or more: a large run.
		d.gc.turnOn()
	}
	// tw computes a block of rows of A at once (the all-pairs engine's
	// tiles), the matrix rows of a block held up to about 32 MiB; the
	// other methods go a row at a time.
	block := 1
	if d.m.name == "tw" && nB > 0 {
		block = max(1, min(distance.PairwiseBlock(), (32<<20)/(8*nB)))
	}
	dst := make([]float64, block*nB)
	prog := newProgress(d.e.stderr, "twl distance --pairwise", "rows of A")
	mw := distance.NewMatrixWriter(w, d.m.name, nB, d.json, 0)
	if same && cols.Symmetric() {
		self, err := distance.NewSelf(d.context(), cols)
		if me := (*distance.MemoryError)(nil); !errors.As(err, &me) {
			if err != nil {
				return err
			}
			return d.selfPairs(mw, self, A, dst, block, prog)
		}
	}
	var ra labeldist.Rows
	emit := func() error {
		if ra.Rows() == 0 {
			return nil
		}
		out := dst[:ra.Rows()*nB]
		if err := d.dm.Pairwise(d.context(), out, &ra, cols); err != nil {
			return pairErr(err, A, B, &ra, &rb)
		}
		if err := mw.WriteRows(out); err != nil {
			return err
		}
		prog.tick(mw.Rows())
		ra.Reset()
		return nil
	}
	for A.Next() {
		if err := d.e.stopped(); err != nil {
			return err
		}
		if nB == 0 {
			break
		}
		ra.Append(A.Row().Index, A.Row().Mass)
		ra.Lines = append(ra.Lines, A.Line())
		if ra.Rows() == block {
			if err := emit(); err != nil {
				return err
			}
		}
	}
	if err := d.e.stopped(); err != nil {
		return err
	}
	if err := emit(); err != nil {
		return err
	}
	if err := rowsErr(A.Err()); err != nil {
		return err
	}
	if A.Rows() == 0 {
		return fmt.Errorf("%s: no distributions (the file is empty or blank)", A.File())
	}
	if rb.Rows() == 0 {
		return fmt.Errorf("%s: no distributions (the file is empty or blank)", B.File())
	}
	if err := mw.Close(); err != nil {
		return err
	}
	prog.done(A.Rows())
	return nil
}

// fill reads all the rows of B, from the file fb, into rb: in parts at
// once (labeldist.Rows.FillAll) where fb is a regular file too small for
// its rows to pass --max-memory, else a chunk at a time, stopping at the
// first chunk past --max-memory.
func (d *distanceRun) fill(rb *labeldist.Rows, B *labeldist.Reader, fb io.Closer) error {
	if f, ok := fb.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && labeldist.MaxRowsBytes(fi.Size()) <= d.maxBytes {
			return rowsErr(rb.FillAll(d.context(), f, fi.Size(), B.File(), d.t, d.opts))
		}
	}
	for {
		if err := d.e.stopped(); err != nil {
			return err
		}
		n, err := rb.Fill(B, chunkRows)
		if err != nil {
			return rowsErr(err)
		}
		if rb.Bytes() > d.maxBytes {
			// B is held sparsely: 16 bytes per listed label and per row.
			return fmt.Errorf("%s: --pairwise holds all of %s in memory, %s after %s, more than --max-memory %s",
				B.At(), B.File(), formatBytes(float64(rb.Bytes())), plural(B.Rows(), "distribution"), byteSize(d.maxBytes))
		}
		if n < chunkRows {
			return nil
		}
	}
}

// selfPairs writes the matrix of the distances between the rows of A and
// themselves from self, block rows at a time through dst; A, the file B
// was read from, is not read again.
func (d *distanceRun) selfPairs(mw *distance.MatrixWriter, self *distance.Self, A *labeldist.Reader, dst []float64, block int, prog *progress) error {
	n := self.Len()
	if n == 0 {
		return fmt.Errorf("%s: no distributions (the file is empty or blank)", A.File())
	}
	for lo := 0; lo < n; lo += block {
		if err := d.e.stopped(); err != nil {
			return err
		}
		hi := min(lo+block, n)
		self.Rows(dst[:(hi-lo)*n], lo, hi)
		if err := mw.WriteRows(dst[:(hi-lo)*n]); err != nil {
			return err
		}
		prog.tick(hi)
	}
	if err := mw.Close(); err != nil {
		return err
	}
	prog.done(n)
	return nil
}

// plural returns "1 distribution", "2 distributions".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// envContext returns the context of e, never nil.
func envContext(e *env) context.Context {
	if e.ctx == nil {
		return context.Background()
	}
	return e.ctx
}
