package main

import (
	"errors"
	"fmt"
	"github.com/twl-ldl/twl/internal/human"
	"io"
	"strconv"
	"time"

	"github.com/twl-ldl/twl/labeldist"
	"github.com/twl-ldl/twl/tree"
)

// chunkRows is how many rows of a file of distributions the streaming
// commands (distance, eval) hold at once: a chunk is read, scored in
// parallel and written before the next is read, so memory does not grow
// with the number of rows.
const chunkRows = 4096

// rowsErr adds the hint about --normalize to an ErrSum error.
func rowsErr(err error) error {
	if errors.Is(err, labeldist.ErrSum) {
		return fmt.Errorf("%w (use --normalize to rescale rows; see \"Rows that do not sum to 1\" in docs/formats.md)", err)
	}
	return err
}

// rowReader opens a file of distributions for streaming ("-": standard
// input). The caller closes the returned Closer.
func rowReader(e *env, path string, t *tree.Tree, opts *labeldist.Options) (*labeldist.Reader, io.Closer, error) {
	r, name, err := e.open(path)
	if err != nil {
		return nil, nil, err
	}
	return labeldist.NewReader(r, name, t, opts), r, nil
}

// rowReaders opens the files of distributions a and b as rowReader does.
// The caller closes both Closers; on an error, none is left open.
func rowReaders(e *env, a, b string, t *tree.Tree, opts *labeldist.Options) (A, B *labeldist.Reader, ca, cb io.Closer, err error) {
	if A, ca, err = rowReader(e, a, t, opts); err != nil {
		return nil, nil, nil, nil, err
	}
	if B, cb, err = rowReader(e, b, t, opts); err != nil {
		ca.Close()
		return nil, nil, nil, nil, err
	}
	return A, B, ca, cb, nil
}

// treeFlag defines the --tree flag of the commands that read label
// distributions; need closes its usage ("required", or with another way
// to give the tree, "required, or --trees").
func treeFlag(fs *flags, need string) *string {
	return fs.String("tree", "", "the label `TREE`: an edge-list file, a toolkit taxonomy (FILE.taxonomy or taxonomy:FILE), or chain:N or star:N for labels named 0 … N−1 ("+need+")")
}

// progress reports the rows a long streaming command has done, on standard
// error, at most every two seconds and only once the command has run for
// two seconds, so short runs print nothing.
type progress struct {
	w     io.Writer
	what  string // "twl distance"
	unit  string // "pairs"
	start time.Time
	next  time.Time
	shown bool
}

func newProgress(w io.Writer, what, unit string) *progress {
	now := time.Now()
	return &progress{w: w, what: what, unit: unit, start: now, next: now.Add(2 * time.Second)}
}

// tick reports n units done, if it is time to.
func (p *progress) tick(n int) {
	now := time.Now()
	if now.Before(p.next) {
		return
	}
	p.next = now.Add(2 * time.Second)
	p.shown = true
	el := now.Sub(p.start)
	fmt.Fprintf(p.w, "%s: %s %s, %s/s, elapsed %s\n", p.what, strconv.Itoa(n), p.unit,
		strconv.FormatFloat(float64(n)/el.Seconds(), 'f', 0, 64), human.Seconds(el.Seconds()))
}

// done reports the total if progress was shown.
func (p *progress) done(n int) {
	if p.shown {
		el := time.Since(p.start)
		fmt.Fprintf(p.w, "%s: done, %d %s in %s\n", p.what, n, p.unit, el.Round(10*time.Millisecond))
	}
}

// readDense reads the distributions in the file path ("-": standard input)
// into a dense Set, for the commands that need every row at once, and fails
// as soon as the rows would take more than limit bytes (8 per row and
// label), saying why they are held (why) and how much they need so far.
func readDense(e *env, path string, t *tree.Tree, opts *labeldist.Options, limit int64, why string) (*labeldist.Set, error) {
	rd, c, err := rowReader(e, path, t, opts)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	s, err := rd.ReadAll(limit)
	if se := (*labeldist.SizeError)(nil); errors.As(err, &se) {
		return nil, fmt.Errorf("%s: %s: %s of %d labels need %s, more than --max-memory %s",
			se.At, why, plural(se.Rows, "row"), se.L, formatBytes(se.Need), byteSize(limit))
	}
	return s, rowsErr(err)
}
