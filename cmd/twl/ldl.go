package main

// Shared parts of the label-distribution-learning commands train, predict
// and cv: reading data sets and trees, the training flags and their
// defaults, fitting one model, JSON numbers.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/twl-ldl/twl/dataset"
	"github.com/twl-ldl/twl/internal/atomicfile"
	"github.com/twl-ldl/twl/labeldist"
	"github.com/twl-ldl/twl/loss"
	"github.com/twl-ldl/twl/model"
	"github.com/twl-ldl/twl/optim"
	"github.com/twl-ldl/twl/ot/sinkhorn"
	"github.com/twl-ldl/twl/train"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/tsw"
)

// Defaults of train and cv, chosen by 10-fold cross-validation on SJAFFE
// (star tree, KL, seed 1), mean Chebyshev distance (published SA-BFGS:
// .092–.107):
//
//	weight decay 0, 0.01, 0.03, 0.1 (lr 1e-3):  .12–.15, .105, .093, .086
//	features not standardized:                 .120 (the level of predicting the mean)
//	lr 0.01 instead of 1e-3:                    .01–.04 worse
//	50–200 epochs, batch 8–32:                  within .002
//
// 0.03 reproduces PyLDL's numbers on all six measures. More decay helps
// SJAFFE further but hurts data with many ordinal labels of uneven
// frequency (FG-Net: wasserstein 6.1 without decay, 16.3 with 0.03), partly
// because the biases are decayed too.
const (
	defEpochs      = 100
	defBatch       = 32
	defLR          = 1e-3
	defWeightDecay = 0.03
	defLambda      = 1
	defSinkhornReg = sinkhorn.DefaultLambda // the paper's 50
	defIters       = 10                     // the paper's 10 iterations
	// maxSinkhornLabels bounds L for kl+sinkhorn, whose L×L cost matrix and
	// kernel take 16·L² bytes (1.6 GB at 10⁴ labels).
	maxSinkhornLabels = 10000
)

// Streams of the PCG generator, so that one --seed drives independent
// random choices.
const (
	streamInit  = 0x696e6974 // "init": the model's initial weights
	streamVal   = 0x76616c   // "val": the validation split
	streamFolds = 0x666f6c64 // "fold": the folds of repeat r use streamFolds + r
)

// trainFlags are the flags shared by train and cv.
type trainFlags struct {
	data, tree  *string
	trees       *string
	loss        *string
	lambda      *float64
	reg         *float64
	iters       *int
	epochs      *int
	batch       *int
	lr          *float64
	weightDecay *float64
	decayBias   *bool
	standardize *bool
	val         *float64
	patience    *int
	seed        *uint64
	quiet       *bool
}

func addTrainFlags(fs *flags) *trainFlags {
	return &trainFlags{
		data: fs.String("data", "", "the training data `FILE`: JSON Lines {\"x\": [...], \"y\": {...}}, "+
			"or a MATLAB .mat file with \"features\" and \"labels\" (required)"),
		tree: fs.String("tree", "", "the label `TREE`: an edge-list file, a toolkit taxonomy (FILE.taxonomy or taxonomy:FILE), or chain, star, chain:N, star:N "+
			"(chain and star alone only for .mat data, N = its number of labels) (required)"),
		trees:       fs.String("trees", "", "instead of --tree, the comma-separated `TREES` built by 'twl tree build' over the labels (their leaves): with --loss kl+tsw, the tree-sliced distance over them"),
		loss:        fs.String("loss", "kl", "the training `LOSS`: kl, kl+tw, kl+sinkhorn, or with --trees kl+tsw"),
		lambda:      fs.Float64("lambda", defLambda, "the weight `λ` of the transport term of kl+tw and kl+sinkhorn"),
		reg:         fs.Float64("reg", defSinkhornReg, "kl+sinkhorn: the kernel parameter `λs` of exp(−λs·C); POT's reg is 1/λs"),
		iters:       fs.Int("iters", defIters, "kl+sinkhorn: the number of Sinkhorn `ITERATIONS` per gradient"),
		epochs:      fs.Int("epochs", defEpochs, "the number of `EPOCHS` (passes over the training rows)"),
		batch:       fs.Int("batch", defBatch, "the mini-batch `SIZE`"),
		lr:          fs.Float64("lr", defLR, "Adam's learning `RATE`"),
		weightDecay: fs.Float64("weight-decay", defWeightDecay, "the L2 weight-decay `COEFFICIENT` added to the gradient of the weights"),
		decayBias:   fs.Bool("decay-bias", false, "apply --weight-decay to the biases too (by default only the weights decay: decayed biases pull predictions toward uniform)"),
		standardize: fs.Bool("standardize", true, "standardize the features (mean 0, variance 1 on the training rows); --standardize=false to use them as they are"),
		val:         fs.Float64("val", 0, "hold out this `FRACTION` of the training rows for validation: the model of the epoch with the lowest validation loss is kept"),
		patience:    fs.Int("patience", 0, "with --val, stop after this many `EPOCHS` without a lower validation loss (0: never)"),
		seed:        fs.Uint64("seed", 1, "the random `SEED` of the initial weights, the splits and the shuffling"),
		quiet:       fs.Bool("quiet", false, "print no progress on standard error"),
	}
}

// checkLossPairs refuses the loss flags that the chosen --loss would ignore.
func checkLossPairs(fs *flags, loss string) error {
	switch {
	case fs.isSet("lambda") && loss == "kl":
		return fs.fail("--lambda applies only with --loss kl+tw, kl+sinkhorn or kl+tsw")
	case fs.isSet("reg") && loss != "kl+sinkhorn":
		return fs.fail("--reg applies only with --loss kl+sinkhorn")
	case fs.isSet("iters") && loss != "kl+sinkhorn":
		return fs.fail("--iters applies only with --loss kl+sinkhorn")
	}
	return nil
}

// checkLossFlags checks the flags of the loss and Adam's step size, shared
// by train, cv and text train.
func checkLossFlags(fs *flags, loss string, lambda, reg float64, iters int, lr float64) error {
	switch {
	case loss != "kl" && loss != "kl+tw" && loss != "kl+sinkhorn" && loss != "kl+tsw":
		return fs.fail("--loss must be kl, kl+tw, kl+sinkhorn or kl+tsw, not %q", loss)
	case !(lambda >= 0) || math.IsInf(lambda, 1):
		return fs.fail("--lambda must be a finite number ≥ 0, not %v", lambda)
	case !(reg > 0) || math.IsInf(reg, 1):
		return fs.fail("--reg must be a finite number > 0, not %v", reg)
	case iters < 1:
		return fs.fail("--iters must be at least 1, not %d", iters)
	case !(lr > 0) || math.IsInf(lr, 1):
		return fs.fail("--lr must be a finite number > 0, not %v", lr)
	}
	return nil
}

// check validates the values of the flags, and refuses flags that the
// loss does not use (--lambda with kl, --reg and --iters but with
// kl+sinkhorn): silently ignored, they would mislead.
func (tf *trainFlags) check(e *env, fs *flags) error {
	switch {
	case *tf.data == "":
		return fs.fail("--data is required")
	case fs.isSet("trees") && *tf.trees == "":
		return fs.fail("--trees is empty: give the tree files, comma-separated")
	case *tf.tree == "" && *tf.trees == "":
		return fs.fail("--tree is required (or --trees with --loss kl+tsw)")
	case *tf.tree != "" && *tf.trees != "":
		return fs.fail("--tree and --trees exclude each other")
	case *tf.loss == "kl+tsw" && *tf.trees == "":
		return fs.fail("--loss kl+tsw needs --trees")
	case *tf.trees != "" && *tf.loss != "kl" && *tf.loss != "kl+tsw":
		return fs.fail("with --trees, --loss must be kl or kl+tsw; %s needs one --tree", *tf.loss)
	}
	if err := checkLossFlags(fs, *tf.loss, *tf.lambda, *tf.reg, *tf.iters, *tf.lr); err != nil {
		return err
	}
	switch {
	case *tf.epochs < 1:
		return fs.fail("--epochs must be at least 1, not %d", *tf.epochs)
	case *tf.batch < 1:
		return fs.fail("--batch must be at least 1, not %d", *tf.batch)
	case !(*tf.weightDecay >= 0) || math.IsInf(*tf.weightDecay, 1):
		return fs.fail("--weight-decay must be a finite number ≥ 0, not %v", *tf.weightDecay)
	case !(*tf.val >= 0 && *tf.val < 1):
		return fs.fail("--val must be a fraction in [0, 1), not %v", *tf.val)
	case *tf.patience < 0:
		return fs.fail("--patience must be ≥ 0, not %d", *tf.patience)
	case *tf.patience > 0 && *tf.val == 0:
		return fs.fail("--patience needs a validation split (--val)")
	}
	if err := checkLossPairs(fs, *tf.loss); err != nil {
		return err
	}
	if *tf.val > 0.5 {
		fmt.Fprintf(e.stderr, "%s: warning: --val %g holds out more rows for validation than it trains on (a fraction of 0.1 to 0.2 is usual)\n", fs.Name(), *tf.val)
	}
	return nil
}

// ldlData is a data set with its label tree: the features densely, the
// targets sparsely (their non-zero masses, labels in the tree's user
// order), so that data over 10⁵–10⁶ labels takes memory in its non-zero
// masses, not rows × labels.
type ldlData struct {
	file string
	X    *mat.Dense      // n×d features
	Y    *labeldist.Rows // n rows of targets
	t    *tree.Tree
	ref  tree.Ref
	// sliced, with --trees, is the tree-sliced distance over the labels,
	// which are then the leaves of the trees, t a flat tree of them.
	sliced *tsw.Sliced
}

// Len returns the number of rows.
func (d *ldlData) Len() int { return d.Y.Rows() }

// subsetX returns the rows rows of X, in that order, as a new matrix.
func subsetX(X *mat.Dense, rows []int) *mat.Dense {
	_, in := X.Dims()
	out := mat.NewDense(max(len(rows), 1), in, nil)
	if len(rows) == 0 {
		return out
	}
	for k, r := range rows {
		copy(out.RawRowView(k), X.RawRowView(r))
	}
	return out
}

// sparseRows returns the rows of the dense matrix Y by their non-zero
// masses.
func sparseRows(Y *mat.Dense) *labeldist.Rows {
	n, _ := Y.Dims()
	s := &labeldist.Rows{Off: make([]int, 1, n+1)}
	var idx []int
	var mass []float64
	for r := range n {
		idx, mass = idx[:0], mass[:0]
		for j, v := range Y.RawRowView(r) {
			if v != 0 {
				idx, mass = append(idx, j), append(mass, v)
			}
		}
		s.Append(idx, mass)
	}
	return s
}

// isMAT reports whether path names a MATLAB file: by its extension .mat,
// or by its header, whose descriptive text starts with "MATLAB" (version 5,
// "MATLAB 5.0 MAT-file, ...", and 7.3, which package matfile then reports
// as HDF5). Only regular files are read: a pipe is never a MAT-file here.
func isMAT(path string) bool {
	if strings.EqualFold(filepath.Ext(path), ".mat") {
		return true
	}
	f, err := os.Open(path)
	if err != nil {
		return false // the reader of JSON Lines reports the error
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return false
	}
	head := make([]byte, len(matMagic))
	_, err = io.ReadFull(f, head)
	return err == nil && string(head) == matMagic
}

// matMagic starts the 116-byte text of a MAT-file header.
const matMagic = "MATLAB"

// checkOutDir fails early, before a long computation, when the file path
// cannot be written: its directory is missing or not writable, or path is
// a directory. It creates a temporary file beside path and removes it;
// path itself is untouched.
func checkOutDir(path string) error {
	if path == "" || path == "-" {
		return nil
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("cannot write %s: it is a directory", path)
	}
	f, err := atomicfile.Create(path, 0o644)
	if err != nil {
		dir := filepath.Dir(path)
		switch {
		case errors.Is(err, os.ErrNotExist):
			return fmt.Errorf("cannot write %s: directory %s does not exist", path, dir)
		case errors.Is(err, syscall.ENOTDIR):
			return fmt.Errorf("cannot write %s: %s is not a directory", path, dir)
		}
		if inner := errors.Unwrap(err); inner != nil {
			err = inner // the error without "write PATH: "
		}
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	f.Abort()
	return nil
}

// checkDir fails early when the directory dir cannot be written: it is not
// a directory, or not writable, or it does not exist and cannot be created
// because its nearest existing ancestor is not a writable directory.
// Nothing is created.
func checkDir(dir string) error {
	d := filepath.Clean(dir)
	for {
		fi, err := os.Stat(d)
		if err == nil {
			if !fi.IsDir() {
				if d == filepath.Clean(dir) {
					return fmt.Errorf("cannot write to %s: it is not a directory", dir)
				}
				return fmt.Errorf("cannot create %s: %s is not a directory", dir, d)
			}
			probe, err := os.CreateTemp(d, ".twl-probe*")
			if err != nil {
				return fmt.Errorf("cannot write to %s: %w", dir, errors.Unwrap(err))
			}
			probe.Close()
			return os.Remove(probe.Name())
		}
		if !errors.Is(err, os.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
			return fmt.Errorf("cannot write to %s: %w", dir, err)
		}
		up := filepath.Dir(d)
		if up == d {
			return fmt.Errorf("cannot write to %s: %w", dir, err)
		}
		d = up
	}
}

// loadLDL reads the data set at dataPath ('-': JSON Lines on standard
// input) with the label tree named by treeSpec. Rows that were rescaled to
// sum 1 are reported on standard error. fs is for mistakes in treeSpec.
func loadLDL(e *env, fs *flags, dataPath, treeSpec, treeList string) (*ldlData, error) {
	// With --trees, the labels are the leaves of the trees: a flat tree of
	// their names reads the data, and the tree-sliced distance uses them.
	var sliced *tsw.Sliced
	resolve := resolveTree
	if treeList != "" {
		flat, sl, err := readSliced(fs, treeList)
		if err != nil {
			return nil, err
		}
		sliced = sl
		resolve = func(*flags, string, int) (*tree.Tree, string, error) { return flat, "trees:" + treeList, nil }
	}
	d, err := loadLDLWith(e, fs, dataPath, treeSpec, resolve)
	if err != nil {
		return nil, err
	}
	d.sliced = sliced
	return d, nil
}

func loadLDLWith(e *env, fs *flags, dataPath, treeSpec string, resolveTree func(*flags, string, int) (*tree.Tree, string, error)) (*ldlData, error) {
	if dataPath != "-" {
		if err := notDir(dataPath); err != nil {
			return nil, err
		}
	}
	if dataPath != "-" && isMAT(dataPath) {
		ds, rep, err := dataset.ReadMAT(dataPath, nil)
		if err != nil {
			return nil, err
		}
		warnReport(e, fs, rep)
		_, c := ds.Y.Dims()
		t, source, err := resolveTree(fs, treeSpec, c)
		if err != nil {
			return nil, err
		}
		if err := matColumns(ds, t, dataPath, treeSpec); err != nil {
			return nil, err
		}
		return &ldlData{file: dataPath, X: ds.X, Y: sparseRows(ds.Y), t: t, ref: tree.RefOf(t, source)}, nil
	}
	t, source, err := resolveTree(fs, treeSpec, 0)
	if err != nil {
		return nil, err
	}
	r, name, err := e.open(dataPath)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	// Read a row at a time: the targets stay sparse from the reader on.
	rd := dataset.NewReader(r, name, t, nil)
	d := &ldlData{file: name, Y: &labeldist.Rows{Off: []int{0}}, t: t, ref: tree.RefOf(t, source)}
	var xs []float64
	prog := newProgress(e.stderr, fs.Name()+": reading "+name, "rows")
	for rd.Next() {
		if d.Len()%4096 == 0 {
			if err := e.stopped(); err != nil {
				return nil, err
			}
			prog.tick(d.Len())
		}
		s := rd.Sample()
		xs = append(xs, s.X...)
		d.Y.Append(s.Y.Index, s.Y.Mass)
	}
	if err := rd.Err(); err != nil {
		return nil, err
	}
	prog.done(d.Len())
	d.X = mat.NewDense(d.Len(), rd.Dim(), xs)
	warnReport(e, fs, rd.Report())
	return d, nil
}

func warnReport(e *env, fs *flags, rep dataset.Report) {
	if s := rep.String(); s != "" {
		fmt.Fprintf(e.stderr, "%s: warning: %s\n", fs.Name(), s)
	}
}

// resolveTree returns the tree named by spec (see tree.Open) and its
// source for the model file. "chain" and "star" without a count name c
// labels, c > 0 only for MAT data (a file named chain is ./chain).
func resolveTree(fs *flags, spec string, c int) (*tree.Tree, string, error) {
	if (spec == "chain" || spec == "star") && c > 0 {
		spec = fmt.Sprintf("%s:%d", spec, c)
	} else if spec == "chain" || spec == "star" {
		return nil, "", fs.fail("--tree %s needs the number of labels for JSON Lines data: --tree %s:N", spec, spec)
	}
	t, err := tree.Open(spec, &tree.Options{Warn: fs.warn})
	if errors.Is(err, tree.ErrSpec) {
		return nil, "", fs.fail("--tree %v", err)
	}
	if err != nil {
		return nil, "", err
	}
	if kind, _, ok := strings.Cut(spec, ":"); ok && tree.SpecFile(spec) == "" {
		if c > 0 && t.Len() != c {
			return nil, "", fmt.Errorf("--tree %s has %d labels, want %d", spec, t.Len(), c)
		}
		spec = fmt.Sprintf("%s:%d", kind, t.Len())
	}
	return t, spec, nil
}

// notDir returns an error, "PATH: is a directory, not a file", when path
// names a directory: read as a file, it fails at its first read, which
// would be reported as line 1 of the file.
func notDir(path string) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("%s: %w, not a file", path, syscall.EISDIR)
	}
	return nil
}

// matColumns reorders the columns of a MAT data set, whose labels are named
// "0" … "c−1", into the user order of t, which must have a node of each of
// those names; the other nodes of t get mass 0.
func matColumns(ds *dataset.Dataset, t *tree.Tree, dataPath, treePath string) error {
	n, c := ds.Y.Dims()
	L := t.Len()
	perm := make([]int, c)
	identity := L == c
	for j := range c {
		i, ok := t.Index(strconv.Itoa(j))
		if !ok {
			return fmt.Errorf("%s: no node %q for label column %d of %s (its %d labels are named 0 … %d)",
				treePath, strconv.Itoa(j), j, dataPath, c, c-1)
		}
		perm[j] = i
		identity = identity && i == j
	}
	if identity {
		return nil
	}
	y := make([]float64, n*L)
	for r := range n {
		for j, v := range ds.Y.RawRowView(r) {
			y[r*L+perm[j]] = v
		}
	}
	ds.Y = mat.NewDense(n, L, y)
	ds.Labels = t.Names()
	return nil
}

// fitSpec is one training run's configuration.
type fitSpec struct {
	loss        string
	lambda      float64
	reg         float64
	iters       int
	epochs      int
	batch       int
	lr          float64
	weightDecay float64
	decayBias   bool
	standardize bool
	val         float64
	patience    int
	seed        uint64
	data        string // for the model file's record
}

func (tf *trainFlags) spec(data string) fitSpec {
	return fitSpec{
		loss: *tf.loss, lambda: *tf.lambda, reg: *tf.reg, iters: *tf.iters,
		epochs: *tf.epochs, batch: *tf.batch, lr: *tf.lr, weightDecay: *tf.weightDecay, decayBias: *tf.decayBias,
		standardize: *tf.standardize, val: *tf.val, patience: *tf.patience, seed: *tf.seed, data: data,
	}
}

// newLoss makes the loss of the spec on tree t.
func (s *fitSpec) newLoss(t *tree.Tree) (loss.Loss, error) { return s.newLossSliced(t, nil) }

// newLossSliced is newLoss with the tree-sliced distance of --trees, for
// kl+tsw.
func (s *fitSpec) newLossSliced(t *tree.Tree, sl *tsw.Sliced) (loss.Loss, error) {
	L := t.Len()
	switch s.loss {
	case "kl+tsw":
		if sl == nil {
			return nil, errors.New("--loss kl+tsw needs --trees (twl train and twl cv)")
		}
		return loss.NewKLTSW(sl, s.lambda), nil
	case "kl+tw":
		return loss.NewKLTW(t, s.lambda), nil
	case "kl+sinkhorn":
		if L > maxSinkhornLabels {
			return nil, fmt.Errorf("--loss kl+sinkhorn needs two %d×%d matrices (%s); it is limited to %d labels: use kl+tw",
				L, L, formatBytes(16*float64(L)*float64(L)), maxSinkhornLabels)
		}
		cost := t.DistanceMatrix(nil).RawMatrix().Data
		return loss.NewKLSinkhorn(cost, L, s.lambda, sinkhorn.Settings{Lambda: s.reg, Iters: s.iters, Tol: -1})
	}
	return loss.NewKL(L), nil
}

// fitResult is a trained model and how training went.
type fitResult struct {
	file    *model.File
	history train.History
	rows    int // rows trained on
	valRows int
	seconds float64
}

// fitRun is how one training run reports and saves itself.
type fitRun struct {
	ctx             context.Context // stops training between mini-batches; nil: never
	progress        io.Writer       // one line per epoch, when not nil
	checkpoint      string          // resumable training, when not empty
	checkpointEvery int             // epochs between checkpoints; 0 means 1
}

// fit trains a model on rows of d (nil: all rows), holding out a
// validation fraction of them if s.val > 0. The standardization is fitted on
// the rows trained on only. A run that diverges, to a non-finite loss or
// to one far above that of predicting the uniform distribution (see
// baselines), is an error, and no model is returned; training stops at the
// first epoch that diverges.
func fit(d *ldlData, rows []int, s fitSpec, run fitRun) (*fitResult, error) {
	if rows == nil {
		rows = make([]int, d.Len())
		for i := range rows {
			rows[i] = i
		}
	}
	subX, subY := subsetX(d.X, rows), d.Y.Subset(rows)
	n, in := len(rows), d.X.RawMatrix().Cols
	L := d.t.Len()
	var valRows, trainRows []int
	if s.val > 0 {
		trainRows, valRows = dataset.Split(n, 1-s.val, rand.NewPCG(s.seed, streamVal))
		if len(valRows) == 0 || len(trainRows) == 0 {
			return nil, fmt.Errorf("--val %g of %d rows leaves %d for validation and %d for training; both need at least one",
				s.val, n, len(valRows), len(trainRows))
		}
	}
	var std *model.Standardization
	if s.standardize {
		var st dataset.Standardizer
		st.Fit(subX, trainRows) // nil: all rows
		st.Transform(subX, subX)
		std = &model.Standardization{Mean: st.Mean, Scale: st.Scale}
	}
	l, err := s.newLossSliced(d.t, d.sliced)
	if err != nil {
		return nil, err
	}
	m := model.NewLinear(in, L, rand.NewPCG(s.seed, streamInit))
	cfg := train.Config{
		Epochs: s.epochs, Batch: s.batch, Seed: s.seed,
		Adam:    optim.Adam{LR: s.lr, WeightDecay: s.weightDecay, DecayEnd: s.decayEnd(m)},
		ValRows: valRows, Patience: s.patience, Progress: run.progress,
		Checkpoint: run.checkpoint, CheckpointEvery: run.checkpointEvery, Context: run.ctx,
		Tag: "tree " + d.t.Hash(),
	}
	start := time.Now()
	data := train.Data{X: subX.RawMatrix().Data, YSparse: subY, N: n, In: in, L: L}
	base := uniformBaselines(l, data, trainRows, valRows)
	cfg.EpochEnd = base.epochEnd
	h, err := train.Fit(m, l, data, cfg)
	if err == nil {
		err = base.final(h)
	}
	if errors.Is(err, train.ErrDiverged) || errors.Is(err, errDiverged) {
		msg := fmt.Sprintf("%v; no model is written: try a smaller --lr (now %g)", err, s.lr)
		if run.checkpoint != "" {
			msg += fmt.Sprintf(", after removing the checkpoint %s", run.checkpoint)
		}
		return nil, errors.New(msg)
	}
	if err != nil {
		return nil, err
	}
	f := model.NewFile(m, d.t.Names())
	f.Tree = d.ref
	f.Standardize = std
	f.Loss = l.Name()
	res := &fitResult{file: f, history: h, rows: n - len(valRows), valRows: len(valRows), seconds: time.Since(start).Seconds()}
	info := &model.TrainInfo{
		Data: s.data, Rows: res.rows, ValRows: res.valRows, Epochs: s.epochs, EpochsRun: len(h.Epochs),
		BestEpoch: h.BestEpoch, Stopped: h.Stopped, Resumed: h.Resumed, Batch: s.batch, LR: s.lr,
		WeightDecay: s.weightDecay, Patience: s.patience, Seed: s.seed, Seconds: res.seconds,
	}
	if k := len(h.Epochs); k > 0 {
		info.TrainLoss = h.Epochs[k-1].TrainLoss
		if len(valRows) > 0 && h.BestEpoch > 0 && h.BestEpoch <= k {
			v := h.Epochs[h.BestEpoch-1].ValLoss
			info.ValLoss = &v
		}
	}
	if s.loss == "kl+sinkhorn" {
		info.SinkhornReg, info.Iters = s.reg, s.iters
	}
	f.Train = info
	return res, nil
}

// divergedFactor is how many times the loss of predicting the uniform
// distribution a run's loss may reach before the run is called diverged. A
// run that learns anything stays below that loss; one whose steps are far
// too large (--lr 1e10) is orders of magnitude above it from the first
// epoch on.
const divergedFactor = 100

// errDiverged is a run whose loss stayed finite but grew far too large.
var errDiverged = errors.New("training diverged")

// baselines are the losses of the uniform prediction (zero logits) on the
// training and the validation rows of a run (at most 4096 rows of each are
// evaluated), which its losses are checked against: NaN where there are no
// such rows or the loss cannot be evaluated, and then nothing is checked.
type baselines struct {
	train, val float64
}

// uniformBaselines computes the baselines of a run on data with loss l;
// trainRows nil means all rows.
func uniformBaselines(l loss.Loss, data train.Data, trainRows, valRows []int) baselines {
	if trainRows == nil {
		trainRows = make([]int, data.N)
		for i := range trainRows {
			trainRows[i] = i
		}
	}
	return baselines{train: uniformLoss(l, data, trainRows), val: uniformLoss(l, data, valRows)}
}

// uniformLoss returns the mean loss l of zero logits on (at most the first
// 4096 of) rows, NaN for no rows or a loss that fails.
func uniformLoss(l loss.Loss, data train.Data, rows []int) float64 {
	rows = rows[:min(len(rows), 4096)]
	if len(rows) == 0 {
		return math.NaN()
	}
	L := data.L
	const batch = 64
	z := make([]float64, batch*L)
	y := make([]float64, batch*L)
	var sum float64
	for s := 0; s < len(rows); s += batch {
		part := rows[s:min(s+batch, len(rows))]
		B := len(part)
		for k, r := range part {
			if data.Y == nil {
				data.YSparse.Dense(y[k*L:(k+1)*L], r)
			} else {
				copy(y[k*L:(k+1)*L], data.Y[r*L:(r+1)*L])
			}
		}
		clear(z[:B*L])
		v, err := l.Eval(z[:B*L], z[:B*L], y[:B*L])
		if err != nil {
			return math.NaN() // no baseline, no verdict
		}
		sum += v * float64(B)
	}
	return sum / float64(len(rows))
}

// exceeds returns an error wrapping errDiverged when the loss got on the
// rows named by what is more than divergedFactor times uniform, the loss of
// the uniform prediction on them. A finite but huge loss is as much a
// divergence as a NaN one.
func exceeds(what string, got, uniform float64) error {
	if math.IsNaN(uniform) || !(got > divergedFactor*max(uniform, 1e-3)) {
		return nil
	}
	return fmt.Errorf("%w: the %s loss is %.3g, %.3g times the %.3g of predicting the uniform distribution",
		errDiverged, what, got, got/max(uniform, 1e-300), uniform)
}

// epochEnd is train.Config.EpochEnd: it stops a run at the first epoch whose
// training loss, or validation loss, exceeds divergedFactor times its
// baseline.
func (b baselines) epochEnd(ep train.Epoch) error {
	if err := exceeds("training", ep.TrainLoss, b.train); err != nil {
		return err
	}
	return exceeds("validation", ep.ValLoss, b.val)
}

// final checks the loss that training ended with, on the validation rows
// if there are any (the best epoch's) or else on the training rows (the
// last epoch's), against its baseline. epochEnd has checked every epoch
// this process trained; final also covers the epochs of a checkpoint a run
// resumed after, and one that had finished.
func (b baselines) final(h train.History) error {
	if len(h.Epochs) == 0 {
		return nil
	}
	if !math.IsNaN(b.val) && h.BestEpoch > 0 && h.BestEpoch <= len(h.Epochs) {
		return exceeds("validation", h.Epochs[h.BestEpoch-1].ValLoss, b.val)
	}
	return exceeds("training", h.Epochs[len(h.Epochs)-1].TrainLoss, b.train)
}

// appendJSONFloat appends v as a JSON number in the shortest form that
// reads back to the same float64, or, for infinities and NaN, which JSON
// lacks, as the strings "+Inf", "-Inf" and "NaN" (as twl eval does).
func appendJSONFloat(b []byte, v float64) []byte {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return strconv.AppendQuote(b, strconv.FormatFloat(v, 'g', -1, 64))
	}
	return strconv.AppendFloat(b, v, 'g', -1, 64)
}

// writeJSONObject writes the key–value pairs as one line of JSON. Values
// are float64 (see appendJSONFloat), int, bool, string or []byte (raw JSON).
func writeJSONObject(buf *bytes.Buffer, kv ...any) {
	b := []byte{'{'}
	for i := 0; i+1 < len(kv); i += 2 {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, kv[i].(string))
		b = append(b, ':')
		switch v := kv[i+1].(type) {
		case float64:
			b = appendJSONFloat(b, v)
		case int:
			b = strconv.AppendInt(b, int64(v), 10)
		case bool:
			b = strconv.AppendBool(b, v)
		case string:
			q, _ := json.Marshal(v) // a string always encodes
			b = append(b, q...)
		case []byte:
			b = append(b, v...)
		default:
			panic(fmt.Sprintf("writeJSONObject: unsupported %T", v))
		}
	}
	buf.Write(append(b, '}', '\n'))
}

// decayEnd returns optim.Adam.DecayEnd for m: its weights only (W precedes
// b in Params), or every parameter with --decay-bias.
func (s *fitSpec) decayEnd(m *model.Linear) int {
	if s.decayBias {
		return 0
	}
	return len(m.W())
}

// checkNotInput fails when an output file is one of the input files (the
// same file, by os.SameFile, so also through another path or a link):
// writing it would destroy the input. Empty names and "-" are skipped.
// sameFile reports whether the paths a and b name the same file: the same
// cleaned absolute path (a file not yet written), or the same existing file
// under two names.
func sameFile(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	aa, err1 := filepath.Abs(a)
	ab, err2 := filepath.Abs(b)
	if err1 == nil && err2 == nil && aa == ab {
		return true
	}
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

func checkNotInput(fs *flags, outputs map[string]string, inputs map[string]string) error {
	// An input given as taxonomy:FILE or edges:FILE is the file FILE.
	for oflag, out := range outputs {
		if out == "" || out == "-" {
			continue
		}
		ofi, err := os.Stat(out)
		if err != nil {
			continue // it does not exist yet: it is no input
		}
		for iflag, in := range inputs {
			if in == "" || in == "-" {
				continue
			}
			if in = tree.SpecFile(in); in == "" {
				continue
			}
			if ifi, err := os.Stat(in); err == nil && os.SameFile(ofi, ifi) {
				return fs.fail("--%s %s is the %s file: writing it would destroy the input", oflag, out, iflag)
			}
		}
	}
	return nil
}
