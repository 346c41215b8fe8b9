//go:build amd64 && !purego

package train

import "golang.org/x/sys/cpu"

// haveFused says whether the fused step runs: on processors with AVX2 and
// FMA, where model.Linear computes its products in the fused forms that
// the kernel reproduces.
var haveFused = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// fusedFrame is fusedArgs as the kernel reads it: pointers to the first
// elements, then the sizes (the offsets are the kernel's).
type fusedFrame struct {
	w, mw, vw, b, mb, vb, x, g, xp, z *float64
	k                                 *adamK
	labels, in, rows, out, nz, flags  int
}

// fusedLabelsAVX2 is fusedLabelsGo in AVX2 and FMA instructions.
//
//go:noescape
func fusedLabelsAVX2(a *fusedFrame)

// fusedLabels runs the kernel on a (whose slices must hold what the
// sizes say: fusedLabelsGo indexes them; the kernel trusts them), with at
// least one row, one label and one quad.
func fusedLabels(a *fusedArgs) {
	a.check()
	f := fusedFrame{
		w: &a.w[0], mw: &a.mw[0], vw: &a.vw[0],
		b: &a.b[0], mb: &a.mb[0], vb: &a.vb[0],
		x: &a.x[0], g: &a.g[0], xp: &a.xp[0], k: a.k,
		labels: a.labels, in: a.in, rows: a.rows, out: a.out, nz: a.nz, flags: a.flags,
	}
	if a.nz > 0 {
		f.z = &a.z[0]
	}
	fusedLabelsAVX2(&f)
}
