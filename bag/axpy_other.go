//go:build !amd64 || purego

package bag

const useAVX2 = false

func axpyAVX2(y, x []float32, a float32) { panic("bag: no AVX2 kernel") }

func sumRowsAVX2(h, emb []float32, feats []int32, D int) { panic("bag: no AVX2 kernel") }
