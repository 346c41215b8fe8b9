package distance

import (
	"io"
	"runtime"
	"strconv"

	"github.com/twl-ldl/twl/internal/jsonfloat"
	"github.com/twl-ldl/twl/internal/parallel"
)

// MatrixWriter writes the rows of a matrix of distances as 'twl distance
// --pairwise' writes them: text, a row a line, its numbers separated by
// tabs; or JSON, one object {"method": name, "pairwise": true,
// "distances": [[...], ...], "rows": r, "cols": n}. Numbers are in the
// shortest form that reads back to the same float64 (in JSON, NaN and the
// infinities as jsonfloat writes them). The rows of a WriteRows call are
// formatted by several goroutines at once, a share of the rows each, and
// written in order: the bytes do not depend on the number of workers nor
// on how the rows are cut into calls.
type MatrixWriter struct {
	w       io.Writer
	name    string
	cols    int
	json    bool
	workers int
	rows    int
	started bool
	bufs    [][]byte
}

// NewMatrixWriter returns a writer of rows of cols distances, of the method
// named name (for JSON), to w, formatted by workers goroutines (≤ 0 means
// runtime.GOMAXPROCS(0)). It writes nothing before WriteRows or Close.
func NewMatrixWriter(w io.Writer, name string, cols int, json bool, workers int) *MatrixWriter {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	return &MatrixWriter{w: w, name: name, cols: cols, json: json, workers: workers}
}

// Rows returns the number of rows written.
func (m *MatrixWriter) Rows() int { return m.rows }

// matrixTaskBytes is about how much text one worker formats at a time.
const matrixTaskBytes = 256 << 10

// WriteRows writes the rows of dst, row-major, cols numbers each. It
// panics unless len(dst) is a multiple of cols (zero only for an empty
// dst). It returns w's error.
func (m *MatrixWriter) WriteRows(dst []float64) error {
	if m.cols == 0 && len(dst) > 0 || m.cols > 0 && len(dst)%m.cols != 0 {
		panic("distance: MatrixWriter rows of the wrong length")
	}
	if err := m.start(); err != nil {
		return err
	}
	if len(dst) == 0 {
		return nil
	}
	n, base := len(dst)/m.cols, m.rows
	// A number takes at most 24 bytes and its separator.
	per := max(1, matrixTaskBytes/(25*m.cols))
	tasks := 2 * m.workers
	if len(m.bufs) < 2*tasks {
		m.bufs = make([][]byte, 2*tasks)
	}
	// The text of a step of rows is written on another goroutine while
	// the next step's is formatted, into the other half of m.bufs; w is
	// written by one goroutine at a time, in order, and all of it before
	// WriteRows returns.
	var (
		writing bool
		done    chan error
		wrote   int // the rows of the steps whose writing has started
	)
	wait := func() error {
		if !writing {
			return nil
		}
		writing = false
		if err := <-done; err != nil {
			return err
		}
		m.rows = base + wrote
		return nil
	}
	step := 0
	for lo := 0; lo < n; lo += per * tasks {
		hi := min(lo+per*tasks, n)
		k := (hi - lo + per - 1) / per
		bufs := m.bufs[step%2*tasks : step%2*tasks+tasks]
		step++
		parallel.Each(k, m.workers, func(t int) {
			r0 := lo + t*per
			bufs[t] = m.format(bufs[t][:0], dst, r0, min(r0+per, hi), base)
		})
		if err := wait(); err != nil {
			return err
		}
		if m.workers == 1 {
			for _, b := range bufs[:k] {
				if _, err := m.w.Write(b); err != nil {
					return err
				}
			}
			m.rows = base + hi
			continue
		}
		if done == nil {
			done = make(chan error, 1)
		}
		writing, wrote = true, hi
		go func(bs [][]byte) {
			for _, b := range bs {
				if _, err := m.w.Write(b); err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}(bufs[:k])
	}
	return wait()
}

// format appends rows [r0, r1) of dst, whose row 0 is row base of the
// output, to b.
func (m *MatrixWriter) format(b []byte, dst []float64, r0, r1, base int) []byte {
	n := m.cols
	for r := r0; r < r1; r++ {
		row := dst[r*n : (r+1)*n]
		if !m.json {
			for j, v := range row {
				if j > 0 {
					b = append(b, '\t')
				}
				b = jsonfloat.AppendShortest(b, v)
			}
			b = append(b, '\n')
			continue
		}
		if base+r > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		for j, v := range row {
			if j > 0 {
				b = append(b, ',')
			}
			b = jsonfloat.Append(b, v)
		}
		b = append(b, ']')
	}
	return b
}

// start writes the beginning of the JSON object, once.
func (m *MatrixWriter) start() error {
	if m.started || !m.json {
		return nil
	}
	m.started = true
	_, err := io.WriteString(m.w, `{"method":"`+m.name+`","pairwise":true,"distances":[`)
	return err
}

// Close writes the end of the JSON object, with the number of rows
// written; for text it writes nothing. It does not close w.
func (m *MatrixWriter) Close() error {
	if !m.json {
		return nil
	}
	if err := m.start(); err != nil {
		return err
	}
	_, err := io.WriteString(m.w, `],"rows":`+strconv.Itoa(m.rows)+`,"cols":`+strconv.Itoa(m.cols)+"}\n")
	return err
}
