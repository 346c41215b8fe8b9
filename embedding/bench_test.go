package embedding

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
)

// genVec writes a .vec of n random words of dimension d, values printed
// with 5 significant digits as fastText does.
func genVec(n, d int) []byte {
	rng := rand.New(rand.NewPCG(1, 2))
	var b bytes.Buffer
	fmt.Fprintf(&b, "%d %d\n", n, d)
	for i := range n {
		fmt.Fprintf(&b, "w%d", i)
		for range d {
			b.WriteByte(' ')
			b.Write(strconv.AppendFloat(nil, 0.2*rng.NormFloat64(), 'g', 5, 32))
		}
		b.WriteString(" \n")
	}
	return b.Bytes()
}

// BenchmarkReadVec reads the 37 MB novels .vec of the shared test data
// (42,421 × 100) from memory when it is present, and a generated file of
// the same shape in any case.
func BenchmarkReadVec(b *testing.B) {
	inputs := []struct {
		name string
		data func() ([]byte, error)
	}{
		{"novels-42421x100", func() ([]byte, error) { return os.ReadFile(novelsVec) }},
		{"generated-42421x100", func() ([]byte, error) { return genVec(42421, 100), nil }},
	}
	for _, in := range inputs {
		b.Run(in.name, func(b *testing.B) {
			data, err := in.data()
			if err != nil {
				b.Skip("test data absent:", err)
			}
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ReadVec(bytes.NewReader(data), in.name); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkParseFloat shows that strconv.ParseFloat of a byte slice
// converted in the call allocates nothing, as ReadVec relies on.
func BenchmarkParseFloat(b *testing.B) {
	fields := [][]byte{[]byte("0.34792"), []byte("-0.0017937"), []byte("-5.5361e-05"), []byte("1")}
	b.ReportAllocs()
	var sum float64
	for b.Loop() {
		for _, f := range fields {
			x, err := strconv.ParseFloat(string(f), 32)
			if err != nil {
				b.Fatal(err)
			}
			sum += x
		}
	}
	_ = sum
}

// BenchmarkLookupSubword looks up words out of the vocabulary of the sg
// fixture (n-grams of 2 to 4 characters, dimension 8), and for comparison
// words in it.
func BenchmarkLookupSubword(b *testing.B) {
	m, _ := readFixture(b, "sg")
	dst := make([]float32, m.Dim())
	for _, tc := range []struct {
		name  string
		words []string
		want  Found
	}{
		{"oov", []string{"cafés", "Strasse", "東京都", "zebra", "averyveryverylongwordindeed"}, Subword},
		{"invocab", []string{"café", "Straße", "東京", "the", "river"}, InVocab},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, w := range tc.words {
					if m.Lookup(dst, w) != tc.want {
						b.Fatal(w)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(tc.words)), "ns/word")
		})
	}
}

// BenchmarkReadBin reads the sg fixture (77 KB) from memory.
func BenchmarkReadBin(b *testing.B) {
	_, data := readFixture(b, "sg")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadBin(bytes.NewReader(data), "sg.bin"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNewTable builds the table of 10,000 words, half of them in a
// Vectors of dimension 100.
func BenchmarkNewTable(b *testing.B) {
	v, err := ReadVec(bytes.NewReader(genVec(5000, 100)), "gen.vec")
	if err != nil {
		b.Fatal(err)
	}
	words := make([]string, 10000)
	for i := range words {
		words[i] = fmt.Sprint("w", i)
	}
	b.ReportAllocs()
	for b.Loop() {
		NewTable(words, v, rand.NewPCG(1, 2), nil)
	}
}
