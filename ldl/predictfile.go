package ldl

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/twl-ldl/twl/dataset"
	"github.com/twl-ldl/twl/labeldist"
	"github.com/twl-ldl/twl/tree"
)

// FileOptions control PredictJSONL and PredictMAT.
type FileOptions struct {
	// Targets, when not nil, receives the target distribution of every
	// sample, in the format of the predictions and in step with them, for
	// scoring with package metric; every sample must then have one.
	Targets io.Writer

	// Model names the model in messages (its file).
	Model string

	// Report, when not nil, receives the report of what the reader
	// repaired or skipped (dataset.Report), once the samples are read.
	Report func(dataset.Report)
}

// PredictJSONL adds the samples of the JSON Lines data r (named file in
// messages) to p as they are read, then flushes p. A sample's features
// must have the model's dimension; its "y" is read only with o.Targets,
// and must then be present, over labels of the model.
func (p *Predictor) PredictJSONL(r io.Reader, file string, o *FileOptions) error {
	if o == nil {
		o = &FileOptions{}
	}
	opts := &dataset.ReaderOptions{Targets: dataset.TargetsIgnored}
	t := p.targets(o)
	if t != nil {
		opts.Targets = dataset.TargetsOptional
	}
	rd := dataset.NewReader(r, file, t.labels(), opts)
	for first := true; rd.Next(); first = false {
		s := rd.Sample()
		if first && len(s.X) != p.in { // the Reader checks that the others have as many
			return fmt.Errorf("%s:%d: %s, the model expects %d", file, s.Line, plural(len(s.X), "feature"), p.in)
		}
		if t != nil {
			if !s.HasY {
				return &dataset.Error{File: file, Line: s.Line, Err: dataset.ErrSyntax,
					Msg: `no "y" (label distribution); --targets needs a "y" on every line`}
			}
			if err := t.write(s.Y, nil); err != nil {
				return err
			}
		}
		if err := p.Add(s.X, file+":"+strconv.Itoa(s.Line)); err != nil {
			return err
		}
	}
	if err := rd.Err(); err != nil {
		var de *dataset.Error
		if errors.As(err, &de) && errors.Is(err, dataset.ErrUnknownLabel) {
			de.Msg = strings.Replace(de.Msg, "is not a node of the tree",
				fmt.Sprintf("is not a label of the model %s (%s)", o.Model, plural(p.L, "label")), 1)
		}
		return err
	}
	if o.Report != nil {
		o.Report(rd.Report())
	}
	return p.Flush()
}

// PredictMAT adds the samples of the MAT-file at path (read whole: MAT data
// sets are small and dense) to p, then flushes p. Its labels 0 … c−1 must
// be labels of the model.
func (p *Predictor) PredictMAT(path string, o *FileOptions) error {
	if o == nil {
		o = &FileOptions{}
	}
	ds, rep, err := dataset.ReadMAT(path, nil)
	if err != nil {
		return err
	}
	// cols[c]: the model's index of the label c of ds.
	_, c := ds.Y.Dims()
	index := make(map[string]int, len(p.names))
	for i, name := range p.names {
		index[name] = i
	}
	cols := make([]int, c)
	for j := range c {
		i, ok := index[strconv.Itoa(j)]
		if !ok {
			return fmt.Errorf("%s: %d labels (0 … %d), but %d is not a label of the model %s (%s)",
				path, c, c-1, j, o.Model, plural(len(p.names), "label"))
		}
		cols[j] = i
	}
	n, d := ds.X.Dims()
	if d != p.in {
		return fmt.Errorf("%s: %s, the model expects %d", path, plural(d, "feature"), p.in)
	}
	if o.Report != nil {
		o.Report(rep)
	}
	t := p.targets(o)
	y := make([]float64, p.L)
	for i := range n {
		if t != nil {
			clear(y)
			for c, v := range ds.Y.RawRowView(i) {
				y[cols[c]] = v
			}
			if err := t.write(dataset.Sparse{}, y); err != nil {
				return err
			}
		}
		if err := p.Add(ds.X.RawRowView(i), fmt.Sprintf("%s: row %d", path, i+1)); err != nil {
			return err
		}
	}
	return p.Flush()
}

// targetWriter writes the targets of FileOptions.Targets.
type targetWriter struct {
	p    *Predictor
	w    io.Writer
	line []byte
}

// targets returns the targetWriter of o, or nil without o.Targets.
func (p *Predictor) targets(o *FileOptions) *targetWriter {
	if o.Targets == nil {
		return nil
	}
	return &targetWriter{p: p, w: o.Targets}
}

// labels returns the tree the targets are read over: nil (no targets read)
// for a nil t.
func (t *targetWriter) labels() *tree.Tree {
	if t == nil {
		return nil
	}
	return t.p.labels
}

// write writes a target distribution: y sparse (labels increasing), or
// dense when dense is not nil.
func (t *targetWriter) write(y dataset.Sparse, dense []float64) error {
	line := t.line[:0]
	if dense != nil {
		line, _ = labeldist.AppendFormat(line, t.p.labels, dense) // the reader checked the masses
	} else {
		line = t.p.AppendDist(line, y.Index, y.Mass)
	}
	t.line = append(line, '\n')
	_, err := t.w.Write(t.line)
	return err
}

// plural returns "1 label", "2 labels".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
