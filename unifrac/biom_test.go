package unifrac

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/biom"
	"github.com/twl-ldl/twl/newick"
)

// TestTableOf reads the small table in every format with its tree and
// compares with ssu's output recorded in testdata/unifrac/README.md
// (weighted unnormalized: S1–S2 1.46764705882353, S1–S3 1.5125, S2–S3
// 2.165441176470588). Every format hashes the same.
func TestTableOf(t *testing.T) {
	tr, err := newick.ReadFile("../testdata/unifrac/tree.nwk", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{1.46764705882353, 1.5125, 2.165441176470588}
	var hash string
	for _, name := range []string{"table.biom", "table.json", "table-dense.json", "table.tsv", "table-taxonomy.tsv", "table.qza"} {
		b, err := biom.ReadFile("../testdata/unifrac/"+name, nil)
		if err != nil {
			t.Fatal(err)
		}
		tab, err := TableOf(tr, b)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		e, err := New(tr, tab, WeightedUnnormalized, nil)
		if err != nil {
			t.Fatal(err)
		}
		d := make([]float64, 3)
		if err := e.Condensed(context.Background(), d); err != nil {
			t.Fatal(err)
		}
		for k := range d {
			if math.Abs(d[k]-want[k]) > 1e-14 {
				t.Errorf("%s: pair %d: %v, ssu %v", name, k, d[k], want[k])
			}
		}
		h := TableHash(tr, tab)
		if hash == "" {
			hash = h
		} else if h != hash {
			t.Errorf("%s: hash %s, table.biom's %s", name, h, hash)
		}
	}
}

func TestTableOfErrors(t *testing.T) {
	tr, err := newick.Parse([]byte("((A:1,B:2)x:1,C:3);"), "t.nwk", nil)
	if err != nil {
		t.Fatal(err)
	}
	tab := func(obs []string, counts ...float64) *biom.Table {
		b := &biom.Table{Samples: []string{"s1", "s2"}, Observations: obs, Indptr: []int{0, 0, 0}}
		for k, c := range counts {
			s := k / len(obs)
			if c != 0 {
				b.Indices = append(b.Indices, int32(k%len(obs)))
				b.Data = append(b.Data, c)
				for r := s + 1; r <= 2; r++ {
					b.Indptr[r]++
				}
			}
		}
		return b
	}
	_, err = TableOf(tr, tab([]string{"A", "Q", "x", "C", "R"}, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1))
	var me *MissingTipsError
	if !errors.As(err, &me) || me.Count != 3 || strings.Join(me.IDs, ",") != "Q,x,R" {
		t.Errorf("missing tips (an internal node among them): %v", err)
	}
	var se *SampleError
	if _, err := TableOf(tr, tab([]string{"A", "B"}, 1, 2, 0, 0)); !errors.As(err, &se) || se.Sample != "s2" || !strings.Contains(err.Error(), "no counts") {
		t.Errorf("empty sample: %v", err)
	}
	if _, err := TableOf(tr, tab([]string{"A", "B"}, 1, -2, 1, 1)); !errors.As(err, &se) || se.Sample != "s1" || !strings.Contains(err.Error(), "negative") {
		t.Errorf("negative count: %v", err)
	}
	if _, err := TableOf(tr, tab([]string{"A", "B"}, 1, math.Inf(1), 1, 1)); !errors.As(err, &se) {
		t.Errorf("infinite count: %v", err)
	}
	if _, err := TableOf(tr, tab([]string{"A", "B"}, math.MaxFloat64, math.MaxFloat64, 1, 1)); !errors.As(err, &se) || !strings.Contains(err.Error(), "infinity") {
		t.Errorf("counts summing to infinity: %v", err)
	}
}

func TestParseMethod(t *testing.T) {
	for _, m := range Methods {
		if got, err := ParseMethod(m.String()); got != m || err != nil {
			t.Errorf("%v: %v %v", m, got, err)
		}
	}
	if _, err := ParseMethod("weighted"); err == nil || !strings.Contains(err.Error(), "available: weighted_normalized, weighted_unnormalized, unweighted, unweighted_unnormalized, generalized") {
		t.Errorf("unknown method: %v", err)
	}
}
