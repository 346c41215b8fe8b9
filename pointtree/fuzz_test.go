package pointtree_test

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/twl-ldl/twl/pointtree"
)

// FuzzBuild feeds both builders arbitrary small point sets (any float64
// bits, so NaN, infinities, huge, tiny and repeated values): they return
// an error or a tree of the package's shape, never panic, and the
// quadtree's distances bound the Euclidean ones.
func FuzzBuild(f *testing.F) {
	put := func(dims byte, k byte, xs ...float64) []byte {
		b := []byte{dims, k}
		for _, x := range xs {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
		}
		return b
	}
	f.Add(put(1, 2, 0, 1, 10, 11))
	f.Add(put(2, 3, 0, 0, 0, 0, 1, 1, 1e-300, 0))
	f.Add(put(1, 4, 5, 5, 5, 5, 5))
	f.Add(put(3, 2, 1e99, -1e99, 0, 1, 2, 3, math.NaN(), 0, 0))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		d := int(data[0]%4) + 1
		k := int(data[1]%5) + 2
		data = data[2:]
		var x []float64
		for len(data) >= 8 && len(x) < 64*d {
			x = append(x, math.Float64frombits(binary.LittleEndian.Uint64(data)))
			data = data[8:]
		}
		n := len(x) / d
		x = x[:n*d]
		ct, cerr := pointtree.Cluster(x, n, d, nil, &pointtree.ClusterOptions{K: k, Depth: 4})
		qt, qerr := pointtree.Quad(x, n, d, nil, &pointtree.QuadOptions{Depth: 20})
		if (cerr == nil) != (qerr == nil) {
			t.Fatalf("Cluster: %v, Quad: %v", cerr, qerr)
		}
		if cerr != nil {
			return
		}
		checkStructure(t, ct, n, nil, pointtree.ClusterPrefix)
		checkStructure(t, qt, n, nil, pointtree.QuadPrefix)
		for i := range n {
			for j := i + 1; j < n; j++ {
				if got, e := qt.Distance(i, j), euclid(x, d, i, j); got < e*(1-1e-9) {
					t.Errorf("Quad: d_T(%d, %d) = %v < Euclidean %v", i, j, got, e)
				}
			}
		}
	})
}
