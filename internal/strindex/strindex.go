// Package strindex finds strings by their position in a slice: an
// open-addressing hash table of positions, built in one pass with no
// allocation per string, for the name lookups of trees and tables.
package strindex

import "hash/maphash"

// Index finds the position of a string among the strings it was given:
// a hash table of positions plus one (0 marks an empty slot), probed
// linearly, holding 4 bytes per slot with at most half the slots used.
// It shares the strings with its caller. The zero Index finds nothing.
// An Index is safe for concurrent Get once the strings are added.
type Index struct {
	strs  []string
	slots []int32
	mask  uint64
}

// seed seeds the strings' hashes, as a map's seed does.
var seed = maphash.MakeSeed()

// Make returns an empty index with room for all of strs (at most 2³¹−1),
// which are then added with Add.
func Make(strs []string) Index {
	size := 2
	for size < 2*len(strs) {
		size <<= 1
	}
	return Index{strs: strs, slots: make([]int32, size), mask: uint64(size - 1)}
}

// Add adds strs[i]; when an earlier position holds the same string it adds
// nothing and returns that position and true.
func (x *Index) Add(i int) (int, bool) {
	s := x.strs[i]
	h := maphash.String(seed, s) & x.mask
	for {
		p := x.slots[h]
		if p == 0 {
			x.slots[h] = int32(i + 1)
			return 0, false
		}
		if x.strs[p-1] == s {
			return int(p - 1), true
		}
		h = (h + 1) & x.mask
	}
}

// Get returns the position of s among the strings added.
func (x *Index) Get(s string) (int, bool) {
	if len(x.slots) == 0 {
		return 0, false
	}
	h := maphash.String(seed, s) & x.mask
	for {
		p := x.slots[h]
		if p == 0 {
			return 0, false
		}
		if x.strs[p-1] == s {
			return int(p - 1), true
		}
		h = (h + 1) & x.mask
	}
}
