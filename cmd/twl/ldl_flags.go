package main

// Shared parts of the label-distribution-learning commands train, predict
// and cv over package ldl: the training flags, their checks and the
// options they make, reading data sets and trees with the command line's
// messages, JSON numbers.

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"math"
	"sync"

	"github.com/twl-ldl/twl/dataset"
	"github.com/twl-ldl/twl/internal/hugepage"
	"github.com/twl-ldl/twl/internal/jsonfloat"
	"github.com/twl-ldl/twl/ldl"
	"github.com/twl-ldl/twl/loss"
	"github.com/twl-ldl/twl/train"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/tsw"
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
		loss:        fs.String("loss", "kl", "the training `LOSS`: kl, kl+tw, kl+sinkhorn, or with --trees kl+tsw; a weight in the name (kl+0.5tw) takes the place of --lambda"),
		lambda:      fs.Float64("lambda", ldl.DefaultLambda, "the weight `λ` > 0 of the transport term of kl+tw and kl+sinkhorn"),
		reg:         fs.Float64("reg", ldl.DefaultSinkhornReg, "kl+sinkhorn: the kernel parameter `λs` of exp(−λs·C); POT's reg is 1/λs"),
		iters:       fs.Int("iters", ldl.DefaultIters, "kl+sinkhorn: the number of Sinkhorn `ITERATIONS` per gradient"),
		epochs:      fs.Int("epochs", ldl.DefaultEpochs, "the number of `EPOCHS` (passes over the training rows)"),
		batch:       fs.Int("batch", ldl.DefaultBatch, "the mini-batch `SIZE`"),
		lr:          fs.Float64("lr", ldl.DefaultLR, "Adam's learning `RATE`"),
		weightDecay: fs.Float64("weight-decay", ldl.DefaultWeightDecay, "the L2 weight-decay `COEFFICIENT` added to the gradient of the weights"),
		decayBias:   fs.Bool("decay-bias", false, "apply --weight-decay to the biases too (by default only the weights decay: decayed biases pull predictions toward uniform)"),
		standardize: fs.Bool("standardize", true, "standardize the features (mean 0, variance 1 on the training rows); --standardize=false to use them as they are"),
		val:         fs.Float64("val", 0, "hold out this `FRACTION` of the training rows for validation: the model of the epoch with the lowest validation loss is kept"),
		patience:    fs.Int("patience", 0, "with --val, stop after this many `EPOCHS` without a lower validation loss (0: never)"),
		seed:        fs.Uint64("seed", 1, "the random `SEED` of the initial weights, the splits and the shuffling"),
		quiet:       fs.Bool("quiet", false, "print no progress on standard error"),
	}
}

// parseLoss parses the value of --loss; ok is false when it is not a loss
// name.
func parseLoss(name string) (n loss.Name, ok bool) {
	n, err := loss.Parse(name)
	return n, err == nil
}

// checkLossPairs refuses the loss flags that the chosen --loss would ignore,
// and --lambda beside a weight written in --loss.
func checkLossPairs(fs *flags, lossName string) error {
	n, ok := parseLoss(lossName)
	switch {
	case fs.isSet("lambda") && ok && n.Term == loss.TermNone:
		return fs.fail("--lambda applies only with --loss %s", orList(lossTerms(fs)))
	case fs.isSet("lambda") && ok && fs.Lookup("lambda").Value.(flag.Getter).Get() == 0.0:
		// Training with KL alone would then be reported as loss kl, not as
		// what was typed: refuse, naming the loss that does it.
		return fs.fail("--lambda 0 turns the %s term off: use --loss kl", n.Term)
	case fs.isSet("lambda") && ok && n.Weighted:
		return fs.fail("--lambda and the weight in --loss %s exclude each other: give one of them", lossName)
	case fs.isSet("reg") && !(ok && n.Term == loss.TermSinkhorn):
		return fs.fail("--reg applies only with --loss kl+sinkhorn")
	case fs.isSet("iters") && !(ok && n.Term == loss.TermSinkhorn):
		return fs.fail("--iters applies only with --loss kl+sinkhorn")
	}
	return nil
}

// lossTerms lists the KL + term losses that the command of fs accepts:
// kl+tsw only where there is --trees (train and cv, not text train).
func lossTerms(fs *flags) []string {
	if fs.Lookup("trees") != nil {
		return []string{"kl+tw", "kl+sinkhorn", "kl+tsw"}
	}
	return []string{"kl+tw", "kl+sinkhorn"}
}

// checkLossFlags checks the flags of the loss and Adam's step size, shared
// by train, cv and text train. --loss is read by loss.Parse.
func checkLossFlags(fs *flags, lossName string, lambda, reg float64, iters int, lr float64) error {
	_, ok := parseLoss(lossName)
	switch {
	case !ok:
		return fs.fail("--loss must be %s, with an optional weight such as kl+0.5tw, not %q", orList(append([]string{"kl"}, lossTerms(fs)...)), lossName)
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
	n, ok := parseLoss(*tf.loss)
	isKL, isTSW := ok && n.Term == loss.TermNone, ok && n.Term == loss.TermTSW
	switch {
	case *tf.data == "":
		return fs.fail("--data is required")
	case fs.isSet("trees") && *tf.trees == "":
		return fs.fail("--trees is empty: give the tree files, comma-separated")
	case *tf.tree == "" && *tf.trees == "":
		return fs.fail("--tree is required (or --trees with --loss kl+tsw)")
	case *tf.tree != "" && *tf.trees != "":
		return fs.fail("--tree and --trees exclude each other")
	case isTSW && *tf.trees == "":
		return fs.fail("--loss kl+tsw needs --trees")
	case *tf.trees != "" && !isKL && !isTSW:
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

// ldlHeap is the heap that twl train and twl cv ask to have on huge
// pages: about twice what a 27 MB file of 1000 rows of 100 features and
// 1000 labels takes once read, the model and Adam's state included. It
// takes the page faults of a 30-epoch twl train run on such a file from
// about 9,500 to 1,500 and its processor time down by 2–5 % (its peak
// memory up by about 5 MB).
const ldlHeap = 64 << 20

// reserveLDL reserves ldlHeap once per process (the tests run many
// commands in one).
var reserveLDL = sync.OnceFunc(func() { hugepage.Reserve(ldlHeap) })

// loadLDL reads the data set at dataPath ('-': JSON Lines on standard
// input) with the label tree named by treeSpec, or with --trees (treeList)
// a flat tree of the trees' leaves, and then also returns the tree-sliced
// distance over them. Warnings go to standard error; fs is for mistakes in
// treeSpec.
func loadLDL(e *env, fs *flags, dataPath, treeSpec, treeList string) (*ldl.Data, *tsw.Sliced, error) {
	// The rows, the model and its optimizer's state are written once, soon
	// after they are allocated: on huge pages, the first ldlHeap bytes of
	// them cost a page fault every 2 MiB instead of every 4 KiB.
	reserveLDL()
	opts := &ldl.LoadOptions{Warn: fs.warn, Stdin: e.stdin}
	var sliced *tsw.Sliced
	if treeList != "" {
		flat, sl, err := readSliced(fs, treeList)
		if err != nil {
			return nil, nil, err
		}
		sliced, opts.Tree, treeSpec = sl, flat, "trees:"+treeList
	}
	name := dataPath
	if dataPath == "-" {
		name = "<stdin>"
	}
	prog := newProgress(e.stderr, fs.Name()+": reading "+name, "rows")
	opts.Progress = prog.tick
	d, err := ldl.Load(e.ctx, dataPath, treeSpec, opts)
	if err != nil {
		return nil, nil, treeError(fs, treeSpec, err)
	}
	prog.done(d.Len()) // nothing unless progress was shown
	return d, sliced, nil
}

func warnReport(e *env, fs *flags, rep dataset.Report) {
	if s := rep.String(); s != "" {
		fmt.Fprintf(e.stderr, "%s: warning: %s\n", fs.Name(), s)
	}
}

// resolveTree returns the tree named by spec (see ldl.OpenTree) and its
// source for the model file. "chain" and "star" without a count name c
// labels, c > 0 only for MAT data (a file named chain is ./chain).
func resolveTree(fs *flags, spec string, c int) (*tree.Tree, string, error) {
	t, source, err := ldl.OpenTree(spec, c, &tree.Options{Warn: fs.warn, MaxBytes: fs.maxMemory()})
	if err != nil {
		return nil, "", treeError(fs, spec, err)
	}
	return t, source, nil
}

// treeError gives the errors of ldl.OpenTree the command line's words:
// a usage error for a malformed --tree.
func treeError(fs *flags, spec string, err error) error {
	var se *ldl.TreeSizeError
	switch {
	case errors.Is(err, ldl.ErrLabelCount):
		return fs.fail("--tree %s needs the number of labels for JSON Lines data: --tree %s:N", spec, spec)
	case errors.Is(err, tree.ErrSpec):
		return fs.fail("--tree %v", err)
	case errors.As(err, &se):
		return fmt.Errorf("--tree %s has %d labels, want %d", se.Spec, se.Labels, se.WantLabels)
	}
	return err
}

// options returns the training options of the flags.
func (tf *trainFlags) options(fs *flags, sliced *tsw.Sliced) ldl.Options {
	o := ldl.Options{
		Loss: *tf.loss, SinkhornReg: *tf.reg, SinkhornIters: *tf.iters, Trees: sliced,
		Epochs: *tf.epochs, Batch: *tf.batch, LR: *tf.lr, WeightDecay: *tf.weightDecay, DecayBias: *tf.decayBias,
		Raw: !*tf.standardize, Val: *tf.val, Patience: *tf.patience, Seed: *tf.seed,
	}
	if fs.isSet("lambda") {
		o.Lambda = *tf.lambda
		if o.Lambda == 0 {
			o.Lambda = -1 // λ = 0
		}
	}
	if o.WeightDecay == 0 {
		o.WeightDecay = -1 // none
	}
	return o
}

// fitError gives the errors of ldl.Fit and ldl.CrossValidate the command
// line's words: the flags to change.
func fitError(err error, lr float64, checkpoint string) error {
	var (
		fe *ldl.FoldError
		se *ldl.SplitError
		le *ldl.LabelLimitError
	)
	switch {
	case errors.As(err, &fe):
		return fmt.Errorf("repeat %d, fold %d: %w", fe.Repeat, fe.Fold, fitError(fe.Err, lr, checkpoint))
	case errors.As(err, &se):
		return fmt.Errorf("--val %g of %d rows leaves %d for validation and %d for training; both need at least one",
			se.Val, se.Rows, se.ValRows, se.Trained)
	case errors.As(err, &le):
		L := le.Labels
		return fmt.Errorf("--loss kl+sinkhorn needs two %d×%d matrices (%s); it is limited to %d labels: use kl+tw",
			L, L, formatBytes(16*float64(L)*float64(L)), ldl.MaxSinkhornLabels)
	case errors.Is(err, train.ErrDiverged) || errors.Is(err, ldl.ErrDiverged):
		msg := fmt.Sprintf("%v; no model is written: try a smaller --lr (now %g)", err, lr)
		if checkpoint != "" {
			msg += fmt.Sprintf(", after removing the checkpoint %s", checkpoint)
		}
		return errors.New(msg)
	}
	return err
}

// writeJSONObject writes the key–value pairs as one line of JSON (see
// jsonfloat.AppendObject).
func writeJSONObject(buf *bytes.Buffer, kv ...any) { buf.Write(jsonfloat.AppendObject(nil, kv...)) }
