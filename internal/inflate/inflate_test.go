package inflate

import (
	"bytes"
	"compress/zlib"
	"io"
	"math/rand/v2"
	"testing"
)

// reference reads src with compress/zlib as the HDF5 reader does: it
// accepts src when the stream inflates without error to exactly want
// bytes and then ends with its checksum verified.
func reference(src []byte, want int) ([]byte, bool) {
	zr, err := zlib.NewReader(bytes.NewReader(src))
	if err != nil {
		return nil, false
	}
	out, err := io.ReadAll(io.LimitReader(zr, int64(want)+1))
	if err != nil || len(out) != want {
		return nil, false
	}
	return out, true
}

func compress(t testing.TB, data []byte, level int) []byte {
	var buf bytes.Buffer
	zw, err := zlib.NewWriterLevel(&buf, level)
	if err != nil {
		t.Fatal(err)
	}
	zw.Write(data)
	zw.Close()
	return buf.Bytes()
}

// sample makes data of the kinds HDF5 chunks hold: little-endian
// integers and floats with runs and repeats, short repeated patterns,
// text, noise and zeros.
func sample(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	switch rng.IntN(6) {
	case 0: // small integers
		for i := 0; i+4 <= n; i += 4 {
			v := rng.IntN(1 + rng.IntN(70000))
			b[i], b[i+1], b[i+2] = byte(v), byte(v>>8), byte(v>>16)
		}
	case 1: // text with repeats
		words := []string{"t1", "t22", "t333", "G000123", "sample_", "\x00", "OTU", "9"}
		b = b[:0]
		for len(b) < n {
			b = append(b, words[rng.IntN(len(words))]...)
		}
		b = b[:n]
	case 2: // noise
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
	case 3: // zeros with sparse bytes
		for i := 0; i < n; i += 1 + rng.IntN(300) {
			b[i] = byte(rng.Uint32())
		}
	case 5: // patterns of 2 to 7 bytes, repeated for a while each (short periods)
		for i := 0; i < n; {
			d := 2 + rng.IntN(6)
			var p [7]byte
			for k := range d {
				p[k] = byte(rng.IntN(3))
			}
			for end := min(n, i+d*(1+rng.IntN(12))); i < end; i++ {
				b[i] = p[i%d]
			}
		}
	case 4: // long-distance repeats
		for i := range b {
			if i > 1002 && rng.IntN(50) > 0 {
				b[i] = b[i-1000-rng.IntN(3)]
			} else {
				b[i] = byte(rng.IntN(4))
			}
		}
	}
	return b
}

// TestZlib checks Zlib against compress/zlib on streams written by
// compress/zlib at every level: Zlib must accept each with the same
// bytes, and refuse each with the size expected off by one.
func TestZlib(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for k := range 600 {
		n := rng.IntN(1 << uint(rng.IntN(18)))
		if k < 5 {
			n = k
		}
		data := sample(rng, n)
		level := rng.IntN(12) - 2 // HuffmanOnly, Default, NoCompression..BestCompression
		src := compress(t, data, level)
		dst := make([]byte, n)
		if !Zlib(dst, src) || !bytes.Equal(dst, data) {
			t.Fatalf("stream %d (%d bytes, level %d) not read back", k, n, level)
		}
		if Zlib(make([]byte, n+1), src) || (n > 0 && Zlib(make([]byte, n-1), src)) {
			t.Fatalf("stream %d accepted with the wrong size", k)
		}
		// Damaged copies: whatever Zlib accepts, compress/zlib must read
		// to the same bytes.
		for range 20 {
			bad := bytes.Clone(src)
			switch rng.IntN(3) {
			case 0:
				bad[rng.IntN(len(bad))] ^= byte(1 << rng.IntN(8))
			case 1:
				bad = bad[:rng.IntN(len(bad))]
			case 2:
				bad = append(bad, byte(rng.Uint32()))
			}
			agree(t, bad, n)
		}
	}
}

// agree fails t if Zlib accepts src and compress/zlib does not, or reads
// other bytes.
func agree(t *testing.T, src []byte, want int) {
	t.Helper()
	dst := make([]byte, want)
	if !Zlib(dst, src) {
		return
	}
	ref, ok := reference(src, want)
	if !ok || !bytes.Equal(ref, dst) {
		t.Fatalf("Zlib accepts %x (%d bytes), compress/zlib: ok %v", src, want, ok)
	}
}

// FuzzZlib checks that Zlib never accepts what compress/zlib refuses and
// reads the same bytes as it, and never panics.
func FuzzZlib(f *testing.F) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, level := range []int{-2, 0, 1, 6, 9} {
		data := sample(rng, 200)
		f.Add(compress(f, data, level), uint16(len(data)))
	}
	f.Fuzz(func(t *testing.T, src []byte, want uint16) {
		agree(t, src, int(want))
	})
}

func benchData(b *testing.B) ([]byte, []byte) {
	rng := rand.New(rand.NewPCG(11, 12))
	// Chunks like those of a BIOM table's indices: int32 observation
	// indices, increasing within a sample.
	data := make([]byte, 0, 1<<20)
	for len(data) < 1<<20 {
		v := 0
		for range 300 {
			v += 1 + rng.IntN(60)
			data = append(data, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
		}
	}
	return data, compress(b, data, 6)
}

// BenchmarkZlib inflates 1 MiB of int32 indices; MB/s counts inflated
// bytes.
func BenchmarkZlib(b *testing.B) {
	data, src := benchData(b)
	dst := make([]byte, len(data))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if !Zlib(dst, src) {
			b.Fatal("not read")
		}
	}
}

// BenchmarkStdlib is BenchmarkZlib with compress/zlib, for comparison.
func BenchmarkStdlib(b *testing.B) {
	data, src := benchData(b)
	dst := make([]byte, len(data))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		zr, _ := zlib.NewReader(bytes.NewReader(src))
		if _, err := io.ReadFull(zr, dst); err != nil {
			b.Fatal(err)
		}
	}
}
