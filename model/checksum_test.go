package model_test

import (
	"bytes"
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"testing"

	"github.com/twl-ldl/twl/model"
)

// version1 returns the version 1 form of a saved file: "version": 1 and
// no "sha256" line, as twl wrote model files before the checksum.
func version1(t *testing.T, data []byte) []byte {
	t.Helper()
	v1 := regexp.MustCompile(`(?m)^  "sha256": "[0-9a-f]{64}",\n`).ReplaceAll(data, nil)
	v1 = bytes.Replace(v1, []byte(`"version": 2,`), []byte(`"version": 1,`), 1)
	if len(v1) != len(data)-len(`  "sha256": "",`)-64-1 {
		t.Fatal("the saved file has no sha256 line to take out")
	}
	return v1
}

// TestVersion1Loads: a file of version 1 (no checksum) loads, unchecked,
// into the same model, and saves as version 2.
func TestVersion1Loads(t *testing.T) {
	f := sampleFile(t)
	v1 := version1(t, save(t, f))
	g, err := model.Load(bytes.NewReader(v1), "old.model")
	if err != nil {
		t.Fatal(err)
	}
	if !sameBits(f, g) || g.Version != 1 || g.SHA256 != "" {
		t.Errorf("version 1: %+v", g)
	}
	if again := save(t, g); !bytes.Equal(again, save(t, f)) {
		t.Errorf("a version 1 model saved again is not the version 2 file:\n%s", again)
	}
}

// TestBitFlips flips one bit of a saved model file at 200 random places
// (seeded) and loads it: each damaged file must be refused, or be provably
// harmless: what predictions depend on has the original checksum
// (ParamsSHA256), and the predictions of random rows are the same bits.
// For contrast the same flips are made in the version 1 form of the file,
// which has no checksum: some then change the model silently, as they did
// before version 2 (a flip in a digit of a weight, in a label name).
func TestBitFlips(t *testing.T) {
	f := sampleFile(t)
	data := save(t, f)
	sum := f.ParamsSHA256()
	r := rand.New(rand.NewPCG(31, 6))
	X := make([]float64, 5*f.In)
	for i := range X {
		X[i] = r.NormFloat64()
	}
	predict := func(g *model.File) []float64 {
		P := make([]float64, 5*len(g.Labels))
		g.Predict(P, X)
		return P
	}
	want := predict(f)
	same := func(a, b []float64) bool {
		return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
	}
	v1 := version1(t, data)
	// The checksum's line is data[k:e]; v1 is data without it.
	k, e := bytes.Index(data, []byte(`  "sha256": "`)), bytes.Index(data, []byte(`  "in"`))
	var refused, harmless, silent1 int
	for range 200 {
		i, bit := r.IntN(len(data)), byte(1)<<r.IntN(8)
		d := bytes.Clone(data)
		d[i] ^= bit
		g, err := model.Load(bytes.NewReader(d), "flip.model")
		switch {
		case err != nil:
			refused++
		case g.ParamsSHA256() != sum || len(g.Labels) != len(f.Labels) || !same(predict(g), want):
			t.Errorf("byte %d (%q) bit %#x: loaded a different model", i, data[i], bit)
		default:
			harmless++
		}
		// The same byte in the version 1 file, unless it is the
		// checksum's.
		j := i
		switch {
		case i >= e:
			j = i - (e - k)
		case i >= k:
			continue
		}
		d1 := bytes.Clone(v1)
		d1[j] ^= bit
		if g, err := model.Load(bytes.NewReader(d1), "flip.model"); err == nil && g.ParamsSHA256() != sum {
			silent1++
		}
	}
	t.Logf("version 2: %d flips refused, %d harmless; version 1: %d silent changes", refused, harmless, silent1)
	if silent1 == 0 {
		t.Error("no flip changed a version 1 file silently: the flips do not reach the parameters")
	}
}
