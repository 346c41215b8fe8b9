//go:build amd64 && !purego

package optim

import "golang.org/x/sys/cpu"

// useAVX selects adamQuads, four parameters per instruction, where the
// processor has AVX.
var useAVX = cpu.X86.HasAVX

// useAVX512 selects adamOcts, eight parameters per instruction.
var useAVX512 = cpu.X86.HasAVX512F

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

// adamOcts updates the first 8·⌊len(p)/8⌋ parameters with AVX-512, eight
// per instruction.
//
//go:noescape
func adamOcts(p, g, m, v []float64, k *adamConsts)

func adamUpdate(p, g, m, v []float64, k *adamConsts) {
	n := len(p)
	if len(g) < n || len(m) < n || len(v) < n {
		panic("optim: buffer lengths differ")
	}
	done := 0
	if useAVX512 {
		if done = n &^ 7; done > 0 {
			adamOcts(p[:done], g, m, v, k)
		}
	}
	if quads := n &^ 3; useAVX && quads > done {
		adamQuads(p[done:quads], g[done:], m[done:], v[done:], k)
		done = quads
	}
	if even := n &^ 1; even > done {
		adamPairs(p[done:even], g[done:], m[done:], v[done:], k)
		done = even
	}
	if done < n {
		adamGo(p[done:], g[done:n], m[done:n], v[done:n], k)
	}
}
