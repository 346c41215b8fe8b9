//go:build !amd64 || purego

package optim

func adamUpdate(p, g, m, v []float64, k *adamConsts) { adamGo(p, g, m, v, k) }
