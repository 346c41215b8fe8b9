package matfile

import (
	"encoding/binary"
	"math"
	"strconv"
)

// Data types of elements (MAT-File Format, table 1-1).
const (
	miINT8       = 1
	miUINT8      = 2
	miINT16      = 3
	miUINT16     = 4
	miINT32      = 5
	miUINT32     = 6
	miSINGLE     = 7
	miDOUBLE     = 9
	miINT64      = 12
	miUINT64     = 13
	miMATRIX     = 14
	miCOMPRESSED = 15
	miUTF8       = 16
	miUTF16      = 17
	miUTF32      = 18
)

var typeNames = [...]string{
	miINT8: "miINT8", miUINT8: "miUINT8", miINT16: "miINT16", miUINT16: "miUINT16",
	miINT32: "miINT32", miUINT32: "miUINT32", miSINGLE: "miSINGLE", miDOUBLE: "miDOUBLE",
	miINT64: "miINT64", miUINT64: "miUINT64", miMATRIX: "miMATRIX", miCOMPRESSED: "miCOMPRESSED",
	miUTF8: "miUTF8", miUTF16: "miUTF16", miUTF32: "miUTF32",
}

func typeName(t uint32) string {
	if t < uint32(len(typeNames)) && typeNames[t] != "" {
		return typeNames[t]
	}
	return "unknown data type " + strconv.FormatUint(uint64(t), 10)
}

// numSize returns the size in bytes of one value of numeric data type t, or
// 0 if t is not numeric.
func numSize(t uint32) int {
	switch t {
	case miINT8, miUINT8:
		return 1
	case miINT16, miUINT16:
		return 2
	case miINT32, miUINT32, miSINGLE:
		return 4
	case miDOUBLE, miINT64, miUINT64:
		return 8
	}
	return 0
}

// decode converts the values in b, of numeric data type t in byte order o,
// to dst, which has room for all of them.
func decode(dst []float64, b []byte, t uint32, o binary.ByteOrder) {
	switch t {
	case miINT8:
		for i, v := range b {
			dst[i] = float64(int8(v))
		}
	case miUINT8:
		for i, v := range b {
			dst[i] = float64(v)
		}
	case miINT16:
		for i := range len(b) / 2 {
			dst[i] = float64(int16(o.Uint16(b[2*i:])))
		}
	case miUINT16:
		for i := range len(b) / 2 {
			dst[i] = float64(o.Uint16(b[2*i:]))
		}
	case miINT32:
		for i := range len(b) / 4 {
			dst[i] = float64(int32(o.Uint32(b[4*i:])))
		}
	case miUINT32:
		for i := range len(b) / 4 {
			dst[i] = float64(o.Uint32(b[4*i:]))
		}
	case miSINGLE:
		for i := range len(b) / 4 {
			dst[i] = float64(math.Float32frombits(o.Uint32(b[4*i:])))
		}
	case miDOUBLE:
		for i := range len(b) / 8 {
			dst[i] = math.Float64frombits(o.Uint64(b[8*i:]))
		}
	case miINT64:
		for i := range len(b) / 8 {
			dst[i] = float64(int64(o.Uint64(b[8*i:])))
		}
	case miUINT64:
		for i := range len(b) / 8 {
			dst[i] = float64(o.Uint64(b[8*i:]))
		}
	default:
		panic("matfile: internal error: decode of non-numeric type " + typeName(t))
	}
}

// Class is the MATLAB class of a variable (MAT-File Format, table 1-3).
type Class uint8

// The classes of MATLAB arrays.
const (
	Cell     Class = 1
	Struct   Class = 2
	Object   Class = 3
	Char     Class = 4
	Sparse   Class = 5
	Double   Class = 6
	Single   Class = 7
	Int8     Class = 8
	Uint8    Class = 9
	Int16    Class = 10
	Uint16   Class = 11
	Int32    Class = 12
	Uint32   Class = 13
	Int64    Class = 14
	Uint64   Class = 15
	Function Class = 16
	Opaque   Class = 17
)

var classNames = [...]string{
	Cell: "cell", Struct: "struct", Object: "object", Char: "char", Sparse: "sparse",
	Double: "double", Single: "single", Int8: "int8", Uint8: "uint8", Int16: "int16",
	Uint16: "uint16", Int32: "int32", Uint32: "uint32", Int64: "int64", Uint64: "uint64",
	Function: "function_handle", Opaque: "opaque",
}

// String returns MATLAB's name of the class ("double", "cell", ...).
func (c Class) String() string {
	if int(c) < len(classNames) && classNames[c] != "" {
		return classNames[c]
	}
	return "Class(" + strconv.Itoa(int(c)) + ")"
}

// Numeric reports whether c is one of the numeric classes, double to uint64,
// whose real arrays Matrix converts.
func (c Class) Numeric() bool { return Double <= c && c <= Uint64 }
