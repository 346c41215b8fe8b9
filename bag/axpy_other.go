//go:build !amd64 || purego

package bag

const useAVX2 = false

func axpyAVX2(y, x []float32, a float32) { panic("bag: no AVX2 kernel") }
