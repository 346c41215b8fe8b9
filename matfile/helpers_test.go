package matfile

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"math"
)

// This file builds MAT-files byte by byte, following the MAT-File Format
// document rather than the reader's code, so that tests do not check the
// reader against itself.

type byteOrder interface {
	binary.ByteOrder
	binary.AppendByteOrder
}

type enc struct{ o byteOrder }

var (
	le = enc{binary.LittleEndian}
	be = enc{binary.BigEndian}
)

// header returns the 128-byte header: text padded with blanks, a zero
// subsystem offset, version 0x0100 and the endian indicator, both written
// in the file's byte order (so "IM" for little-endian files).
func (e enc) header() []byte {
	h := bytes.Repeat([]byte{' '}, 116)
	copy(h, "MATLAB 5.0 MAT-file, written by twl tests")
	h = append(h, make([]byte, 8)...)
	h = e.o.AppendUint16(h, 0x0100)
	return e.o.AppendUint16(h, 'M'<<8|'I')
}

// tag returns a full 8-byte tag.
func (e enc) tag(typ uint32, n int) []byte {
	return e.o.AppendUint32(e.o.AppendUint32(nil, typ), uint32(n))
}

// elem returns a data element padded to 8 bytes, in the small format when
// the data has at most 4 bytes, as MATLAB writes it.
func (e enc) elem(typ uint32, data []byte) []byte {
	if len(data) <= 4 && len(data) > 0 {
		b := e.o.AppendUint32(nil, uint32(len(data))<<16|typ)
		return append(append(b, data...), make([]byte, 4-len(data))...)
	}
	return e.longElem(typ, data)
}

// longElem returns a data element with a full tag, padded to 8 bytes.
func (e enc) longElem(typ uint32, data []byte) []byte {
	b := append(e.tag(typ, len(data)), data...)
	return append(b, make([]byte, -len(data)&7)...)
}

func (e enc) dims(d ...int32) []byte {
	var b []byte
	for _, v := range d {
		b = e.o.AppendUint32(b, uint32(v))
	}
	return e.elem(miINT32, b)
}

func (e enc) doubles(v ...float64) []byte {
	var b []byte
	for _, x := range v {
		b = e.o.AppendUint64(b, math.Float64bits(x))
	}
	return b
}

// matrix returns an miMATRIX element with the given flags word (class in
// the low byte), dimensions, name and further subelements.
func (e enc) matrix(flags uint32, dims []int32, name string, parts ...[]byte) []byte {
	body := e.elem(miUINT32, e.o.AppendUint32(e.o.AppendUint32(nil, flags), 0))
	body = append(body, e.dims(dims...)...)
	body = append(body, e.elem(miINT8, []byte(name))...)
	for _, p := range parts {
		body = append(body, p...)
	}
	return append(e.tag(miMATRIX, len(body)), body...)
}

// double returns an miMATRIX holding a real double array given in
// column-major order.
func (e enc) double(name string, rows, cols int32, colMajor ...float64) []byte {
	return e.matrix(uint32(Double), []int32{rows, cols}, name, e.elem(miDOUBLE, e.doubles(colMajor...)))
}

// compress wraps an element in an miCOMPRESSED element (not padded, as
// MATLAB writes it).
func (e enc) compress(elem []byte) []byte {
	var z bytes.Buffer
	w := zlib.NewWriter(&z)
	w.Write(elem)
	w.Close()
	return append(e.tag(miCOMPRESSED, z.Len()), z.Bytes()...)
}

func (e enc) file(elems ...[]byte) []byte {
	b := e.header()
	for _, el := range elems {
		b = append(b, el...)
	}
	return b
}

// tiny returns the MAT-file of testdata/tiny_{le,be}.mat. It holds
//
//	A    = [1 2 3; 4 5 6]      double, compressed
//	v    = [7 8 9]             double stored as uint8 (small element format)
//	mask = logical([1 0; 0 1]) logical
//	c    = {[]}                a cell, listed but not converted
func (e enc) tiny() []byte {
	return e.file(
		e.compress(e.double("A", 2, 3, 1, 4, 2, 5, 3, 6)),
		e.matrix(uint32(Double), []int32{1, 3}, "v", e.elem(miUINT8, []byte{7, 8, 9})),
		e.matrix(uint32(Uint8)|0x200, []int32{2, 2}, "mask", e.elem(miUINT8, []byte{1, 0, 0, 1})),
		e.matrix(uint32(Cell), []int32{1, 1}, "c", e.matrix(uint32(Double), []int32{0, 0}, "")),
	)
}
