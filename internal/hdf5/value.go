package hdf5

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strings"
	"sync"

	"github.com/twl-ldl/twl/internal/human"
	"github.com/twl-ldl/twl/internal/inflate"
	"github.com/twl-ldl/twl/internal/parallel"
)

// Datatype classes (IV.A.2.d).
const (
	classFixed  = 0
	classFloat  = 1
	classString = 3
	classVlen   = 9
)

type datatype struct {
	class  int
	size   int
	order  binary.ByteOrder
	signed bool
	vstr   bool // variable-length string
}

// datatype parses a datatype message (IV.A.2.d).
func (f *File) datatype(b []byte, at int64) (datatype, error) {
	c := f.cursor(b)
	cv := c.u8()
	bits := c.take(3)
	dt := datatype{class: int(cv & 0x0f), size: int(c.u32()), order: binary.LittleEndian}
	if c.bad {
		return dt, f.errf(at, ErrCorrupt, "datatype cut short")
	}
	switch dt.class {
	case classFixed:
		if bits[0]&1 != 0 {
			dt.order = binary.BigEndian
		}
		dt.signed = bits[0]&8 != 0
		if dt.size != 1 && dt.size != 2 && dt.size != 4 && dt.size != 8 {
			return dt, f.errf(at, ErrUnsupported, "%d-byte integers", dt.size)
		}
	case classFloat:
		if bits[0]&1 != 0 {
			dt.order = binary.BigEndian
		}
		if bits[0]&0x40 != 0 {
			return dt, f.errf(at, ErrUnsupported, "VAX byte order")
		}
		if dt.size != 4 && dt.size != 8 {
			return dt, f.errf(at, ErrUnsupported, "%d-byte floats", dt.size)
		}
	case classString:
		if dt.size == 0 {
			return dt, f.errf(at, ErrCorrupt, "string of size 0")
		}
	case classVlen:
		if bits[0]&0x0f != 1 {
			return dt, f.errf(at, ErrUnsupported, "variable-length sequences other than strings")
		}
		dt.vstr = true
		if dt.size != 4+f.so+4 {
			return dt, f.errf(at, ErrCorrupt, "variable-length string elements of %d bytes, want %d", dt.size, 8+f.so)
		}
	default:
		return dt, f.errf(at, ErrUnsupported, "datatype class %d", dt.class)
	}
	return dt, nil
}

// dataspace parses a dataspace message (IV.A.2.b) and returns the
// dimensions; a scalar has none.
func (f *File) dataspace(b []byte, at int64) ([]uint64, error) {
	c := f.cursor(b)
	version := c.u8()
	rank := int(c.u8())
	flags := c.u8()
	switch version {
	case 1:
		c.skip(5)
	case 2:
		if typ := c.u8(); typ == 2 {
			return nil, f.errf(at, ErrUnsupported, "null dataspace")
		}
	default:
		return nil, f.errf(at, ErrUnsupported, "dataspace version %d", version)
	}
	if rank > 32 {
		return nil, f.errf(at, ErrCorrupt, "rank %d", rank)
	}
	dims := make([]uint64, rank)
	for i := range dims {
		dims[i] = c.len()
	}
	_ = flags
	if c.bad {
		return nil, f.errf(at, ErrCorrupt, "dataspace cut short")
	}
	return dims, nil
}

// count returns the number of elements of dims, checking that they could
// be held: their raw bytes and their Go values (cost), within the memory
// allowed (SetLimit).
func (f *File) count(dims []uint64, dt datatype, at int64) (int64, error) {
	n := uint64(1)
	for _, d := range dims {
		if d != 0 && n > uint64(f.maxAlloc)/d {
			return 0, f.tooLarge(at, "dimensions %v", dims)
		}
		n *= d
	}
	if c := dt.cost(); n > uint64(f.maxAlloc)/uint64(c) {
		return 0, f.tooLarge(at, "dimensions %v of %d-byte elements (%d bytes each as read)", dims, dt.size, c)
	}
	return int64(n), nil
}

// tooLarge is the error of a declared size past f.maxAlloc: ErrTooLarge
// under a limit set by SetLimit, ErrCorrupt under the file's own.
func (f *File) tooLarge(at int64, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if f.limited {
		return f.errf(at, ErrTooLarge, "%s would take more than the %s allowed", msg, human.Bytes(float64(f.maxAlloc)))
	}
	return f.errf(at, ErrCorrupt, "%s are too large for the file", msg)
}

// cost returns the bytes an element takes once read: its raw bytes, and
// its Go value (a float64 for a number; a string's 16-byte header and, for
// a fixed-length string, its bytes; a variable-length string's bytes are
// counted when they are read).
func (dt datatype) cost() int {
	switch {
	case dt.vstr:
		return dt.size + 16
	case dt.class == classString:
		return 2*dt.size + 16
	default:
		return dt.size + 8
	}
}

// Value is the data of a dataset or an attribute.
type Value struct {
	f    *File
	typ  datatype
	dims []uint64
	data []byte
	at   int64
	// The elements, when DatasetNumbers converted them as it read them
	// (typed; data is then nil): f64 for floats, i32 for integers.
	typed bool
	f64   []float64
	i32   []int32
}

// Dims returns the dimensions (none for a scalar).
func (v *Value) Dims() []int {
	d := make([]int, len(v.dims))
	for i, x := range v.dims {
		d[i] = int(x)
	}
	return d
}

// Len returns the number of elements.
func (v *Value) Len() int {
	if v.typed {
		return len(v.f64) + len(v.i32)
	}
	if v.typ.size == 0 {
		return 0
	}
	return len(v.data) / v.typ.size
}

// IsString reports whether the elements are strings.
func (v *Value) IsString() bool { return v.typ.class == classString || v.typ.vstr }

// IsInt reports whether the elements are integers.
func (v *Value) IsInt() bool { return v.typ.class == classFixed }

// Float64s returns the elements of a numeric value as float64 (integers
// beyond 2^53 are rounded).
//
// For a value of DatasetNumbers that holds floats, the slice returned is
// the value's own.
func (v *Value) Float64s() ([]float64, error) {
	if v.typed {
		if v.f64 != nil {
			return v.f64, nil
		}
		if err := v.f.take(8*int64(len(v.i32)), "the numbers", v.at); err != nil {
			return nil, err
		}
		out := make([]float64, len(v.i32))
		for i, x := range v.i32 {
			out[i] = float64(x)
		}
		return out, nil
	}
	if v.IsString() {
		return nil, v.f.errf(v.at, ErrUnsupported, "strings read as numbers")
	}
	if err := v.f.take(8*int64(v.Len()), "the numbers", v.at); err != nil {
		return nil, err
	}
	out := make([]float64, v.Len())
	sz := v.typ.size
	switch v.typ.class {
	case classFloat:
		if v.typ.order == binary.ByteOrder(le) && sz == 8 {
			parallel.For(len(out), 0, 1<<16, func(lo, hi int) {
				for i := lo; i < hi; i++ {
					out[i] = math.Float64frombits(le.Uint64(v.data[i*8:]))
				}
			})
			break
		}
		for i := range out {
			b := v.data[i*sz:]
			if sz == 4 {
				out[i] = float64(math.Float32frombits(v.typ.order.Uint32(b)))
			} else {
				out[i] = math.Float64frombits(v.typ.order.Uint64(b))
			}
		}
	case classFixed:
		if v.typ.order == binary.ByteOrder(le) && sz == 4 {
			parallel.For(len(out), 0, 1<<16, func(lo, hi int) {
				for i := lo; i < hi; i++ {
					if v.typ.signed {
						out[i] = float64(int32(le.Uint32(v.data[i*4:])))
					} else {
						out[i] = float64(le.Uint32(v.data[i*4:]))
					}
				}
			})
			break
		}
		if v.typ.order == binary.ByteOrder(le) && sz == 8 && v.typ.signed {
			for i := range out {
				out[i] = float64(int64(le.Uint64(v.data[i*8:])))
			}
			break
		}
		ints, err := v.Int64s()
		if err != nil {
			return nil, err
		}
		for i, x := range ints {
			out[i] = float64(x)
		}
		if !v.typ.signed && sz == 8 {
			for i := range out {
				out[i] = float64(v.typ.order.Uint64(v.data[i*8:]))
			}
		}
	default:
		return nil, v.f.errf(v.at, ErrUnsupported, "strings read as numbers")
	}
	return out, nil
}

// Int32s returns the elements of a value of little-endian signed 32-bit
// integers, the usual type of a BIOM table's indices, and true; for any
// other type it returns false and reads nothing, as it does when its slice
// would pass the limit of SetLimit (Float64s then says so). For a value of
// DatasetNumbers, the slice returned is the value's own.
func (v *Value) Int32s() ([]int32, bool) {
	if v.typ.class != classFixed || v.typ.size != 4 || !v.typ.signed || v.typ.order != binary.ByteOrder(le) {
		return nil, false
	}
	if v.typed {
		return v.i32, true
	}
	if v.f.take(4*int64(v.Len()), "the integers", v.at) != nil {
		return nil, false
	}
	out := make([]int32, v.Len())
	parallel.For(len(out), 0, 1<<16, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			out[i] = int32(le.Uint32(v.data[i*4:]))
		}
	})
	return out, true
}

// Int64s returns the elements of an integer value. Unsigned 64-bit values
// above the largest int64 are an error.
func (v *Value) Int64s() ([]int64, error) {
	if v.typ.class != classFixed {
		return nil, v.f.errf(v.at, ErrUnsupported, "datatype class %d read as integers", v.typ.class)
	}
	if err := v.f.take(8*int64(v.Len()), "the integers", v.at); err != nil {
		return nil, err
	}
	if v.typed {
		out := make([]int64, len(v.i32))
		for i, x := range v.i32 {
			out[i] = int64(x)
		}
		return out, nil
	}
	out := make([]int64, v.Len())
	sz, o := v.typ.size, v.typ.order
	for i := range out {
		b := v.data[i*sz:]
		switch {
		case sz == 1 && v.typ.signed:
			out[i] = int64(int8(b[0]))
		case sz == 1:
			out[i] = int64(b[0])
		case sz == 2 && v.typ.signed:
			out[i] = int64(int16(o.Uint16(b)))
		case sz == 2:
			out[i] = int64(o.Uint16(b))
		case sz == 4 && v.typ.signed:
			out[i] = int64(int32(o.Uint32(b)))
		case sz == 4:
			out[i] = int64(o.Uint32(b))
		case v.typ.signed:
			out[i] = int64(o.Uint64(b))
		default:
			u := o.Uint64(b)
			if u > math.MaxInt64 {
				return nil, v.f.errf(v.at, ErrCorrupt, "unsigned value %d does not fit int64", u)
			}
			out[i] = int64(u)
		}
	}
	return out, nil
}

// Strings returns the elements of a string value: fixed-length strings
// without their padding (the NULs and spaces that end them), variable-
// length strings from the global heap. A NUL followed by other bytes is
// kept, for the caller to refuse: "S\x001" is not cut to "S".
func (v *Value) Strings() ([]string, error) {
	if !v.IsString() {
		return nil, v.f.errf(v.at, ErrUnsupported, "numbers read as strings")
	}
	// The strings' headers, and for fixed-length strings their bytes at
	// most, before they are made.
	cost := 16 * int64(v.Len())
	if v.typ.class == classString {
		cost += int64(len(v.data))
	}
	if err := v.f.take(cost, "the strings", v.at); err != nil {
		return nil, err
	}
	out := make([]string, v.Len())
	sz := v.typ.size
	switch {
	case v.typ.class == classString:
		for i := range out {
			out[i] = string(bytes.TrimRight(v.data[i*sz:(i+1)*sz], "\x00 "))
		}
	case v.typ.vstr:
		// The strings are cut from one string holding them all: a first
		// pass checks them and adds up their lengths, a second gathers
		// their bytes, a third cuts them. The passes keep no pointers to
		// the heap objects, so that they write no pointers into fresh
		// memory, which costs a page fault and a TLB flush per page when
		// the garbage collector runs.
		f := v.f
		var lastAddr uint64
		var objs [][]byte
		object := func(i int) ([]byte, error) {
			c := f.cursor(v.data[i*sz : (i+1)*sz])
			n := c.u32()
			coll := c.off()
			idx := c.u32()
			if n == 0 && (coll == 0 || coll == undef) {
				return nil, nil
			}
			if objs == nil || coll != lastAddr {
				var err error
				if objs, err = f.heapObjects(coll); err != nil {
					return nil, err
				}
				lastAddr = coll
			}
			if uint64(idx) >= uint64(len(objs)) || objs[idx] == nil {
				return nil, f.errf(int64(f.base+min(coll, uint64(f.size))), ErrCorrupt, "global heap collection has no object %d", idx)
			}
			s := objs[idx]
			if uint64(n) > uint64(len(s)) {
				return nil, f.errf(v.at, ErrCorrupt, "string %d has length %d, its heap object %d bytes", i, n, len(s))
			}
			return s[:n], nil
		}
		total := int64(0)
		for i := range out {
			s, err := object(i)
			if err != nil {
				return nil, err
			}
			total += int64(len(s))
		}
		// Many strings may point to one large heap object: their total is
		// counted before it is allocated.
		if err := f.take(total, fmt.Sprintf("the %d variable-length strings", len(out)), v.at); err != nil {
			return nil, err
		}
		var all strings.Builder
		all.Grow(int(total))
		for i := range out {
			s, _ := object(i)
			all.Write(s)
		}
		str, lo := all.String(), 0
		for i := range out {
			n := int(le.Uint32(v.data[i*sz:]))
			if n == 0 {
				continue
			}
			out[i] = str[lo : lo+n]
			lo += n
		}
	default:
		return nil, v.f.errf(v.at, ErrUnsupported, "numbers read as strings")
	}
	return out, nil
}

// heapObjects returns the objects of the global heap collection at addr
// (III.E), indexed by their 16-bit index, nil for an index without one. A
// collection is parsed once.
func (f *File) heapObjects(addr uint64) ([][]byte, error) {
	f.mu.Lock()
	objs, ok := f.gheaps[addr]
	f.mu.Unlock()
	if !ok {
		hb, off, err := f.read(addr, 8+f.sl, "global heap collection")
		if err != nil {
			return nil, err
		}
		if string(hb[:4]) != "GCOL" {
			return nil, f.errf(off, ErrCorrupt, "no global heap signature")
		}
		size := f.cursor(hb[8:]).len()
		if size > uint64(f.size) {
			return nil, f.past(off, "global heap collection")
		}
		if size < uint64(8+f.sl) {
			return nil, f.errf(off, ErrCorrupt, "global heap collection of %d bytes", size)
		}
		coll, _, err := f.read(addr, int(size), "global heap collection")
		if err != nil {
			return nil, err
		}
		// Objects are indexed by their 16-bit index; nil marks an absent
		// one, and of two with the same index the last counts.
		c := f.cursor(coll)
		c.skip(8 + f.sl)
		for !c.bad && c.i+8+f.sl <= len(coll) {
			id := c.u16()
			c.skip(6)
			n := c.len()
			if id == 0 || n > uint64(len(coll)-c.i) {
				break
			}
			data := c.take(int(n))
			c.skip(int((n+7)&^7 - n))
			if int(id) >= len(objs) {
				// An index is 24 bytes a slot up to the largest object
				// index, whatever the number of objects.
				if err := f.take(24*int64(int(id)+1-len(objs)), "the global heap collection's index", off); err != nil {
					return nil, err
				}
				objs = append(objs, make([][]byte, int(id)+1-len(objs))...)
			}
			objs[id] = data
		}
		f.mu.Lock()
		f.gheaps[addr] = objs
		f.mu.Unlock()
	}
	return objs, nil
}

type filter struct {
	id     int
	params []uint32
}

// filters parses a filter pipeline message (IV.A.2.l).
func (f *File) filters(m message) ([]filter, error) {
	c := f.cursor(m.data)
	version := c.u8()
	n := int(c.u8())
	if version == 1 {
		c.skip(6)
	} else if version != 2 {
		return nil, f.errf(m.at, ErrUnsupported, "filter pipeline version %d", version)
	}
	var out []filter
	for range n {
		flt := filter{id: int(c.u16())}
		nameLen := 0
		if version == 1 || flt.id >= 256 {
			nameLen = int(c.u16())
		}
		c.skip(2) // flags
		nv := int(c.u16())
		if version == 1 {
			nameLen = (nameLen + 7) &^ 7
		}
		c.skip(nameLen)
		for range nv {
			flt.params = append(flt.params, c.u32())
		}
		if version == 1 && nv%2 == 1 {
			c.skip(4)
		}
		if c.bad {
			return nil, f.errf(m.at, ErrCorrupt, "filter pipeline cut short")
		}
		switch flt.id {
		case 1, 2, 3:
		default:
			return nil, f.errf(m.at, ErrUnsupported, "filter %d (only deflate, shuffle and Fletcher-32 are read)", flt.id)
		}
		out = append(out, flt)
	}
	return out, nil
}

// unfilter undoes the filters of a chunk, last applied first, skipping
// those whose bit is set in mask; want is the chunk's inflated size.
func (f *File) unfilter(b []byte, fl []filter, mask uint32, elem, want int, at int64) ([]byte, error) {
	for k := len(fl) - 1; k >= 0; k-- {
		if k < 32 && mask&(1<<k) != 0 {
			continue
		}
		switch fl[k].id {
		case 1:
			zr, err := zlib.NewReader(bytes.NewReader(b))
			if err != nil {
				return nil, f.errf(at, ErrCorrupt, "deflate: %v", err)
			}
			out, err := io.ReadAll(io.LimitReader(zr, int64(want)+1))
			if err != nil {
				return nil, f.errf(at, ErrCorrupt, "deflate: %v", err)
			}
			if len(out) > want {
				return nil, f.errf(at, ErrCorrupt, "chunk inflates to more than its %d bytes", want)
			}
			b = out
		case 2:
			if elem > 1 && len(b)%elem == 0 {
				n := len(b) / elem
				out := make([]byte, len(b))
				for j := range elem {
					for i := range n {
						out[i*elem+j] = b[j*n+i]
					}
				}
				b = out
			}
		case 3:
			if len(b) < 4 {
				return nil, f.errf(at, ErrCorrupt, "chunk too short for its Fletcher-32 checksum")
			}
			b = b[:len(b)-4]
		}
	}
	return b, nil
}

// inflaters holds zlib readers for reuse.
var inflaters sync.Pool

// unfilterInto is unfilter for the common pipelines, deflate alone or
// shuffle then deflate, without a mask: it inflates into dst when dst has
// want bytes (then unshuffles in place through a scratch copy), and falls
// back to unfilter for any other pipeline. The errors are unfilter's.
func (f *File) unfilterInto(dst, b []byte, fl []filter, mask uint32, elem, want int, at int64) ([]byte, error) {
	shuffle := false
	switch {
	case mask == 0 && len(fl) == 1 && fl[0].id == 1:
	case mask == 0 && len(fl) == 2 && fl[0].id == 2 && fl[1].id == 1:
		shuffle = elem > 1 && want%elem == 0
	default:
		return f.unfilter(b, fl, mask, elem, want, at)
	}
	buf := dst
	if len(buf) != want || shuffle {
		buf = make([]byte, want)
	}
	if !inflate.Zlib(buf, b) {
		// compress/zlib reads what inflate.Zlib refuses, with the reason.
		var err error
		if buf, err = f.inflateStd(buf, b, want, at); err != nil {
			return nil, err
		}
	}
	if shuffle && len(buf) == want {
		out := dst
		if len(out) != want {
			out = make([]byte, want)
		}
		k := want / elem
		for j := range elem {
			src := buf[j*k : (j+1)*k]
			for i, c := range src {
				out[i*elem+j] = c
			}
		}
		return out, nil
	}
	return buf, nil
}

// inflateStd inflates the zlib stream b into buf (want bytes) with
// compress/zlib and returns the bytes it holds, fewer than want if the
// stream ends early.
func (f *File) inflateStd(buf, b []byte, want int, at int64) ([]byte, error) {
	var zr io.ReadCloser
	var err error
	if z, ok := inflaters.Get().(io.ReadCloser); ok {
		zr = z
		err = z.(zlib.Resetter).Reset(bytes.NewReader(b), nil)
	} else {
		zr, err = zlib.NewReader(bytes.NewReader(b))
	}
	if err != nil {
		return nil, f.errf(at, ErrCorrupt, "deflate: %v", err)
	}
	defer inflaters.Put(zr)
	n := 0
	for n < want {
		m, err := zr.Read(buf[n:])
		n += m
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, f.errf(at, ErrCorrupt, "deflate: %v", err)
		}
	}
	if n == want {
		// The stream must end here, its checksum verified.
		var one [1]byte
		for {
			m, err := zr.Read(one[:])
			if m > 0 {
				return nil, f.errf(at, ErrCorrupt, "chunk inflates to more than its %d bytes", want)
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, f.errf(at, ErrCorrupt, "deflate: %v", err)
			}
		}
	}
	return buf[:n], nil
}

// Dataset reads the whole dataset at path.
func (f *File) Dataset(path string) (*Value, error) { return f.dataset(path, false) }

// DatasetNumbers is Dataset for datasets of numbers read as such: a
// one-dimensional dataset of little-endian 8-byte floats or 4-byte signed
// integers, stored in chunks, has its elements converted as the chunks are
// inflated, in place in the result, with no copy of its bytes. Errors are
// Dataset's.
func (f *File) DatasetNumbers(path string) (*Value, error) { return f.dataset(path, true) }

// sink receives the elements of a dataset as its chunks are inflated.
type sink struct {
	f64 []float64
	i32 []int32
}

// put converts b, whole elements from the byte offset off of the
// dataset, into place.
func (s *sink) put(off int, b []byte) {
	if s.f64 != nil {
		out := s.f64[off/8 : off/8+len(b)/8]
		for i := range out {
			out[i] = math.Float64frombits(le.Uint64(b[8*i:]))
		}
		return
	}
	out := s.i32[off/4 : off/4+len(b)/4]
	for i := range out {
		out[i] = int32(le.Uint32(b[4*i:]))
	}
}

func (f *File) dataset(path string, numbers bool) (*Value, error) {
	addr, err := f.lookup(path)
	if err != nil {
		return nil, err
	}
	h, err := f.header(addr)
	if err != nil {
		return nil, err
	}
	tm, ok1 := h.find(msgDatatype)
	sm, ok2 := h.find(msgDataspace)
	lm, ok3 := h.find(msgLayout)
	if !ok1 || !ok2 || !ok3 {
		return nil, &Error{File: f.name, Offset: int64(f.base + addr), Err: ErrNotFound, Msg: fmt.Sprintf("%q is not a dataset", path)}
	}
	dt, err := f.datatype(tm.data, tm.at)
	if err != nil {
		return nil, err
	}
	dims, err := f.dataspace(sm.data, sm.at)
	if err != nil {
		return nil, err
	}
	n, err := f.count(dims, dt, sm.at)
	if err != nil {
		return nil, err
	}
	var fl []filter
	if fm, ok := h.find(msgFilters); ok {
		if fl, err = f.filters(fm); err != nil {
			return nil, err
		}
	}
	total := int(n) * dt.size
	var sk *sink
	if numbers && len(dims) == 1 && dt.order == binary.ByteOrder(le) {
		switch {
		case dt.class == classFloat && dt.size == 8:
			if err := f.take(8*n, "the dataset", sm.at); err != nil {
				return nil, err
			}
			sk = &sink{f64: make([]float64, n)}
		case dt.class == classFixed && dt.size == 4 && dt.signed:
			if err := f.take(4*n, "the dataset", sm.at); err != nil {
				return nil, err
			}
			sk = &sink{i32: make([]int32, n)}
		}
	}
	data, used, err := f.layout(lm, dims, dt.size, total, fl, sk)
	if err != nil {
		return nil, err
	}
	if used {
		return &Value{f: f, typ: dt, dims: dims, at: lm.at, typed: true, f64: sk.f64, i32: sk.i32}, nil
	}
	return &Value{f: f, typ: dt, dims: dims, data: data, at: lm.at}, nil
}

// layout reads the raw data described by a data layout message
// (IV.A.2.i). Chunked data of rank 1 goes to sk instead when sk is not
// nil; used reports that it did.
func (f *File) layout(m message, dims []uint64, elem, total int, fl []filter, sk *sink) (data []byte, used bool, err error) {
	if len(dims) != 1 {
		sk = nil
	}
	data, err = f.layoutTo(m, dims, elem, total, fl, &sk)
	return data, sk != nil && err == nil, err
}

// layoutTo is layout; it sets *sk to nil unless the data went to it.
func (f *File) layoutTo(m message, dims []uint64, elem, total int, fl []filter, sk **sink) ([]byte, error) {
	chunked := *sk
	*sk = nil
	c := f.cursor(m.data)
	version := c.u8()
	var class int
	var addr uint64
	var cdims []uint64
	switch version {
	case 1, 2:
		rank := int(c.u8())
		class = int(c.u8())
		c.skip(5)
		if class != 0 {
			addr = c.off()
		}
		for range rank {
			cdims = append(cdims, uint64(c.u32()))
		}
		if class == 0 {
			sz := int(c.u32())
			return f.fixedSize(c.take(sz), total, m.at, c.bad)
		}
		if class == 1 {
			return f.contiguous(addr, total, m.at)
		}
	case 3, 4:
		class = int(c.u8())
		switch class {
		case 0:
			sz := int(c.u16())
			return f.fixedSize(c.take(sz), total, m.at, c.bad)
		case 1:
			addr = c.off()
			c.len()
			return f.contiguous(addr, total, m.at)
		case 2:
			if version == 3 {
				rank := int(c.u8())
				addr = c.off()
				for range rank {
					cdims = append(cdims, uint64(c.u32()))
				}
			} else {
				flags := c.u8()
				rank := int(c.u8())
				w := int(c.u8())
				if w < 1 || w > 8 {
					return nil, f.errf(m.at, ErrCorrupt, "chunk dimension width %d", w)
				}
				for range rank {
					cdims = append(cdims, c.uint(w))
				}
				index := c.u8()
				if index != 1 {
					return nil, f.errf(m.at, ErrUnsupported, "chunk index type %d (only single-chunk indexes are read in layout version 4)", index)
				}
				size, mask := uint64(total), uint32(0)
				if flags&2 != 0 {
					size = c.len()
					mask = c.u32()
				}
				addr = c.off()
				if c.bad {
					return nil, f.errf(m.at, ErrCorrupt, "layout message cut short")
				}
				return f.chunk(addr, size, mask, fl, elem, total, m.at)
			}
		default:
			return nil, f.errf(m.at, ErrUnsupported, "layout class %d", class)
		}
	default:
		return nil, f.errf(m.at, ErrUnsupported, "layout version %d", version)
	}
	if c.bad {
		return nil, f.errf(m.at, ErrCorrupt, "layout message cut short")
	}
	if class != 2 {
		return nil, f.errf(m.at, ErrUnsupported, "layout class %d", class)
	}
	*sk = chunked
	return f.chunked(addr, dims, cdims, elem, total, fl, m.at, chunked)
}

func (f *File) fixedSize(b []byte, total int, at int64, bad bool) ([]byte, error) {
	if bad || len(b) < total {
		return nil, f.errf(at, ErrTruncated, "compact data holds fewer than %d bytes", total)
	}
	return b[:total], nil
}

func (f *File) contiguous(addr uint64, total int, at int64) ([]byte, error) {
	if addr == undef || f.mem == nil {
		if err := f.take(int64(total), "the dataset", at); err != nil {
			return nil, err
		}
	}
	if addr == undef {
		return make([]byte, total), nil // never written: fill value zero
	}
	b, _, err := f.read(addr, total, "dataset data")
	return b, err
}

// chunk reads and unfilters a dataset stored as one chunk.
func (f *File) chunk(addr, size uint64, mask uint32, fl []filter, elem, total int, at int64) ([]byte, error) {
	if err := f.take(int64(total), "the dataset", at); err != nil {
		return nil, err
	}
	if addr == undef {
		return make([]byte, total), nil
	}
	if size > uint64(f.size) {
		return nil, f.past(at, "dataset chunk")
	}
	raw, off, err := f.read(addr, int(size), "dataset chunk")
	if err != nil {
		return nil, err
	}
	b, err := f.unfilter(raw, fl, mask, elem, total, off)
	if err != nil {
		return nil, err
	}
	if len(b) != total {
		return nil, f.errf(off, ErrCorrupt, "chunk holds %d bytes, want %d", len(b), total)
	}
	return b, nil
}

// chunked reads a dataset whose chunks are indexed by a version 1 B-tree.
// cdims are the chunk dimensions, the last being the element size. The
// B-tree is walked and the raw chunks read first, in order; the chunks are
// then inflated on all processors, each into its place in the output. The
// error returned is the one a reading in B-tree order meets first.
func (f *File) chunked(btree uint64, dims, cdims []uint64, elem, total int, fl []filter, at int64, sk *sink) ([]byte, error) {
	rank := len(dims)
	if len(cdims) != rank+1 {
		return nil, f.errf(at, ErrCorrupt, "chunks of rank %d for a dataset of rank %d", len(cdims)-1, rank)
	}
	if cdims[rank] != uint64(elem) {
		return nil, f.errf(at, ErrCorrupt, "chunk element size %d, datatype size %d", cdims[rank], elem)
	}
	csize := uint64(elem)
	for _, d := range cdims[:rank] {
		if d == 0 || d > uint64(f.maxAlloc) || csize > uint64(f.maxAlloc)/d {
			return nil, f.errf(at, ErrCorrupt, "chunk dimensions %v", cdims)
		}
		csize *= d
	}
	var out []byte
	if sk == nil {
		if err := f.take(int64(total), "the dataset", at); err != nil {
			return nil, err
		}
		out = make([]byte, total)
	}
	if btree == undef || total == 0 {
		return out, nil
	}
	type rawChunk struct {
		raw    []byte // nil: never written, fill value zero
		off    int64
		mask   uint32
		origin []uint64
	}
	var chunks []rawChunk
	pending := int64(0) // raw bytes in chunks
	// flush inflates the chunks read so far.
	flush := func() error {
		errs := make([]error, len(chunks))
		parallel.Each(len(chunks), 0, func(k int) {
			rc := chunks[k]
			if rc.raw == nil {
				return // out is zero already
			}
			// A chunk of a one-dimensional dataset that lies wholly inside
			// it is inflated straight into its place; with a sink, into
			// scratch space whose elements then go to the sink.
			var dst []byte
			var scratch *[]byte
			if sk != nil {
				scratch = getScratch(int(csize))
				defer scratches.Put(scratch)
				dst = *scratch
			} else if rank == 1 && rc.origin[0]+cdims[0] <= dims[0] {
				lo := rc.origin[0] * uint64(elem)
				dst = out[lo : lo+csize]
			}
			b, err := f.unfilterInto(dst, rc.raw, fl, rc.mask, elem, int(csize), rc.off)
			if err == nil && len(b) != int(csize) {
				err = f.errf(rc.off, ErrCorrupt, "chunk holds %d bytes, want %d", len(b), csize)
			}
			if err != nil {
				errs[k] = err
				return
			}
			switch {
			case sk != nil:
				inside := min(cdims[0], dims[0]-rc.origin[0])
				sk.put(int(rc.origin[0])*elem, b[:inside*uint64(elem)])
			case dst == nil:
				copyChunk(out, b, dims, cdims[:rank], rc.origin, elem)
			case &b[0] != &dst[0]:
				copy(dst, b)
			}
		})
		for _, err := range errs {
			if err != nil {
				return err
			}
		}
		chunks, pending = chunks[:0], 0
		return nil
	}
	seen := map[uint64]bool{} // chunks read, by their row-major grid index
	walkErr := f.walkBTree(btree, 1, rank, func(child uint64, key []byte) error {
		c := f.cursor(key)
		size := uint64(c.u32())
		mask := c.u32()
		origin := make([]uint64, rank)
		for i := range origin {
			origin[i] = c.u64()
			if origin[i]%cdims[i] != 0 || origin[i] >= dims[i] {
				return f.errf(at, ErrCorrupt, "chunk at %v outside the dataset %v or off the chunk grid %v", origin, dims, cdims[:rank])
			}
		}
		var cell uint64
		for i := range origin {
			cell = cell*((dims[i]+cdims[i]-1)/cdims[i]) + origin[i]/cdims[i]
		}
		if seen[cell] {
			return f.errf(at, ErrCorrupt, "chunk at %v given twice", origin)
		}
		seen[cell] = true
		rc := rawChunk{mask: mask, origin: origin}
		if child != undef {
			if size > uint64(f.size) {
				return f.errf(at, ErrCorrupt, "chunk of %d bytes", size)
			}
			raw, off, err := f.read(child, int(size), "dataset chunk")
			if err != nil {
				return err
			}
			rc.raw, rc.off = raw, off
		}
		chunks = append(chunks, rc)
		pending += int64(len(rc.raw))
		if pending > maxPending {
			return flush()
		}
		return nil
	})
	if err := flush(); err != nil {
		return nil, err // a chunk before the walk's error, if any
	}
	if walkErr != nil {
		return nil, walkErr
	}
	return out, nil
}

// scratches holds chunk-sized buffers for inflating into a sink.
var scratches sync.Pool

// getScratch returns a buffer of n bytes from scratches, or a new one.
func getScratch(n int) *[]byte {
	if p, ok := scratches.Get().(*[]byte); ok && cap(*p) >= n {
		*p = (*p)[:n]
		return p
	}
	b := make([]byte, n)
	return &b
}

// maxPending bounds the raw chunk bytes chunked holds before inflating
// them, so that chunks sharing their bytes cannot make it hold more than
// a few times the file.
const maxPending = 32 << 20

// copyChunk copies the part of chunk b (row-major, dimensions cdims) at
// origin that lies inside the dataset dims into out (row-major).
func copyChunk(out, b []byte, dims, cdims, origin []uint64, elem int) {
	rank := len(dims)
	if rank == 0 {
		copy(out, b)
		return
	}
	// Copy rows along the last dimension.
	last := rank - 1
	rowLen := min(cdims[last], dims[last]-origin[last])
	idx := make([]uint64, rank) // index within the chunk, last coordinate 0
	for {
		var src, dst uint64
		inside := true
		for d := range rank {
			if origin[d]+idx[d] >= dims[d] {
				inside = false
				break
			}
			src = src*cdims[d] + idx[d]
			dst = dst*dims[d] + origin[d] + idx[d]
		}
		if inside {
			copy(out[dst*uint64(elem):(dst+rowLen)*uint64(elem)], b[src*uint64(elem):(src+rowLen)*uint64(elem)])
		}
		d := last - 1
		for ; d >= 0; d-- {
			idx[d]++
			if idx[d] < cdims[d] {
				break
			}
			idx[d] = 0
		}
		if d < 0 {
			return
		}
	}
}

// Dims returns the dimensions of the dataset at path from its header,
// without reading its data.
func (f *File) Dims(path string) ([]uint64, error) {
	addr, err := f.lookup(path)
	if err != nil {
		return nil, err
	}
	h, err := f.header(addr)
	if err != nil {
		return nil, err
	}
	sm, ok := h.find(msgDataspace)
	if !ok {
		return nil, &Error{File: f.name, Offset: int64(f.base + addr), Err: ErrNotFound, Msg: fmt.Sprintf("%q is not a dataset", path)}
	}
	return f.dataspace(sm.data, sm.at)
}
