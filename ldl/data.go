package ldl

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"

	"gonum.org/v1/gonum/mat"

	"github.com/twl-ldl/twl/dataset"
	"github.com/twl-ldl/twl/internal/jsonscan"
	"github.com/twl-ldl/twl/labeldist"
	"github.com/twl-ldl/twl/tree"
)

// Data is a label-distribution data set with its label tree: the features
// densely, the targets sparsely (their non-zero masses, labels in the
// tree's user order), so that data over 10⁵–10⁶ labels takes memory in its
// non-zero masses, not rows × labels. Fit and CrossValidate only read it.
type Data struct {
	// Path is the data file as given to Load ("-": standard input), the
	// name recorded in model files; Name is its name in messages
	// ("<stdin>" for standard input).
	Path, Name string
	X          *mat.Dense      // n×d features
	Y          *labeldist.Rows // n rows of targets over the labels of Tree
	Tree       *tree.Tree      // the label tree
	Ref        tree.Ref        // how model files record Tree
	// Report says how the rows were read: rows rescaled to sum 1, the
	// tolerance used (dataset.Report.String is the warning, "" for none).
	Report dataset.Report
}

// Len returns the number of rows.
func (d *Data) Len() int { return d.Y.Rows() }

// LoadOptions control Load. The zero value reads the tree that the spec
// names, warns nobody and cannot be stopped.
type LoadOptions struct {
	// Tree, when not nil, is the label tree, and the spec given to Load is
	// only recorded as its source in Data.Ref (for example a flat tree of
	// the leaves of the trees of a tree-sliced distance, "trees:A,B").
	Tree *tree.Tree
	// Warn, when not nil, receives the warnings about the inputs: those of
	// the tree's reader (tree.Options.Warn) and the reading report of the
	// data when it has something to say (Data.Report.String), in the
	// order they arise.
	Warn func(msg string)
	// Stdin is what the data path "-" reads (JSON Lines); nil: os.Stdin.
	Stdin io.Reader
	// Progress, when not nil, is called with the number of rows read so
	// far every 4096 rows of JSON Lines.
	Progress func(rows int)
}

// ErrLabelCount is wrapped by the error of OpenTree and Load for the specs
// chain and star without a number of labels where the data does not give
// one (JSON Lines data).
var ErrLabelCount = errors.New("the number of labels is needed")

// TreeSizeError is the error of OpenTree and Load for a generated tree
// (chain:N, star:N) whose number of labels differs from the data's.
type TreeSizeError struct {
	Spec       string // the spec as given
	Labels     int    // the labels of the tree
	WantLabels int    // the labels of the data
}

// Error returns "tree SPEC has N labels, the data M".
func (e *TreeSizeError) Error() string {
	return fmt.Sprintf("tree %s has %d labels, the data %d", e.Spec, e.Labels, e.WantLabels)
}

// OpenTree returns the tree that spec names (see tree.Open) and its source
// for model files (tree.RefOf). labels is the number of labels of the data
// when it is known, as in MAT files (labels named "0" … "labels−1"), and 0
// otherwise: "chain" and "star" alone then name a chain or a star of that
// many labels, and an error wrapping ErrLabelCount without it (a file named
// chain is ./chain). A chain:N or star:N with N ≠ labels is a
// *TreeSizeError; a malformed spec an error wrapping tree.ErrSpec. opts is
// passed to the tree's reader.
func OpenTree(spec string, labels int, opts *tree.Options) (*tree.Tree, string, error) {
	if (spec == "chain" || spec == "star") && labels > 0 {
		spec = fmt.Sprintf("%s:%d", spec, labels)
	} else if spec == "chain" || spec == "star" {
		return nil, "", fmt.Errorf("%s: %w for JSON Lines data: %s:N", spec, ErrLabelCount, spec)
	}
	t, err := tree.Open(spec, opts)
	if err != nil {
		return nil, "", err
	}
	if kind, _, ok := strings.Cut(spec, ":"); ok && tree.SpecFile(spec) == "" {
		if labels > 0 && t.Len() != labels {
			return nil, "", &TreeSizeError{Spec: spec, Labels: t.Len(), WantLabels: labels}
		}
		spec = fmt.Sprintf("%s:%d", kind, t.Len())
	}
	return t, spec, nil
}

// Load reads the data set at dataPath with the label tree named by
// treeSpec (see OpenTree). The data is a MATLAB .mat file with the
// matrices "features" (n×d) and "labels" (n×c), recognized by its
// extension or its header (IsMAT), whose labels are named "0" … "c−1" and
// may be the nodes of any tree that has them; or JSON Lines, one sample
// {"x": [...], "y": {"label": mass, ...}} per line, with labels of the
// tree ("-": standard input, LoadOptions.Stdin). Label rows that do not
// sum to 1 are rescaled and reported (Data.Report, LoadOptions.Warn).
//
// A MAT file is read before its tree, whose size it gives; JSON Lines are
// read after it, a row at a time, so that the targets stay sparse. A JSON
// Lines file of 4 MB or more is read in two halves at once when two
// processors can (GOMAXPROCS), cut at a line end near its middle, with the
// same rows, report and errors as one reading. The errors are those of the
// readers (dataset.Error, with the file and line), of OpenTree, and
// ctx.Err() wrapped when ctx is done (checked every 4096 rows).
func Load(ctx context.Context, dataPath, treeSpec string, opts *LoadOptions) (*Data, error) {
	var o LoadOptions
	if opts != nil {
		o = *opts
	}
	warn := func(msg string) {
		if o.Warn != nil {
			o.Warn(msg)
		}
	}
	open := func(c int) (*tree.Tree, tree.Ref, error) {
		if o.Tree != nil {
			return o.Tree, tree.RefOf(o.Tree, treeSpec), nil
		}
		t, source, err := OpenTree(treeSpec, c, &tree.Options{Warn: o.Warn})
		if err != nil {
			return nil, tree.Ref{}, err
		}
		return t, tree.RefOf(t, source), nil
	}
	if dataPath != "-" {
		if fi, err := os.Stat(dataPath); err == nil && fi.IsDir() {
			return nil, fmt.Errorf("%s: %w, not a file", dataPath, syscall.EISDIR)
		}
	}
	if dataPath != "-" && IsMAT(dataPath) {
		ds, rep, err := dataset.ReadMAT(dataPath, nil)
		if err != nil {
			return nil, err
		}
		if s := rep.String(); s != "" {
			warn(s)
		}
		_, c := ds.Y.Dims()
		t, ref, err := open(c)
		if err != nil {
			return nil, err
		}
		if err := matColumns(ds, t, dataPath, treeSpec); err != nil {
			return nil, err
		}
		return &Data{Path: dataPath, Name: dataPath, X: ds.X, Y: sparseRows(ds.Y), Tree: t, Ref: ref, Report: rep}, nil
	}
	t, ref, err := open(0)
	if err != nil {
		return nil, err
	}
	lc := &lineCounter{size: -1}
	name := dataPath
	if dataPath == "-" {
		lc.r, name = o.Stdin, "<stdin>"
		if lc.r == nil {
			lc.r = os.Stdin
		}
	} else {
		f, err := os.Open(dataPath)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		lc.r = f
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			lc.size = fi.Size()
		}
	}
	// Read a row at a time: the targets stay sparse from the reader on.
	// A large file is read in two halves at once, when two processors
	// can; its rows, report and errors are those of one reading.
	var p *part
	if f, ok := lc.r.(*os.File); ok && lc.size >= splitSize && runtime.GOMAXPROCS(0) > 1 {
		p, err = readHalves(ctx, f, lc.size, name, t, o.Progress)
	}
	if p == nil && err == nil {
		p, err = readRows(ctx, lc, name, t, &rowHooks{progress: o.Progress})
	}
	if err != nil {
		return nil, err
	}
	d := &Data{Path: dataPath, Name: name, X: mat.NewDense(p.y.Rows(), p.dim, p.xs), Y: p.y, Tree: t, Ref: ref, Report: p.rep}
	if s := d.Report.String(); s != "" {
		warn(s)
	}
	return d, nil
}

// part is what reading the lines of a file, or of a stretch of one, gives.
type part struct {
	xs    []float64       // the features, row after row
	y     *labeldist.Rows // the targets
	dim   int             // the number of features
	rep   dataset.Report
	lines int64 // the line ends read
}

// rowHooks are what readRows reports to and listens to besides ctx.
type rowHooks struct {
	// progress, when not nil, is called with the rows read so far, every
	// 4096 rows, plus those others (when not nil) holds.
	progress func(rows int)
	others   *atomic.Int64
	// count, when not nil, is kept at the rows read; stop, when not nil,
	// ends reading (with errStopped) once it is true.
	count *atomic.Int64
	stop  *atomic.Bool
}

// errStopped ends a half that the other half's error made useless.
var errStopped = errors.New("ldl: reading stopped")

// readRows reads the samples of lc, the JSON Lines file name.
func readRows(ctx context.Context, lc *lineCounter, name string, t *tree.Tree, h *rowHooks) (*part, error) {
	rd := dataset.NewReader(lc, name, t, nil)
	y := &labeldist.Rows{Off: []int{0}}
	var xs []float64
	for rd.Next() {
		n := y.Rows()
		if h.stop != nil && h.stop.Load() {
			return nil, errStopped
		}
		if h.count != nil {
			h.count.Store(int64(n))
		}
		if n%4096 == 0 {
			if ctx != nil && ctx.Err() != nil {
				return nil, fmt.Errorf("ldl: reading %s stopped: %w", name, ctx.Err())
			}
			if h.progress != nil {
				if h.others != nil {
					n += int(h.others.Load())
				}
				h.progress(n)
			}
		}
		s := rd.Sample()
		if cap(xs)-len(xs) < len(s.X) || cap(y.Index)-len(y.Index) < len(s.Y.Index) || cap(y.Off) == len(y.Off) {
			// Make room for the rows still to come, as many as the
			// file's size suggests and an eighth more (the first lines
			// may be shorter than the rest, and growing again copies
			// every row read), at least a quarter of those read.
			n := y.Rows()
			est := lc.rows()
			more := max(est+est/8-n, n/4, 1)
			entries := len(y.Index) + len(s.Y.Index)
			y.Grow(more, len(s.Y.Index)+int(math.Ceil(float64(entries)/float64(n+1)*float64(more-1))))
			xs = slices.Grow(xs, more*len(s.X))
		}
		xs = append(xs, s.X...)
		y.Append(s.Y.Index, s.Y.Mass)
	}
	if err := rd.Err(); err != nil {
		return nil, err
	}
	if h.count != nil {
		h.count.Store(int64(y.Rows()))
	}
	return &part{xs: xs, y: y, dim: rd.Dim(), rep: rd.Report(), lines: lc.lines}, nil
}

// splitSize is the size from which Load reads a file in two halves.
var splitSize int64 = 4 << 20

// readHalves reads the JSON Lines file f of the given size in two halves
// at once, cut after the first line end from the middle on: the first
// half on the calling goroutine (which calls progress), the second on
// another. It returns the rows of the whole file, as one reading would;
// or nil and no error where one reading must decide: a second half that
// starts with a byte order mark (an error in the middle of a file, which
// the second half's reader would take as its start), no cut, features of
// another number in the second half, and any error but ctx's (whose
// message names the line as only one reading counts it).
func readHalves(ctx context.Context, f *os.File, size int64, name string, t *tree.Tree, progress func(int)) (*part, error) {
	cuts := jsonscan.CutLines(f, size, 2)
	if len(cuts) != 1 {
		return nil, nil
	}
	cut := cuts[0]
	var stop atomic.Bool
	var countB atomic.Int64
	var b *part
	var errB error
	done := make(chan struct{})
	go func() {
		defer close(done)
		lc := &lineCounter{r: io.NewSectionReader(f, cut, size-cut), size: size - cut}
		b, errB = readRows(ctx, lc, name, t, &rowHooks{count: &countB, stop: &stop})
		if errB != nil {
			stop.Store(true)
		}
	}()
	// The first half makes room for the rows of the whole file (its size
	// is the file's), so that the second's are appended without a copy
	// of the first's.
	lc := &lineCounter{r: io.NewSectionReader(f, 0, cut), size: size}
	a, errA := readRows(ctx, lc, name, t, &rowHooks{progress: progress, others: &countB, stop: &stop})
	if errA != nil {
		stop.Store(true)
	}
	<-done
	for _, err := range []error{errA, errB} {
		if err != nil && ctx != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			return nil, err
		}
	}
	if errA != nil || errB != nil || a.dim != b.dim {
		return nil, nil
	}
	return joinParts(a, b), nil
}

// joinParts returns the rows of a followed by those of b, in a's memory.
func joinParts(a, b *part) *part {
	na := a.y.Rows()
	a.xs = append(a.xs, b.xs...)
	ya, yb := a.y, b.y
	base := len(ya.Index)
	ya.Index = append(ya.Index, yb.Index...)
	ya.Mass = append(ya.Mass, yb.Mass...)
	ya.Off = slices.Grow(ya.Off, yb.Rows())
	for _, o := range yb.Off[1:] {
		ya.Off = append(ya.Off, base+o)
	}
	ra, rb := &a.rep, b.rep
	if rb.Rescaled > 0 {
		if ra.Rescaled == 0 {
			ra.FirstRow, ra.FirstLine = na+rb.FirstRow, int(a.lines)+rb.FirstLine
		}
		ra.Rescaled += rb.Rescaled
		ra.MaxDeviation = max(ra.MaxDeviation, rb.MaxDeviation)
	}
	ra.Rows += rb.Rows
	a.lines += b.lines
	return a
}

// lineCounter is the reader of a JSON Lines file that counts its lines as
// they are read, so that the rows of a file of known size can be estimated
// from the lines of the part read and their length (rows).
type lineCounter struct {
	r     io.Reader
	size  int64 // the file's size, or −1 when not known
	lines int64 // the lines ended ('\n') in the bytes read
	ended int64 // the bytes up to the last line end read
	n     int64 // the bytes read
}

func (c *lineCounter) Read(p []byte) (int, error) {
	k, err := c.r.Read(p)
	if k > 0 {
		if nl := bytes.Count(p[:k], []byte{'\n'}); nl > 0 {
			c.lines += int64(nl)
			c.ended = c.n + int64(bytes.LastIndexByte(p[:k], '\n')) + 1
		}
		c.n += int64(k)
	}
	return k, err
}

// rows estimates the lines of the whole file (0 when nothing says): those
// ended so far, scaled by the file's size over the bytes they take, plus
// one for a last line without an end.
func (c *lineCounter) rows() int {
	if c.size <= 0 || c.ended == 0 {
		return 0
	}
	return int(math.Ceil(float64(c.lines)*float64(c.size)/float64(c.ended))) + 1
}

// IsMAT reports whether path names a MATLAB file: by its extension .mat,
// or by its header, whose descriptive text starts with "MATLAB" (version 5,
// "MATLAB 5.0 MAT-file, ...", and 7.3, which package matfile then reports
// as HDF5). Only regular files are read: a pipe is never a MAT-file here.
func IsMAT(path string) bool {
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
