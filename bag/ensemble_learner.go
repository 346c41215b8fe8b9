package bag

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"

	"github.com/twl-ldl/twl/internal/parallel"
)

// EnsembleLearner trains the members of an Ensemble side by side, each
// with its own Learner, documents and loss: it is a train.Learner whose
// rows have K·L logits, member k's in columns k·L … (k+1)·L−1, and whose
// targets repeat each document's target K times. Trained with a loss that
// applies one loss to each block of L (loss.Blocks), every step moves
// each member by the gradient of its own loss on the same mini-batch, as
// if it were trained alone with that batch order.
type EnsembleLearner struct {
	e      *Ensemble
	ls     []*Learner
	z, dz  [][]float64 // the members' logits and gradients, len(rows)×L
	rows   []int       // the rows of the last Logits call
	states []int       // the size of each member's state
	// workers > 1: the members run at once, each on workers/K goroutines
	// (at least one), the functions below being their tasks.
	workers           int
	logitsFn, stepsFn func(k int)
}

// NewEnsembleLearner returns the learner of e whose member k learns from
// docs[k] (rows of member k's table, one list per document, the same
// documents in the same order for every member) and the target
// distributions y (len(docs[k])×L, shared). It panics as NewLearner does,
// or if the members' documents differ in number.
//
// With opts.Workers (0: GOMAXPROCS) of 2 or more, the members take their
// steps at the same time, each with an equal share of the workers (at
// least one): the members share nothing, so each is what it would be
// alone, whatever the number of workers.
func NewEnsembleLearner(e *Ensemble, docs [][][]int32, y []float64, opts LearnerOptions) *EnsembleLearner {
	if len(docs) != len(e.Members) {
		panic(fmt.Sprintf("bag: %d document sets for %d members", len(docs), len(e.Members)))
	}
	K := len(e.Members)
	el := &EnsembleLearner{e: e, workers: opts.Workers}
	if el.workers == 0 {
		el.workers = runtime.GOMAXPROCS(0)
	}
	mo := opts
	if el.workers > 1 && K > 1 {
		mo.Workers = max(1, el.workers/K)
	}
	for k, m := range e.Members {
		if len(docs[k]) != len(docs[0]) {
			panic("bag: the members' document sets differ in length")
		}
		el.ls = append(el.ls, NewLearner(m, docs[k], y, mo))
		el.states = append(el.states, 4*len(m.Params)+8)
	}
	el.z = make([][]float64, K)
	el.dz = make([][]float64, K)
	el.logitsFn = func(k int) { el.ls[k].Logits(el.z[k], el.rows) }
	el.stepsFn = func(k int) { el.ls[k].Update(el.dz[k]) }
	return el
}

// memberLogits stores each member's logits of rows in el.z[k] (rows×L),
// keeping the rows for Update.
func (el *EnsembleLearner) memberLogits(rows []int) {
	el.rows = append(el.rows[:0], rows...)
	for k := range el.ls {
		el.z[k] = growF64(el.z[k], len(rows)*el.e.Outputs())
	}
	el.each(el.logitsFn)
}

// each runs fn for every member: at once when there are workers to share.
func (el *EnsembleLearner) each(fn func(k int)) {
	if el.workers > 1 && len(el.ls) > 1 {
		parallel.Each(len(el.ls), min(el.workers, len(el.ls)), fn)
		return
	}
	for k := range el.ls {
		fn(k)
	}
}

// Members returns the members' learners.
func (el *EnsembleLearner) Members() []*Learner { return el.ls }

func (el *EnsembleLearner) Rows() int   { return el.ls[0].Rows() }
func (el *EnsembleLearner) Labels() int { return len(el.ls) * el.e.Outputs() }

// Targets repeats each row's target distribution once per member.
func (el *EnsembleLearner) Targets(dst []float64, rows []int) {
	L, K := el.e.Outputs(), len(el.ls)
	y := el.ls[0].y
	for i, r := range rows {
		for k := range K {
			copy(dst[(i*K+k)*L:(i*K+k+1)*L], y[r*L:(r+1)*L])
		}
	}
}

// Logits stores each member's logits of rows in its block of dst.
func (el *EnsembleLearner) Logits(dst []float64, rows []int) {
	L, K := el.e.Outputs(), len(el.ls)
	if len(dst) != len(rows)*K*L {
		panic("bag: len(dst) != rows·K·L")
	}
	el.memberLogits(rows)
	for k := range el.ls {
		for i := range rows {
			copy(dst[(i*K+k)*L:(i*K+k+1)*L], el.z[k][i*L:(i+1)*L])
		}
	}
}

// Update hands each member the gradient of its block, scaled so that the
// member's step is that of its own loss: dz holds ∂(Σ_k ℓ_k)/∂z, ℓ_k the
// mean loss of member k over the rows, which is each member's own
// gradient.
func (el *EnsembleLearner) Update(dz []float64) {
	L, K := el.e.Outputs(), len(el.ls)
	B := len(el.rows)
	if len(dz) != B*K*L {
		panic("bag: len(dz) != rows·K·L")
	}
	for k := range el.ls {
		el.dz[k] = growF64(el.dz[k], B*L)
		for i := range B {
			copy(el.dz[k][i*L:(i+1)*L], dz[(i*K+k)*L:(i*K+k+1)*L])
		}
	}
	el.each(el.stepsFn)
}

// Mean returns a view of the learner whose logits are the ensemble's
// (Ensemble.NewLogits': the log of the mean of the members' softmax) and
// whose targets are the rows' own, L of each: what the model predicts,
// for scoring validation documents with the loss of one member
// (train.Config.Validate). Its Logits replaces what the members keep for
// Update, as the learner's own Logits does.
func (el *EnsembleLearner) Mean() *EnsembleMean { return &EnsembleMean{el} }

// EnsembleMean is EnsembleLearner.Mean's view.
type EnsembleMean struct{ el *EnsembleLearner }

func (v *EnsembleMean) Labels() int { return v.el.e.Outputs() }

func (v *EnsembleMean) Targets(dst []float64, rows []int) { v.el.ls[0].Targets(dst, rows) }

func (v *EnsembleMean) Logits(dst []float64, rows []int) {
	el, L := v.el, v.el.e.Outputs()
	if len(dst) != len(rows)*L {
		panic("bag: len(dst) != rows·L")
	}
	el.memberLogits(rows)
	for r := range rows {
		combine(dst[r*L:(r+1)*L], el.z, r, L)
	}
}

// Count returns the features of the rows, summed over the members.
func (el *EnsembleLearner) Count(rows []int) int {
	n := 0
	for _, ln := range el.ls {
		n += ln.Count(rows)
	}
	return n
}

func (el *EnsembleLearner) Unit() string { return "features" }

// Key joins the members' keys.
func (el *EnsembleLearner) Key() string {
	s := make([]string, len(el.ls))
	for k, ln := range el.ls {
		s[k] = ln.Key()
	}
	return fmt.Sprintf("bags K=%d [%s]", len(el.ls), strings.Join(s, "; "))
}

// AppendState appends the members' states, one after the other.
func (el *EnsembleLearner) AppendState(b []byte) []byte {
	for _, ln := range el.ls {
		b = ln.AppendState(b)
	}
	return b
}

func (el *EnsembleLearner) SetState(b []byte) error {
	n := 0
	for _, s := range el.states {
		n += s
	}
	if len(b) != n {
		return errors.New("state size does not match the model")
	}
	// The members step together: their step counts must agree, and are
	// checked before any member changes.
	var steps uint64
	at := 0
	for k, s := range el.states {
		t := binary.LittleEndian.Uint64(b[at+s-8 : at+s])
		if k == 0 {
			steps = t
		} else if t != steps {
			return fmt.Errorf("member %d has made %d steps, member 1 %d", k+1, t, steps)
		}
		at += s
	}
	if steps > math.MaxInt32 {
		return errors.New("step count out of range")
	}
	for k, ln := range el.ls {
		if err := ln.SetState(b[:el.states[k]]); err != nil {
			return fmt.Errorf("member %d: %w", k+1, err)
		}
		b = b[el.states[k]:]
	}
	return nil
}

// AppendParams appends the members' parameters, one after the other.
func (el *EnsembleLearner) AppendParams(b []byte) []byte {
	for _, ln := range el.ls {
		b = ln.AppendParams(b)
	}
	return b
}

func (el *EnsembleLearner) SetParams(b []byte) error {
	n := 0
	for _, ln := range el.ls {
		n += 4 * len(ln.m.Params)
	}
	if len(b) != n {
		return errors.New("parameter count does not match the model")
	}
	for i, ln := range el.ls {
		k := 4 * len(ln.m.Params)
		if err := ln.SetParams(b[:k]); err != nil {
			return fmt.Errorf("member %d: %w", i+1, err)
		}
		b = b[k:]
	}
	return nil
}
