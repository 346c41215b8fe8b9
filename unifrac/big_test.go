package unifrac

import (
	"context"
	"os"
	"testing"
	"time"
)

// TestBigStats reports the shape and timings of a large case written by
// testdata/gen.py when UNIFRAC_BIG names its prefix (for tuning).
func TestBigStats(t *testing.T) {
	prefix := os.Getenv("UNIFRAC_BIG")
	if prefix == "" {
		t.Skip("UNIFRAC_BIG not set")
	}
	tr, err := readNewick(prefix + ".nwk")
	if err != nil {
		t.Fatal(err)
	}
	tab, err := readTriplets(prefix+".tsv", tr)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []Method{WeightedNormalized, Unweighted} {
		t0 := time.Now()
		e, err := New(tr, tab, m, nil)
		if err != nil {
			t.Fatal(err)
		}
		t1 := time.Now()
		var ent, brs, pairs int
		for _, b := range e.blocks {
			ent += len(b.val)
			brs += len(b.br)
		}
		// Pair-branch products in the sparse part, over tiles.
		nb := len(e.blocks)
		for bi := range nb {
			for bj := bi; bj < nb; bj++ {
				x, y := &e.blocks[bi], &e.blocks[bj]
				p, q := 0, 0
				for p < len(x.br) && q < len(y.br) {
					switch {
					case x.br[p] < y.br[q]:
						p++
					case x.br[p] > y.br[q]:
						q++
					default:
						a, b := int(x.ptr[p+1]-x.ptr[p]), int(y.ptr[q+1]-y.ptr[q])
						if bi == bj {
							pairs += a * (a - 1) / 2
						} else {
							pairs += a * b
						}
						p++
						q++
					}
				}
			}
		}
		n := e.Len()
		d := make([]float64, n*(n-1)/2)
		t2 := time.Now()
		e.Condensed(context.Background(), d)
		t3 := time.Now()
		t.Logf("%v: n=%d dense=%d (%.3g pair-columns) sparse entries=%d block-branches=%d sparse pairs=%.3g; prepare %v compute %v",
			m, n, e.dense, float64(e.dense)*float64(n)*float64(n)/2, ent, brs, float64(pairs), t1.Sub(t0), t3.Sub(t2))
	}
}
