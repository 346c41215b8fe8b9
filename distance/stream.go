package distance

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/twl-ldl/twl/internal/jsonfloat"
	"github.com/twl-ldl/twl/labeldist"
)

// DefaultChunkRows is the number of row pairs WriteRows holds at once when
// StreamOptions.ChunkRows is 0.
const DefaultChunkRows = 4096

// StreamOptions controls WriteRows. The zero value writes text in chunks
// of DefaultChunkRows pairs.
type StreamOptions struct {
	// JSON writes one JSON object instead of one number per line.
	JSON bool

	// ChunkRows is how many pairs are read, computed and written at once;
	// 0 means DefaultChunkRows. Smaller chunks suit slow methods (emd,
	// sinkhorn), whose progress then shows sooner.
	ChunkRows int

	// Why ends the message of an *labeldist.UnpairedError when the files
	// have different numbers of rows.
	Why string

	// Progress, when not nil, is called after each chunk is written with
	// the number of pairs done; an error it returns stops WriteRows.
	Progress func(rows int) error
}

// LineError is the error of the distance between two rows, located in
// their files: "A.jsonl:3 and B.jsonl:3: what".
type LineError struct {
	FileA string
	LineA int
	FileB string
	LineB int
	Err   error
}

func (e *LineError) Error() string {
	return fmt.Sprintf("%s:%d and %s:%d: %v", e.FileA, e.LineA, e.FileB, e.LineB, e.Err)
}

// Unwrap returns the pair's error.
func (e *LineError) Unwrap() error { return e.Err }

// Locate returns err, an error of m's Rows or Pairwise over the rows ra and
// rb read from A and B, with a *PairError turned into a *LineError naming
// the pair's files and lines; other errors are returned as they are.
func Locate(err error, A, B *labeldist.Reader, ra, rb *labeldist.Rows) error {
	var pe *PairError
	if !errors.As(err, &pe) {
		return err
	}
	return &LineError{FileA: A.File(), LineA: ra.Line(pe.A), FileB: B.File(), LineB: rb.Line(pe.B), Err: pe.Err}
}

// WriteRows writes m's distance between row r of A and row r of B for every
// r, reading both a chunk at a time, so that memory does not grow with the
// number of rows. Text is one number per line; JSON one object
// {"method": m.Name(), "pairwise": false, "distances": [...], "rows": n}.
// Numbers are in the shortest form that reads back to the same float64
// (in JSON, NaN and the infinities as jsonfloat writes them). Whole chunks
// are written as they are done. It stops with ctx's error once ctx is
// done. Files of different lengths give an *labeldist.UnpairedError, an
// error of a pair a *LineError, an empty A an error naming it.
func WriteRows(ctx context.Context, w io.Writer, m Method, A, B *labeldist.Reader, o *StreamOptions) error {
	if o == nil {
		o = &StreamOptions{}
	}
	chunk := o.ChunkRows
	if chunk <= 0 {
		chunk = DefaultChunkRows
	}
	var (
		ca, cb labeldist.Rows
		dst    = make([]float64, chunk)
		buf    []byte
	)
	if o.JSON {
		buf = append(buf, `{"method":"`+m.Name()+`","pairwise":false,"distances":[`...)
	}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		n, err := labeldist.FillPair(&ca, &cb, A, B, chunk, o.Why)
		if err != nil {
			return err
		}
		if err := m.Rows(ctx, dst[:n], &ca, &cb); err != nil {
			return Locate(err, A, B, &ca, &cb)
		}
		for i, v := range dst[:n] {
			switch {
			case !o.JSON:
				buf = append(jsonfloat.AppendShortest(buf, v), '\n')
			case A.Rows()-n+i > 0:
				buf = jsonfloat.Append(append(buf, ','), v)
			default:
				buf = jsonfloat.Append(buf, v)
			}
		}
		if _, err := w.Write(buf); err != nil {
			return err
		}
		buf = buf[:0]
		if o.Progress != nil {
			if err := o.Progress(A.Rows()); err != nil {
				return err
			}
		}
		if n < chunk {
			break
		}
	}
	if A.Rows() == 0 {
		return fmt.Errorf("%s: no distributions (the file is empty or blank)", A.File())
	}
	if o.JSON {
		if _, err := fmt.Fprintf(w, `],"rows":%d}`+"\n", A.Rows()); err != nil {
			return err
		}
	}
	return nil
}
