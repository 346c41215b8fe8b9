package matfile

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
)

const (
	headerLen = 128
	// maxInflate bounds the ratio of inflated to compressed size: deflate
	// cannot exceed 1032:1 (a 258-byte match in 2 bits); a little is added
	// for zlib's own header and trailer.
	maxInflate = 1032
	// maxHeld bounds what a file's values may take in memory, inflated
	// and converted to float64 together, relative to the file's size.
	maxHeld = 1100
)

// Var describes one variable of a MAT-file.
type Var struct {
	Name    string
	Class   Class
	Dims    []int // dimensions, at least two for all classes but Opaque
	Complex bool  // the array has an imaginary part
	Logical bool  // the array is a MATLAB logical (stored as uint8)
}

// variable is a Var with the location of its data.
type variable struct {
	Var
	offset int64  // of its top-level element in the file
	typ    uint32 // data type of the real part (numeric classes only)
	data   []byte // the real part (numeric classes only)
}

// File is a MAT-file read into memory. Its methods are safe for concurrent
// use.
type File struct {
	file  string
	text  string
	order binary.ByteOrder
	vars  []variable
	// budget is what the inflated elements and the matrices made may
	// still take: maxHeld times the file's size, and 64 KiB.
	budget atomic.Int64
}

// take counts n bytes about to be allocated for the values of the file
// against its budget, and reports whether they fit.
func (f *File) take(n int64) bool {
	if f.budget.Add(-n) < 0 {
		f.budget.Add(n)
		return false
	}
	return true
}

// ReadFile reads the MAT-file at path. The path names the file in errors.
func ReadFile(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path)
}

// Read reads a MAT-file from r to its end. The name file is used in error
// messages only. Invalid data is reported as an *Error; read errors of r are
// returned as they are, prefixed by the file name.
func Read(r io.Reader, file string) (*File, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return parse(b, file)
}

func parse(b []byte, file string) (*File, error) {
	f := &File{file: file}
	f.budget.Store(maxHeld*int64(len(b)) + 64<<10)
	if len(b) < headerLen {
		if len(b) >= 6 && string(b[:6]) == "MATLAB" {
			return nil, &Error{File: file, Offset: -1, Err: ErrTruncated, Msg: fmt.Sprintf("%d bytes, shorter than the 128-byte header", len(b))}
		}
		return nil, &Error{File: file, Offset: -1, Err: ErrNotMAT, Msg: fmt.Sprintf("%d bytes, shorter than the 128-byte header", len(b))}
	}
	switch string(b[126:128]) {
	case "IM":
		f.order = binary.LittleEndian
	case "MI":
		f.order = binary.BigEndian
	default:
		msg := fmt.Sprintf("no endian indicator (\"IM\" or \"MI\") at byte 126, found %q", b[126:128])
		if b[0] == 0 || b[1] == 0 || b[2] == 0 || b[3] == 0 {
			msg += " (a version 4 MAT-file?)"
		}
		return nil, &Error{File: file, Offset: -1, Err: ErrNotMAT, Msg: msg}
	}
	if v := f.order.Uint16(b[124:]); v != 0x0100 {
		msg := fmt.Sprintf("version 0x%04x at byte 124, want 0x0100", v)
		if v == 0x0200 {
			msg += " (version 7.3 files are HDF5; save with -v7 to read them here)"
		}
		return nil, &Error{File: file, Offset: -1, Err: ErrNotMAT, Msg: msg}
	}
	f.text = strings.TrimRight(string(b[:116]), " \x00")

	seen := make(map[string]bool)
	for p := headerLen; p < len(b); {
		if len(b)-p < 8 {
			if allZero(b[p:]) {
				break // padding
			}
			return nil, &Error{File: file, Offset: int64(p), Err: ErrTruncated, Msg: fmt.Sprintf("%d bytes left, too few for an element tag", len(b)-p)}
		}
		typ, n := f.order.Uint32(b[p:]), f.order.Uint32(b[p+4:])
		start := p + 8
		if uint64(n) > uint64(len(b)-start) {
			return nil, &Error{File: file, Offset: int64(p), Err: ErrTruncated,
				Msg: fmt.Sprintf("%s element declares %d bytes, %d are left in the file", typeName(typ), n, len(b)-start)}
		}
		end := start + int(n)
		var v variable
		var err *Error
		switch typ {
		case miMATRIX:
			v, err = f.matrix(b[start:end], int64(start), false)
			end += pad8(int(n))
			end = min(end, len(b))
		case miCOMPRESSED:
			v, err = f.compressed(b[start:end], int64(p))
		default:
			err = &Error{Err: ErrCorrupt, Msg: fmt.Sprintf("top-level element of type %s; a MAT-file holds only miMATRIX and miCOMPRESSED elements", typeName(typ))}
		}
		if err != nil {
			err.File = file
			err.Offset = int64(p)
			return nil, err
		}
		v.offset = int64(p)
		p = end
		if n == 0 {
			continue // an empty miMATRIX: no variable
		}
		if seen[v.Name] {
			return nil, &Error{File: file, Var: v.Name, Offset: v.offset, Err: ErrCorrupt, Msg: "a second variable of that name"}
		}
		seen[v.Name] = true
		f.vars = append(f.vars, v)
	}
	return f, nil
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

func pad8(n int) int { return -n & 7 }

// compressed inflates the miCOMPRESSED element data c and reads the
// miMATRIX it holds.
func (f *File) compressed(c []byte, off int64) (variable, *Error) {
	zr, err := zlib.NewReader(bytes.NewReader(c))
	if err != nil {
		return variable{}, zerr(err, "zlib header")
	}
	defer zr.Close()
	var tag [8]byte
	if _, err := io.ReadFull(zr, tag[:]); err != nil {
		return variable{}, zerr(err, "the tag of the compressed element")
	}
	typ, n := f.order.Uint32(tag[:]), f.order.Uint32(tag[4:])
	if typ != miMATRIX {
		return variable{}, &Error{Err: ErrCorrupt, Msg: fmt.Sprintf("compressed element holds %s, want miMATRIX", typeName(typ))}
	}
	if limit := uint64(maxInflate)*uint64(len(c)) + 64; uint64(n) > limit {
		return variable{}, &Error{Err: ErrCorrupt, Msg: fmt.Sprintf("compressed element declares %d inflated bytes, more than its %d compressed bytes can hold", n, len(c))}
	}
	if !f.take(int64(n)) {
		return variable{}, &Error{Err: ErrTooLarge, Msg: fmt.Sprintf("compressed element declares %d inflated bytes, more than the values of a file of its size may take (%d times its size)", n, maxHeld)}
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(zr, body); err != nil {
		return variable{}, zerr(err, fmt.Sprintf("the %d declared bytes of the compressed element", n))
	}
	// Read on to the end of the stream, so that zlib checks its checksum.
	var extra [1]byte
	switch k, err := io.ReadFull(zr, extra[:]); {
	case k > 0:
		return variable{}, &Error{Err: ErrCorrupt, Msg: fmt.Sprintf("compressed element inflates to more than the %d bytes its tag declares", n)}
	case err != io.EOF:
		return variable{}, zerr(err, "the end of the compressed element")
	}
	return f.matrix(body, -1, true)
}

// zerr wraps an error of the zlib reader met while reading what.
func zerr(err error, what string) *Error {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return &Error{Err: ErrTruncated, Msg: "compressed data ends in " + what}
	}
	return &Error{Err: ErrCorrupt, Msg: "reading " + what + ": " + err.Error()}
}

// sub is one subelement of an miMATRIX.
type sub struct {
	typ  uint32
	data []byte
	pos  int // of its tag in the matrix body
}

// matrix reads the body of an miMATRIX element. base is the offset of
// body[0] in the file, or -1 when body was inflated (inflated is true).
func (f *File) matrix(body []byte, base int64, inflated bool) (variable, *Error) {
	var v variable
	if len(body) == 0 {
		return v, nil
	}
	p := 0
	where := func(pos int) string {
		if inflated {
			return fmt.Sprintf("byte %d of the inflated element", pos+8)
		}
		return fmt.Sprintf("byte %d", base+int64(pos))
	}
	fail := func(s error, pos int, format string, args ...any) (variable, *Error) {
		return v, &Error{Var: v.Name, Err: s, Msg: where(pos) + ": " + fmt.Sprintf(format, args...)}
	}
	next := func(what string) (sub, *Error) {
		s, end, msg := f.subelement(body, p)
		if msg != "" {
			e := ErrCorrupt
			if strings.HasPrefix(msg, "truncated") {
				e = ErrTruncated
			}
			_, err := fail(e, p, "%s: %s", what, msg)
			return s, err
		}
		p = end
		return s, nil
	}

	// Array flags.
	s, err := next("array flags")
	if err != nil {
		return v, err
	}
	if s.typ != miUINT32 || len(s.data) != 8 {
		return fail(ErrCorrupt, s.pos, "array flags: want 8 bytes of miUINT32, found %d bytes of %s", len(s.data), typeName(s.typ))
	}
	flags := f.order.Uint32(s.data)
	v.Class = Class(flags & 0xff)
	v.Complex = flags&0x800 != 0
	v.Logical = flags&0x200 != 0
	if v.Class < Cell || v.Class > Opaque {
		return fail(ErrCorrupt, s.pos, "array flags: unknown class %d", v.Class)
	}

	// Dimensions (opaque objects have none).
	if v.Class != Opaque {
		if s, err = next("dimensions"); err != nil {
			return v, err
		}
		if s.typ != miINT32 || len(s.data)%4 != 0 || len(s.data) < 8 {
			return fail(ErrCorrupt, s.pos, "dimensions: want at least 2 miINT32 values, found %d bytes of %s", len(s.data), typeName(s.typ))
		}
		v.Dims = make([]int, len(s.data)/4)
		for i := range v.Dims {
			d := int32(f.order.Uint32(s.data[4*i:]))
			if d < 0 {
				return fail(ErrCorrupt, s.pos, "dimensions: negative dimension %d", d)
			}
			v.Dims[i] = int(d)
		}
	}

	// Name.
	if s, err = next("array name"); err != nil {
		return v, err
	}
	if s.typ != miINT8 && s.typ != miUTF8 {
		return fail(ErrCorrupt, s.pos, "array name: want miINT8, found %s", typeName(s.typ))
	}
	v.Name = string(s.data)

	if !v.Class.Numeric() {
		return v, nil // not decoded; Matrix reports ErrUnsupported
	}

	// Real part.
	count, ok := elements(v.Dims)
	if s, err = next("real part"); err != nil {
		return v, err
	}
	size := numSize(s.typ)
	switch {
	case size == 0:
		return fail(ErrCorrupt, s.pos, "real part: %s is not a numeric data type", typeName(s.typ))
	case len(s.data)%size != 0:
		return fail(ErrCorrupt, s.pos, "real part: %d bytes of %s is not a whole number of %d-byte values", len(s.data), typeName(s.typ), size)
	case !ok || len(s.data)/size != count:
		return fail(ErrCorrupt, s.pos, "real part: dimensions %s call for %s values, the data holds %d values of %s",
			dimString(v.Dims), countString(count, ok), len(s.data)/size, typeName(s.typ))
	}
	v.typ, v.data = s.typ, s.data
	if v.Complex {
		if s, err = next("imaginary part"); err != nil {
			return v, err
		}
		if size := numSize(s.typ); size == 0 || len(s.data) != count*size {
			return fail(ErrCorrupt, s.pos, "imaginary part: want %d numeric values, found %d bytes of %s", count, len(s.data), typeName(s.typ))
		}
	}
	return v, nil
}

// subelement reads the subelement whose tag is at body[p:] and returns it
// and the offset just past it and its padding. On failure msg says what is
// wrong, beginning with "truncated" if body ends too soon.
func (f *File) subelement(body []byte, p int) (s sub, end int, msg string) {
	s.pos = p
	if len(body)-p < 8 {
		return s, p, fmt.Sprintf("truncated: %d bytes left, too few for a tag", len(body)-p)
	}
	w := f.order.Uint32(body[p:])
	if nb := w >> 16; nb != 0 { // small data element: 4-byte tag, data in the next 4 bytes
		if nb > 4 {
			return s, p, fmt.Sprintf("small element declares %d bytes, at most 4 fit", nb)
		}
		s.typ = w & 0xffff
		s.data = body[p+4 : p+4+int(nb)]
		return s, p + 8, ""
	}
	n := f.order.Uint32(body[p+4:])
	start := p + 8
	if uint64(n) > uint64(len(body)-start) {
		return s, p, fmt.Sprintf("truncated: %s element declares %d bytes, %d are left in the matrix", typeName(w), n, len(body)-start)
	}
	s.typ = w
	s.data = body[start : start+int(n)]
	return s, min(start+int(n)+pad8(int(n)), len(body)), ""
}

// elements returns the product of dims, and false if it exceeds 1<<40 (no
// data element can hold that many values).
func elements(dims []int) (int, bool) {
	n := 1
	for _, d := range dims {
		if d == 0 {
			return 0, true
		}
	}
	for _, d := range dims {
		if d > 1<<40/n {
			return 0, false
		}
		n *= d
	}
	return n, true
}

func dimString(dims []int) string {
	s := make([]string, len(dims))
	for i, d := range dims {
		s[i] = strconv.Itoa(d)
	}
	return strings.Join(s, "×")
}

func countString(n int, ok bool) string {
	if !ok {
		return "more than 2^40"
	}
	return strconv.Itoa(n)
}
