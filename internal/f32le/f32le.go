// Package f32le writes and reads float32 values as little-endian bytes,
// streamed through a small buffer: the parameters of the text models'
// files, hundreds of megabytes, without a copy of them in memory.
package f32le

import (
	"encoding/binary"
	"errors"
	"io"
	"math"
)

// chunk is the number of values encoded or decoded at a time.
const chunk = 1 << 14

// Write writes x to w, 4 bytes a value, little-endian.
func Write(w io.Writer, x []float32) error {
	buf := make([]byte, 4*min(len(x), chunk))
	for len(x) > 0 {
		n := min(len(x), chunk)
		for i, v := range x[:n] {
			binary.LittleEndian.PutUint32(buf[4*i:], math.Float32bits(v))
		}
		if _, err := w.Write(buf[:4*n]); err != nil {
			return err
		}
		x = x[n:]
	}
	return nil
}

// ErrShort reports input that ends before the values do.
var ErrShort = errors.New("cut short")

// Read fills dst from r, 4 bytes a value, little-endian, and returns the
// index of the first value that is not finite (NaN or ±Inf), −1 if every
// one is. Input that ends early is an error wrapping ErrShort.
func Read(r io.Reader, dst []float32) (bad int, err error) {
	bad = -1
	buf := make([]byte, 4*min(len(dst), chunk))
	for off := 0; off < len(dst); {
		n := min(len(dst)-off, chunk)
		if _, err := io.ReadFull(r, buf[:4*n]); err != nil {
			if err == io.EOF || err == io.ErrUnexpectedEOF {
				return bad, ErrShort
			}
			return bad, err
		}
		for i := range n {
			u := binary.LittleEndian.Uint32(buf[4*i:])
			if u&0x7f800000 == 0x7f800000 && bad < 0 {
				bad = off + i
			}
			dst[off+i] = math.Float32frombits(u)
		}
		off += n
	}
	return bad, nil
}
