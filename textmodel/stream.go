package textmodel

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"strconv"
	"sync"

	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/labelset"
	"github.com/twl-ldl/twl/tree"
)

// Layout is how predictions are written.
type Layout int

const (
	// JSONLines writes one JSON object {"label": mass, …} per document,
	// the format of 'twl eval' and 'twl distance': the masses in the
	// shortest form that reads back to the same float64.
	JSONLines Layout = iota
	// FastTextLayout writes the layout of 'fasttext predict-prob': one
	// line per document of "__label__NAME mass" pairs separated by single
	// spaces, the masses with 6 significant digits as C's %g writes them
	// (0.912345, 3.2e-05); an empty line when no label is kept.
	FastTextLayout
)

// PredictOptions control Model.PredictStream and WritePredictions. The
// zero value writes every label, JSON Lines, on every core.
type PredictOptions struct {
	// Top writes the Top most probable labels only; 0: all.
	Top int
	// MinMass leaves out the labels of mass below MinMass.
	MinMass float64
	// Consistent writes a label set consistent with the hierarchy of Tree:
	// of the sets closed under ancestors whose labels all have mass at
	// least MinMass, of at most Top labels (0: no bound), the one of
	// highest total mass (labelset.Decoder.Closed). Default: the Top labels
	// of highest mass at least MinMass (labelset.Top), which may hold a
	// label without its parent.
	Consistent bool
	// Tree is the model's label tree (Model.CheckTree), needed with
	// Consistent.
	Tree *tree.Tree
	// Layout of the output. Default JSONLines.
	Layout Layout
	// LabelPrefix is written before each label in FastTextLayout. Default
	// corpus.DefaultLabelPrefix, "__label__".
	LabelPrefix string
	// Workers is the number of goroutines that predict; 0 means
	// runtime.GOMAXPROCS(0). The output does not depend on it.
	Workers int
	// Batch is the number of documents a worker predicts at a time; 0
	// means 64.
	Batch int
}

// ErrLabelSets reports a file of label sets (["label", …] per line)
// given for documents: it holds no text.
var ErrLabelSets = errors.New("label sets but no text: want documents")

// NotFiniteError reports a prediction that is not finite, which the
// weights of a diverged training give.
type NotFiniteError struct {
	File  string  // the documents' file
	Line  int     // the document's line
	Value float64 // the mass predicted
}

func (e *NotFiniteError) Error() string {
	return fmt.Sprintf("the model predicts %v for the document of %s:%d: its weights are broken (a diverged training?)", e.Value, e.File, e.Line)
}

// PredictStream predicts the documents of s as they are read and writes
// their predictions to w in the order of the documents, as o says (see
// Layout): the labels of each by decreasing mass (equal masses in the
// model's order). Up to o.Workers goroutines encode and predict batches of
// o.Batch documents each and format their lines, while s is read and w
// written; at most 2·Workers+1 batches are held at a time, so memory does
// not grow with the input. It returns the number of documents written.
//
// Reading stops at the first error of s (corpus.Scanner.Err), after the
// predictions of the documents before it are written. A prediction that is
// not finite (the weights of a diverged training) is an error naming the
// document (*NotFiniteError). When ctx is cancelled, PredictStream stops reading and returns
// ctx's error once the batches under way are done. It panics if o is
// invalid (negative Top or Batch, MinMass negative or NaN, Consistent
// without a Tree of the model's labels).
func (m *Model) PredictStream(ctx context.Context, w io.Writer, s *corpus.Scanner, o PredictOptions) (int, error) {
	if s.Format() == corpus.LabelSets {
		return 0, fmt.Errorf("%s: %w", s.File(), ErrLabelSets)
	}
	next := func() (corpus.Doc, bool) {
		if !s.Scan() {
			return corpus.Doc{}, false
		}
		return s.Doc(), true
	}
	n, err := m.predictAll(ctx, w, s.File(), next, o)
	if err == nil {
		err = s.Err()
	}
	return n, err
}

// WritePredictions writes the predictions of the documents of c to w, in
// order, as PredictStream does.
func (m *Model) WritePredictions(w io.Writer, c *corpus.Corpus, o PredictOptions) error {
	if c.Format == corpus.LabelSets {
		return fmt.Errorf("%s: %w", c.File, ErrLabelSets)
	}
	i := 0
	next := func() (corpus.Doc, bool) {
		if i == c.Len() {
			return corpus.Doc{}, false
		}
		i++
		return c.Docs[i-1], true
	}
	_, err := m.predictAll(context.Background(), w, c.File, next, o)
	return err
}

// CheckLayout returns an error if the model's labels cannot be written in
// layout l: in FastTextLayout, a label holding white space (which would
// end the label's word).
func (m *Model) CheckLayout(l Layout) error {
	if l != FastTextLayout {
		return nil
	}
	for _, name := range m.Labels {
		for i := 0; i < len(name); i++ {
			switch name[i] {
			case ' ', '\t', '\v', '\f', '\r', '\n', 0:
				return fmt.Errorf("the label %q holds white space, which fastText's layout cannot hold", name)
			}
		}
	}
	return nil
}

// predBatch is a batch of documents and, once done, their output.
type predBatch struct {
	docs []corpus.Doc
	out  []byte
	err  error
	done chan struct{}
}

// predictor is the state of one worker.
type predictor struct {
	m      *Model
	o      *PredictOptions
	file   string // the documents' file, for messages
	p      *Predictor
	dec    *labelset.Decoder
	dist   []float64
	texts  []string
	sel    []int
	prefix []string // the quoted label names (JSON Lines) or the prefixed ones (fastText)
}

func (m *Model) newPredictor(o *PredictOptions, file string) *predictor {
	w := &predictor{m: m, o: o, file: file, p: m.NewPredictor(), prefix: make([]string, len(m.Labels))}
	if o.Consistent {
		w.dec = labelset.NewDecoder(o.Tree)
	}
	for j, name := range m.Labels {
		if o.Layout == FastTextLayout {
			w.prefix[j] = o.LabelPrefix + name + " "
		} else {
			w.prefix[j] = strconv.Quote(name) + ": "
		}
	}
	return w
}

// run predicts the documents of b and formats their lines into b.out.
func (w *predictor) run(b *predBatch) {
	L := len(w.m.Labels)
	n := len(b.docs)
	w.texts = w.texts[:0]
	for _, d := range b.docs {
		w.texts = append(w.texts, d.Text)
	}
	if cap(w.dist) < n*L {
		w.dist = make([]float64, n*L)
	}
	dist := w.dist[:n*L]
	w.p.Predict(dist, w.texts)
	out := b.out[:0]
	o := w.o
	for r := range n {
		row := dist[r*L : (r+1)*L]
		for _, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				b.out, b.err = out, &NotFiniteError{File: w.file, Line: b.docs[r].Line, Value: v}
				return
			}
		}
		if o.Consistent {
			w.sel = w.dec.Closed(w.sel[:0], row, o.Top, o.MinMass)
		} else {
			w.sel = labelset.Top(w.sel[:0], row, o.Top, o.MinMass)
		}
		if o.Layout == FastTextLayout {
			for k, j := range w.sel {
				if k > 0 {
					out = append(out, ' ')
				}
				out = append(out, w.prefix[j]...)
				out = strconv.AppendFloat(out, row[j], 'g', 6, 64)
			}
			out = append(out, '\n')
			continue
		}
		out = append(out, '{')
		for k, j := range w.sel {
			if k > 0 {
				out = append(out, ", "...)
			}
			out = append(out, w.prefix[j]...)
			out = strconv.AppendFloat(out, row[j], 'g', -1, 64)
		}
		out = append(out, "}\n"...)
	}
	b.out = out
}

// predictAll runs the pipeline of PredictStream over the documents next
// returns.
func (m *Model) predictAll(ctx context.Context, w io.Writer, file string, next func() (corpus.Doc, bool), o PredictOptions) (written int, err error) {
	if o.Top < 0 || o.Batch < 0 || !(o.MinMass >= 0) {
		panic(fmt.Sprintf("textmodel: prediction with Top %d, Batch %d, MinMass %v", o.Top, o.Batch, o.MinMass))
	}
	if o.Consistent && (o.Tree == nil || o.Tree.Len() != len(m.Labels)) {
		panic("textmodel: Consistent prediction without the model's tree")
	}
	if err := m.CheckLayout(o.Layout); err != nil {
		return 0, err
	}
	if o.LabelPrefix == "" {
		o.LabelPrefix = corpus.DefaultLabelPrefix
	}
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	size := o.Batch
	if size == 0 {
		size = 64
	}
	held := 2*workers + 1
	free := make(chan *predBatch, held)
	for range held {
		free <- &predBatch{done: make(chan struct{}, 1)}
	}
	work := make(chan *predBatch, held)
	order := make(chan *predBatch, held)
	stop := make(chan struct{})

	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var p *predictor // made on the first batch: a worker may get none
			for b := range work {
				if p == nil {
					p = m.newPredictor(&o, file)
				}
				p.run(b)
				b.done <- struct{}{}
			}
		}()
	}
	// The reader fills batches in the order of the documents; order gives
	// them to the writer in that order, work to the workers as they come.
	var readErr error
	go func() {
		defer close(order)
		defer close(work)
		for {
			var b *predBatch
			select {
			case b = <-free:
			case <-stop:
				return
			}
			if err := ctx.Err(); err != nil {
				readErr = err
				return
			}
			b.docs, b.err = b.docs[:0], nil
			for len(b.docs) < size {
				d, ok := next()
				if !ok {
					break
				}
				b.docs = append(b.docs, d)
			}
			if len(b.docs) == 0 {
				return
			}
			order <- b
			work <- b
			if len(b.docs) < size {
				return
			}
		}
	}()
	stopped := false
	for b := range order {
		<-b.done
		if err == nil && b.err != nil {
			err = b.err
		}
		if err == nil {
			if _, err = w.Write(b.out); err == nil {
				written += len(b.docs)
			}
		}
		if err != nil && !stopped {
			close(stop)
			stopped = true
		}
		free <- b
	}
	wg.Wait()
	if err == nil {
		err = readErr
	}
	return written, err
}
