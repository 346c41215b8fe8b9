//go:build amd64 && !purego

package optim

// adamPairs updates the first 2·⌊len(p)/2⌋ parameters with SSE2 packed
// arithmetic (two parameters per instruction, which halves the cost of the
// square root and the division that bound the update).
//
//go:noescape
func adamPairs(p, g, m, v []float64, k *adamConsts)

func adamUpdate(p, g, m, v []float64, k *adamConsts) {
	n := len(p)
	if len(g) < n || len(m) < n || len(v) < n {
		panic("optim: buffer lengths differ")
	}
	even := n &^ 1
	if even > 0 {
		adamPairs(p[:even], g, m, v, k)
	}
	if even < n {
		adamGo(p[even:], g[even:n], m[even:n], v[even:n], k)
	}
}
