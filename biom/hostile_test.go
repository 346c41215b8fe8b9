package biom

import (
	"errors"
	"runtime"
	"strconv"
	"testing"

	"github.com/twl-ldl/twl/internal/testutil/hostile"
)

// allocated returns the bytes fn allocates (runtime.MemStats.TotalAlloc,
// garbage included): an upper bound of what it held at once.
func allocated(fn func()) uint64 {
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	fn()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// hostileTables are BIOM 2.1 files that declare far more than their
// bytes hold, after the cases of a probe of the reader: a data dataset of
// 4·10⁸ counts; 2,048 variable-length sample ids all pointing to one
// 1 MiB heap object; fixed-length one-byte sample ids of shape 100·2²⁰ in
// one deflated chunk; many deflated chunks of zeros (40 here, each
// inflating to 8 MiB: 335 MB from a file of 0.35 MB). The data of each is
// generated here.
func hostileTables() map[string][]byte {
	out := map[string][]byte{}
	ids := func(h *hostile.HDF5, n int) uint64 {
		s := make([]string, n)
		for i := range s {
			s[i] = "O" + strconv.Itoa(i)
		}
		return h.Strings(s)
	}
	// 4·10⁸ counts declared, two chunks of zeros written; indices declare
	// as many, so that the lengths agree.
	{
		h := hostile.NewHDF5()
		const n = 400_000_000
		chunk := hostile.ZlibZeros(8 << 20)
		out["4e8 counts"] = h.BIOM(hostile.Table{
			ObsIDs: ids(h, 2), SampleIDs: h.Strings([]string{"S1", "S2"}),
			Data:    h.Chunked(hostile.Float64, []uint64{n}, []uint64{1 << 20}, []hostile.Chunk{{Zlib: chunk, Origin: []uint64{0}}, {Zlib: chunk, Origin: []uint64{1 << 20}}}),
			Indices: h.Chunked(hostile.Int32, []uint64{n}, []uint64{2 << 20}, []hostile.Chunk{{Zlib: chunk, Origin: []uint64{0}}}),
			Indptr:  h.Contiguous(hostile.Int32, []uint64{3}, hostile.Int32s(0, 1, n)),
		})
	}
	{
		h := hostile.NewHDF5()
		heap := h.Heap(make([]byte, 1<<20))
		refs := make([]hostile.VlenRef, 2048)
		for i := range refs {
			refs[i] = hostile.VlenRef{Len: 1 << 20, Heap: heap, Obj: 1}
		}
		out["2048 ids on one 1 MiB object"] = h.BIOM(hostile.Table{
			ObsIDs: ids(h, 2), SampleIDs: h.Contiguous(hostile.VlenString, []uint64{2048}, hostile.Vlen(refs)),
			Data:    h.Contiguous(hostile.Float64, []uint64{2}, hostile.Float64s(1, 1)),
			Indices: h.Contiguous(hostile.Int32, []uint64{2}, hostile.Int32s(0, 1)),
			Indptr:  h.Contiguous(hostile.Int32, []uint64{2049}, make([]byte, 4*2049)),
		})
	}
	{
		h := hostile.NewHDF5()
		const n = 100 << 20
		out["S1 ids of shape 100·2²⁰"] = h.BIOM(hostile.Table{
			ObsIDs: ids(h, 2), SampleIDs: h.Chunked(hostile.Fixed(1), []uint64{n}, []uint64{n}, []hostile.Chunk{{Zlib: hostile.ZlibZeros(n), Origin: []uint64{0}}}),
			Data:    h.Contiguous(hostile.Float64, []uint64{2}, hostile.Float64s(1, 1)),
			Indices: h.Contiguous(hostile.Int32, []uint64{2}, hostile.Int32s(0, 1)),
			Indptr:  h.Contiguous(hostile.Int32, []uint64{n + 1}, nil),
		})
	}
	{
		h := hostile.NewHDF5()
		const k, per = 40, 1 << 20 // chunks, counts per chunk
		chunk := hostile.ZlibZeros(8 * per)
		var data, idx []hostile.Chunk
		for i := range k {
			data = append(data, hostile.Chunk{Zlib: chunk, Origin: []uint64{uint64(i * per)}})
		}
		idx = append(idx, hostile.Chunk{Zlib: hostile.ZlibZeros(4 * per), Origin: []uint64{0}})
		out["40 chunks of 8 MiB of zeros"] = h.BIOM(hostile.Table{
			ObsIDs: ids(h, 2), SampleIDs: h.Strings([]string{"S1", "S2"}),
			Data:    h.Chunked(hostile.Float64, []uint64{k * per}, []uint64{per}, data),
			Indices: h.Chunked(hostile.Int32, []uint64{k * per}, []uint64{per}, idx),
			Indptr:  h.Contiguous(hostile.Int32, []uint64{3}, hostile.Int32s(0, 1, k*per)),
		})
	}
	return out
}

// TestHostileHDF5 reads each hostile table under a limit of 64 MiB: it is
// refused with ErrTooLarge, having allocated less than the limit. Without
// a limit, each is refused as well, as a damaged table (ErrFormat: the
// file's own bound, 1100 times its size, counting what the values take in
// Go), having allocated less than that bound.
func TestHostileHDF5(t *testing.T) {
	const limit = 64 << 20
	for name, b := range hostileTables() {
		var err error
		got := allocated(func() { _, err = Parse(b, name, &Options{MaxBytes: limit}) })
		if !errors.Is(err, ErrTooLarge) {
			t.Errorf("%s (%d bytes), limit %d: error %v, want ErrTooLarge", name, len(b), limit, err)
		}
		if got > limit {
			t.Errorf("%s: allocated %d bytes under a limit of %d", name, got, limit)
		}
		got = allocated(func() { _, err = Parse(b, name, nil) })
		if !errors.Is(err, ErrFormat) {
			t.Errorf("%s, no limit: error %v, want ErrFormat", name, err)
		}
		if bound := 1100*uint64(len(b)) + 1<<16; got > bound {
			t.Errorf("%s, no limit: allocated %d bytes, more than 1100 times the file (%d)", name, got, bound)
		}
	}
}

// TestHostileArtifact reads a .qza whose table inflates to 300 MiB: it is
// refused, under the default 256 MiB and under a limit, having allocated
// little more than the limit.
func TestHostileArtifact(t *testing.T) {
	b := hostile.Artifact("feature-table.biom", 300<<20, 300<<20)
	for _, limit := range []int64{0, 32 << 20} {
		var err error
		got := allocated(func() { _, err = Parse(b, "bomb.qza", &Options{MaxBytes: limit}) })
		if !errors.Is(err, ErrTooLarge) {
			t.Errorf("limit %d: error %v, want ErrTooLarge", limit, err)
		}
		if got > 1<<20 {
			t.Errorf("limit %d: allocated %d bytes before refusing a declared size", limit, got)
		}
	}
}
