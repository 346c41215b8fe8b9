//go:build amd64 && !purego

package optim

import "golang.org/x/sys/cpu"

// useAVX selects adamQuads, four parameters per instruction, where the
// processor has AVX.
var useAVX = cpu.X86.HasAVX

// adamPairs updates the first 2·⌊len(p)/2⌋ parameters with SSE2 packed
// arithmetic (two parameters per instruction, which halves the cost of the
// square root and the division that bound the update).
//
//go:noescape
func adamPairs(p, g, m, v []float64, k *adamConsts)

// adamQuads updates the first 4·⌊len(p)/4⌋ parameters with AVX, four per
// instruction.
//
//go:noescape
func adamQuads(p, g, m, v []float64, k *adamConsts)

func adamUpdate(p, g, m, v []float64, k *adamConsts) {
	n := len(p)
	if len(g) < n || len(m) < n || len(v) < n {
		panic("optim: buffer lengths differ")
	}
	done := 0
	if useAVX {
		if done = n &^ 3; done > 0 {
			adamQuads(p[:done], g, m, v, k)
		}
	}
	if even := n &^ 1; even > done {
		adamPairs(p[done:even], g[done:], m[done:], v[done:], k)
		done = even
	}
	if done < n {
		adamGo(p[done:], g[done:n], m[done:n], v[done:n], k)
	}
}
