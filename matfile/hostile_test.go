package matfile

import (
	"bytes"
	"errors"
	"runtime"
	"testing"

	"github.com/twl-ldl/twl/internal/testutil/hostile"
)

// TestCompressedZeros reads a MAT-file whose compressed features, 64 MiB
// of uint8 zeros, come from 64 KiB: as float64 they would take 512 MiB,
// more than 1100 times the file, so Matrix refuses them (ErrTooLarge),
// having allocated little more than the inflated bytes.
func TestCompressedZeros(t *testing.T) {
	b := hostile.MATZeros(8192, 8192, 2)
	var a, z runtime.MemStats
	runtime.ReadMemStats(&a)
	f, err := Read(bytes.NewReader(b), "zeros.mat")
	if err == nil {
		_, err = f.Matrix("features")
	}
	runtime.ReadMemStats(&z)
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("error %v, want ErrTooLarge", err)
	}
	if got := z.TotalAlloc - a.TotalAlloc; got > 80<<20 {
		t.Errorf("allocated %d bytes for a %d-byte file", got, len(b))
	}
}
