package bag

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/twl-ldl/twl/vocab"
)

// benchData is a model of rows rows (10% words, the rest n-gram rows),
// dimension 100 and 38 labels, and 512 documents of 600 features drawn
// from a Zipf law over the rows (as words and n-grams are), the most
// frequent rows first as KeepBuckets orders them.
func benchData(rows int) (*Model, [][]int32, []float64) {
	words := rows / 10
	kept := make([]int32, rows-words)
	for i := range kept {
		kept[i] = int32(i)
	}
	x, err := NewIndex(words, Features{WordNgrams: 2, Buckets: len(kept)}, kept)
	if err != nil {
		panic(err)
	}
	const L = 38
	m := New(x, 100, L)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range m.Emb {
		m.Emb[i] = float32(rng.NormFloat64() * 0.1)
	}
	z := rand.NewZipf(rng, 1.1, 2, uint64(rows-1))
	docs := make([][]int32, 512)
	y := make([]float64, len(docs)*L)
	for r := range docs {
		for range 600 {
			docs[r] = append(docs[r], int32(z.Uint64()))
		}
		y[r*L+rng.IntN(L)] = 1
	}
	return m, docs, y
}

// BenchmarkStep times a training step (Logits, then Update with a
// gradient of the logits' size) on batches of 8 documents of 600
// features, with 1 worker and with all, over tables of 100,000 rows (40 MB,
// mostly in cache) and 1,000,000 rows (400 MB); ns/feature is the time per
// feature of a document.
func BenchmarkStep(b *testing.B) {
	for _, rows := range []int{100_000, 1_000_000} {
		m, docs, y := benchData(rows)
		for _, workers := range []int{1, 0} {
			b.Run(fmt.Sprintf("rows=%d/workers=%d", rows, workers), func(b *testing.B) {
				ln := NewLearner(m, docs, y, LearnerOptions{LR: 0.1, Workers: workers})
				const B = 8
				z := make([]float64, B*m.Labels)
				rows := make([]int, B)
				b.ReportAllocs()
				s := 0
				for b.Loop() {
					for k := range rows {
						rows[k] = (s*B + k) % len(docs)
					}
					s++
					ln.Logits(z, rows)
					for i := range z {
						z[i] = 1e-3 * float64(i%7-3)
					}
					ln.Update(z)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*B*600), "ns/feature")
			})
		}
	}
}

// BenchmarkEncode times Index.Encode of a document of 300 words with word
// bigrams, and with character 3–6-grams too.
func BenchmarkEncode(b *testing.B) {
	b.Run("bigrams", func(b *testing.B) { benchEncode(b, Features{WordNgrams: 2, Buckets: 1 << 20}) })
	b.Run("bigrams+chars", func(b *testing.B) { benchEncode(b, Features{WordNgrams: 2, MinN: 3, MaxN: 6, Buckets: 1 << 20}) })
}

func benchEncode(b *testing.B, f Features) {
	words := []string{"<unk>"}
	for i := range 1000 {
		words = append(words, fmt.Sprintf("w%d", i))
	}
	v, _ := vocab.New(words)
	kept := make([]int32, 1<<16)
	for i := range kept {
		kept[i] = int32(i * 16)
	}
	x, _ := NewIndex(v.Len(), f, kept)
	text := ""
	for i := range 300 {
		text += fmt.Sprintf("w%d ", (i*37)%1200)
	}
	var tk vocab.Tokenizer
	var dst []int32
	b.ReportAllocs()
	for b.Loop() {
		dst = x.Encode(dst[:0], v, &tk, text)
	}
}

// BenchmarkLogits times prediction's forward pass (Model.NewLogits) on
// batches of 100 documents of 600 features over a table of 1,000,000 rows;
// ns/doc is the time per document.
func BenchmarkLogits(b *testing.B) {
	m, docs, _ := benchData(1_000_000)
	logits := m.NewLogits()
	const B = 100
	z := make([]float64, B*m.Labels)
	b.ReportAllocs()
	s := 0
	for b.Loop() {
		lo := (s * B) % (len(docs) - B)
		s++
		logits(z, docs[lo:lo+B])
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*B), "ns/doc")
}
