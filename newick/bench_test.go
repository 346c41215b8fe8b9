package newick

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// BenchmarkRead reads a random binary tree with 10⁵ tips (about 2 MB).
func BenchmarkRead(b *testing.B) {
	const n = 100_000
	var text []byte
	{
		// Build by a balanced merge to keep the generator fast.
		rng := rand.New(rand.NewPCG(1, 2))
		parts := make([]string, n)
		for i := range parts {
			parts[i] = "OTU" + strconv.Itoa(i) + ":" + strconv.FormatFloat(rng.Float64(), 'g', 6, 64)
		}
		for len(parts) > 1 {
			var next []string
			for i := 0; i < len(parts); i += 2 {
				if i+1 == len(parts) {
					next = append(next, parts[i])
					continue
				}
				next = append(next, "("+parts[i]+","+parts[i+1]+")0.95:"+strconv.FormatFloat(rng.Float64(), 'g', 6, 64))
			}
			parts = next
		}
		text = []byte(parts[0] + ";\n")
	}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(text, "b.nwk", nil); err != nil {
			b.Fatal(err)
		}
	}
}
