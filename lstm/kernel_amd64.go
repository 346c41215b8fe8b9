//go:build amd64 && !purego

package lstm

import "golang.org/x/sys/cpu"

// useAVX2 selects the AVX2 cell kernels.
var useAVX2 = cpu.X86.HasAVX2

// use512 selects the AVX-512 cell kernels for blocks of sixteen units.
var use512 = useAVX2 && cpu.X86.HasAVX512F

// cellForwardAVX2 is cellForwardCols on the units 0 … 8·blocks−1 of each of
// rows rows (row strides 4H for g, H for cp, c, tc, h); cp nil means zero.
//
//go:noescape
func cellForwardAVX2(rows, H, blocks int, gates, bias, cp, c, tc, h *float32)

// cellBackwardAVX2 is cellBackwardCols on the units 0 … 8·blocks−1.
//
//go:noescape
func cellBackwardAVX2(rows, H, blocks int, gates, cp, tc, dh, dc *float32)

// cellForward512 is cellForwardAVX2 on blocks of sixteen units, AVX-512.
//
//go:noescape
func cellForward512(rows, H, blocks int, gates, bias, cp, c, tc, h *float32)

// cellBackward512 is cellBackwardAVX2 on blocks of sixteen units, AVX-512.
//
//go:noescape
func cellBackward512(rows, H, blocks int, gates, cp, tc, dh, dc *float32)
