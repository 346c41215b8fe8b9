package strindex

import (
	"bytes"
	"hash/maphash"
)

// Packed finds the position of a byte string among a list of strings, for
// lookups of many keys in a large list (the labels of a file of
// distributions in a tree of 10⁵ names): the strings are copied end to end
// into one block, and each slot of the hash table holds 32 bits of the
// string's hash beside its position, so that a lookup compares the bytes
// of one string only, nearly always the one it finds, and touches three
// places in memory: the slot, the string's offset and its bytes. It takes
// about 20 bytes per string plus the strings' bytes. Where two of the
// strings are equal, Get finds the first. A Packed is safe for concurrent
// Get; the zero Packed finds nothing.
type Packed struct {
	slots []uint64 // hash tag << 32 | position + 1; 0 marks an empty slot
	mask  uint64
	off   []uint32 // string i is data[off[i]:off[i+1]]
	data  []byte
}

// NewPacked returns the Packed of the n strings str(0), …, str(n−1), which
// may not take more than 4 GiB in all (it panics otherwise).
func NewPacked(n int, str func(i int) string) *Packed {
	// At most three quarters of the slots are used: the tags keep the
	// longer runs of slots cheap, and the smaller table stays in cache.
	size := 2
	for size < n+n/3+1 {
		size <<= 1
	}
	x := &Packed{slots: make([]uint64, size), mask: uint64(size - 1), off: make([]uint32, n+1)}
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
		h := maphash.String(seed, s)
		tag := h >> 32
		j := h & x.mask
		for {
			p := x.slots[j]
			if p == 0 {
				x.slots[j] = tag<<32 | uint64(i+1)
				break
			}
			if p>>32 == tag && x.str(int(uint32(p))-1) == s {
				break // a repeated string: the first is found
			}
			j = (j + 1) & x.mask
		}
	}
	return x
}

// str returns string i.
func (x *Packed) str(i int) string { return string(x.data[x.off[i]:x.off[i+1]]) }

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
	h := maphash.Bytes(seed, b)
	tag := h >> 32
	j := h & x.mask
	for {
		p := x.slots[j]
		if p == 0 {
			return 0, false
		}
		if p>>32 == tag {
			i := int(uint32(p)) - 1
			if bytes.Equal(x.data[x.off[i]:x.off[i+1]], b) {
				return i, true
			}
		}
		j = (j + 1) & x.mask
	}
}
