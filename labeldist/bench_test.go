package labeldist

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/twl-ldl/twl/tree"
)

// benchLines returns rows lines of the given form over all labels of a star
// with L leaves.
func benchLines(L, rows int, dense bool) (*tree.Tree, []byte) {
	t := tree.Star(L)
	rng := rand.New(rand.NewPCG(1, uint64(L)))
	var b bytes.Buffer
	for range rows {
		row := make([]float64, L)
		for i := range row {
			row[i] = rng.Float64()
		}
		if dense {
			json.NewEncoder(&b).Encode(row)
			continue
		}
		m := make(map[string]float64, L)
		for i, v := range row {
			m[t.Name(i)] = v
		}
		json.NewEncoder(&b).Encode(m)
	}
	return t, b.Bytes()
}

func BenchmarkRead(b *testing.B) {
	for _, L := range []int{100, 100000} {
		for _, dense := range []bool{false, true} {
			form := "object"
			if dense {
				form = "array"
			}
			t, data := benchLines(L, 4, dense)
			b.Run(fmt.Sprintf("%s/L=%d", form, L), func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := Read(bytes.NewReader(data), "bench", t, &Options{Normalize: true}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkJSONTokens is the baseline: only tokenizing the same input with
// encoding/json's Decoder.Token, as a parser that catches duplicate keys
// would have to.
func BenchmarkJSONTokens(b *testing.B) {
	for _, L := range []int{100, 100000} {
		for _, dense := range []bool{false, true} {
			form := "object"
			if dense {
				form = "array"
			}
			_, data := benchLines(L, 4, dense)
			b.Run(fmt.Sprintf("%s/L=%d", form, L), func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				for b.Loop() {
					dec := json.NewDecoder(bytes.NewReader(data))
					dec.UseNumber()
					for {
						if _, err := dec.Token(); err != nil {
							break
						}
					}
				}
			})
		}
	}
}

// BenchmarkFill reads 1,000 rows of about 300 labels each of a random tree
// of 100,000 nodes, listed in an order that is not the tree's (benchSparse,
// 8 MB, the shape of a table of samples of a phylogeny): with Fill from
// one Reader ("one"), and with FillAll in as many parts as GOMAXPROCS
// allows ("parts").
func BenchmarkFill(b *testing.B) {
	t, data := benchSparse(100_000, 1000, 300)
	b.Run("one", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := fillOne(data, t, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("parts", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			var s Rows
			if err := s.FillAll(context.Background(), bytes.NewReader(data), int64(len(data)), "bench", t, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}
