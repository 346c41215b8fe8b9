//go:build amd64 && !purego

package bag

import "golang.org/x/sys/cpu"

// useAVX2 selects the AVX2 kernel of axpy, which gives the bits of axpyGo.
var useAVX2 = cpu.X86.HasAVX2

// axpyAVX2 adds a·x[i] to y[i] for i < len(y)&^7, eight entries at a time;
// len(x) ≥ len(y).
//
//go:noescape
func axpyAVX2(y, x []float32, a float32)

// sumRowsAVX2 adds the first 96 values of the rows feats of emb (rows of D
// ≥ 96 values) to h[:96], in the order of feats.
//
//go:noescape
func sumRowsAVX2(h, emb []float32, feats []int32, D int)
