package hdf5

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"unicode/utf8"
)

// Kind is the element type of a dataset that Writer writes.
type Kind int

const (
	// Float32 and Float64 are little-endian IEEE floats.
	Float32 Kind = iota + 1
	Float64
	// FixedString is a fixed-length string, as long as the longest element
	// and space-padded (HDF5's Fortran strings, H5T_STR_SPACEPAD): a
	// reader cannot tell an element's own trailing spaces from the padding.
	FixedString
	// VarString is a variable-length string, null-terminated in the
	// HDF5 sense (H5T_STR_NULLTERM), its bytes in a global heap
	// collection.
	VarString
)

// Dataset declares one dataset of the root group of a file that Writer
// writes.
type Dataset struct {
	// Name is the dataset's name in the root group: not empty, without
	// '/' or NUL.
	Name string
	Kind Kind
	// Dims are the dimensions, each ≥ 1 (one or two of them for the
	// files of this package's users).
	Dims []int
	// Strings are the elements of a string dataset, as many as the
	// dimensions say. Numeric datasets take their values through
	// Writer.WriteFloats.
	Strings []string
}

func (d *Dataset) count() int64 {
	n := int64(1)
	for _, v := range d.Dims {
		n *= int64(v)
	}
	return n
}

func (d *Dataset) numeric() bool { return d.Kind == Float32 || d.Kind == Float64 }

// elemSize is the size in bytes of an element as the file stores it.
func (d *Dataset) elemSize() int {
	switch d.Kind {
	case Float32:
		return 4
	case Float64:
		return 8
	case VarString:
		return 16 // length, collection address, object index
	}
	n := 1
	for _, s := range d.Strings {
		n = max(n, len(s))
	}
	return n
}

// Writer writes an HDF5 file of datasets in its root group, for readers
// such as h5py and the HDF5 library (1.8 and later; the layout is that
// of libver "earliest"): a version 0 superblock; the root group as a
// symbol table (a version 1 B-tree with one symbol table node, the names
// in a local heap); each dataset a version 1 object header with a
// dataspace, a datatype, a fill value and a contiguous layout message;
// variable-length strings in global heap collections. All metadata and
// the strings are written first, then the numeric datasets' values in the
// order of their declaration, as WriteFloats receives them, so a dataset
// of any size is written as a stream.
type Writer struct {
	w       io.Writer
	ds      []Dataset
	cur     int   // the numeric dataset being written, index in ds
	left    int64 // its elements still to come
	buf     []byte
	err     error
	written int64
}

// Layout constants: sizes of offsets and lengths, B-tree node widths.
const (
	wSO        = 8
	wInternalK = 16 // group internal node K: B-tree nodes of 2K children
	wSuper     = 96 // version 0 superblock with the root symbol table entry
	wEntry     = 40 // symbol table entry
	wMaxObjs   = 65535
	wMinGCOL   = 4096
)

// layoutPlan holds the addresses of the file's structures.
type layoutPlan struct {
	leafK             int
	root, btree, snod int64
	heap, heapData    int64
	heapSize          int64
	nameOff           []int64 // local heap offset of each dataset's name
	headers           []int64 // object header address of each dataset
	headerSize        []int64
	gcols             []gcol
	refs              [][]gref // of each VarString dataset's elements
	data              []int64  // raw data address of each dataset
	dataSize          []int64
	meta              int64 // the end of the structures and strings
	eof               int64
	order             []int // datasets in name order
}

// gcol is a global heap collection: its address, size and objects.
type gcol struct {
	addr, size int64
	objs       []string
}

// gref locates a variable-length string: collection gcol of the plan,
// object obj (1-based).
type gref struct{ gcol, obj int }

func align8(n int64) int64 { return (n + 7) &^ 7 }

// NewWriter checks the datasets, writes the structure of the file and the
// strings to w, and returns the Writer that takes the numeric values. It
// returns an error for datasets it cannot write (a bad or repeated name,
// a dimension < 1, strings in a numeric dataset or a count of strings
// that is not the dimensions'), having written nothing.
func NewWriter(w io.Writer, ds []Dataset) (*Writer, error) {
	if err := checkDatasets(ds); err != nil {
		return nil, err
	}
	ds = slices.Clone(ds)
	p := plan(ds)
	b := make([]byte, 0, p.meta)
	b = appendSuperblock(b, p)
	b = appendPad(b, p.root)
	b = appendRootHeader(b, p)
	b = appendPad(b, p.btree)
	b = appendBTree(b, p, ds)
	b = appendPad(b, p.snod)
	b = appendSNOD(b, p, ds)
	b = appendPad(b, p.heap)
	b = appendLocalHeap(b, p, ds)
	for i := range ds {
		b = appendPad(b, p.headers[i])
		b = appendDatasetHeader(b, p, &ds[i], i)
	}
	b = appendGlobalHeaps(b, p)
	wr := &Writer{w: w, ds: ds, cur: -1}
	for i := range ds {
		if ds[i].numeric() {
			continue
		}
		b = appendPad(b, p.data[i])
		b = appendStrings(b, p, &ds[i], i)
	}
	// The numeric datasets follow, in order.
	wr.written = int64(len(b))
	if _, err := w.Write(b); err != nil {
		return nil, err
	}
	wr.next()
	return wr, nil
}

func checkDatasets(ds []Dataset) error {
	if len(ds) == 0 {
		return errors.New("hdf5: a file of no dataset")
	}
	seen := map[string]bool{}
	for i := range ds {
		d := &ds[i]
		switch {
		case d.Name == "" || strings.ContainsAny(d.Name, "/\x00") || d.Name == ".":
			return fmt.Errorf("hdf5: dataset name %q", d.Name)
		case seen[d.Name]:
			return fmt.Errorf("hdf5: two datasets named %q", d.Name)
		case d.Kind < Float32 || d.Kind > VarString:
			return fmt.Errorf("hdf5: dataset %q of kind %d", d.Name, d.Kind)
		case len(d.Dims) == 0 || len(d.Dims) > 32:
			return fmt.Errorf("hdf5: dataset %q of %d dimensions", d.Name, len(d.Dims))
		}
		seen[d.Name] = true
		n := int64(1)
		for _, v := range d.Dims {
			if v < 1 || n > math.MaxInt64/8/int64(v) {
				return fmt.Errorf("hdf5: dataset %q has dimensions %v", d.Name, d.Dims)
			}
			n *= int64(v)
		}
		if d.numeric() != (d.Strings == nil) || !d.numeric() && int64(len(d.Strings)) != n {
			return fmt.Errorf("hdf5: dataset %q of %d strings for dimensions %v", d.Name, len(d.Strings), d.Dims)
		}
		if d.Kind == VarString {
			for _, s := range d.Strings {
				if int64(len(s)) > math.MaxUint32 {
					return fmt.Errorf("hdf5: dataset %q holds a string of %d bytes", d.Name, len(s))
				}
			}
		}
	}
	return nil
}

// headerSize returns the size of a dataset's version 1 object header: a
// 16-byte prefix and four messages, each an 8-byte header and its data
// padded to 8 bytes.
func headerSize(d *Dataset) int64 {
	space := int64(8 + 8*len(d.Dims))
	var typ int64
	switch d.Kind {
	case Float32, Float64:
		typ = 8 + 12
	case FixedString:
		typ = 8
	case VarString:
		typ = 8 + 12
	}
	const fill, layout = 4, 18
	return 16 + 4*8 + align8(space) + align8(typ) + align8(fill) + align8(layout)
}

// plan lays the file out: the superblock, the root group's object header,
// B-tree node, symbol table node and local heap, the datasets' object
// headers, the global heap collections, the strings, then the numeric
// datasets' values in their order.
func plan(ds []Dataset) *layoutPlan {
	n := len(ds)
	p := &layoutPlan{leafK: max(4, (n+1)/2)}
	p.order = make([]int, n)
	for i := range p.order {
		p.order[i] = i
	}
	slices.SortFunc(p.order, func(a, b int) int { return strings.Compare(ds[a].Name, ds[b].Name) })
	at := int64(wSuper)
	p.root = at
	at += 16 + 8 + 16
	p.btree = at
	at += 24 + int64(2*wInternalK+1)*wSO + int64(2*wInternalK)*wSO
	p.snod = at
	at += 8 + int64(2*p.leafK)*wEntry
	p.heap = at
	at += 32
	p.heapData = at
	p.nameOff = make([]int64, n)
	off := int64(8) // offset 0 holds the empty string
	for i := range ds {
		p.nameOff[i] = off
		off += align8(int64(len(ds[i].Name)) + 1)
	}
	p.heapSize = off
	at += off
	p.headers = make([]int64, n)
	p.headerSize = make([]int64, n)
	for i := range ds {
		at = align8(at)
		p.headers[i] = at
		p.headerSize[i] = headerSize(&ds[i])
		at += p.headerSize[i]
	}
	// Global heap collections: each holds at most wMaxObjs objects and
	// is at least wMinGCOL bytes long.
	p.refs = make([][]gref, n)
	for i := range ds {
		if ds[i].Kind != VarString {
			continue
		}
		p.refs[i] = make([]gref, len(ds[i].Strings))
		var g *gcol
		for k, s := range ds[i].Strings {
			if s == "" {
				continue
			}
			if g == nil || len(g.objs) == wMaxObjs {
				p.gcols = append(p.gcols, gcol{size: 16})
				g = &p.gcols[len(p.gcols)-1]
			}
			g.objs = append(g.objs, s)
			g.size += 16 + align8(int64(len(s)))
			p.refs[i][k] = gref{len(p.gcols) - 1, len(g.objs)}
		}
	}
	for k := range p.gcols {
		g := &p.gcols[k]
		g.size = max(g.size+16, wMinGCOL) // room for the free-space object's header
		at = align8(at)
		g.addr = at
		at += g.size
	}
	p.data = make([]int64, n)
	p.dataSize = make([]int64, n)
	for i := range ds {
		p.dataSize[i] = ds[i].count() * int64(ds[i].elemSize())
	}
	for i := range ds { // strings first
		if !ds[i].numeric() {
			at = align8(at)
			p.data[i] = at
			at += p.dataSize[i]
		}
	}
	p.meta = at
	for i := range ds {
		if ds[i].numeric() {
			at = align8(at)
			p.data[i] = at
			at += p.dataSize[i]
		}
	}
	p.eof = at
	return p
}

func appendPad(b []byte, at int64) []byte {
	if int64(len(b)) > at {
		panic("hdf5: layout overlap")
	}
	for int64(len(b)) < at {
		b = append(b, 0)
	}
	return b
}

func appendU16(b []byte, v int) []byte     { return le.AppendUint16(b, uint16(v)) }
func appendU32(b []byte, v int64) []byte   { return le.AppendUint32(b, uint32(v)) }
func appendU64(b []byte, v int64) []byte   { return le.AppendUint64(b, uint64(v)) }
func appendUndef(b []byte) []byte          { return le.AppendUint64(b, undef) }
func appendZeros(b []byte, n int64) []byte { return append(b, make([]byte, n)...) }

// appendSuperblock appends the version 0 superblock (II.A) with the root
// group's symbol table entry, its B-tree and heap cached in the scratch.
func appendSuperblock(b []byte, p *layoutPlan) []byte {
	b = append(b, Magic...)
	b = append(b, 0, 0, 0, 0, 0) // superblock, free-space, root symbol table versions, reserved, shared header version
	b = append(b, wSO, wSO, 0)   // sizes of offsets and lengths, reserved
	b = appendU16(b, p.leafK)
	b = appendU16(b, wInternalK)
	b = appendU32(b, 0) // consistency flags
	b = appendU64(b, 0) // base address
	b = appendUndef(b)  // free-space info
	b = appendU64(b, p.eof)
	b = appendUndef(b) // driver info
	// The root group's symbol table entry (III.C).
	b = appendU64(b, 0) // link name offset
	b = appendU64(b, p.root)
	b = appendU32(b, 1) // cache type: symbol table
	b = appendU32(b, 0)
	b = appendU64(b, p.btree)
	b = appendU64(b, p.heap)
	return b
}

// appendMessage appends a version 1 object header message of type typ.
func appendMessage(b []byte, typ int, data []byte) []byte {
	size := align8(int64(len(data)))
	b = appendU16(b, typ)
	b = appendU16(b, int(size))
	b = append(b, 0, 0, 0, 0) // flags, reserved
	b = append(b, data...)
	return appendZeros(b, size-int64(len(data)))
}

// appendHeaderPrefix appends the prefix of a version 1 object header
// (IV.A.1.a) of msgs messages in size bytes.
func appendHeaderPrefix(b []byte, msgs int, size int64) []byte {
	b = append(b, 1, 0)
	b = appendU16(b, msgs)
	b = appendU32(b, 1) // reference count
	b = appendU32(b, size)
	return appendU32(b, 0) // padding to 8 bytes
}

// appendRootHeader appends the root group's object header: a symbol table
// message (IV.A.2.r).
func appendRootHeader(b []byte, p *layoutPlan) []byte {
	b = appendHeaderPrefix(b, 1, 8+16)
	var m []byte
	m = appendU64(m, p.btree)
	m = appendU64(m, p.heap)
	return appendMessage(b, 0x11, m)
}

// appendBTree appends the version 1 B-tree of the root group (III.A.1):
// one leaf node with one child, the symbol table node; its keys are the
// heap offsets of the empty string and of the last name.
func appendBTree(b []byte, p *layoutPlan, ds []Dataset) []byte {
	start := len(b)
	b = append(b, "TREE"...)
	b = append(b, 0, 0) // node type 0 (group), level 0
	b = appendU16(b, 1)
	b = appendUndef(b)
	b = appendUndef(b)
	b = appendU64(b, 0)
	b = appendU64(b, p.snod)
	b = appendU64(b, p.nameOff[p.order[len(ds)-1]])
	end := start + 24 + (2*wInternalK+1)*wSO + 2*wInternalK*wSO
	return appendPad(b, int64(end))
}

// appendSNOD appends the symbol table node (III.B): the entries in the
// order of their names, the node padded to 2K entries.
func appendSNOD(b []byte, p *layoutPlan, ds []Dataset) []byte {
	start := len(b)
	b = append(b, "SNOD"...)
	b = append(b, 1, 0)
	b = appendU16(b, len(ds))
	for _, i := range p.order {
		b = appendU64(b, p.nameOff[i])
		b = appendU64(b, p.headers[i])
		b = appendU32(b, 0) // no cache
		b = appendU32(b, 0)
		b = appendZeros(b, 16)
	}
	return appendPad(b, int64(start+8+2*p.leafK*wEntry))
}

// appendLocalHeap appends the local heap (III.D) of the names, the empty
// string first, each name null-terminated and padded to 8 bytes.
func appendLocalHeap(b []byte, p *layoutPlan, ds []Dataset) []byte {
	b = append(b, "HEAP"...)
	b = append(b, 0, 0, 0, 0)
	b = appendU64(b, p.heapSize)
	b = appendU64(b, 1) // no free block (the HDF5 library's H5HL_FREE_NULL)
	b = appendU64(b, p.heapData)
	b = appendZeros(b, 8)
	for i := range ds {
		b = appendPad(b, p.heapData+p.nameOff[i])
		b = append(b, ds[i].Name...)
		b = append(b, 0)
	}
	return appendPad(b, p.heapData+p.heapSize)
}

// appendDatatype appends the datatype message's data (IV.A.2.d) of d.
func appendDatatype(b []byte, d *Dataset) []byte {
	ascii := true
	for _, s := range d.Strings {
		for i := range len(s) {
			if s[i] >= utf8.RuneSelf {
				ascii = false
			}
		}
	}
	cset := byte(0)
	if !ascii {
		cset = 1 // UTF-8
	}
	switch d.Kind {
	case Float32:
		b = append(b, 0x11, 0x20, 31, 0) // version 1, floating point; LE, implied MSB, sign bit 31
		b = appendU32(b, 4)
		b = appendU16(b, 0)
		b = appendU16(b, 32)
		b = append(b, 23, 8, 0, 23)
		b = appendU32(b, 127)
	case Float64:
		b = append(b, 0x11, 0x20, 63, 0)
		b = appendU32(b, 8)
		b = appendU16(b, 0)
		b = appendU16(b, 64)
		b = append(b, 52, 11, 0, 52)
		b = appendU32(b, 1023)
	case FixedString:
		b = append(b, 0x13, 2|cset<<4, 0, 0) // space-padded
		b = appendU32(b, int64(d.elemSize()))
	case VarString:
		b = append(b, 0x19, 1, cset, 0) // sequence type string, null-terminated
		b = appendU32(b, 16)
		// The base type: an unsigned byte.
		b = append(b, 0x10, 0, 0, 0)
		b = appendU32(b, 1)
		b = appendU16(b, 0)
		b = appendU16(b, 8)
	}
	return b
}

// appendDatasetHeader appends the object header of dataset i.
func appendDatasetHeader(b []byte, p *layoutPlan, d *Dataset, i int) []byte {
	start := len(b)
	b = appendHeaderPrefix(b, 4, p.headerSize[i]-16)
	// Dataspace, version 1 (IV.A.2.b): no maximum dimensions.
	var m []byte
	m = append(m, 1, byte(len(d.Dims)), 0, 0, 0, 0, 0, 0)
	for _, v := range d.Dims {
		m = appendU64(m, int64(v))
	}
	b = appendMessage(b, 0x01, m)
	b = appendMessage(b, 0x03, appendDatatype(nil, d))
	// Fill value, version 2 (IV.A.2.f): allocated late, written if set,
	// none defined.
	b = appendMessage(b, 0x05, []byte{2, 2, 2, 0})
	// Data layout, version 3 (IV.A.2.i): contiguous.
	m = append(m[:0], 3, 1)
	m = appendU64(m, p.data[i])
	m = appendU64(m, p.dataSize[i])
	b = appendMessage(b, 0x08, m)
	if int64(len(b)-start) != p.headerSize[i] {
		panic("hdf5: object header size")
	}
	return b
}

// appendGlobalHeaps appends the global heap collections (III.E) of the
// variable-length strings: their objects, indexed from 1, then the
// free-space object (index 0) that fills the collection to its size.
func appendGlobalHeaps(b []byte, p *layoutPlan) []byte {
	for _, g := range p.gcols {
		b = appendPad(b, g.addr)
		b = append(b, "GCOL"...)
		b = append(b, 1, 0, 0, 0)
		b = appendU64(b, g.size)
		for k, s := range g.objs {
			b = appendU16(b, k+1)
			b = appendU16(b, 1) // reference count
			b = appendU32(b, 0)
			b = appendU64(b, int64(len(s)))
			b = append(b, s...)
			b = appendZeros(b, align8(int64(len(s)))-int64(len(s)))
		}
		end := g.addr + g.size
		if free := end - int64(len(b)); free >= 16 {
			b = appendU16(b, 0)
			b = append(b, 0, 0, 0, 0, 0, 0)
			b = appendU64(b, free)
		}
		b = appendPad(b, end)
	}
	return b
}

// appendStrings appends the elements of string dataset i: fixed-length
// strings padded with spaces, or the references of variable-length ones
// to their heap objects (length, collection address, index; an empty
// string refers to no object).
func appendStrings(b []byte, p *layoutPlan, d *Dataset, i int) []byte {
	if d.Kind == FixedString {
		n := d.elemSize()
		for _, s := range d.Strings {
			b = append(b, s...)
			for range n - len(s) {
				b = append(b, ' ')
			}
		}
		return b
	}
	for k, s := range d.Strings {
		r := p.refs[i][k]
		b = appendU32(b, int64(len(s)))
		if s == "" {
			b = appendZeros(b, 12)
			continue
		}
		b = appendU64(b, p.gcols[r.gcol].addr)
		b = appendU32(b, int64(r.obj))
	}
	return b
}

// next moves to the next numeric dataset, writing the padding before its
// values.
func (w *Writer) next() {
	p := w.cur + 1
	for p < len(w.ds) && !w.ds[p].numeric() {
		p++
	}
	w.cur = p
	if p == len(w.ds) {
		return
	}
	w.left = w.ds[p].count()
	if pad := align8(w.written) - w.written; pad > 0 && w.err == nil {
		_, w.err = w.w.Write(make([]byte, pad))
		w.written += pad
	}
}

// WriteFloats writes the next len(v) values of the numeric datasets, in
// the order of their declaration, row-major within each, rounded to
// float32 for a Float32 dataset. It returns an error for more values than
// the datasets hold, and the first error of the underlying writer.
func (w *Writer) WriteFloats(v []float64) error {
	for len(v) > 0 {
		if w.err != nil {
			return w.err
		}
		if w.cur == len(w.ds) {
			w.err = errors.New("hdf5: more values than the datasets hold")
			return w.err
		}
		k := int(min(int64(len(v)), w.left, 1<<16))
		b := w.buf[:0]
		if w.ds[w.cur].Kind == Float32 {
			for _, x := range v[:k] {
				b = le.AppendUint32(b, math.Float32bits(float32(x)))
			}
		} else {
			for _, x := range v[:k] {
				b = le.AppendUint64(b, math.Float64bits(x))
			}
		}
		w.buf = b
		if _, err := w.w.Write(b); err != nil {
			w.err = err
			return err
		}
		w.written += int64(len(b))
		v = v[k:]
		if w.left -= int64(k); w.left == 0 {
			w.next()
		}
	}
	return w.err
}

// Close reports an error if the numeric datasets have not received all
// their values, or if a write failed. It does not close the underlying
// writer.
func (w *Writer) Close() error {
	if w.err != nil {
		return w.err
	}
	if w.cur < len(w.ds) {
		return fmt.Errorf("hdf5: dataset %q is missing %d values", w.ds[w.cur].Name, w.left)
	}
	return nil
}
