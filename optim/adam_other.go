//go:build !amd64 || purego

package optim

// useAVX is false: there is no assembly kernel to select.
var useAVX, useAVX512 = false, false

func adamUpdate(p, g, m, v []float64, k *adamConsts) { adamGo(p, g, m, v, k) }
