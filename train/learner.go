package train

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math"

	"github.com/twl-ldl/twl/internal/parallel"
	"github.com/twl-ldl/twl/model"
	"github.com/twl-ldl/twl/optim"
)

// Learner is what Train trains: a model together with its data and its
// optimizer. Rows are numbered 0 … Rows()−1; Train picks the rows of each
// mini-batch, asks the Learner for their logits and targets, evaluates the
// loss, and hands the loss's gradient back to Update. The Learner keeps what
// its Update needs from the last Logits call.
//
// A Learner need not be safe for concurrent use, but its results must be
// deterministic: the same calls in the same order give the same bits.
type Learner interface {
	// Rows returns the number of rows of the data.
	Rows() int
	// Labels returns L, the number of logits (and target masses) per row.
	Labels() int
	// Targets stores the target distributions of rows in dst,
	// len(rows)×L, row-major.
	Targets(dst []float64, rows []int)
	// Logits stores the logits of rows in dst, len(rows)×L, row-major,
	// and keeps what Update needs.
	Logits(dst []float64, rows []int)
	// Update takes ∂loss/∂logits (len(rows)×L) for the rows of the last
	// Logits call and makes one optimizer step.
	Update(dz []float64)
	// AppendState appends what resuming a run needs, the parameters and
	// the optimizer's state, to b; SetState restores it, with an error if
	// b is not such a state (a corrupt checkpoint).
	AppendState(b []byte) []byte
	SetState(b []byte) error
	// AppendParams and SetParams do the same for the parameters alone,
	// which Train keeps for the epoch of the best validation loss.
	AppendParams(b []byte) []byte
	SetParams(b []byte) error
	// Key identifies the model, its settings and its data: a checkpoint
	// written with another key is not resumed.
	Key() string
}

// Counter is an optional interface of a Learner whose rows have a size,
// such as the tokens of a document: progress then reports the rate.
type Counter interface {
	Count(rows []int) int
	Unit() string // what Count counts, plural: "tokens"
}

// linear is the Learner of Fit: a softmax-linear model on Data, with Adam.
type linear struct {
	m    *model.Linear
	d    Data
	adam optim.Adam
	xb   []float64 // the features of the rows of the last Logits call
	rows int
	// xn holds the features of the next rows of UpdateNext, zn and yn
	// are the destinations of their logits and targets, and ysrc their
	// dense target rows (nil where a row is made dense before the loop),
	// while the step runs.
	xn, zn, yn []float64
	ysrc       [][]float64
	grad       []float64
	// xc and xp hold the current rows and the first fusedSlots next rows
	// packed for the fused step, nz how many next rows there are there,
	// and flags its flags (fused.go); fused says whether this step runs
	// fused.
	xc, xp []float64
	nz     int
	flags  int
	fused  bool
	k      adamK // this step's Adam constants, as the kernel reads them
	// The parallel loops of a step over blocks of labels, made once so
	// that a step allocates nothing, and their operands.
	logitsFn, updateFn func(lo, hi int)
	z, dz              []float64
	// full[r] says whether sparse row r lists every label in order, so
	// that its masses are its dense row: 1 yes, 2 no, 0 not yet known.
	full []uint8
}

// updateBlock is the number of labels whose gradient a step that does not
// run fused computes before updating their parameters, while the gradient
// is in cache, and the fewest labels of a part of a step's loop.
const updateBlock = 16

func newLinear(m *model.Linear, d Data, adam optim.Adam) *linear {
	ln := &linear{m: m, d: d, adam: adam, grad: make([]float64, len(m.Params))}
	if sy := d.YSparse; d.Y == nil && sy != nil {
		ln.full = make([]uint8, sy.Rows())
	}
	ln.logitsFn = func(lo, hi int) { ln.m.LogitsLabels(ln.z, ln.xb, lo, hi) }
	ln.updateFn = func(lo, hi int) {
		m := ln.m
		wEnd := m.Out * m.In // W precedes b in Params
		if ln.fused {
			// One pass over the part's labels: the fused pass keeps no
			// gradient to hold in cache, and each call has its cost.
			ln.fusedBlock(lo, hi)
		} else {
			for j := lo; j < hi; j += updateBlock {
				k := min(j+updateBlock, hi)
				m.BackwardLabels(ln.grad, ln.dz, ln.xb, j, k)
				ln.adam.Update(m.Params, ln.grad, j*m.In, k*m.In)
				ln.adam.Update(m.Params, ln.grad, wEnd+j, wEnd+k)
				if ln.zn != nil {
					// The block's new parameters are in cache: the next
					// rows' logits of these labels.
					m.LogitsLabels(ln.zn, ln.xn, j, k)
				}
			}
		}
		if ln.yn != nil {
			L := m.Out
			for r, src := range ln.ysrc {
				if src != nil {
					copy(ln.yn[r*L+lo:r*L+hi], src[lo:hi])
				}
			}
		}
	}
	return ln
}

// fusedBlock makes the step of the labels [lo, hi) in one pass (fused.go),
// with the logits of the next rows when there are any.
func (ln *linear) fusedBlock(lo, hi int) {
	m, a := ln.m, ln.adam.Current()
	in, L := m.In, m.Out
	wEnd := L * in
	P := m.Params
	f := fusedArgs{
		w: P[lo*in : hi*in], mw: a.M[lo*in : hi*in], vw: a.V[lo*in : hi*in],
		b: P[wEnd+lo : wEnd+hi], mb: a.M[wEnd+lo : wEnd+hi], vb: a.V[wEnd+lo : wEnd+hi],
		x: ln.xb, g: ln.dz[lo:], xn: ln.xn, xc: ln.xc, xp: ln.xp, k: &ln.k,
		labels: hi - lo, in: in, rows: ln.rows, out: L, nz: ln.nz, flags: ln.flags,
	}
	if ln.nz > 0 {
		f.z = ln.zn[lo:]
	}
	fusedLabels(&f)
	if in%4 != 0 {
		fusedTails(&f)
	}
	if rows := len(ln.zn) / L; rows > fusedSlots {
		// The rows past the kernel's slots, from the new parameters.
		m.LogitsLabels(ln.zn[fusedSlots*L:], ln.xn[fusedSlots*in:rows*in], lo, hi)
	}
}

// beginStep starts a step whose next rows are nz (0 for none; their
// features in ln.xn): Adam's step, and whether and how it runs fused.
func (ln *linear) beginStep(nz int) {
	m := ln.m
	P := len(m.Params)
	ln.adam.Begin(P)
	wEnd := m.Out * m.In
	end := decayEnd(&ln.adam, P)
	wd := ln.adam.WeightDecay != 0
	// The kernel decays all the weights or none, and all the biases or
	// none.
	ln.fused = haveFused && ln.rows > 0 && ln.rows <= fusedSlots && m.In >= 4 && (!wd || end == wEnd || end == P)
	if !ln.fused {
		return
	}
	st := ln.adam.Current()
	setAdamK(&ln.k, &st)
	ln.flags = 0
	if wd {
		ln.flags |= fusedDecayW
		if end == P {
			ln.flags |= fusedDecayB
		}
	}
	if m.In%4 == 0 {
		ln.flags |= fusedAddBias
	}
	ln.nz = min(nz, fusedSlots)
	if ln.nz > 0 {
		ln.flags |= fusedNext
	}
	if n := packedLen(m.In); len(ln.xp) != n {
		ln.xc, ln.xp = make([]float64, n), make([]float64, n)
	}
	packRows(ln.xc, ln.xb, m.In, ln.rows)
	if ln.nz > 0 {
		packPairs(ln.xp, ln.xn, m.In, ln.nz)
	}
}

func (ln *linear) Rows() int   { return ln.d.N }
func (ln *linear) Labels() int { return ln.d.L }

func (ln *linear) Targets(dst []float64, rows []int) {
	L := ln.d.L
	for k, r := range rows {
		if src := ln.denseRow(r); src != nil {
			copy(dst[k*L:(k+1)*L], src)
		} else {
			ln.d.YSparse.Dense(dst[k*L:(k+1)*L], r)
		}
	}
}

// denseRow returns the targets of row r where the data holds them densely:
// a row of a dense Y, or a sparse row that lists every label in order,
// whose masses are its dense row; otherwise nil.
func (ln *linear) denseRow(r int) []float64 {
	L := ln.d.L
	sy := ln.d.YSparse
	if ln.d.Y != nil || sy == nil {
		return ln.d.Y[r*L : (r+1)*L]
	}
	idx, mass := sy.Row(r)
	if ln.full[r] == 0 {
		ln.full[r] = 1
		if len(idx) != L {
			ln.full[r] = 2
		}
		for j, i := range idx {
			if i != j {
				ln.full[r] = 2
				break
			}
		}
	}
	if ln.full[r] == 1 {
		return mass
	}
	return nil
}

func (ln *linear) Logits(dst []float64, rows []int) {
	ln.xb = ln.gather(ln.xb, rows)
	ln.rows = len(rows)
	if len(dst) != len(rows)*ln.m.Out {
		panic("train: len(dst) != rows·L")
	}
	// Logits, split across cores as model.Linear.Logits splits it.
	ln.z = dst
	parallel.For(ln.m.Out, 0, ln.m.MinChunk(len(rows)), ln.logitsFn)
	ln.z = nil
}

// Update computes the gradient and makes the Adam step a block of labels
// at a time: each block's parameters are updated as soon as their gradient
// is known. Every gradient entry and every update is computed as by
// model.Linear.Backward and optim.Adam.Step, so the bits are theirs.
func (ln *linear) Update(dz []float64) {
	if len(dz) != ln.rows*ln.m.Out {
		panic("train: len(dz) != rows·L")
	}
	ln.beginStep(0)
	ln.dz = dz
	parallel.For(ln.m.Out, 0, max(ln.m.MinChunk(ln.rows), updateBlock), ln.updateFn)
	ln.dz = nil
}

// UpdateNext is Update followed by Logits(logits, rows) and
// Targets(targets, rows), in one parallel loop: each block of labels gets
// its gradient, its Adam step and then its logits for the next rows while
// its parameters are in cache, and each part of the loop copies its labels
// of the next rows' targets. Every number is computed as by the three
// calls, so the bits are theirs.
func (ln *linear) UpdateNext(dz, logits, targets []float64, rows []int) {
	L := ln.m.Out
	if len(dz) != ln.rows*L {
		panic("train: len(dz) != rows·L")
	}
	if len(logits) != len(rows)*L || len(targets) != len(rows)*L {
		panic("train: len(logits) or len(targets) != rows·L")
	}
	ln.xn = ln.gather(ln.xn, rows)
	ln.ysrc = ln.ysrc[:0]
	for k, r := range rows {
		src := ln.denseRow(r)
		if src == nil {
			ln.d.YSparse.Dense(targets[k*L:(k+1)*L], r)
		}
		ln.ysrc = append(ln.ysrc, src)
	}
	ln.beginStep(len(rows))
	ln.dz, ln.zn, ln.yn = dz, logits, targets
	parallel.For(L, 0, max(ln.m.MinChunk(max(ln.rows, len(rows))), updateBlock), ln.updateFn)
	ln.dz, ln.zn, ln.yn = nil, nil, nil
	clear(ln.ysrc)
	ln.xb, ln.xn = ln.xn, ln.xb
	ln.rows = len(rows)
}

// gather returns buf holding the features of rows, row after row.
func (ln *linear) gather(buf []float64, rows []int) []float64 {
	in := ln.d.In
	if cap(buf) < len(rows)*in {
		buf = make([]float64, len(rows)*in)
	}
	buf = buf[:len(rows)*in]
	for k, r := range rows {
		copy(buf[k*in:(k+1)*in], ln.d.X[r*in:(r+1)*in])
	}
	return buf
}

// The state is little-endian: the parameters, Adam's step count and its
// two moment buffers (empty before the first step).
func (ln *linear) AppendState(b []byte) []byte {
	s := ln.adam.State()
	b = appendFloats(b, ln.m.Params)
	b = binary.LittleEndian.AppendUint64(b, uint64(s.T))
	b = appendFloats(b, s.M)
	return appendFloats(b, s.V)
}

func (ln *linear) SetState(b []byte) error {
	P := len(ln.m.Params)
	if len(b) != 8*P+8 && len(b) != 24*P+8 {
		return errors.New("state size does not match the model")
	}
	params := readFloats(b[:8*P])
	t := int(binary.LittleEndian.Uint64(b[8*P:]))
	rest := b[8*P+8:]
	var s optim.AdamState
	s.T = t
	if len(rest) > 0 {
		s.M, s.V = readFloats(rest[:8*P]), readFloats(rest[8*P:])
	}
	if (t == 0) != (len(rest) == 0) || t < 0 {
		return errors.New("optimizer state does not match its step count")
	}
	copy(ln.m.Params, params)
	ln.adam.SetState(s)
	return nil
}

func (ln *linear) AppendParams(b []byte) []byte { return appendFloats(b, ln.m.Params) }

func (ln *linear) SetParams(b []byte) error {
	if len(b) != 8*len(ln.m.Params) {
		return errors.New("parameter count does not match the model")
	}
	copy(ln.m.Params, readFloats(b))
	return nil
}

// Key: the shapes, Adam's settings and a hash of the data.
func (ln *linear) Key() string {
	a := ln.adam
	return fmt.Sprintf("linear in=%d L=%d n=%d lr=%v beta1=%v beta2=%v eps=%v decay=%v decay_end=%d data=%s",
		ln.m.In, ln.m.Out, ln.d.N, a.LR, a.Beta1, a.Beta2, a.Eps, a.WeightDecay, a.DecayEnd, dataHash(ln.d))
}

// dataHash fingerprints the training data, so that a checkpoint is not
// resumed on other data of the same shape.
func dataHash(d Data) string {
	h := fnv.New64a()
	var b [8]byte
	ys := d.Y
	if sy := d.YSparse; d.Y == nil && sy != nil {
		// The sparse form is hashed as such: the same targets held
		// densely give another hash, and their checkpoints are not
		// shared.
		h.Write([]byte("sparse"))
		for _, ints := range [][]int{sy.Off, sy.Index} {
			for _, v := range ints {
				binary.LittleEndian.PutUint64(b[:], uint64(v))
				h.Write(b[:])
			}
		}
		ys = sy.Mass
	}
	for _, xs := range [][]float64{d.X, ys} {
		for _, x := range xs {
			binary.LittleEndian.PutUint64(b[:], math.Float64bits(x))
			h.Write(b[:])
		}
	}
	return fmt.Sprintf("%016x", h.Sum64())
}

func appendFloats(b []byte, x []float64) []byte {
	for _, v := range x {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	}
	return b
}

func readFloats(b []byte) []float64 {
	x := make([]float64, len(b)/8)
	for i := range x {
		x[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return x
}
