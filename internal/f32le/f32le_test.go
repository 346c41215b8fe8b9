package f32le

import (
	"bytes"
	"errors"
	"math"
	"slices"
	"testing"
)

// TestRoundTrip: values of every kind, more than a chunk of them, read back
// bit for bit; the bytes are little-endian (the first value, 1, is 00 00 80
// 3f); a NaN is reported at its index; input cut short is ErrShort.
func TestRoundTrip(t *testing.T) {
	x := make([]float32, 3*chunk+5)
	for i := range x {
		x[i] = float32(i) * 0.37
	}
	x[0], x[1], x[2] = 1, float32(math.Copysign(0, -1)), math.Float32frombits(1) // 1, −0, the least subnormal
	var buf bytes.Buffer
	if err := Write(&buf, x); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes()[:4], []byte{0, 0, 0x80, 0x3f}) || buf.Len() != 4*len(x) {
		t.Fatalf("bytes % x…, %d in all", buf.Bytes()[:4], buf.Len())
	}
	got := make([]float32, len(x))
	bad, err := Read(bytes.NewReader(buf.Bytes()), got)
	if err != nil || bad != -1 {
		t.Fatal(bad, err)
	}
	for i := range x {
		if math.Float32bits(got[i]) != math.Float32bits(x[i]) {
			t.Fatalf("value %d: %v, want %v", i, got[i], x[i])
		}
	}
	b := slices.Clone(buf.Bytes())
	copy(b[4*(chunk+3):], []byte{0, 0, 0xc0, 0x7f}) // a NaN
	copy(b[4*(2*chunk):], []byte{0, 0, 0x80, 0x7f}) // +Inf, later
	if bad, err := Read(bytes.NewReader(b), got); err != nil || bad != chunk+3 {
		t.Errorf("NaN at %d: bad %d, err %v", chunk+3, bad, err)
	}
	if _, err := Read(bytes.NewReader(b[:len(b)-1]), got); !errors.Is(err, ErrShort) {
		t.Errorf("cut short: %v", err)
	}
}
