package jsonscan

import (
	"bytes"
	"io"
)

// CutLines returns the offsets, increasing, that cut the size bytes of r
// into about parts parts of whole lines, for readers that take the parts
// at once: each offset is just after a '\n', none is at 0 or size, and
// none is at a byte order mark (which a part's reader would take for the
// start of an input, where one reading of the whole finds an error). It
// returns nil where there is no such cut or r cannot be read.
func CutLines(r io.ReaderAt, size int64, parts int) []int64 {
	var cuts []int64
	head := make([]byte, len(BOM))
	for k := 1; k < parts; k++ {
		from := size * int64(k) / int64(parts)
		if n := len(cuts); n > 0 {
			from = max(from, cuts[n-1])
		}
		c, err := LineEndAfter(r, from, size)
		if err != nil {
			return nil
		}
		if c < 0 || c >= size {
			break
		}
		if len(cuts) > 0 && c == cuts[len(cuts)-1] {
			continue
		}
		if n, _ := r.ReadAt(head, c); n == len(head) && string(head) == BOM {
			return nil
		}
		cuts = append(cuts, c)
	}
	return cuts
}

// LineEndAfter returns the offset just after the first '\n' of r at or
// after off, or −1 if there is none before size.
func LineEndAfter(r io.ReaderAt, off, size int64) (int64, error) {
	buf := make([]byte, 32<<10)
	for off < size {
		n, err := r.ReadAt(buf[:min(int64(len(buf)), size-off)], off)
		if i := bytes.IndexByte(buf[:n], '\n'); i >= 0 {
			return off + int64(i) + 1, nil
		}
		if n == 0 && err != nil {
			return -1, err
		}
		off += int64(n)
	}
	return -1, nil
}
