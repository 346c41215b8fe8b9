package dataset_test

import (
	"bytes"
	"testing"

	"github.com/twl-ldl/twl/dataset"
	"github.com/twl-ldl/twl/synth"
)

// BenchmarkReadSynth reads the training file of 'twl synth' at the paper's
// shape (100 features, every one of 1000 labels with its mass in "y",
// written in shortest round-trip form, subnormal masses included), 200
// rows of it, with a Reader as 'twl train' does and with ReadJSONL.
func BenchmarkReadSynth(b *testing.B) {
	d, err := synth.Generate(synth.Config{}, 1, 200, 0)
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	if err := dataset.WriteJSONL(&buf, d.Train, d.Tree); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.Run("Reader", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			rd := dataset.NewReader(bytes.NewReader(data), "synth.jsonl", d.Tree, nil)
			for rd.Next() {
			}
			if err := rd.Err(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("ReadJSONL", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := dataset.ReadJSONL(bytes.NewReader(data), "synth.jsonl", d.Tree, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}
