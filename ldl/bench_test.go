package ldl_test

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/twl-ldl/twl/dataset"
	"github.com/twl-ldl/twl/ldl"
	"github.com/twl-ldl/twl/synth"
	"github.com/twl-ldl/twl/tree"
)

// synthFiles writes a data set of the shape of the paper's synthetic
// training benchmark (twl synth --nodes 1000 --samples 1000 --features 100:
// 1000 rows of 100 features, every row a distribution over all 1000 nodes
// of a random tree, about 27 MB of JSON Lines) into a temporary directory,
// and returns the data and tree paths.
func synthFiles(b *testing.B) (string, string) {
	b.Helper()
	const n, in, L = 1000, 100, 1000
	dir := b.TempDir()
	t := tree.Random(L, rand.NewPCG(1, 2))
	rng := rand.New(rand.NewPCG(3, 4))
	X := mat.NewDense(n, in, nil)
	Y := mat.NewDense(n, L, nil)
	for r := range n {
		var s float64
		for j := range L {
			v := rng.ExpFloat64()
			Y.Set(r, j, v)
			s += v
		}
		for j := range L {
			Y.Set(r, j, Y.At(r, j)/s)
		}
		for k := range in {
			X.Set(r, k, rng.NormFloat64())
		}
	}
	treePath, dataPath := filepath.Join(dir, "tree.txt"), filepath.Join(dir, "train.jsonl")
	tf, err := os.Create(treePath)
	if err != nil {
		b.Fatal(err)
	}
	if err := t.Write(tf); err != nil {
		b.Fatal(err)
	}
	tf.Close()
	df, err := os.Create(dataPath)
	if err != nil {
		b.Fatal(err)
	}
	if err := dataset.WriteJSONL(df, &dataset.Dataset{X: X, Y: Y}, t); err != nil {
		b.Fatal(err)
	}
	df.Close()
	return dataPath, treePath
}

// BenchmarkLoad times ldl.Load of a file of the synthetic training
// benchmark's shape (1000 rows × 100 features → 1000 labels, about 27 MB,
// labels in random order); the rate is the file's bytes.
func BenchmarkLoad(b *testing.B) {
	dataPath, treePath := synthFiles(b)
	setFileBytes(b, dataPath)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := ldl.Load(context.Background(), dataPath, treePath, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFit times ldl.Fit as twl train runs it on the synthetic
// benchmark: KL + TW, 30 epochs, batch 10 (the data loaded once, outside
// the timing).
func BenchmarkFit(b *testing.B) {
	dataPath, treePath := synthFiles(b)
	d, err := ldl.Load(context.Background(), dataPath, treePath, nil)
	if err != nil {
		b.Fatal(err)
	}
	opts := ldl.Options{Loss: "kl+tw", Epochs: 30, Batch: 10}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, _, err := ldl.Fit(context.Background(), d, &opts); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadSynth times ldl.Load of the training file of the synthetic
// training benchmark itself, as twl synth --nodes 1000 --samples 1000
// --features 100 writes it (seed 1: 27.4 MB); the rate is the file's bytes.
func BenchmarkLoadSynth(b *testing.B) {
	d, err := synth.Generate(synth.Config{}.Defaults(), 1, 1000, 0)
	if err != nil {
		b.Fatal(err)
	}
	dir := filepath.Join(b.TempDir(), "synth")
	if err := d.WriteDir(dir); err != nil {
		b.Fatal(err)
	}
	dataPath, treePath := filepath.Join(dir, synth.TrainFile), filepath.Join(dir, synth.TreeFile)
	setFileBytes(b, dataPath)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ldl.Load(context.Background(), dataPath, treePath, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// setFileBytes makes the benchmark's rate that of the file at path.
func setFileBytes(b *testing.B, path string) {
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(fi.Size())
}
