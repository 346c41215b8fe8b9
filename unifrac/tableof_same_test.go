package unifrac

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"testing"

	"github.com/twl-ldl/twl/biom"
	"github.com/twl-ldl/twl/tree"
)

// TestTableOfSameAsReference compares TableOf, which works on all
// processors, with the reference that goes one sample after the other, on
// random tables of up to 600 samples with faults planted at random places:
// ids that are no tips or name internal nodes, negative, NaN, infinite or
// overflowing counts, empty samples, indices out of range, rows that
// decrease. Both must give the same table or the same error.
func TestTableOfSameAsReference(t *testing.T) {
	const tips = 300
	parent := make([]int, 2*tips-1)
	names := make([]string, len(parent))
	for i := range parent {
		parent[i] = (i - 1) / 2
		names[i] = "n" + strconv.Itoa(i)
	}
	parent[0] = -1
	tr, err := tree.FromParents(parent, nil, names, nil)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	kinds := map[string]int{}
	defer func() { t.Logf("outcomes (error?): %v", kinds) }()
	for trial := range 400 {
		nobs := 1 + rng.IntN(tips)
		b := &biom.Table{}
		for o := range nobs {
			b.Observations = append(b.Observations, names[tips-1+o])
		}
		ns := 1 + rng.IntN(600)
		b.Indptr = []int{0}
		for s := range ns {
			b.Samples = append(b.Samples, "s"+strconv.Itoa(s))
			for range 1 + rng.IntN(7) {
				b.Indices = append(b.Indices, int32(rng.IntN(nobs)))
				b.Data = append(b.Data, float64(1+rng.IntN(5)))
			}
			b.Indptr = append(b.Indptr, len(b.Data))
		}
		for range rng.IntN(3) {
			switch k := rng.IntN(len(b.Data) + 1); rng.IntN(8) {
			case 0:
				b.Observations[rng.IntN(nobs)] = "nowhere"
			case 1:
				b.Observations[rng.IntN(nobs)] = names[rng.IntN(tips-1)] // internal
			case 2:
				if k < len(b.Data) {
					b.Data[k] = []float64{-1, math.NaN(), math.Inf(1), math.MaxFloat64, 0}[rng.IntN(5)]
				}
			case 3:
				if k < len(b.Data) {
					b.Indices[k] = []int32{-1, int32(nobs), 1 << 30}[rng.IntN(3)]
				}
			case 4:
				if s := rng.IntN(ns); s > 0 && s < ns {
					b.Indptr[s] = b.Indptr[s+1] + 1 + rng.IntN(3)
				}
			default:
				if s := rng.IntN(ns); b.Indptr[s] < b.Indptr[s+1] {
					for k := b.Indptr[s]; k < b.Indptr[s+1]; k++ {
						b.Data[k] = 0
					}
				}
			}
		}
		got, gerr := TableOf(tr, b)
		want, werr := func() (tab *Table, err error) {
			defer func() {
				if r := recover(); r != nil {
					err = fmt.Errorf("panic: %v", r)
				}
			}()
			return refTableOf(tr, b)
		}()
		if werr != nil && len(werr.Error()) > 6 && werr.Error()[:6] == "panic:" {
			// The reference reads past the counts of a row that runs
			// beyond them; TableOf reports the row.
			if gerr == nil {
				t.Fatalf("trial %d: reference %v, TableOf no error", trial, werr)
			}
			continue
		}
		kinds[fmt.Sprint(gerr != nil)]++
		if fmt.Sprint(gerr) != fmt.Sprint(werr) || !reflect.DeepEqual(got, want) {
			t.Fatalf("trial %d: got %v, %v\nreference %v, %v", trial, got, gerr, want, werr)
		}
	}
}
