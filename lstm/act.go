package lstm

import "math"

// The activations are computed in float32 by a fixed sequence of IEEE
// operations, written out here and repeated operation for operation by the
// assembly kernels, so that both give the same bits. Products are converted
// to float32 before they are added: an explicit conversion stops the
// compiler from fusing x*y + z into one FMA (the Go specification allows
// fusion otherwise), which would round differently.

const (
	log2e   = 1.44269504088896341
	shifter = 0x1.8p23 // adding it rounds a float32 of magnitude < 2²² to an integer
	ln2hi   = 0.693359375
	ln2lo   = -2.12194440e-4
	expMax  = 80 // exp is evaluated on [−expMax, expMax]: e^±80 are normal float32s
	// Cephes' single-precision coefficients of e^r ≈ 1 + r + r²·P(r) on
	// |r| ≤ ln2/2, relative error about 1 ulp.
	p0 = 1.9875691500e-4
	p1 = 1.3981999507e-3
	p2 = 8.3334519073e-3
	p3 = 4.1665795894e-2
	p4 = 1.6666665459e-1
	p5 = 5.0000001201e-1
)

// expf returns e^x for x clamped to [−expMax, expMax], within about 2 ulp of
// the exact value: x = n·ln2 + r with n an integer and |r| ≤ ln2/2 (ln2 in
// two parts, Cody and Waite), e^r by a polynomial, and 2ⁿ added to the
// exponent bits.
func expf(x float32) float32 {
	x = min(max(x, -expMax), expMax)
	n := (float32(x*log2e) + shifter) - shifter
	r := x - float32(n*ln2hi)
	r -= float32(n * ln2lo)
	p := float32(p0*r) + p1
	p = float32(p*r) + p2
	p = float32(p*r) + p3
	p = float32(p*r) + p4
	p = float32(p*r) + p5
	r2 := float32(r * r)
	e := float32(p*r2) + r + 1
	return math.Float32frombits(math.Float32bits(e) + uint32(int32(n))<<23)
}

// sigmoid returns 1/(1 + e^−x).
func sigmoid(x float32) float32 { return 1 / (1 + expf(-x)) }

// tanhf returns tanh x as 2σ(2x) − 1: within about 1e-7 of the exact value
// (an absolute bound; the relative error grows near 0, where it is of no
// consequence to the network).
func tanhf(x float32) float32 { return 2*sigmoid(2*x) - 1 }

// tiny is the magnitude below which the cell kernels flush their results
// to zero. Products of two flushed values are then at least 2⁻¹²⁰, above
// the smallest normal float32 (2⁻¹²⁶), so the matrix products of the
// backward pass never meet a subnormal number, each of which costs the
// processor a microcode assist (some hundred cycles). What is flushed is
// below 1e-18: nothing a float32 gradient step can see.
const tiny = 0x1p-60

// flush returns 0 for |x| < tiny, else x.
func flush(x float32) float32 {
	if x < tiny && x > -tiny {
		return 0
	}
	return x
}
