package hostile

import (
	"bytes"
	"math"
	"slices"
	"strings"
)

// HDF5 writes an HDF5 file (HDF5 File Format Specification 3.0): a
// version 0 superblock with 8-byte offsets and lengths, version 1 object
// headers, groups of link messages, and datasets of numbers and strings,
// contiguous or in chunks indexed by a version 1 B-tree, their sizes
// declared as the caller says whatever the bytes hold. Addresses are
// those of the objects written; Bytes finishes the file.
type HDF5 struct {
	b []byte
}

// Type is the datatype of a dataset.
type Type struct {
	msg  []byte // the datatype message
	Size int    // bytes per element
}

// The datatypes written (IV.A.2.d): little-endian float64 and signed
// int32, fixed-length strings, and variable-length strings.
var (
	Float64    = Type{msg: datatype(1, [3]byte{0x20, 63, 0}, 8, []byte{0, 0, 64, 0, 52, 11, 0, 52, 0xff, 3, 0, 0}), Size: 8}
	Int32      = Type{msg: datatype(0, [3]byte{0x08, 0, 0}, 4, []byte{0, 0, 32, 0}), Size: 4}
	VlenString = Type{msg: datatype(9, [3]byte{0x01, 0, 0}, 16, datatype(0, [3]byte{}, 1, []byte{0, 0, 8, 0})), Size: 16}
)

// Fixed returns the type of fixed-length strings of n bytes, padded with
// NULs.
func Fixed(n int) Type { return Type{msg: datatype(3, [3]byte{}, n, nil), Size: n} }

func datatype(class byte, bits [3]byte, size int, props []byte) []byte {
	m := []byte{1<<4 | class, bits[0], bits[1], bits[2]}
	m = le.AppendUint32(m, uint32(size))
	return append(m, props...)
}

const undef = math.MaxUint64

// NewHDF5 starts a file: the superblock, whose root address Bytes fills.
func NewHDF5() *HDF5 { return &HDF5{b: make([]byte, 96)} }

// put appends b at an 8-byte boundary and returns its address.
func (h *HDF5) put(b []byte) uint64 {
	h.b = append(h.b, make([]byte, -len(h.b)&7)...)
	addr := uint64(len(h.b))
	h.b = append(h.b, b...)
	return addr
}

// header writes a version 1 object header with the messages (type, data)
// and returns its address (IV.A.1.a).
func (h *HDF5) header(msgs ...any) uint64 {
	var body []byte
	for i := 0; i < len(msgs); i += 2 {
		typ, data := msgs[i].(int), msgs[i+1].([]byte)
		n := len(data) + -len(data)&7
		body = le.AppendUint16(body, uint16(typ))
		body = le.AppendUint16(body, uint16(n))
		body = append(body, 0, 0, 0, 0)
		body = append(body, data...)
		body = append(body, make([]byte, n-len(data))...)
	}
	p := []byte{1, 0}
	p = le.AppendUint16(p, uint16(len(msgs)/2))
	p = le.AppendUint32(p, 1)
	p = le.AppendUint32(p, uint32(len(body)))
	p = append(p, 0, 0, 0, 0)
	return h.put(append(p, body...))
}

// Group writes a group whose members are the named objects, as link
// messages (IV.A.2.g), and returns its address.
func (h *HDF5) Group(members map[string]uint64) uint64 {
	names := make([]string, 0, len(members))
	for n := range members {
		names = append(names, n)
	}
	slices.Sort(names)
	var msgs []any
	for _, n := range names {
		m := []byte{1, 0, byte(len(n))}
		m = append(m, n...)
		msgs = append(msgs, 0x06, le.AppendUint64(m, members[n]))
	}
	return h.header(msgs...)
}

// dataspace returns a version 1 dataspace message (IV.A.2.b).
func dataspace(dims []uint64) []byte {
	m := []byte{1, byte(len(dims)), 0, 0, 0, 0, 0, 0}
	for _, d := range dims {
		m = le.AppendUint64(m, d)
	}
	return m
}

// Contiguous writes a dataset of the given type and dimensions whose raw
// data, data, is stored contiguously (its layout declares len(data)).
func (h *HDF5) Contiguous(t Type, dims []uint64, data []byte) uint64 {
	addr := h.put(data)
	layout := []byte{3, 1}
	layout = le.AppendUint64(layout, addr)
	layout = le.AppendUint64(layout, uint64(len(data)))
	return h.header(0x01, dataspace(dims), 0x03, t.msg, 0x08, layout)
}

// Chunk is one chunk of a chunked dataset: its zlib stream and its origin
// in elements.
type Chunk struct {
	Zlib   []byte
	Origin []uint64
}

// Chunked writes a dataset of the given type and dimensions, in chunks of
// chunk elements per dimension, each deflated (a filter pipeline of
// deflate alone), indexed by a one-node version 1 B-tree (III.A.1).
// Each chunk's bytes are written where the chunk says, even when two
// chunks hold the same stream.
func (h *HDF5) Chunked(t Type, dims, chunk []uint64, chunks []Chunk) uint64 {
	rank := len(dims)
	addrs := make([]uint64, len(chunks))
	for i, c := range chunks {
		addrs[i] = h.put(c.Zlib)
	}
	node := []byte("TREE")
	node = append(node, 1, 0)
	node = le.AppendUint16(node, uint16(len(chunks)))
	node = le.AppendUint64(node, undef)
	node = le.AppendUint64(node, undef)
	key := func(size int, origin []uint64) {
		node = le.AppendUint32(node, uint32(size))
		node = le.AppendUint32(node, 0)
		for _, o := range origin {
			node = le.AppendUint64(node, o)
		}
		node = le.AppendUint64(node, 0)
	}
	for i, c := range chunks {
		key(len(c.Zlib), c.Origin)
		node = le.AppendUint64(node, addrs[i])
	}
	key(0, dims) // the last key: past the dataset
	btree := h.put(node)
	layout := []byte{3, 2, byte(rank + 1)}
	layout = le.AppendUint64(layout, btree)
	for _, d := range chunk {
		layout = le.AppendUint32(layout, uint32(d))
	}
	layout = le.AppendUint32(layout, uint32(t.Size))
	// Filter pipeline version 1 (IV.A.2.l): deflate at level 6, padded.
	filters := []byte{1, 1, 0, 0, 0, 0, 0, 0}
	filters = le.AppendUint16(filters, 1)
	filters = le.AppendUint16(filters, 0)
	filters = le.AppendUint16(filters, 0)
	filters = le.AppendUint16(filters, 1)
	filters = le.AppendUint32(filters, 6)
	filters = append(filters, 0, 0, 0, 0)
	return h.header(0x01, dataspace(dims), 0x03, t.msg, 0x08, layout, 0x0b, filters)
}

// Heap writes a global heap collection holding the objects, indexed from
// 1 (III.E), and returns its address.
func (h *HDF5) Heap(objs ...[]byte) uint64 {
	var body []byte
	for i, o := range objs {
		body = le.AppendUint16(body, uint16(i+1))
		body = le.AppendUint16(body, 1)
		body = append(body, 0, 0, 0, 0)
		body = le.AppendUint64(body, uint64(len(o)))
		body = append(body, o...)
		body = append(body, make([]byte, -len(o)&7)...)
	}
	c := []byte("GCOL")
	c = append(c, 1, 0, 0, 0)
	c = le.AppendUint64(c, uint64(16+len(body)))
	return h.put(append(c, body...))
}

// VlenRef is a variable-length string: its length and the heap object
// that holds its bytes.
type VlenRef struct {
	Len  uint32
	Heap uint64
	Obj  uint32
}

// Vlen returns the raw data of a dataset of variable-length strings.
func Vlen(refs []VlenRef) []byte {
	var b []byte
	for _, r := range refs {
		b = le.AppendUint32(b, r.Len)
		b = le.AppendUint64(b, r.Heap)
		b = le.AppendUint32(b, r.Obj)
	}
	return b
}

// Strings writes a contiguous dataset of the variable-length strings ids,
// with their bytes in a heap collection of their own.
func (h *HDF5) Strings(ids []string) uint64 {
	objs := make([][]byte, len(ids))
	for i, s := range ids {
		objs[i] = []byte(s)
	}
	heap := h.Heap(objs...)
	refs := make([]VlenRef, len(ids))
	for i, s := range ids {
		refs[i] = VlenRef{Len: uint32(len(s)), Heap: heap, Obj: uint32(i + 1)}
	}
	return h.Contiguous(VlenString, []uint64{uint64(len(ids))}, Vlen(refs))
}

// Float64s returns the little-endian bytes of x.
func Float64s(x ...float64) []byte {
	var b []byte
	for _, v := range x {
		b = le.AppendUint64(b, math.Float64bits(v))
	}
	return b
}

// Int32s returns the little-endian bytes of x.
func Int32s(x ...int32) []byte {
	var b []byte
	for _, v := range x {
		b = le.AppendUint32(b, uint32(v))
	}
	return b
}

// Bytes finishes the file with root as the root group and returns it.
func (h *HDF5) Bytes(root uint64) []byte {
	b := h.b[:0]
	b = append(b, "\x89HDF\r\n\x1a\n"...)
	b = append(b, 0, 0, 0, 0, 0, 8, 8, 0) // versions, sizes of offsets and lengths
	b = le.AppendUint16(b, 4)             // group leaf node K
	b = le.AppendUint16(b, 16)            // group internal node K
	b = le.AppendUint32(b, 0)             // consistency flags
	b = le.AppendUint64(b, 0)             // base address
	b = le.AppendUint64(b, undef)         // free-space info
	b = le.AppendUint64(b, uint64(len(h.b)))
	b = le.AppendUint64(b, undef) // driver info
	b = le.AppendUint64(b, 0)     // root symbol table entry: link name offset
	b = le.AppendUint64(b, root)  // object header address
	b = le.AppendUint32(b, 0)     // cache type: none
	if len(b) != 96-20 {
		panic("hostile: superblock layout")
	}
	return bytes.Clone(h.b)
}

// Table describes a BIOM 2.1 file: the objects of its datasets, by
// path. BIOM writes the file, with sample/matrix holding the counts.
type Table struct {
	ObsIDs, SampleIDs     uint64
	Data, Indices, Indptr uint64
}

// BIOM finishes h as a BIOM 2.1 file of the table's datasets.
func (h *HDF5) BIOM(t Table) []byte {
	matrix := h.Group(map[string]uint64{"data": t.Data, "indices": t.Indices, "indptr": t.Indptr})
	sample := h.Group(map[string]uint64{"ids": t.SampleIDs, "matrix": matrix})
	obs := h.Group(map[string]uint64{"ids": t.ObsIDs})
	return h.Bytes(h.Group(map[string]uint64{"observation": obs, "sample": sample}))
}

// SmallBIOM returns a valid BIOM 2.1 file of two samples over the
// observations named ids, S1 counting each once and S2 none of them but
// the first (so that no sample is empty), every dataset contiguous.
func SmallBIOM(ids ...string) []byte {
	h := NewHDF5()
	n := len(ids)
	data := make([]float64, 0, n+1)
	idx := make([]int32, 0, n+1)
	for i := range n {
		data, idx = append(data, 1), append(idx, int32(i))
	}
	data, idx = append(data, 2), append(idx, 0)
	return h.BIOM(Table{
		ObsIDs:    h.Strings(ids),
		SampleIDs: h.Strings([]string{"S1", "S2"}),
		Data:      h.Contiguous(Float64, []uint64{uint64(n + 1)}, Float64s(data...)),
		Indices:   h.Contiguous(Int32, []uint64{uint64(n + 1)}, Int32s(idx...)),
		Indptr:    h.Contiguous(Int32, []uint64{3}, Int32s(0, int32(n), int32(n+1))),
	})
}

// Newick returns a Newick tree of the tips ids under one root, each at
// length 1.
func Newick(ids ...string) string {
	return "(" + strings.Join(ids, ":1,") + ":1);\n"
}
