package sinkhorn

import (
	"fmt"
	"sync/atomic"
)

// The batch methods solve B = len(values) independent pairs that share the
// Solver's cost matrix: row k of the row-major B×n and B×m inputs is one
// pair. Pairs are distributed over up to Workers lanes (goroutines), each
// solving its pairs serially with its own workspace; every result is
// bit-for-bit the one the corresponding single-pair method returns. On a
// data error the error of the lowest failing row is returned, wrapped as
// "batch row k: ...", and the outputs are unspecified. Shape mismatches
// panic.

// Batch writes to values[k] the transport cost ⟨C, P_k⟩ of pair k.
func (s *Solver) Batch(values, a, b []float64) error {
	B := len(values)
	s.checkBatch(B, a, b)
	n, m := s.n, s.m
	return s.batch(B, func(l *lane, k, par int) error {
		res, err := l.run(a[k*n:(k+1)*n], b[k*m:(k+1)*m], par)
		values[k] = res.Value
		return err
	})
}

// BatchGrad writes to values[k] the transport cost of pair k and to row k of
// grads (B×n) the centred gradient of Solver.Grad.
func (s *Solver) BatchGrad(values, grads, a, b []float64) error {
	B := len(values)
	s.checkBatch(B, a, b)
	n, m := s.n, s.m
	if len(grads) != B*n {
		panic("sinkhorn: grads length mismatch")
	}
	return s.batch(B, func(l *lane, k, par int) error {
		res, err := l.run(a[k*n:(k+1)*n], b[k*m:(k+1)*m], par)
		values[k] = res.Value
		if err != nil {
			return err
		}
		l.centredGrad(grads[k*n:(k+1)*n], par)
		return nil
	})
}

// BatchLogitGrad is the loss of a softmax model: for every row k it sets
// a_k = softmax(logits row k), writes the transport cost ⟨C, P_k⟩ against
// targets row k (mass 1) to values[k], and the logit gradient of
// Solver.LogitGrad to row k of grads (B×n). grads may be logits itself.
func (s *Solver) BatchLogitGrad(values, grads, logits, targets []float64) error {
	B := len(values)
	s.checkBatch(B, logits, targets)
	n, m := s.n, s.m
	if len(grads) != B*n {
		panic("sinkhorn: grads length mismatch")
	}
	return s.batch(B, func(l *lane, k, par int) error {
		v, err := l.logitGrad(grads[k*n:(k+1)*n], logits[k*n:(k+1)*n], targets[k*m:(k+1)*m], par)
		values[k] = v
		return err
	})
}

func (s *Solver) checkBatch(B int, a, b []float64) {
	if len(a) != B*s.n {
		panic("sinkhorn: batch a length mismatch")
	}
	if len(b) != B*s.m {
		panic("sinkhorn: batch b length mismatch")
	}
}

// batch runs fn for k in [0, B). With one lane (or one pair) the pairs run
// in order on lane 0, each with the single-solve parallelism; otherwise
// lanes take pairs from a shared counter and solve them serially.
func (s *Solver) batch(B int, fn func(l *lane, k, par int) error) error {
	lanes := min(len(s.lanes), B)
	if lanes <= 1 {
		for k := range B {
			if err := fn(s.lanes[0], k, s.par()); err != nil {
				return fmt.Errorf("batch row %d: %w", k, err)
			}
		}
		return nil
	}
	var next atomic.Int64
	for w := range lanes {
		if s.lanes[w] == nil {
			s.lanes[w] = newLane(s, s.m)
		}
		s.lanes[w].err, s.lanes[w].errK = nil, B
	}
	parallel(lanes, lanes, func(w int) {
		l := s.lanes[w]
		for {
			k := int(next.Add(1)) - 1
			if k >= B {
				return
			}
			if err := fn(l, k, 1); err != nil && k < l.errK {
				l.err, l.errK = err, k
			}
		}
	})
	first := B
	var err error
	for _, l := range s.lanes[:lanes] {
		if l.err != nil && l.errK < first {
			first, err = l.errK, l.err
		}
	}
	if err != nil {
		return fmt.Errorf("batch row %d: %w", first, err)
	}
	return nil
}
