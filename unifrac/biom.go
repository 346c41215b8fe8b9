package unifrac

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"

	"github.com/twl-ldl/twl/biom"
	"github.com/twl-ldl/twl/internal/parallel"
	"github.com/twl-ldl/twl/tree"
)

// MissingTipsError is the error of TableOf for observation ids that are not
// tips of the tree.
type MissingTipsError struct {
	// IDs holds the first few missing ids (at most 5), in table order.
	IDs []string
	// Count is how many observation ids are missing in all.
	Count int
}

func (e *MissingTipsError) Error() string {
	return fmt.Sprintf("%s not tips of the tree: %s (ssu refuses them too)", e.What(), e.List())
}

// What says how many ids are missing: "1 observation id is" or "3
// observation ids are".
func (e *MissingTipsError) What() string {
	if e.Count == 1 {
		return "1 observation id is"
	}
	return fmt.Sprintf("%d observation ids are", e.Count)
}

// List returns the first missing ids, comma-separated, with "…" when there
// are more.
func (e *MissingTipsError) List() string {
	s := strings.Join(e.IDs, ", ")
	if e.Count > len(e.IDs) {
		s += ", …"
	}
	return s
}

// SampleError is the error of TableOf for a sample that UniFrac cannot
// take: one without counts, or with a count that is negative or not
// finite.
type SampleError struct {
	Sample string // the sample's id
	Msg    string // what is wrong
}

func (e *SampleError) Error() string { return fmt.Sprintf("sample %q: %s", e.Sample, e.Msg) }

// TableOf maps the samples of b onto the tips of t: each observation id
// must name a tip of t, matched byte for byte (as package newick names
// tips, and as ssu matches them); otherwise the error is a
// *MissingTipsError naming the first few. A sample without counts, or
// with a negative or non-finite count, is a *SampleError: UniFrac is not
// defined for an empty sample (ssu gives it distances as to an empty
// community; here it must be removed from the table). Counts that sum to
// infinity are refused as well, and so is a table without samples. The
// tips of observations without any count go to the result's Listed. b is
// not modified and the result shares nothing with it.
func TableOf(t *tree.Tree, b *biom.Table) (*Table, error) {
	// The ids are looked up, and the samples checked and copied, on all
	// processors; errors are those a pass in order meets first.
	node := make([]int32, len(b.Observations))
	parallel.For(len(node), 0, 2048, func(lo, hi int) {
		for o := lo; o < hi; o++ {
			i, ok := t.Index(b.Observations[o])
			if !ok || !t.IsLeaf(i) {
				i = -1
			}
			node[o] = int32(i)
		}
	})
	miss := &MissingTipsError{}
	for o, i := range node {
		if i < 0 {
			if len(miss.IDs) < 5 {
				miss.IDs = append(miss.IDs, b.Observations[o])
			}
			miss.Count++
		}
	}
	if miss.Count > 0 {
		return nil, miss
	}
	n := len(b.Samples)
	if n == 0 {
		return nil, errors.New("no samples")
	}
	if len(b.Indptr) != n+1 || len(b.Indices) != len(b.Data) || b.Indptr[0] != 0 || b.Indptr[n] != len(b.Data) {
		return nil, fmt.Errorf("unifrac: biom table of %d samples has malformed rows", n)
	}
	// Rows up to the first that decreases or runs past the counts are
	// checked at once.
	good := n
	for s := range n {
		if b.Indptr[s+1] < b.Indptr[s] || b.Indptr[s+1] > len(b.Data) {
			good = s
			break
		}
	}
	tab := &Table{
		IDs:     slices.Clone(b.Samples),
		Indptr:  slices.Clone(b.Indptr),
		Indices: make([]int32, len(b.Indices)),
		Values:  make([]float64, len(b.Data)),
	}
	workers := runtime.GOMAXPROCS(0)
	parts := parallel.Parts(good, workers, 64)
	first := make([]int, parts) // the first bad sample of each part, or -1
	errs := make([]error, parts)
	parallel.ForParts(good, workers, 64, func(part, lo, hi int) {
		first[part] = -1
		for s := lo; s < hi; s++ {
			if err := tableRow(tab, b, node, s); err != nil {
				first[part], errs[part] = s, err
				return
			}
		}
	})
	for p := range parts {
		if first[p] >= 0 {
			return nil, errs[p]
		}
	}
	if good < n {
		if b.Indptr[good+1] < b.Indptr[good] {
			return nil, fmt.Errorf("unifrac: biom table rows decrease at sample %d", good+1)
		}
		return nil, fmt.Errorf("unifrac: biom table row of sample %d runs past its %d counts", good+1, len(b.Data))
	}
	// The observations without an entry in any row (all counts zero) are
	// listed all the same, for Options.BypassTips.
	has := make([]bool, len(node))
	for _, o := range b.Indices {
		has[o] = true
	}
	for o, ok := range has {
		if !ok {
			tab.Listed = append(tab.Listed, node[o])
		}
	}
	return tab, nil
}

// tableRow checks sample s of b and copies it into tab, its observations
// mapped to the tree nodes node.
func tableRow(tab *Table, b *biom.Table, node []int32, s int) error {
	lo, hi := b.Indptr[s], b.Indptr[s+1]
	var sum float64
	for k := lo; k < hi; k++ {
		o, v := b.Indices[k], b.Data[k]
		if o < 0 || int(o) >= len(node) {
			return &SampleError{b.Samples[s], fmt.Sprintf("observation index %d out of range [0, %d)", o, len(node))}
		}
		if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			return &SampleError{b.Samples[s], fmt.Sprintf("count %v of observation %q is negative or not finite", v, b.Observations[o])}
		}
		tab.Indices[k] = node[o]
		sum += v
	}
	copy(tab.Values[lo:hi], b.Data[lo:hi])
	switch {
	case sum == 0:
		return &SampleError{b.Samples[s], "no counts: UniFrac is not defined for an empty sample (remove it from the table)"}
	case math.IsInf(sum, 0):
		return &SampleError{b.Samples[s], "the counts sum to infinity"}
	}
	return nil
}

// TableHash returns the lower-case hex SHA-256 of tab's content on t: the
// sample ids in order and, for each sample, its (node name, count) pairs
// sorted by name, duplicates of a node added up and zeros left out. Two
// tables that give the same distances on t, read from files of different
// formats or with the observations in another order, have the same hash.
// It panics if tab's node indices are out of t's range.
func TableHash(t *tree.Tree, tab *Table) string {
	h := sha256.New()
	var buf [8]byte
	binary.LittleEndian.PutUint64(buf[:], uint64(tab.Len()))
	h.Write(buf[:])
	type cell struct {
		name string
		v    float64
	}
	var row []cell
	for s := range tab.Len() {
		if tab.IDs != nil {
			h.Write([]byte(tab.IDs[s]))
		}
		h.Write([]byte{0})
		row = row[:0]
		for k := tab.Indptr[s]; k < tab.Indptr[s+1]; k++ {
			if tab.Values[k] != 0 {
				row = append(row, cell{t.Name(int(tab.Indices[k])), tab.Values[k]})
			}
		}
		slices.SortFunc(row, func(a, b cell) int { return strings.Compare(a.name, b.name) })
		for k := 0; k < len(row); k++ {
			c := row[k]
			for k+1 < len(row) && row[k+1].name == c.name {
				k++
				c.v += row[k].v
			}
			h.Write([]byte(c.name))
			h.Write([]byte{0})
			binary.LittleEndian.PutUint64(buf[:], math.Float64bits(c.v))
			h.Write(buf[:])
		}
		h.Write([]byte{1})
	}
	return hex.EncodeToString(h.Sum(nil))
}
