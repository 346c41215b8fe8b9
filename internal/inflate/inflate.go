package inflate

import (
	"encoding/binary"
	"hash/adler32"
	"sync"
)

// Zlib inflates the zlib stream src into dst and reports whether src is a
// well-formed stream of exactly len(dst) bytes with a correct checksum and
// nothing after it. On false, dst holds garbage.
func Zlib(dst, src []byte) bool {
	if len(src) < 6 {
		return false
	}
	cmf, flg := src[0], src[1]
	if cmf&0x0f != 8 || cmf>>4 > 7 || (uint(cmf)<<8|uint(flg))%31 != 0 || flg&0x20 != 0 {
		return false
	}
	d := decoders.Get().(*decoder)
	d.src, d.pos, d.bits, d.nbits, d.dst, d.o = src[:len(src)-4], 2, 0, 0, dst, 0
	ok := d.run() && d.pos-int(d.nbits/8) == len(src)-4 && d.o == len(dst) // the stream ends, byte-aligned, just before the checksum
	d.src, d.dst = nil, nil
	decoders.Put(d)
	return ok && binary.BigEndian.Uint32(src[len(src)-4:]) == adler32.Checksum(dst)
}

// decoders keeps decoders between calls, with their tables' memory.
var decoders = sync.Pool{New: func() any { return new(decoder) }}

const (
	litBits  = 10 // primary table bits of literal/length codes
	distBits = 8  // primary table bits of distance codes
	maxLen   = 15 // longest code
)

// A table entry holds the code length in its low 4 bits (0: no code) and
// the symbol above bit 16; a primary entry with the link bit set holds
// instead the offset of its subtable above bit 16.
const link = 1 << 4

// table is a two-level lookup table indexed by the next input bits.
type table struct {
	bits  uint     // primary bits
	sub   uint     // subtable bits: longest code - bits, or 0
	entry []uint32 // primary entries, then subtables
}

// build makes t the decoding table of the canonical code with the given
// code lengths. It fails unless the code is complete, or, with
// degenerate, has a single code of length 1 or none.
func (t *table) build(lengths []uint8, bits uint, degenerate bool) bool {
	var count [maxLen + 1]int
	longest := uint(0)
	for _, n := range lengths {
		count[n]++
		if uint(n) > longest {
			longest = uint(n)
		}
	}
	count[0] = 0
	var next [maxLen + 2]int
	code := 0
	for n := 1; n <= maxLen; n++ {
		code = (code + count[n-1]) << 1
		next[n] = code
	}
	total := 0
	for n := 1; n <= maxLen; n++ {
		total += count[n] << (maxLen - n)
	}
	switch {
	case total == 1<<maxLen:
	case degenerate && total == 0:
	case degenerate && total == 1<<(maxLen-1) && count[1] == 1:
	default:
		return false
	}
	t.bits = bits
	t.sub = 0
	if longest > bits {
		t.sub = longest - bits
	}
	size := 1 << bits
	if cap(t.entry) < size {
		t.entry = make([]uint32, size, size+64<<t.sub)
	}
	t.entry = t.entry[:size]
	clear(t.entry)
	for sym, n := range lengths {
		if n == 0 {
			continue
		}
		c := next[n]
		next[n]++
		r := reverse(c, uint(n))
		e := uint32(sym)<<16 | uint32(n)
		if uint(n) <= bits {
			for i := r; i < size; i += 1 << n {
				t.entry[i] = e
			}
			continue
		}
		// A long code: its low bits pick a subtable of 1<<sub entries.
		p := r & (size - 1)
		if t.entry[p]&link == 0 {
			off := len(t.entry)
			t.entry = append(t.entry, make([]uint32, 1<<t.sub)...)
			t.entry[p] = uint32(off)<<16 | link
		}
		off := int(t.entry[p] >> 16)
		for i := r >> bits; i < 1<<t.sub; i += 1 << (uint(n) - bits) {
			t.entry[off+i] = e
		}
	}
	return true
}

func reverse(c int, n uint) int {
	r := 0
	for range n {
		r = r<<1 | c&1
		c >>= 1
	}
	return r
}

type decoder struct {
	src   []byte
	pos   int    // next byte of src to load into bits
	bits  uint64 // loaded bits, the next one lowest
	nbits uint
	dst   []byte
	o     int // bytes written
	lit   table
	dist  table
	lens  table
}

// refill loads bits until at least 56 are held or src is used up.
func (d *decoder) refill() {
	if d.pos+8 <= len(d.src) {
		d.bits |= binary.LittleEndian.Uint64(d.src[d.pos:]) << d.nbits
		d.pos += int(63-d.nbits) >> 3
		d.nbits |= 56
		return
	}
	for d.nbits <= 56 && d.pos < len(d.src) {
		d.bits |= uint64(d.src[d.pos]) << d.nbits
		d.pos++
		d.nbits += 8
	}
}

// take returns the next n bits (n ≤ 32), or ok false if src ends first.
func (d *decoder) take(n uint) (v uint32, ok bool) {
	if d.nbits < n {
		d.refill()
		if d.nbits < n {
			return 0, false
		}
	}
	v = uint32(d.bits & (1<<n - 1))
	d.bits >>= n
	d.nbits -= n
	return v, true
}

// symbol decodes the next symbol of table t.
func (d *decoder) symbol(t *table) (int, bool) {
	if d.nbits < maxLen {
		d.refill()
	}
	e := t.entry[d.bits&(1<<t.bits-1)]
	if e&link != 0 {
		e = t.entry[int(e>>16)+int(d.bits>>t.bits&(1<<t.sub-1))]
	}
	n := uint(e & 15)
	if n == 0 || n > d.nbits {
		return 0, false
	}
	d.bits >>= n
	d.nbits -= n
	return int(e >> 16), true
}

var lengthBase = [29]uint16{3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
	35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258}
var lengthExtra = [29]uint8{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
	3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
var distBase = [30]uint16{1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193,
	257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577}
var distExtra = [30]uint8{0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6,
	7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13}

var fixedOnce sync.Once
var fixedLit, fixedDist table

func fixedTables() {
	var l [288]uint8
	for i := range l {
		switch {
		case i < 144:
			l[i] = 8
		case i < 256:
			l[i] = 9
		case i < 280:
			l[i] = 7
		default:
			l[i] = 8
		}
	}
	fixedLit.build(l[:], litBits, false)
	var dl [32]uint8
	for i := range dl {
		dl[i] = 5
	}
	fixedDist.build(dl[:], distBits, false)
}

// run decodes the DEFLATE blocks up to the final one.
func (d *decoder) run() bool {
	for {
		h, ok := d.take(3)
		if !ok {
			return false
		}
		switch h >> 1 {
		case 0:
			if !d.stored() {
				return false
			}
		case 1:
			fixedOnce.Do(fixedTables)
			if !d.codes(&fixedLit, &fixedDist) {
				return false
			}
		case 2:
			if !d.dynamic() || !d.codes(&d.lit, &d.dist) {
				return false
			}
		default:
			return false
		}
		if h&1 != 0 {
			return true
		}
	}
}

// stored copies a stored block.
func (d *decoder) stored() bool {
	// Drop to a byte boundary, then read from the bytes themselves.
	d.bits >>= d.nbits & 7
	d.nbits &^= 7
	at := d.pos - int(d.nbits/8)
	d.bits, d.nbits, d.pos = 0, 0, at
	if at+4 > len(d.src) {
		return false
	}
	n := int(binary.LittleEndian.Uint16(d.src[at:]))
	if uint16(n) != ^binary.LittleEndian.Uint16(d.src[at+2:]) {
		return false
	}
	at += 4
	if n > len(d.src)-at || n > len(d.dst)-d.o {
		return false
	}
	copy(d.dst[d.o:], d.src[at:at+n])
	d.o += n
	d.pos = at + n
	return true
}

var clOrder = [19]uint8{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}

// dynamic reads the code lengths of a dynamic block and builds its tables.
func (d *decoder) dynamic() bool {
	h, ok := d.take(14)
	if !ok {
		return false
	}
	nlit, ndist, nclen := int(h&31)+257, int(h>>5&31)+1, int(h>>10)+4
	if nlit > 286 || ndist > 30 {
		return false
	}
	var cl [19]uint8
	for i := range nclen {
		v, ok := d.take(3)
		if !ok {
			return false
		}
		cl[clOrder[i]] = uint8(v)
	}
	if !d.lens.build(cl[:], 7, false) {
		return false
	}
	var lengths [286 + 30]uint8
	for i := 0; i < nlit+ndist; {
		sym, ok := d.symbol(&d.lens)
		if !ok {
			return false
		}
		if sym < 16 {
			lengths[i] = uint8(sym)
			i++
			continue
		}
		var rep uint32
		var val uint8
		switch sym {
		case 16:
			if i == 0 {
				return false
			}
			val = lengths[i-1]
			rep, ok = d.take(2)
			rep += 3
		case 17:
			rep, ok = d.take(3)
			rep += 3
		default:
			rep, ok = d.take(7)
			rep += 11
		}
		if !ok || i+int(rep) > nlit+ndist {
			return false
		}
		for range rep {
			lengths[i] = val
			i++
		}
	}
	return d.lit.build(lengths[:nlit], litBits, false) && d.dist.build(lengths[nlit:nlit+ndist], distBits, true)
}

// codes decodes the symbols of a Huffman block up to its end marker. The
// decoder's state lives in local variables meanwhile, which the compiler
// keeps in registers.
func (d *decoder) codes(lit, dist *table) bool {
	dst, o := d.dst, d.o
	src, pos := d.src, d.pos
	bits, nbits := d.bits, d.nbits
	litE, litSub := lit.entry, uint64(1)<<lit.sub-1
	distE, distB, distSub := dist.entry, dist.bits, uint64(1)<<dist.sub-1
	distMask := uint64(1)<<distB - 1
	for {
		// A refill gives at least 56 bits while the input lasts: enough
		// for a literal/length code and its extra bits (15 + 5), then for
		// a distance code and its extra bits (15 + 13) after another. It
		// is done only when fewer than 15 + 5 bits are left, so that
		// several literals are decoded from each.
		if nbits < maxLen+5 {
			if pos+8 <= len(src) {
				bits |= binary.LittleEndian.Uint64(src[pos:]) << nbits
				pos += int(63-nbits) >> 3
				nbits |= 56
			} else {
				for nbits <= 56 && pos < len(src) {
					bits |= uint64(src[pos]) << nbits
					pos++
					nbits += 8
				}
			}
		}
		e := litE[bits&(1<<litBits-1)]
		if e&link != 0 {
			e = litE[int(e>>16)+int(bits>>litBits&litSub)]
		}
		n := uint(e & 15)
		if n == 0 || n > nbits {
			return false
		}
		bits >>= n
		nbits -= n
		sym := int(e >> 16)
		if sym < 256 {
			if o >= len(dst) {
				return false
			}
			dst[o] = byte(sym)
			o++
			continue
		}
		if sym == 256 {
			d.o, d.pos, d.bits, d.nbits = o, pos, bits, nbits
			return true
		}
		sym -= 257
		if sym >= 29 {
			return false
		}
		length := int(lengthBase[sym])
		if x := uint(lengthExtra[sym]); x > 0 {
			if x > nbits {
				return false
			}
			length += int(bits & (1<<x - 1))
			bits >>= x
			nbits -= x
		}
		if nbits < maxLen+13 {
			if pos+8 <= len(src) {
				bits |= binary.LittleEndian.Uint64(src[pos:]) << nbits
				pos += int(63-nbits) >> 3
				nbits |= 56
			} else {
				for nbits <= 56 && pos < len(src) {
					bits |= uint64(src[pos]) << nbits
					pos++
					nbits += 8
				}
			}
		}
		e = distE[bits&distMask]
		if e&link != 0 {
			e = distE[int(e>>16)+int(bits>>distB&distSub)]
		}
		n = uint(e & 15)
		if n == 0 || n > nbits {
			return false
		}
		bits >>= n
		nbits -= n
		ds := int(e >> 16)
		if ds >= 30 {
			return false
		}
		distance := int(distBase[ds])
		if x := uint(distExtra[ds]); x > 0 {
			if x > nbits {
				return false
			}
			distance += int(bits & (1<<x - 1))
			bits >>= x
			nbits -= x
		}
		if distance > o || length > len(dst)-o {
			return false
		}
		switch {
		case distance >= 8 && len(dst)-o >= length+8:
			// Eight bytes at a time, up to seven past the end of the match
			// (written again by what follows); with distance ≥ 8 each word
			// read was written before, even when the match overlaps itself.
			for k := 0; k < length; k += 8 {
				binary.LittleEndian.PutUint64(dst[o+k:], binary.LittleEndian.Uint64(dst[o+k-distance:]))
			}
			o += length
		case distance == 1 && len(dst)-o >= length+8:
			// A run of one byte.
			w := uint64(dst[o-1]) * 0x0101010101010101
			for k := 0; k < length; k += 8 {
				binary.LittleEndian.PutUint64(dst[o+k:], w)
			}
			o += length
		case distance >= length:
			copy(dst[o:o+length], dst[o-distance:])
			o += length
		default:
			// Overlapping: the copy repeats the last distance bytes.
			for end := o + length; o < end; o++ {
				dst[o] = dst[o-distance]
			}
		}
	}
}
