package train

import (
	"math/rand/v2"
	"testing"

	"github.com/twl-ldl/twl/loss"
	"github.com/twl-ldl/twl/model"
	"github.com/twl-ldl/twl/optim"
	"github.com/twl-ldl/twl/tree"
)

// 100 steps = one epoch.
func BenchmarkZZSteps(b *testing.B) {
	t := tree.Random(1000, rand.NewPCG(1, 2)).BreadthFirst()
	data := synthShape(t, 1000, 100)
	m := model.NewLinear(100, t.Len(), rand.NewPCG(3, 4))
	X := data.X[:10*100]
	Y := data.Y[:10*1000]
	z := make([]float64, 10*1000)
	g := make([]float64, len(m.Params))
	kl := loss.NewKL(1000)
	kltw := loss.NewKLTW(t, 1)
	var ad optim.Adam
	m.Logits(z, X)
	b.Run("logits", func(b *testing.B) {
		for b.Loop() {
			for range 100 {
				m.Logits(z, X)
			}
		}
	})
	b.Run("kl", func(b *testing.B) {
		for b.Loop() {
			for range 100 {
				m.Logits(z, X)
				kl.Eval(z, z, Y)
			}
		}
	})
	b.Run("kltw", func(b *testing.B) {
		for b.Loop() {
			for range 100 {
				m.Logits(z, X)
				kltw.Eval(z, z, Y)
			}
		}
	})
	b.Run("backward", func(b *testing.B) {
		for b.Loop() {
			for range 100 {
				m.Backward(g, z, X)
			}
		}
	})
	b.Run("adam", func(b *testing.B) {
		for b.Loop() {
			for range 100 {
				ad.Step(m.Params, g)
			}
		}
	})
}
