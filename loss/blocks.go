package loss

import "fmt"

// Blocks returns the loss that applies l to each of k blocks of a row:
// for rows of k·L logits and targets (L = l.Labels()), block b being
// columns b·L … (b+1)·L−1, its value is Σ_b l(block b of the logits,
// block b of the targets), and the gradient of each block is l's. It is
// how models of k members that share a training loop, each learning from
// its own block, are trained (package bag's EnsembleLearner): the sum's
// gradient with respect to a member's logits is that of the member's own
// loss. It keeps scratch buffers between calls and is not safe for
// concurrent use. It panics if k < 1.
func Blocks(l Loss, k int) Loss {
	if k < 1 {
		panic("loss: Blocks with fewer than one block")
	}
	return &blocks{l: l, k: k}
}

type blocks struct {
	l            Loss
	k            int
	lg, tg, grad []float64
}

func (b *blocks) Labels() int  { return b.k * b.l.Labels() }
func (b *blocks) Name() string { return fmt.Sprintf("%s on each of %d blocks", b.l.Name(), b.k) }

func (b *blocks) Eval(grad, logits, targets []float64) (float64, error) {
	L, K := b.l.Labels(), b.k
	if len(logits)%(K*L) != 0 || len(targets) != len(logits) || len(grad) != len(logits) {
		panic("loss: Blocks: sizes are not rows of k·L")
	}
	B := len(logits) / (K * L)
	b.lg, b.tg, b.grad = grow(b.lg, B*L), grow(b.tg, B*L), grow(b.grad, B*L)
	var sum float64
	for k := range K {
		for r := range B {
			src := (r*K + k) * L
			copy(b.lg[r*L:(r+1)*L], logits[src:src+L])
			copy(b.tg[r*L:(r+1)*L], targets[src:src+L])
		}
		v, err := b.l.Eval(b.grad, b.lg, b.tg)
		if err != nil {
			return 0, err
		}
		sum += v
		for r := range B {
			dst := (r*K + k) * L
			copy(grad[dst:dst+L], b.grad[r*L:(r+1)*L])
		}
	}
	return sum, nil
}

// grow returns s with length n, reusing its memory when it can.
func grow(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}
