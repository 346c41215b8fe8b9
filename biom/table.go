package biom

import (
	"errors"
	"fmt"
	"hash/maphash"
	"math"
	"slices"
	"strings"

	"github.com/twl-ldl/twl/internal/fileerr"
	"github.com/twl-ldl/twl/internal/underflow"
)

// Sentinel errors wrapped by *Error; test for them with errors.Is.
var (
	// ErrFormat: the input is none of the formats read, or is malformed.
	ErrFormat = errors.New("invalid BIOM table")
	// ErrCount: a count that is negative, NaN or infinite, or below
	// 2.2e-308 (subnormal: held to fewer digits than given).
	ErrCount = errors.New("invalid count")
	// ErrDuplicateID: two samples or two observations with the same id,
	// or an empty id, or an id holding a NUL byte (refused in every
	// format, so that an id reads the same from each).
	ErrDuplicateID = errors.New("invalid id")
	// ErrTooLarge: reading would take more memory than Options.MaxBytes
	// allows, or than the file can hold.
	ErrTooLarge = fileerr.ErrTooLarge
)

// Error describes an invalid table: "FILE:LINE: what is wrong: details"
// for text formats, "FILE: what is wrong: byte OFFSET: details" for HDF5.
type Error = fileerr.Error

// Table is a table of counts: samples × observations (features), stored
// as compressed sparse rows, one row per sample, holding only the nonzero
// counts with their observation indices in increasing order.
type Table struct {
	Samples      []string // sample ids
	Observations []string // observation (feature) ids
	// Row s holds the observations Indices[Indptr[s]:Indptr[s+1]] with
	// the counts Data[Indptr[s]:Indptr[s+1]]; len(Indptr) = len(Samples)+1.
	Indptr  []int
	Indices []int32
	Data    []float64
}

// Row returns the observation indices and counts of sample s; the slices
// are shared with the table.
func (t *Table) Row(s int) ([]int32, []float64) {
	lo, hi := t.Indptr[s], t.Indptr[s+1]
	return t.Indices[lo:hi], t.Data[lo:hi]
}

// NNZ returns the number of nonzero counts.
func (t *Table) NNZ() int { return len(t.Data) }

// At returns the count of observation o in sample s (O(log n)).
func (t *Table) At(s, o int) float64 {
	idx, val := t.Row(s)
	if k, ok := slices.BinarySearch(idx, int32(o)); ok {
		return val[k]
	}
	return 0
}

// entry is one count at (sample, observation) while a table is built.
type entry struct {
	s, o int
	v    float64
	line int // 1-based line of a text format, 0 if none
}

// builder collects ids and counts and checks them.
type builder struct {
	file    string
	samples []string
	obs     []string
	entries []entry
	// Or, when entries is nil and rowPtr is not, the counts as rows of
	// samples: sample s holds observations rowIdx[rowPtr[s]:rowPtr[s+1]]
	// (each below len(obs)) with the counts rowVal[rowPtr[s]:rowPtr[s+1]].
	rowPtr []int
	rowIdx []int32
	rowVal []float64
	// idsChecked says that idsErr holds the result of checkIDs.
	idsChecked bool
	idsErr     error
}

// checkIDs reports an empty id or two samples or two observations with
// the same id, the first in sample order, then in observation order.
func (b *builder) checkIDs() error {
	for _, ids := range []struct {
		what string
		ids  []string
	}{{"sample", b.samples}, {"observation", b.obs}} {
		for i, id := range ids.ids {
			if strings.IndexByte(id, 0) >= 0 {
				return &Error{File: b.file, Err: ErrDuplicateID, Msg: fmt.Sprintf("%s %d has an id holding a NUL byte, %q", ids.what, i+1, id)}
			}
		}
		if i, j := firstRepeat(ids.ids); i >= 0 {
			if j < 0 {
				return &Error{File: b.file, Err: ErrDuplicateID, Msg: fmt.Sprintf("%s %d has an empty id", ids.what, i+1)}
			}
			return &Error{File: b.file, Err: ErrDuplicateID, Msg: fmt.Sprintf("%ss %d and %d have the same id %q", ids.what, j+1, i+1, ids.ids[i])}
		}
	}
	return nil
}

// firstRepeat returns the first i such that ids[i] is empty (j = -1) or
// equals an earlier ids[j], or i = -1 if there is none. It hashes the ids
// into a table of positions, which holds no pointers for the garbage
// collector to follow.
func firstRepeat(ids []string) (i, j int) {
	if len(ids) >= math.MaxInt32 {
		seen := make(map[string]int, len(ids))
		for i, id := range ids {
			if id == "" {
				return i, -1
			}
			if j, dup := seen[id]; dup {
				return i, j
			}
			seen[id] = i
		}
		return -1, -1
	}
	size := 16
	for size < 2*len(ids) {
		size *= 2
	}
	mask := uint64(size - 1)
	slot := make([]int32, size) // position + 1; 0 is free
	// Written before it is read: a read of fresh memory maps the zero
	// page, and the write after it then costs a copy and a TLB flush on
	// every processor.
	clear(slot)
	seed := maphash.MakeSeed()
	for i, id := range ids {
		if id == "" {
			return i, -1
		}
		for h := maphash.String(seed, id) & mask; ; h = (h + 1) & mask {
			k := slot[h]
			if k == 0 {
				slot[h] = int32(i + 1)
				break
			}
			if ids[k-1] == id {
				return i, int(k - 1)
			}
		}
	}
	return -1, -1
}

// build checks ids and counts and assembles the table. The ids are checked
// unless idsChecked, when idsErr holds the result of checkIDs.
func (b *builder) build(opts *Options) (*Table, error) {
	if !b.idsChecked {
		b.idsErr = b.checkIDs()
	}
	if b.idsErr != nil {
		return nil, b.idsErr
	}
	if len(b.obs) > math.MaxInt32 {
		return nil, &Error{File: b.file, Err: ErrFormat, Msg: fmt.Sprintf("%d observations, more than %d", len(b.obs), math.MaxInt32)}
	}
	var t *Table
	if b.entries == nil && b.rowPtr != nil {
		var err error
		if t, err = b.fromRows(); err != nil {
			return nil, err
		}
	} else {
		t = &Table{Samples: b.samples, Observations: b.obs, Indptr: make([]int, len(b.samples)+1)}
		for _, e := range b.entries {
			if !validCount(e.v) {
				return nil, &Error{File: b.file, Line: e.line, Err: ErrCount, Msg: fmt.Sprintf("count %v of observation %q in sample %q%s", e.v, b.obs[e.o], b.samples[e.s], subnormalNote(e.v))}
			}
			if e.v != 0 {
				t.Indptr[e.s+1]++
			}
		}
		for s := range b.samples {
			t.Indptr[s+1] += t.Indptr[s]
		}
		nnz := t.Indptr[len(b.samples)]
		t.Indices = make([]int32, nnz)
		t.Data = make([]float64, nnz)
		fill := slices.Clone(t.Indptr[:len(b.samples)])
		for _, e := range b.entries {
			if e.v != 0 {
				t.Indices[fill[e.s]] = int32(e.o)
				t.Data[fill[e.s]] = e.v
				fill[e.s]++
			}
		}
	}
	for s := range b.samples {
		if err := sortRow(t, s, b.file); err != nil {
			return nil, err
		}
		if t.Indptr[s] == t.Indptr[s+1] && opts != nil && opts.Warn != nil {
			opts.Warn(fmt.Sprintf("%s: sample %q has no counts", b.file, b.samples[s]))
		}
	}
	return t, nil
}

// validCount reports whether v can be a count: 0, or finite, positive and
// normal. A subnormal count (below 2.2e-308) is held to fewer digits than
// its file gives (7e-324 reads as 5e-324), so the proportions made from it
// would be silently wrong.
func validCount(v float64) bool {
	return v == 0 || v >= underflow.Smallest && v <= math.MaxFloat64
}

// subnormalNote explains why a positive finite count is refused.
func subnormalNote(v float64) string {
	if v > 0 && v < underflow.Smallest {
		return " " + belowNormal
	}
	return ""
}

// fromRows assembles the table from the rows in rowPtr, rowIdx and
// rowVal, checking the counts in the order of the rows and leaving out
// zeros.
func (b *builder) fromRows() (*Table, error) {
	t := &Table{Samples: b.samples, Observations: b.obs, Indptr: make([]int, len(b.samples)+1)}
	zeros := 0
	for s := range b.samples {
		for k := b.rowPtr[s]; k < b.rowPtr[s+1]; k++ {
			v := b.rowVal[k]
			if !validCount(v) {
				return nil, &Error{File: b.file, Err: ErrCount, Msg: fmt.Sprintf("count %v of observation %q in sample %q%s", v, b.obs[b.rowIdx[k]], b.samples[s], subnormalNote(v))}
			}
			if v == 0 {
				zeros++
			}
		}
		t.Indptr[s+1] = b.rowPtr[s+1] - zeros
	}
	if zeros == 0 {
		t.Indices, t.Data = b.rowIdx, b.rowVal
		return t, nil
	}
	nnz := t.Indptr[len(b.samples)]
	t.Indices = make([]int32, 0, nnz)
	t.Data = make([]float64, 0, nnz)
	for k, v := range b.rowVal {
		if v != 0 {
			t.Indices = append(t.Indices, b.rowIdx[k])
			t.Data = append(t.Data, v)
		}
	}
	return t, nil
}

// sortRow sorts row s by observation and rejects an observation counted
// twice.
func sortRow(t *Table, s int, file string) error {
	idx, val := t.Row(s)
	if !slices.IsSorted(idx) {
		perm := make([]int, len(idx))
		for i := range perm {
			perm[i] = i
		}
		slices.SortFunc(perm, func(a, b int) int { return int(idx[a]) - int(idx[b]) })
		idx2, val2 := slices.Clone(idx), slices.Clone(val)
		for i, p := range perm {
			idx[i], val[i] = idx2[p], val2[p]
		}
	}
	for i := 1; i < len(idx); i++ {
		if idx[i] == idx[i-1] {
			return &Error{File: file, Err: ErrFormat, Msg: fmt.Sprintf("observation %q is counted twice in sample %q", t.Observations[idx[i]], t.Samples[s])}
		}
	}
	return nil
}

// belowNormal says why a count below 2.2e-308 is refused.
const belowNormal = "is below 2.2e-308, the smallest normal float64: too small to compute with in full precision (scale the counts up)"
