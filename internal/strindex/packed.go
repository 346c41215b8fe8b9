package strindex

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
)

// Packed finds the position of a byte string among a list of strings, for
// lookups of many keys in a large list (the labels of a file of
// distributions in a tree of 10⁵ names). Each slot of its hash table holds
// the first eight bytes of its string beside the string's length,
// position and 16 bits of its hash, so that a lookup of a string of up to
// eight bytes reads one place in memory, nearly always one slot, and a
// longer one also the rest of the string, from the strings copied end to
// end into one block. It takes 20 to 40 bytes per string plus the
// strings' bytes. Where two of the strings are equal, Get finds the first.
// A Packed is safe for concurrent Get; the zero Packed finds nothing.
type Packed struct {
	slots []packedSlot
	mask  uint64
	off   []uint32 // string i is data[off[i]:off[i+1]]
	data  []byte
}

// A packedSlot is empty (meta 0) or holds a string: head, its first eight
// bytes padded with zeros, and meta, its hash tag << 48 | min(length,
// 0xffff) << 32 | position + 1.
type packedSlot struct {
	head uint64
	meta uint64
}

// NewPacked returns the Packed of the n strings str(0), …, str(n−1), which
// may not take more than 4 GiB in all nor be more than 2³²−2 (it panics
// otherwise).
func NewPacked(n int, str func(i int) string) *Packed {
	if uint64(n) >= 1<<32-1 {
		panic("strindex: too many strings")
	}
	// At most four fifths of the slots are used: the tags keep the longer
	// runs of slots cheap, and the smaller table stays in cache.
	size := 2
	for size < n+n/4+1 {
		size <<= 1
	}
	x := &Packed{slots: make([]packedSlot, size), mask: uint64(size - 1), off: make([]uint32, n+1)}
	total := 0
	for i := range n {
		total += len(str(i))
	}
	if uint64(total) > 1<<32-1 {
		panic("strindex: more than 4 GiB of strings")
	}
	x.data = make([]byte, 0, total)
	for i := range n {
		s := str(i)
		x.data = append(x.data, s...)
		x.off[i+1] = uint32(len(x.data))
		b := x.data[x.off[i]:x.off[i+1]]
		h := maphash.Bytes(seed, b)
		meta := h>>48<<48 | uint64(min(len(b), 0xffff))<<32
		w := head(b)
		for j := h & x.mask; ; j = (j + 1) & x.mask {
			sl := &x.slots[j]
			if sl.meta == 0 {
				*sl = packedSlot{head: w, meta: meta | uint64(i+1)}
				break
			}
			if x.match(sl, meta, w, b) {
				break // a repeated string: the first is found
			}
		}
	}
	return x
}

// head returns the first eight bytes of b, padded with zeros, as a
// little-endian word.
func head(b []byte) uint64 {
	if len(b) >= 8 {
		return binary.LittleEndian.Uint64(b)
	}
	var w [8]byte
	copy(w[:], b)
	return binary.LittleEndian.Uint64(w[:])
}

// Len returns the number of strings.
func (x *Packed) Len() int { return max(len(x.off)-1, 0) }

// Equal reports whether string i equals b. It panics if i is out of range.
func (x *Packed) Equal(i int, b []byte) bool {
	return bytes.Equal(x.data[x.off[i]:x.off[i+1]], b)
}

// Get returns the position of the first string equal to b.
func (x *Packed) Get(b []byte) (int, bool) {
	if len(x.slots) == 0 {
		return 0, false
	}
	return x.get(b)
}

func (x *Packed) get(b []byte) (int, bool) {
	h := maphash.Bytes(seed, b)
	want := h>>48<<48 | uint64(min(len(b), 0xffff))<<32 // tag and length
	w := head(b)
	for j := h & x.mask; ; j = (j + 1) & x.mask {
		s := &x.slots[j]
		if s.meta == 0 {
			return 0, false
		}
		if x.match(s, want, w, b) {
			return int(uint32(s.meta)) - 1, true
		}
	}
}

// match reports whether slot s holds b, whose tag and length are want (as
// in meta) and whose head is w.
func (x *Packed) match(s *packedSlot, want, w uint64, b []byte) bool {
	if s.meta&^(1<<32-1) != want || s.head != w {
		return false
	}
	i := int(uint32(s.meta)) - 1
	return len(b) <= 8 || bytes.Equal(x.data[x.off[i]+8:x.off[i+1]], b[8:])
}
