package model

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"
)

// TestAppendFloats checks appendFloats against encoding/json, the writer
// it replaces, byte for byte: the edges of the 'e' format (1e-6, 1e21),
// zeros of both signs, the extremes of float64, and random bit patterns and
// magnitudes.
func TestAppendFloats(t *testing.T) {
	xs := []float64{
		0, math.Copysign(0, -1), 1, -1, 0.1, 1e-6, math.Nextafter(1e-6, 0), -1e-6, 1e-7, 1.5e-7, 1e-10,
		1e21, math.Nextafter(1e21, 0), -1e21, 1e22, 1e100, 1e-100, 1e-300, 1e300, 5e-324,
		math.SmallestNonzeroFloat64, math.MaxFloat64, -math.MaxFloat64, 123456789, 0.30000000000000004,
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		if f := math.Float64frombits(rng.Uint64()); !math.IsNaN(f) && !math.IsInf(f, 0) {
			xs = append(xs, f)
		}
		xs = append(xs, rng.NormFloat64()*math.Pow(10, float64(rng.IntN(60)-30)))
	}
	for _, x := range xs {
		want, err := json.Marshal(x)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendFloat(nil, x); string(got) != string(want) {
			t.Fatalf("%v: %s, encoding/json %s", x, got, want)
		}
	}
	for _, x := range [][]float64{nil, {}, {1}, xs[:10], xs} {
		want, err := json.Marshal(x)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendFloats([]byte("ab"), x); string(got) != "ab"+string(want) {
			t.Fatalf("%v: %s, encoding/json %s", x, got, want)
		}
	}
}
