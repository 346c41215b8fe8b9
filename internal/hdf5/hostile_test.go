package hdf5

import (
	"errors"
	"runtime"
	"testing"

	"github.com/twl-ldl/twl/internal/testutil/hostile"
)

// TestChunkPastItsSize reads a dataset of one 1 MiB chunk whose deflate
// stream inflates to 64 MiB: an ErrCorrupt error, having allocated little
// more than the chunk.
func TestChunkPastItsSize(t *testing.T) {
	h := hostile.NewHDF5()
	ds := h.Chunked(hostile.Float64, []uint64{1 << 17}, []uint64{1 << 17}, []hostile.Chunk{{Zlib: hostile.ZlibZeros(64 << 20), Origin: []uint64{0}}})
	b := h.Bytes(h.Group(map[string]uint64{"x": ds}))
	for _, numbers := range []bool{false, true} {
		f, err := OpenBytes(b, "past.h5")
		if err != nil {
			t.Fatal(err)
		}
		var a, z runtime.MemStats
		runtime.ReadMemStats(&a)
		_, err = f.dataset("x", numbers)
		runtime.ReadMemStats(&z)
		if !errors.Is(err, ErrCorrupt) {
			t.Errorf("numbers %v: error %v, want ErrCorrupt", numbers, err)
		}
		if got := z.TotalAlloc - a.TotalAlloc; got > 4<<20 {
			t.Errorf("numbers %v: allocated %d bytes for a 1 MiB chunk", numbers, got)
		}
	}
}

// TestSetLimit reads a dataset of 2¹⁷ float64 under limits: its values
// (1 MiB) fit in 2 MiB, not in 512 KiB (ErrTooLarge), and the limit is
// counted over the values read together.
func TestSetLimit(t *testing.T) {
	h := hostile.NewHDF5()
	ds := h.Contiguous(hostile.Float64, []uint64{1 << 17}, make([]byte, 8<<17))
	b := h.Bytes(h.Group(map[string]uint64{"x": ds}))
	read := func(limit int64, times int) error {
		f, err := OpenBytes(b, "x.h5")
		if err != nil {
			t.Fatal(err)
		}
		f.SetLimit(limit)
		for range times {
			v, err := f.Dataset("x")
			if err != nil {
				return err
			}
			if _, err := v.Float64s(); err != nil {
				return err
			}
		}
		return nil
	}
	if err := read(2<<20, 1); err != nil {
		t.Errorf("2 MiB: %v", err)
	}
	if err := read(512<<10, 1); !errors.Is(err, ErrTooLarge) {
		t.Errorf("512 KiB: %v, want ErrTooLarge", err)
	}
	if err := read(2<<20, 3); !errors.Is(err, ErrTooLarge) {
		t.Errorf("2 MiB, read three times: %v, want ErrTooLarge", err)
	}
}
