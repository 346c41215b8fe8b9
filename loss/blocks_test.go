package loss

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestBlocks: Blocks(KL, 3) on rows of 3·L logits equals KL on each block
// taken out by hand — the sum of the three mean losses, each block's
// gradient KL's, bit for bit — also when the gradient overwrites the
// logits.
func TestBlocks(t *testing.T) {
	const L, K, B = 5, 3, 4
	rng := rand.New(rand.NewPCG(1, 2))
	logits := make([]float64, B*K*L)
	targets := make([]float64, B*K*L)
	for i := range logits {
		logits[i] = rng.NormFloat64() * 3
	}
	for r := range B * K {
		var s float64
		for j := range L {
			targets[r*L+j] = rng.Float64()
			s += targets[r*L+j]
		}
		for j := range L {
			targets[r*L+j] /= s
		}
	}
	kl := NewKL(L)
	var want float64
	wantGrad := make([]float64, B*K*L)
	for k := range K {
		z, y, g := make([]float64, B*L), make([]float64, B*L), make([]float64, B*L)
		for r := range B {
			copy(z[r*L:(r+1)*L], logits[(r*K+k)*L:])
			copy(y[r*L:(r+1)*L], targets[(r*K+k)*L:])
		}
		v, err := kl.Eval(g, z, y)
		if err != nil {
			t.Fatal(err)
		}
		want += v
		for r := range B {
			copy(wantGrad[(r*K+k)*L:(r*K+k+1)*L], g[r*L:(r+1)*L])
		}
	}
	bl := Blocks(NewKL(L), K)
	if bl.Labels() != K*L {
		t.Fatalf("Labels %d, want %d", bl.Labels(), K*L)
	}
	grad := make([]float64, len(logits))
	got, err := bl.Eval(grad, logits, targets)
	if err != nil || got != want || !slices.Equal(grad, wantGrad) {
		t.Errorf("Blocks: %v (%v), want %v; gradients equal: %v", got, err, want, slices.Equal(grad, wantGrad))
	}
	inPlace := slices.Clone(logits)
	got, err = bl.Eval(inPlace, inPlace, targets)
	if err != nil || got != want || !slices.Equal(inPlace, wantGrad) {
		t.Errorf("Blocks in place: %v (%v), want %v", got, err, want)
	}
}
