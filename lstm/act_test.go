package lstm

import (
	"math"
	"testing"
)

// TestActivations compares expf, sigmoid and tanhf with math.Exp and
// math.Tanh in float64 over their whole useful range: expf within 2 ulp
// (relative 2.4e-7), sigmoid within 3e-7 relative, tanhf within 2e-7
// absolute.
func TestActivations(t *testing.T) {
	var worstExp, worstSig, worstTanh float64
	for i := -2_000_000; i <= 2_000_000; i++ {
		x := float32(i) * 4e-5 // −80 … 80
		want := math.Exp(float64(x))
		if e := math.Abs(float64(expf(x))-want) / want; e > worstExp {
			worstExp = e
		}
		s := 1 / (1 + math.Exp(-float64(x)))
		if e := math.Abs(float64(sigmoid(x))-s) / s; e > worstSig {
			worstSig = e
		}
		if e := math.Abs(float64(tanhf(x)) - math.Tanh(float64(x))); e > worstTanh {
			worstTanh = e
		}
	}
	if worstExp > 2.4e-7 || worstSig > 3e-7 || worstTanh > 2e-7 {
		t.Errorf("worst errors: exp %.3g (relative), sigmoid %.3g (relative), tanh %.3g (absolute)", worstExp, worstSig, worstTanh)
	}
	// Saturation and the clamp: finite everywhere, limits exact.
	for _, c := range []struct{ x, sig, tanh float32 }{
		{1000, 1, 1}, {-1000, float32(1 / (1 + math.Exp(80))), -1}, {float32(math.Inf(1)), 1, 1}, {0, 0.5, 0},
	} {
		if s, th := sigmoid(c.x), tanhf(c.x); s != c.sig || th != c.tanh {
			t.Errorf("x = %v: sigmoid %v, tanh %v; want %v, %v", c.x, s, th, c.sig, c.tanh)
		}
	}
}

func TestFlush(t *testing.T) {
	for _, c := range []struct{ x, want float32 }{
		{0x1p-61, 0}, {-0x1p-61, 0}, {0x1p-60, 0x1p-60}, {1, 1}, {float32(math.SmallestNonzeroFloat32), 0},
	} {
		if got := flush(c.x); got != c.want {
			t.Errorf("flush(%v) = %v, want %v", c.x, got, c.want)
		}
	}
}
