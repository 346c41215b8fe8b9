package lstm

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math"

	"github.com/twl-ldl/twl/optim"
)

// Learner trains a Model on documents and their target distributions with
// Adam: it is a train.Learner. Each row is a document.
type Learner struct {
	m        *Model
	docs     [][]int32
	y        []float64
	adam     optim.Adam32
	trainEmb bool
	start    int // the first trained parameter: 0, or past the embeddings when they are frozen

	ws    *Workspace
	grad  []float32
	batch [][]int32
	key   string
}

// LearnerOptions are the training settings of a Learner.
type LearnerOptions struct {
	Adam     optim.Adam32
	TrainEmb bool // train the word vectors too; default: frozen
}

// NewLearner returns a Learner for m on docs, whose target distributions
// are the rows of y (len(docs)×Labels, row-major). It panics if the sizes
// differ or a token ID is outside the vocabulary. m's parameters at this
// point identify the run (for checkpoints), with the data and settings.
func NewLearner(m *Model, docs [][]int32, y []float64, opts LearnerOptions) *Learner {
	if len(y) != len(docs)*m.Labels {
		panic(fmt.Sprintf("lstm: %d target values for %d documents × %d labels", len(y), len(docs), m.Labels))
	}
	checkTokens(docs, m.Vocab)
	ln := &Learner{m: m, docs: docs, y: y, adam: opts.Adam, trainEmb: opts.TrainEmb, ws: m.NewWorkspace()}
	if !opts.TrainEmb {
		ln.start = len(m.Emb)
	}
	ln.grad = make([]float32, len(m.Params))
	ln.key = ln.makeKey()
	return ln
}

// makeKey describes the model's sizes, the settings and a hash of the
// initial parameters, the documents and the targets.
func (ln *Learner) makeKey() string {
	h := fnv.New64a()
	var b [8]byte
	for _, p := range ln.m.Params {
		binary.LittleEndian.PutUint32(b[:4], math.Float32bits(p))
		h.Write(b[:4])
	}
	for _, d := range ln.docs {
		binary.LittleEndian.PutUint32(b[:4], uint32(len(d)))
		h.Write(b[:4])
		for _, id := range d {
			binary.LittleEndian.PutUint32(b[:4], uint32(id))
			h.Write(b[:4])
		}
	}
	for _, v := range ln.y {
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(v))
		h.Write(b[:])
	}
	a := ln.adam
	return fmt.Sprintf("lstm V=%d D=%d H=%d L=%d n=%d train_emb=%v lr=%v beta1=%v beta2=%v eps=%v decay=%v data=%016x",
		ln.m.Vocab, ln.m.Dim, ln.m.Hidden, ln.m.Labels, len(ln.docs), ln.trainEmb, a.LR, a.Beta1, a.Beta2, a.Eps, a.WeightDecay, h.Sum64())
}

func (ln *Learner) Rows() int   { return len(ln.docs) }
func (ln *Learner) Labels() int { return ln.m.Labels }
func (ln *Learner) Key() string { return ln.key }

// Count returns the number of tokens of the rows.
func (ln *Learner) Count(rows []int) int {
	n := 0
	for _, r := range rows {
		n += len(ln.docs[r])
	}
	return n
}

func (ln *Learner) Unit() string { return "tokens" }

func (ln *Learner) Targets(dst []float64, rows []int) {
	L := ln.m.Labels
	for k, r := range rows {
		copy(dst[k*L:(k+1)*L], ln.y[r*L:(r+1)*L])
	}
}

func (ln *Learner) Logits(dst []float64, rows []int) {
	ln.batch = ln.batch[:0]
	for _, r := range rows {
		ln.batch = append(ln.batch, ln.docs[r])
	}
	ln.ws.Forward(dst, ln.batch)
}

func (ln *Learner) Update(dz []float64) {
	g := ln.grad[ln.start:]
	clear(g)
	ln.ws.Backward(ln.grad, dz, ln.trainEmb)
	ln.adam.Step(ln.m.Params[ln.start:], g)
}

// The state is little-endian: the trained parameters, Adam's step count
// and its two moment buffers (empty before the first step).
func (ln *Learner) AppendState(b []byte) []byte {
	s := ln.adam.State()
	b = appendFloat32s(b, ln.m.Params[ln.start:])
	b = binary.LittleEndian.AppendUint64(b, uint64(s.T))
	b = appendFloat32s(b, s.M)
	return appendFloat32s(b, s.V)
}

func (ln *Learner) SetState(b []byte) error {
	P := len(ln.m.Params) - ln.start
	if len(b) != 4*P+8 && len(b) != 12*P+8 {
		return errors.New("state size does not match the model")
	}
	t := int64(binary.LittleEndian.Uint64(b[4*P:]))
	rest := b[4*P+8:]
	if t < 0 || (t == 0) != (len(rest) == 0) {
		return errors.New("optimizer state does not match its step count")
	}
	s := optim.Adam32State{T: int(t)}
	if len(rest) > 0 {
		s.M, s.V = readFloat32s(nil, rest[:4*P]), readFloat32s(nil, rest[4*P:])
	}
	readFloat32s(ln.m.Params[ln.start:], b[:4*P])
	ln.adam.SetState(s)
	return nil
}

func (ln *Learner) AppendParams(b []byte) []byte { return appendFloat32s(b, ln.m.Params[ln.start:]) }

func (ln *Learner) SetParams(b []byte) error {
	if len(b) != 4*(len(ln.m.Params)-ln.start) {
		return errors.New("parameter count does not match the model")
	}
	readFloat32s(ln.m.Params[ln.start:], b)
	return nil
}

func appendFloat32s(b []byte, x []float32) []byte {
	for _, v := range x {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
	}
	return b
}

// readFloat32s decodes b into dst (a new slice when dst is nil).
func readFloat32s(dst []float32, b []byte) []float32 {
	if dst == nil {
		dst = make([]float32, len(b)/4)
	}
	for i := range dst {
		dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return dst
}
