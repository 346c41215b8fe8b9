package model_test

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/model"
	"github.com/twl-ldl/twl/tree"
)

// TestSaveManyRows checks the rows of W of a model large enough for Save
// to format them in parts on several goroutines (1000 labels) against
// encoding/json's encoding of each row, an independent formatting, one row
// per line in order, on 1 and 2 workers.
func TestSaveManyRows(t *testing.T) {
	const in, L = 3, 1000
	m := model.NewLinear(in, L, rand.NewPCG(5, 6))
	for i := range m.Params {
		m.Params[i] *= math.Pow(10, float64(i%40-20)) // the 'e' form too
	}
	labels := make([]string, L)
	for i := range labels {
		labels[i] = strconv.Itoa(i)
	}
	f := model.NewFile(m, labels)
	f.Tree = tree.Ref{Source: "star:1000", SHA256: strings.Repeat("0123456789abcdef", 4)}
	f.Loss = "kl"
	var want strings.Builder
	want.WriteString("  \"W\": [\n")
	for i, row := range f.W {
		b, err := json.Marshal(row)
		if err != nil {
			t.Fatal(err)
		}
		want.WriteString("    " + string(b))
		if i < L-1 {
			want.WriteString(",")
		}
		want.WriteString("\n")
	}
	want.WriteString("  ],\n")
	for _, procs := range []int{1, 2} {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		data := string(save(t, f))
		if !strings.Contains(data, want.String()) {
			t.Errorf("%d workers: the rows of W differ from encoding/json's, one a line", procs)
		}
	}
}
