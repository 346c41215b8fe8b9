package ldl

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/twl-ldl/twl/labeldist"
	"github.com/twl-ldl/twl/model"
	"github.com/twl-ldl/twl/tree"
)

// DefaultBatchBytes bounds the memory of one batch of a Predictor's
// predictions (rows × labels × 8 bytes): batches have 256 rows, fewer when
// the model has many labels (40 rows at 10⁵ labels, 2 at 10⁷).
const DefaultBatchBytes = 32 << 20

// PredictOptions control a Predictor. The zero value writes every label of
// non-zero mass, in batches of up to 256 rows and DefaultBatchBytes.
type PredictOptions struct {
	// Top, when positive, keeps the Top most probable labels of each row,
	// in decreasing mass (equal masses in the model's label order); 0
	// keeps them all, in label order.
	Top int
	// MinMass leaves out the labels of mass below it. With Top: at most
	// Top labels of mass MinMass or more. Rows so cut no longer sum to 1.
	MinMass float64
	// BatchBytes bounds the memory of a batch of predictions; 0 means
	// DefaultBatchBytes. Batches have an even number of rows, at least 2.
	BatchBytes int
	// AfterBatch, when not nil, is called after each batch is written,
	// with the number of rows written so far; an error it returns stops
	// the Predictor and is returned by Add or Flush.
	AfterBatch func(rows int) error
}

// Predictor writes the distributions a model predicts for rows of features
// as JSON Lines, one object {"label": mass, ...} per row in the order the
// rows are added, labels in the model's order (or by decreasing mass with
// Top), zero masses omitted, numbers in the shortest form that reads back
// to the same float64. It predicts a batch at a time in buffers it reuses:
// its memory is that of the model and of one batch, however many rows are
// added. Each row gets what model.File.Predict computes for it, bit for
// bit. A Predictor is not safe for concurrent use.
type Predictor struct {
	w       io.Writer
	m       *model.Linear          // the model's parameters, W·z + b
	std     *model.Standardization // nil: features used as they are
	labels  *tree.Tree             // the model's labels, for labeldist
	names   []string               // the model's labels
	keys    [][]byte               // keys[j]: `"name":` of label j, made when first used
	in, L   int                    // features, labels
	batch   int                    // rows a batch holds
	top     int                    // labels written per row, 0 for all
	minMass float64                // labels of smaller mass are left out
	after   func(int) error

	x     []float64 // the batch's features, batch×in, standardized in place
	pr    []float64 // its predictions, batch×L
	where []string  // where each row of the batch is, for messages: "FILE:LINE"
	rows  int       // rows in the batch
	done  int       // rows written
	line  []byte    // the output line being formatted
	sel   []int     // labels chosen for Top
	empty int       // rows that MinMass left without a label
	first string    // the first of them
}

// NewPredictor returns a Predictor of the model f (valid, as model.Load
// returns it) writing to w. It panics if opts.Top or opts.MinMass is
// negative.
func NewPredictor(w io.Writer, f *model.File, opts *PredictOptions) *Predictor {
	var o PredictOptions
	if opts != nil {
		o = *opts
	}
	if o.Top < 0 || o.MinMass < 0 || math.IsNaN(o.MinMass) {
		panic(fmt.Sprintf("ldl: NewPredictor with Top %d, MinMass %v", o.Top, o.MinMass))
	}
	if o.BatchBytes == 0 {
		o.BatchBytes = DefaultBatchBytes
	}
	L := len(f.Labels)
	batch := min(256, max(2, o.BatchBytes/(8*L)))
	batch &^= 1 // even, so that the kernels pair rows as in one batch of all rows
	return &Predictor{
		w: w, m: f.Linear(), std: f.Standardize, labels: f.LabelTree(), names: f.Labels,
		in: f.In, L: L, batch: batch, top: o.Top, minMass: o.MinMass, after: o.AfterBatch,
		keys: make([][]byte, L), x: make([]float64, batch*f.In), pr: make([]float64, batch*L),
		where: make([]string, batch),
	}
}

// Add adds a row of raw features (the model's standardization is applied
// to a copy), predicting and writing the batch when it is full. where
// locates the row in messages ("FILE:LINE"). A prediction that is not
// finite is an error. It panics if len(x) is not the model's number of
// features.
func (p *Predictor) Add(x []float64, where string) error {
	if len(x) != p.in {
		panic(fmt.Sprintf("ldl: Predictor.Add with %d features, the model has %d", len(x), p.in))
	}
	copy(p.x[p.rows*p.in:], x)
	p.where[p.rows] = where
	p.rows++
	if p.rows < p.batch {
		return nil
	}
	return p.Flush()
}

// Rows returns the number of rows written.
func (p *Predictor) Rows() int { return p.done }

// Empty returns the number of rows written as {} because MinMass left no
// label of them, and where the first of them is.
func (p *Predictor) Empty() (rows int, first string) { return p.empty, p.first }

// Flush predicts and writes the rows added since the last batch.
func (p *Predictor) Flush() error {
	if p.rows == 0 {
		return nil
	}
	x, pr := p.x[:p.rows*p.in], p.pr[:p.rows*p.L]
	if s := p.std; s != nil {
		for i, v := range x {
			k := i % p.in
			x[i] = (v - s.Mean[k]) / s.Scale[k]
		}
	}
	p.m.Predict(pr, x)
	for r := range p.rows {
		row := pr[r*p.L : (r+1)*p.L]
		var err error
		if p.top == 0 && p.minMass == 0 {
			p.line, err = labeldist.AppendFormat(p.line[:0], p.labels, row)
		} else {
			p.line, err = p.appendSelected(p.line[:0], row)
			if err == nil && len(p.line) == 2 { // {}
				if p.empty == 0 {
					p.first = p.where[r]
				}
				p.empty++
			}
		}
		if err != nil {
			var le *labeldist.Error
			if errors.As(err, &le) {
				err = le.Err
			}
			return fmt.Errorf("%s: the prediction is not finite (%v); are the features far out of the training range?", p.where[r], err)
		}
		p.line = append(p.line, '\n')
		if _, err := p.w.Write(p.line); err != nil {
			return err
		}
	}
	p.done += p.rows
	p.rows = 0
	if p.after != nil {
		return p.after(p.done)
	}
	return nil
}

// SelectLabels appends to dst the labels of the distribution row that top
// and minMass keep (see PredictOptions): the labels of non-zero mass at
// least minMass, the top most probable of them in decreasing mass (equal
// masses in label order), or all of them in label order when top is 0. The
// masses must not be NaN. It allocates only to grow dst.
func SelectLabels(dst []int, row []float64, top int, minMass float64) []int {
	keep := func(v float64) bool { return v != 0 && v >= minMass }
	if top == 0 {
		for j, v := range row {
			if keep(v) {
				dst = append(dst, j)
			}
		}
		return dst
	}
	// A heap of the best labels so far, the worst at its root.
	better := func(a, b int) bool { return row[a] > row[b] || row[a] == row[b] && a < b }
	base := len(dst)
	for j, v := range row {
		h := dst[base:]
		switch {
		case !keep(v):
		case len(h) < top:
			dst = append(dst, j)
			h = dst[base:]
			for c := len(h) - 1; c > 0; { // sift up
				up := (c - 1) / 2
				if !better(h[up], h[c]) {
					break
				}
				h[up], h[c] = h[c], h[up]
				c = up
			}
		case better(j, h[0]):
			h[0] = j
			siftDown(h, len(h), better)
		}
	}
	// Pop the worst to the end, leaving the best first.
	h := dst[base:]
	for n := len(h) - 1; n > 0; n-- {
		h[0], h[n] = h[n], h[0]
		siftDown(h, n, better)
	}
	return dst
}

// siftDown restores the heap h[:n] (the worst at its root) below the root.
func siftDown(h []int, n int, better func(a, b int) bool) {
	for c := 0; ; {
		w := c
		if l := 2*c + 1; l < n && better(h[w], h[l]) {
			w = l
		}
		if r := 2*c + 2; r < n && better(h[w], h[r]) {
			w = r
		}
		if w == c {
			return
		}
		h[c], h[w] = h[w], h[c]
		c = w
	}
}

// appendSelected appends row as a JSON object of the labels that Top and
// MinMass keep (SelectLabels). A NaN or infinite mass is an error wrapping
// labeldist.ErrNonFinite.
func (p *Predictor) appendSelected(dst []byte, row []float64) ([]byte, error) {
	for j, v := range row {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return dst, fmt.Errorf("%w: %q: %v", labeldist.ErrNonFinite, p.names[j], v)
		}
	}
	p.sel = SelectLabels(p.sel[:0], row, p.top, p.minMass)
	dst = append(dst, '{')
	for k, j := range p.sel {
		dst = p.appendMass(dst, j, row[j], k == 0)
	}
	return append(dst, '}'), nil
}

// AppendDist appends to dst the distribution with masses mass on the
// model's labels idx (in that order) as a JSON object, in the format of the
// predictions: the targets of the rows, written beside them, pair with
// them line by line. It panics if the lengths differ or a label is out of
// range.
func (p *Predictor) AppendDist(dst []byte, idx []int, mass []float64) []byte {
	if len(idx) != len(mass) {
		panic("ldl: Predictor.AppendDist with len(idx) != len(mass)")
	}
	dst = append(dst, '{')
	for k, j := range idx {
		dst = p.appendMass(dst, j, mass[k], k == 0)
	}
	return append(dst, '}')
}

// appendMass appends `"label":mass` for label j, after a comma unless
// first, with the mass written as labeldist writes it.
func (p *Predictor) appendMass(dst []byte, j int, v float64, first bool) []byte {
	if !first {
		dst = append(dst, ',')
	}
	if p.keys[j] == nil {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.Encode(p.names[j]) // a string always encodes
		p.keys[j] = append(bytes.TrimSuffix(b.Bytes(), []byte{'\n'}), ':')
	}
	dst = append(dst, p.keys[j]...)
	return strconv.AppendFloat(dst, v, 'g', -1, 64)
}
