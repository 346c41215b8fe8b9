package train

import (
	"math"

	"github.com/twl-ldl/twl/optim"
)

// The linear learner's step in one pass over the parameters. For each
// label j of a block, with the gradient G of the loss with respect to the
// logits of the current rows X, and the features Xn of the next rows:
//
//	∂b_j = Σ_r G[r, j]                 (added in row order, from 0)
//	b_j  ← Adam(b_j, ∂b_j)
//	for each quad q of features (k = 4q … 4q+3):
//	    ∂W[j, k] = Σ_r G[r, j]·X[r, k]   (fused, in row order, from 0)
//	    W[j, k] ← Adam(W[j, k], ∂W[j, k])
//	    lane[s][k mod 4] += Xn[s, k]·W[j, k]   (fused; the updated W)
//	zn[s, j] = b_j + ((lane0 + lane2) + (lane1 + lane3))
//
// so that the divisions and square roots of Adam run while the
// multiply-add units compute the two products, and W, its moments and its
// gradient are read and written once per step. Every number is the one
// model.Linear.Backward, optim.Adam.Step and model.Linear.Logits compute
// in their fused (FMA) forms, bit for bit: the row sums of ∂W fused in row
// order, the dot products in four lanes k ≡ 0…3 mod 4 added as (l0 + l2) +
// (l1 + l3), the last In mod 4 products fused in order after them, and
// Adam's update of each parameter as optim writes it, each product rounded
// before it is added. The kernel (fused_amd64.s, AVX-512 and FMA) works
// on two labels at a time, on eight weights of each at a time (the
// gradient and Adam eight wide, the lanes of two next rows side by side,
// each quad of weights held twice) and on a
// last quad when In mod 8 ≥ 4; the last In mod 4 features of each row,
// the last label of an odd block and the next rows beyond the kernel's
// ten are finished in Go. fusedLabelsGo is its reference, operation for
// operation; it takes the rows unpacked, the kernel packed (packRows for
// the current rows, packPairs for the next).

// fusedSlots is the most rows the kernel takes, current or next: the
// current rows' gradient coefficients of a pair of labels are held in
// twenty registers, and the next rows' logits accumulate in one register
// of lanes per pair of rows and label. It is even, so that the next rows
// make whole pairs.
const fusedSlots = 10

// Flags of the kernel.
const (
	fusedDecayW  = 1 << iota // weight decay on the weights
	fusedDecayB              // weight decay on the biases
	fusedAddBias             // store b_j + the lane sum (In is a multiple of 4)
	fusedNext                // there are next rows (nz > 0): compute their lanes
)

// adamK holds the constants of one Adam step, each four times (a row per
// constant, as the kernel reads them): β₁, 1−β₁, β₂, 1−β₂, the step
// α√(1−β₂ᵗ)/(1−β₁ᵗ), ε√(1−β₂ᵗ), and the weight decay.
type adamK [8][4]float64

const (
	kB1 = iota
	kC1
	kB2
	kC2
	kStep
	kEps
	kWD
)

// setAdamK sets k to the constants of the Adam step st, each four times.
func setAdamK(k *adamK, st *optim.AdamStep) {
	for c, x := range [...]float64{st.Beta1, st.C1, st.Beta2, st.C2, st.Step, st.EpsHat, st.WeightDecay} {
		k[c] = [4]float64{x, x, x, x}
	}
}

// decayEnd returns the end of the n parameters that a's weight decay
// applies to (optim.Adam.DecayEnd).
func decayEnd(a *optim.Adam, n int) int {
	if a.DecayEnd > 0 {
		return min(a.DecayEnd, n)
	}
	return n
}

// adamOne returns parameter p after one Adam step with gradient g, and
// updates its moments, as optim.Adam.Update does (see optim.AdamStep): every product rounded before
// it is added (the conversions forbid fused multiply-adds).
func adamOne(k *adamK, decay bool, p, g float64, m, v *float64) float64 {
	if decay && k[kWD][0] != 0 {
		g += float64(k[kWD][0] * p)
	}
	mi := float64(k[kB1][0]**m) + float64(k[kC1][0]*g)
	vi := float64(k[kB2][0]**v) + float64(float64(k[kC2][0]*g)*g)
	*m, *v = mi, vi
	return p - float64(k[kStep][0]*mi)/(math.Sqrt(vi)+k[kEps][0])
}

// fusedArgs are the operands of the fused kernel over the labels
// [0, labels) of a block (the slices start at the block's first label).
type fusedArgs struct {
	w, mw, vw []float64 // rows of W (labels×in) and their moments
	b, mb, vb []float64 // biases and their moments
	x         []float64 // current rows' features, rows×in
	g         []float64 // ∂loss/∂logits, G[r, j] at g[r·out+j]
	xn        []float64 // next rows' features, at least nz×in
	// xc and xp are x and xn packed for the kernel (packRows and
	// packPairs).
	xc, xp     []float64
	z          []float64 // next rows' logits, z[s·out+j], s < nz
	k          *adamK
	labels, in int
	rows, out  int
	nz, flags  int
}

// check panics unless the slices hold what the sizes say, with at least
// one label, one row and one quad, and at most fusedSlots rows (the
// kernel trusts them).
func (a *fusedArgs) check() {
	n := a.labels * a.in
	if a.labels < 1 || a.rows < 1 || a.rows > fusedSlots || a.in < 4 || a.nz < 0 || a.nz > fusedSlots ||
		len(a.w) < n || len(a.mw) < n || len(a.vw) < n ||
		len(a.b) < a.labels || len(a.mb) < a.labels || len(a.vb) < a.labels ||
		len(a.x) < a.rows*a.in || len(a.g) < (a.rows-1)*a.out+a.labels || a.out < a.labels ||
		len(a.xn) < a.nz*a.in || len(a.xc) < packedLen(a.in) || len(a.xp) < packedLen(a.in) ||
		(a.nz > 0 && len(a.z) < (a.nz-1)*a.out+a.labels) {
		panic("train: fused step with operands of the wrong sizes")
	}
}

// packedLen is the length of rows of in features packed by packRows.
func packedLen(in int) int {
	return in/8*8*fusedSlots + in/4%2*4*fusedSlots + packPad
}

// packPad is the number of zeros after packed rows: the kernel reads an
// oct of rows past the end (and uses none of it).
const packPad = 8 * fusedSlots

// packRows stores in dst the first n ≤ fusedSlots rows of x (in features
// each) as the kernel reads them, followed by packPad zeros: for each oct of features k = 8o … 8o+7,
// the ten rows' eight features, 64 bytes apart; then, when in mod 8 ≥ 4,
// the ten rows' quad 8⌊in/8⌋ … +3, 32 bytes apart. The slots of missing
// rows are zeros; the last in mod 4 features are left out.
func packRows(dst, x []float64, in, n int) {
	octs := in / 8
	dst = packedBody(dst, in)
	for o := 0; o < octs; o++ {
		for s := 0; s < fusedSlots; s++ {
			rowPart(dst[(o*fusedSlots+s)*8:(o*fusedSlots+s+1)*8], x, in, n, s, 8*o)
		}
	}
	if in/4%2 == 1 {
		base := octs * 8 * fusedSlots
		for s := 0; s < fusedSlots; s++ {
			rowPart(dst[base+s*4:base+s*4+4], x, in, n, s, 8*octs)
		}
	}
}

// packedBody clears the packPad zeros at the end of dst, of length
// packedLen(in), and returns what lies before them.
func packedBody(dst []float64, in int) []float64 {
	dst = dst[:packedLen(in)]
	clear(dst[len(dst)-packPad:])
	return dst[:len(dst)-packPad]
}

// rowPart copies into d the len(d) features of row s of x (in features a
// row, n rows) from feature k, or zeros when s ≥ n.
func rowPart(d, x []float64, in, n, s, k int) {
	if s < n {
		copy(d, x[s*in+k:s*in+k+len(d)])
	} else {
		clear(d)
	}
}

// packPairs stores in dst the first n ≤ fusedSlots rows of x (in
// features each) as the kernel reads the next rows, followed by packPad
// zeros: the rows two by two (2p and 2p+1, p < fusedSlots/2), a quad of
// features of row 2p followed by the same quad of row 2p+1, so that one
// eight-wide register holds the two rows' lanes. For each oct of
// features k = 8o … 8o+7 and each pair, the low quads (64 bytes) then the
// high quads, pairs 128 bytes apart; then, when in mod 8 ≥ 4, each pair's
// quad 8⌊in/8⌋ … +3, 64 bytes apart. The slots of missing rows are zeros;
// the last in mod 4 features are left out. The length is packRows'.
func packPairs(dst, x []float64, in, n int) {
	octs := in / 8
	dst = packedBody(dst, in)
	for o := 0; o < octs; o++ {
		for p := 0; p < fusedSlots/2; p++ {
			d := dst[(o*fusedSlots+2*p)*8:]
			rowPart(d[0:4], x, in, n, 2*p, 8*o)
			rowPart(d[4:8], x, in, n, 2*p+1, 8*o)
			rowPart(d[8:12], x, in, n, 2*p, 8*o+4)
			rowPart(d[12:16], x, in, n, 2*p+1, 8*o+4)
		}
	}
	if in/4%2 == 1 {
		base := octs * 8 * fusedSlots
		for p := 0; p < fusedSlots/2; p++ {
			rowPart(dst[base+8*p:base+8*p+4], x, in, n, 2*p, 8*octs)
			rowPart(dst[base+8*p+4:base+8*p+8], x, in, n, 2*p+1, 8*octs)
		}
	}
}

// fusedLabelsGo is the reference of the kernel: for each label, the
// bias's gradient and update, then each quad of W's row: its gradient,
// its update and its products with the next rows, and at the end the
// lane sums of the next rows' logits, the bias added when fusedAddBias is
// set. The last in mod 4 features of each row are left alone (and out of
// the sums).
func fusedLabelsGo(a *fusedArgs) {
	k, in, out := a.k, a.in, a.out
	quads := in / 4
	for j := 0; j < a.labels; j++ {
		var gb float64
		for r := 0; r < a.rows; r++ {
			gb += a.g[r*out+j]
		}
		a.b[j] = adamOne(k, a.flags&fusedDecayB != 0, a.b[j], gb, &a.mb[j], &a.vb[j])
		var lanes [fusedSlots][4]float64
		for q := 0; q < quads; q++ {
			for c := 0; c < 4; c++ {
				i := j*in + 4*q + c
				var gw float64
				for r := 0; r < a.rows; r++ {
					gw = math.FMA(a.g[r*out+j], a.x[r*in+4*q+c], gw)
				}
				w := adamOne(k, a.flags&fusedDecayW != 0, a.w[i], gw, &a.mw[i], &a.vw[i])
				a.w[i] = w
				for s := 0; s < a.nz; s++ {
					lanes[s][c] = math.FMA(a.xn[s*in+4*q+c], w, lanes[s][c])
				}
			}
		}
		for s := 0; s < a.nz; s++ {
			l := &lanes[s]
			sum := (l[0] + l[2]) + (l[1] + l[3])
			if a.flags&fusedAddBias != 0 {
				sum = a.b[j] + sum
			}
			a.z[s*out+j] = sum
		}
	}
}

// fusedTails finishes the labels [0, labels) of a block after the kernel
// when in is not a multiple of 4: the gradient and update of each row's
// last in mod 4 weights, then the next rows' logits, b_j + the lane sum +
// the last products fused in order (xn holds the next rows' features,
// nz of them, in×nz).
func fusedTails(a *fusedArgs) {
	xn := a.xn
	in, out := a.in, a.out
	k0 := in &^ 3
	decay := a.flags&fusedDecayW != 0
	for j := 0; j < a.labels; j++ {
		for c := k0; c < in; c++ {
			var gw float64
			for r := 0; r < a.rows; r++ {
				gw = math.FMA(a.g[r*out+j], a.x[r*in+c], gw)
			}
			i := j*in + c
			a.w[i] = adamOne(a.k, decay, a.w[i], gw, &a.mw[i], &a.vw[i])
		}
		w := a.w[j*in : (j+1)*in]
		for s := 0; s < a.nz; s++ {
			sum := a.z[s*out+j]
			x := xn[s*in : (s+1)*in]
			for c := k0; c < in; c++ {
				sum = math.FMA(x[c], w[c], sum)
			}
			a.z[s*out+j] = a.b[j] + sum
		}
	}
}
