package newick

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// benchText writes a random binary tree with n tips named OTU0, OTU1, ...,
// branch lengths of six significant digits and support values on the
// internal nodes, built by a balanced merge to keep the generator fast.
func benchText(n int) []byte {
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
	return []byte(parts[0] + ";\n")
}

// yuleText writes a Yule tree of n tips as genclade.py does for the UniFrac
// cross-checks: tips t0, t1, ..., no internal labels, lengths with six
// decimals.
func yuleText(n int) []byte {
	rng := rand.New(rand.NewPCG(5, 6))
	type nd struct{ a, b int }
	kids := []nd{{-1, -1}}
	leaves := []int{0}
	for len(leaves) < n {
		i := rng.IntN(len(leaves))
		v := leaves[i]
		a := len(kids)
		kids[v] = nd{a, a + 1}
		kids = append(kids, nd{-1, -1}, nd{-1, -1})
		leaves[i] = a
		leaves = append(leaves, a+1)
	}
	var b []byte
	tip := 0
	var emit func(v int)
	emit = func(v int) {
		if kids[v].a < 0 {
			b = append(b, 't')
			b = strconv.AppendInt(b, int64(tip), 10)
			tip++
		} else {
			b = append(b, '(')
			emit(kids[v].a)
			b = append(b, ',')
			emit(kids[v].b)
			b = append(b, ')')
		}
		if v != 0 {
			b = append(b, ':')
			b = strconv.AppendFloat(b, rng.ExpFloat64(), 'f', 6, 64)
		}
	}
	emit(0)
	return append(b, ";\n"...)
}

// BenchmarkRead reads a random binary tree with 10⁵ tips and support
// values (about 2.7 MB).
func BenchmarkRead(b *testing.B) {
	text := benchText(100_000)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(text, "b.nwk", nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadYule reads a Yule tree of 20,000 tips (about 530 KB), the
// size of the c20k UniFrac case.
func BenchmarkReadYule(b *testing.B) {
	text := yuleText(20_000)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(text, "b.nwk", nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadFile reads the tree file named by $TWL_BENCH_NEWICK, or a
// Yule tree of 50,000 tips (about 1.3 MB) written to a file (SetBytes:
// the file's size).
func BenchmarkReadFile(b *testing.B) {
	path := os.Getenv("TWL_BENCH_NEWICK")
	if path == "" {
		path = filepath.Join(b.TempDir(), "b.nwk")
		if err := os.WriteFile(path, yuleText(50_000), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(fi.Size())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadFile(path, nil); err != nil {
			b.Fatal(err)
		}
	}
}
