//go:build amd64 && !purego

package train

import "golang.org/x/sys/cpu"

// haveFused says whether the fused step runs: on processors with AVX2 and
// FMA, where model.Linear computes its products in the fused forms that
// the kernel reproduces, and AVX-512 (with whose division and square root
// of eight numbers at a time optim's Adam takes 0.40–0.45 ns a parameter
// on this project's Zen 5, against 0.72–0.76 ns four at a time:
// go test -bench AdamKernel ./optim/).
var haveFused = cpu.X86.HasAVX2 && cpu.X86.HasFMA && cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL

// fusedFrame is fusedArgs as the kernel reads it: pointers to the first
// elements, then the sizes (the offsets are the kernel's); x and xp are
// the packed rows.
type fusedFrame struct {
	w, mw, vw, b, mb, vb, x, g, xp, z *float64
	k                                 *adamK
	labels, in, rows, out, nz, flags  int
}

// fusedLabelsAVX512 is fusedLabelsGo in AVX-512 and FMA instructions.
//
//go:noescape
func fusedLabelsAVX512(a *fusedFrame)

// fusedLabels runs the kernel on a (checked: the kernel trusts it), and
// the reference on the last label when their number is odd (the kernel
// takes them two at a time).
func fusedLabels(a *fusedArgs) {
	a.check()
	if n := a.labels &^ 1; n > 0 {
		f := fusedFrame{
			w: &a.w[0], mw: &a.mw[0], vw: &a.vw[0],
			b: &a.b[0], mb: &a.mb[0], vb: &a.vb[0],
			x: &a.xc[0], g: &a.g[0], xp: &a.xp[0], k: a.k,
			labels: n, in: a.in, rows: a.rows, out: a.out, nz: a.nz, flags: a.flags,
		}
		if a.nz > 0 {
			f.z = &a.z[0]
		}
		fusedLabelsAVX512(&f)
	}
	if a.labels%2 == 1 {
		j, in := a.labels-1, a.in
		last := *a
		last.labels = 1
		last.w, last.mw, last.vw = a.w[j*in:], a.mw[j*in:], a.vw[j*in:]
		last.b, last.mb, last.vb = a.b[j:], a.mb[j:], a.vb[j:]
		last.g = a.g[j:]
		if a.nz > 0 {
			last.z = a.z[j:]
		}
		fusedLabelsGo(&last)
	}
}
