package bag

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"runtime"
	"slices"

	"github.com/twl-ldl/twl/internal/parallel"
)

// LearnerOptions are the training settings of a Learner.
type LearnerOptions struct {
	// LR is the initial learning rate η₀ > 0 of stochastic gradient
	// descent, per document: a step over a mini-batch moves the
	// parameters by η times the sum of the documents' gradients.
	LR float64
	// Steps, when positive, decays the learning rate linearly to zero over
	// that many steps, η_t = η₀·(1 − t/Steps) (fastText's schedule); 0
	// keeps it constant.
	Steps int
	// Workers is the number of goroutines a step uses (0: GOMAXPROCS). The
	// results do not depend on it.
	Workers int
}

// Learner trains a Model on documents (rows of the model's table, from
// Encode or MapRaw) and their target distributions by stochastic gradient
// descent: it is a train.Learner. Each row of the data is a document. A
// step updates the output layer and the rows of the table that the
// mini-batch's documents list, and no other.
type Learner struct {
	m    *Model
	docs [][]int32
	y    []float64
	opts LearnerOptions
	t    int // steps made

	rows  []int     // the rows of the last Logits call
	h     []float32 // their hidden vectors, len(rows)×D
	g     []float32 // their gradients with respect to the logits, len(rows)×L
	dh    []float32 // and with respect to the hidden vectors, len(rows)×D
	coef  []float32 // −η/n of each
	dw    [][]float32
	z     []float64 // the destination of Logits while it runs
	dz    []float64 // the operand of Update while it runs
	eta   float32
	parts int
	key   string

	fwdParts int   // the parts of the forward pass
	cum      []int // the features, plus L, of the rows before each row of the last Logits call
	gradFn   func(lo, hi int)
	logitsFn func(part, lo, hi int)
	applyFn  func(part, lo, hi int)
}

// NewLearner returns a Learner for m on docs, whose target distributions
// are the rows of y (len(docs)×Labels, row-major). It panics if the sizes
// differ, a feature is not a row of m, or opts.LR is not positive. m's
// parameters at this point identify the run (for checkpoints), with the
// data and settings.
func NewLearner(m *Model, docs [][]int32, y []float64, opts LearnerOptions) *Learner {
	if len(y) != len(docs)*m.Labels {
		panic(fmt.Sprintf("bag: %d target values for %d documents × %d labels", len(y), len(docs), m.Labels))
	}
	if !(opts.LR > 0) || math.IsInf(opts.LR, 0) || opts.Steps < 0 || opts.Workers < 0 {
		panic("bag: LearnerOptions: LR must be positive and finite, Steps and Workers not negative")
	}
	rows := int32(m.Rows())
	for _, d := range docs {
		for _, f := range d {
			if f < 0 || f >= rows {
				panic(fmt.Sprintf("bag: feature %d is not a row of the model (%d rows)", f, rows))
			}
		}
	}
	ln := &Learner{m: m, docs: docs, y: y, opts: opts}
	ln.parts = opts.Workers
	if ln.parts == 0 {
		ln.parts = runtime.GOMAXPROCS(0)
	}
	ln.dw = make([][]float32, ln.parts)
	for p := range ln.dw {
		ln.dw[p] = make([]float32, m.Dim)
	}
	ln.logitsFn = func(p, _, _ int) { ln.logitsPart(p, ln.fwdParts) }
	ln.gradFn = ln.gradRange
	ln.applyFn = ln.applyPart
	return ln
}

// makeKey describes the model's sizes, the settings and a checksum
// (CRC-32C) of the parameters, the n-gram buckets, the documents and the
// targets.
func (ln *Learner) makeKey() string {
	h := crc32.New(crc32.MakeTable(crc32.Castagnoli))
	buf := make([]byte, 0, 1<<16)
	flush := func(n int) {
		if len(buf)+n > cap(buf) {
			h.Write(buf)
			buf = buf[:0]
		}
	}
	u32 := func(v uint32) { flush(4); buf = binary.LittleEndian.AppendUint32(buf, v) }
	for _, p := range ln.m.Params {
		u32(math.Float32bits(p))
	}
	for _, bk := range ln.m.Index.Kept {
		u32(uint32(bk))
	}
	for _, d := range ln.docs {
		u32(uint32(len(d)))
		for _, id := range d {
			u32(uint32(id))
		}
	}
	for _, v := range ln.y {
		flush(8)
		buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(v))
	}
	h.Write(buf)
	m := ln.m
	return fmt.Sprintf("bag V=%d K=%d D=%d L=%d ngrams=%d minn=%d maxn=%d buckets=%d n=%d lr=%v steps=%d data=%08x",
		m.Words, m.Ngrams, m.Dim, m.Labels, m.WordNgrams, m.MinN, m.MaxN, m.Features.Buckets, len(ln.docs), ln.opts.LR, ln.opts.Steps, h.Sum32())
}

func (ln *Learner) Rows() int   { return len(ln.docs) }
func (ln *Learner) Labels() int { return ln.m.Labels }

// Key identifies the model, its settings and its data by the parameters at
// its first call (train.Train calls it before training, and only for
// checkpoints: it reads every parameter).
func (ln *Learner) Key() string {
	if ln.key == "" {
		ln.key = ln.makeKey()
	}
	return ln.key
}

// Count returns the number of features of the rows.
func (ln *Learner) Count(rows []int) int {
	n := 0
	for _, r := range rows {
		n += len(ln.docs[r])
	}
	return n
}

func (ln *Learner) Unit() string { return "features" }

// Step returns the number of steps made.
func (ln *Learner) Step() int { return ln.t }

// LR returns the learning rate of step t (0-based).
func (ln *Learner) LR(t int) float64 {
	if ln.opts.Steps == 0 {
		return ln.opts.LR
	}
	return ln.opts.LR * max(0, 1-float64(t)/float64(ln.opts.Steps))
}

func (ln *Learner) Targets(dst []float64, rows []int) {
	L := ln.m.Labels
	for k, r := range rows {
		copy(dst[k*L:(k+1)*L], ln.y[r*L:(r+1)*L])
	}
}

// Logits computes the hidden vector and the logits of each row, the rows
// shared among the workers.
func (ln *Learner) Logits(dst []float64, rows []int) {
	m := ln.m
	if len(dst) != len(rows)*m.Labels {
		panic("bag: len(dst) != rows·L")
	}
	ln.rows = append(ln.rows[:0], rows...)
	ln.h = grow(ln.h, len(rows)*m.Dim)
	ln.z = dst
	ln.cum = append(ln.cum[:0], 0)
	for _, r := range rows {
		ln.cum = append(ln.cum, ln.cum[len(ln.cum)-1]+len(ln.docs[r])+m.Labels)
	}
	ln.fwdParts = min(ln.parts, len(rows), 1+ln.cum[len(rows)]/minPartWork)
	parallel.ForParts(ln.fwdParts, ln.fwdParts, 1, ln.logitsFn)
	ln.z = nil
}

// minPartWork is the least work, in rows of the table read, that a part
// of the forward pass gets.
const minPartWork = 256

// logitsPart computes the rows of part p of parts: those whose features
// start in the p-th of parts equal shares of the features of all the rows.
func (ln *Learner) logitsPart(p, parts int) {
	n := len(ln.rows)
	total := ln.cum[n]
	lo, _ := slices.BinarySearch(ln.cum[:n], p*total/parts)
	hi, _ := slices.BinarySearch(ln.cum[:n], (p+1)*total/parts)
	if p == parts-1 {
		hi = n
	}
	ln.logitsRange(lo, hi)
}

func (ln *Learner) logitsRange(lo, hi int) {
	m := ln.m
	D, L := m.Dim, m.Labels
	for k := lo; k < hi; k++ {
		h := ln.h[k*D : (k+1)*D]
		meanForward(h, m.Emb, ln.docs[ln.rows[k]], D)
		linearForward(ln.z[k*L:(k+1)*L], h, m.W, m.B, L, D)
	}
}

// Update makes one step of stochastic gradient descent on the rows of the
// last Logits call, dz being the gradient of the mean loss over those rows
// with respect to their logits: with η the step's learning rate, g_r the
// gradient of document r's own loss (len(rows)·dz_r) and h_r its hidden
// vector,
//
//	W −= η·Σ_r g_r h_rᵀ,   b −= η·Σ_r g_r,   E_f −= η/n_r · Wᵀg_r
//
// for each of the n_r features f of document r, W being the weights before
// the step. The gradients Wᵀg_r are computed document by document; then
// each worker updates a part of the labels and the table's rows of its
// part (partOf), in the order of the rows and their features, so that the
// results do not depend on the number of workers.
func (ln *Learner) Update(dz []float64) {
	m := ln.m
	B := len(ln.rows)
	if len(dz) != B*m.Labels {
		panic("bag: len(dz) != rows·L")
	}
	ln.eta = float32(ln.LR(ln.t))
	ln.t++
	ln.g = grow(ln.g, B*m.Labels)
	ln.dh = grow(ln.dh, B*m.Dim)
	ln.coef = grow(ln.coef, B)
	ln.dz = dz
	parallel.For(B, ln.parts, 1, ln.gradFn)
	ln.dz = nil
	parallel.ForParts(ln.parts, ln.parts, 1, ln.applyFn)
}

// gradRange computes g_r, Wᵀg_r and −η/n_r for the rows [lo, hi).
func (ln *Learner) gradRange(lo, hi int) {
	m := ln.m
	D, L := m.Dim, m.Labels
	scale := float64(len(ln.rows))
	for k := lo; k < hi; k++ {
		g := ln.g[k*L : (k+1)*L]
		dh := ln.dh[k*D : (k+1)*D]
		clear(dh)
		for j := range g {
			g[j] = float32(scale * ln.dz[k*L+j])
			axpy(dh, m.W[j*D:j*D+D], g[j])
		}
		ln.coef[k] = 0
		if n := len(ln.docs[ln.rows[k]]); n > 0 {
			ln.coef[k] = -ln.eta / float32(n)
		}
	}
}

// partOf returns the part, of parts, of the updates of row f: Fibonacci
// hashing scaled to [0, parts), a multiplication rather than a division,
// which spreads the rows evenly whatever their order.
func partOf(f int32, parts int) int {
	return int(uint64(uint32(f)*0x9e3779b1) * uint64(parts) >> 32)
}

// applyPart updates part p of the labels and the rows of the table f with
// partOf(f) = p.
func (ln *Learner) applyPart(p, _, _ int) {
	m := ln.m
	D, L, P := m.Dim, m.Labels, ln.parts
	dw := ln.dw[p]
	for j := p * L / P; j < (p+1)*L/P; j++ {
		clear(dw)
		var db float32
		for k := range ln.rows {
			g := ln.g[k*L+j]
			axpy(dw, ln.h[k*D:(k+1)*D], g)
			db += g
		}
		axpy(m.W[j*D:j*D+D], dw, -ln.eta)
		m.B[j] -= ln.eta * db
	}
	for k, r := range ln.rows {
		c, dh := ln.coef[k], ln.dh[k*D:(k+1)*D]
		for _, f := range ln.docs[r] {
			if partOf(f, P) == p {
				axpy(m.Emb[int(f)*D:int(f)*D+D], dh, c)
			}
		}
	}
}

// The state is little-endian: the parameters as float32, then the number
// of steps made.
func (ln *Learner) AppendState(b []byte) []byte {
	b = ln.AppendParams(b)
	return binary.LittleEndian.AppendUint64(b, uint64(ln.t))
}

func (ln *Learner) SetState(b []byte) error {
	n := 4 * len(ln.m.Params)
	if len(b) != n+8 {
		return errors.New("state size does not match the model")
	}
	t := binary.LittleEndian.Uint64(b[n:])
	if t > math.MaxInt32 {
		return errors.New("step count out of range")
	}
	if err := ln.SetParams(b[:n]); err != nil {
		return err
	}
	ln.t = int(t)
	return nil
}

// AppendParams appends the parameters, float32 little-endian, the
// workers sharing the work.
func (ln *Learner) AppendParams(b []byte) []byte {
	P := ln.m.Params
	n := len(b)
	b = slices.Grow(b, 4*len(P))[:n+4*len(P)]
	out := b[n:]
	parallel.For(len(P), ln.parts, 1<<16, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			binary.LittleEndian.PutUint32(out[4*i:], math.Float32bits(P[i]))
		}
	})
	return b
}

func (ln *Learner) SetParams(b []byte) error {
	P := ln.m.Params
	if len(b) != 4*len(P) {
		return errors.New("parameter count does not match the model")
	}
	parallel.For(len(P), ln.parts, 1<<16, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			P[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		}
	})
	return nil
}

// grow returns s with length n, reusing its memory when it can.
func grow(s []float32, n int) []float32 {
	if cap(s) < n {
		return make([]float32, n)
	}
	return s[:n]
}
