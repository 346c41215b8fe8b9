package unifrac

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/tree"
)

// TestAlphaRange: generalized UniFrac's α is defined on [0, 1] (Chen et
// al. 2012); New refuses any other value, also for NewColumns, and takes
// both ends. (New took every finite α: 1e308 made every distance NaN.)
func TestAlphaRange(t *testing.T) {
	tr := tree.Random(5, rand.NewPCG(1, 1))
	tab := &Table{Indptr: []int{0, 1, 2}, Indices: []int32{1, 2}, Values: []float64{1, 1}}
	for _, a := range []float64{-1, -1e-300, math.Nextafter(1, 2), 2, 1e308, math.Inf(1), math.Inf(-1), math.NaN()} {
		_, err := New(tr, tab, Generalized, &Options{Alpha: a})
		if err == nil || !strings.Contains(err.Error(), "outside [0, 1]") {
			t.Errorf("New α=%g: error %v", a, err)
		}
		if _, err := NewColumns(tr, tab, Generalized, &Options{Alpha: a}); err == nil {
			t.Errorf("NewColumns α=%g: nil error", a)
		}
	}
	for _, a := range []float64{0, 0.5, 1} {
		if _, err := New(tr, tab, Generalized, &Options{Alpha: a}); err != nil {
			t.Errorf("New α=%g: %v", a, err)
		}
	}
	// Other methods ignore α.
	if _, err := New(tr, tab, Unweighted, &Options{Alpha: 7}); err != nil {
		t.Errorf("unweighted with α=7: %v", err)
	}
}
