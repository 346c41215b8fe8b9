package rarefaction

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/biom"
)

// table builds a biom table from dense rows.
func table(rows [][]float64) *biom.Table {
	t := &biom.Table{Indptr: []int{0}}
	for o := range rows[0] {
		t.Observations = append(t.Observations, fmt.Sprintf("o%d", o))
	}
	for s, r := range rows {
		t.Samples = append(t.Samples, fmt.Sprintf("s%d", s))
		for o, v := range r {
			if v != 0 {
				t.Indices = append(t.Indices, int32(o))
				t.Data = append(t.Data, v)
			}
		}
		t.Indptr = append(t.Indptr, len(t.Data))
	}
	return t
}

func dense(t *biom.Table, s int) []float64 {
	d := make([]float64, len(t.Observations))
	idx, val := t.Row(s)
	for k, o := range idx {
		d[o] = val[k]
	}
	return d
}

func TestSubsampleShape(t *testing.T) {
	in := table([][]float64{{5, 0, 3}, {1, 1, 0}, {0, 0, 4}, {2, 2, 2}})
	before := dense(in, 0)
	for _, replace := range []bool{false, true} {
		out, err := Subsample(in, 4, rand.NewPCG(1, 2), &Options{Replace: replace})
		if err != nil {
			t.Fatal(err)
		}
		// s1 (total 2) is left out; s2 (total 4) is kept whole without
		// replacement.
		if !slices.Equal(out.Samples, []string{"s0", "s2", "s3"}) || !slices.Equal(out.Observations, in.Observations) {
			t.Fatalf("samples %v observations %v", out.Samples, out.Observations)
		}
		for k := range out.Samples {
			d := dense(out, k)
			var sum float64
			for o, v := range d {
				sum += v
				orig := dense(in, []int{0, 2, 3}[k])[o]
				if orig == 0 && v != 0 || !replace && v > orig {
					t.Errorf("replace %v: sample %d: count %v of observation %d from %v", replace, k, v, o, orig)
				}
			}
			if sum != 4 {
				t.Errorf("replace %v: sample %d sums to %v", replace, k, sum)
			}
			idx, _ := out.Row(k)
			if !slices.IsSorted(idx) {
				t.Errorf("indices %v not in order", idx)
			}
		}
		if !replace && !slices.Equal(dense(out, 1), []float64{0, 0, 4}) {
			t.Errorf("a sample of the depth's total is changed: %v", dense(out, 1))
		}
	}
	if !slices.Equal(dense(in, 0), before) {
		t.Error("the input changed")
	}
}

// TestSubsampleWorkers: the result depends on the source alone.
func TestSubsampleWorkers(t *testing.T) {
	rows := make([][]float64, 300)
	r := rand.New(rand.NewPCG(7, 7))
	for s := range rows {
		rows[s] = make([]float64, 40)
		for o := range rows[s] {
			if r.IntN(3) == 0 {
				rows[s][o] = float64(r.IntN(50))
			}
		}
	}
	in := table(rows)
	for _, replace := range []bool{false, true} {
		a, err := Subsample(in, 100, rand.NewPCG(3, 4), &Options{Replace: replace, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := Subsample(in, 100, rand.NewPCG(3, 4), &Options{Replace: replace, Workers: 5})
		c, _ := Subsample(in, 100, rand.NewPCG(3, 5), &Options{Replace: replace, Workers: 1})
		if !slices.Equal(a.Samples, b.Samples) || !slices.Equal(a.Indptr, b.Indptr) || !slices.Equal(a.Indices, b.Indices) || !slices.Equal(a.Data, b.Data) {
			t.Errorf("replace %v: 1 and 5 workers differ", replace)
		}
		if slices.Equal(a.Data, c.Data) && slices.Equal(a.Indices, c.Indices) {
			t.Errorf("replace %v: another seed gives the same table", replace)
		}
	}
}

// TestSubsampleDistribution compares the frequencies of the outcomes of
// many draws of one small sample with their probabilities computed by
// enumeration: without replacement every subset of d of the T individuals
// is equally likely (hypergeometric); with replacement each sequence of d
// draws is (multinomial). A chi-square statistic over the outcomes must
// stay below its 99.9% quantile (the seed is fixed, so the test is
// deterministic; the bound is what a correct sampler meets).
func TestSubsampleDistribution(t *testing.T) {
	counts := []float64{3, 1, 2, 4} // T = 10
	const depth, draws = 4, 20000
	// Individuals 0..9 labelled by observation.
	var lab []int
	for o, c := range counts {
		for range int(c) {
			lab = append(lab, o)
		}
	}
	key := func(c [4]int) int { return c[0] + 5*c[1] + 25*c[2] + 125*c[3] }
	for _, replace := range []bool{false, true} {
		want := map[int]float64{}
		if replace {
			// All 10⁴ sequences of draws.
			for q := range 10000 {
				var c2 [4]int
				for k, x := 0, q; k < depth; k, x = k+1, x/10 {
					c2[lab[x%10]]++
				}
				want[key(c2)] += 1.0 / 10000
			}
		} else {
			// All C(10,4) = 210 subsets.
			for m := range 1 << 10 {
				if popcount(m) != depth {
					continue
				}
				var c [4]int
				for i := range 10 {
					if m>>i&1 == 1 {
						c[lab[i]]++
					}
				}
				want[key(c)] += 1.0 / 210
			}
		}
		rows := make([][]float64, draws)
		for s := range rows {
			rows[s] = counts
		}
		out, err := Subsample(table(rows), depth, rand.NewPCG(11, 13), &Options{Replace: replace})
		if err != nil {
			t.Fatal(err)
		}
		got := map[int]float64{}
		for s := range draws {
			d := dense(out, s)
			got[key([4]int{int(d[0]), int(d[1]), int(d[2]), int(d[3])})]++
		}
		chi2 := 0.0
		for k, p := range want {
			e := p * draws
			chi2 += (got[k] - e) * (got[k] - e) / e
		}
		for k := range got {
			if want[k] == 0 {
				t.Fatalf("replace %v: outcome %d is impossible", replace, k)
			}
		}
		// Degrees of freedom: outcomes − 1; the 99.9% quantile of χ² with
		// ν degrees of freedom is below ν + 3.1·√(2ν) + 10 for these ν.
		nu := float64(len(want) - 1)
		if lim := nu + 3.1*math.Sqrt(2*nu) + 10; chi2 > lim {
			t.Errorf("replace %v: χ² = %.1f over %d outcomes, above %.1f", replace, chi2, len(want), lim)
		}
	}
}

func popcount(m int) int {
	n := 0
	for ; m > 0; m &= m - 1 {
		n++
	}
	return n
}

func TestSubsampleErrors(t *testing.T) {
	for _, c := range []struct {
		rows [][]float64
		want string
	}{
		{[][]float64{{1, 2.5}}, "sample s0: count 2.5"},
		{[][]float64{{1, 2}, {1 << 53, 0}}, "sample s1: count"},
		{[][]float64{{1 << 52, 1 << 52}}, "2⁵³ or more"},
	} {
		_, err := Subsample(table(c.rows), 1, rand.NewPCG(1, 1), nil)
		if !errors.Is(err, ErrCount) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want %q", c.rows, err, c.want)
		}
	}
}
