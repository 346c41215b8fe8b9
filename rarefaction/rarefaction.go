package rarefaction

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/twl-ldl/twl/biom"
	"github.com/twl-ldl/twl/internal/parallel"
)

// ErrCount is wrapped by the error of a count that is not a non-negative
// integer (a count of individuals), which subsampling needs.
var ErrCount = errors.New("not a count of individuals")

// maxTotal bounds a sample's total: positions are drawn as int64s and
// counted in float64s exactly.
const maxTotal = 1 << 53

// Options are the settings of Subsample. The zero value is the default.
type Options struct {
	// Replace draws with replacement (multinomial) instead of without
	// (hypergeometric).
	Replace bool
	// Workers bounds the goroutines; ≤ 0 means runtime.GOMAXPROCS(0). The
	// result does not depend on it.
	Workers int
}

// Subsample returns a new table holding the samples of t whose counts add
// up to at least depth, in their order, each subsampled to exactly depth
// counts (see the package documentation); t is not modified. src gives
// one seed per sample of t, kept or not. It returns an error wrapping
// ErrCount, naming the sample, for a count that is not a non-negative
// integer, or a total of 2⁵³ or more. It panics if depth < 1.
func Subsample(t *biom.Table, depth int64, src rand.Source, opts *Options) (*biom.Table, error) {
	if depth < 1 {
		panic("rarefaction: depth < 1")
	}
	if opts == nil {
		opts = &Options{}
	}
	n := len(t.Samples)
	seeds := make([]uint64, n)
	for s := range seeds {
		seeds[s] = src.Uint64()
	}
	totals := make([]int64, n)
	for s := range n {
		_, val := t.Row(s)
		var sum float64
		for _, v := range val {
			if !(v >= 0) || v != math.Trunc(v) || v >= maxTotal {
				return nil, fmt.Errorf("sample %s: count %v: %w", t.Samples[s], v, ErrCount)
			}
			sum += v
		}
		if sum >= maxTotal {
			return nil, fmt.Errorf("sample %s: its counts add up to %v, 2⁵³ or more: %w", t.Samples[s], sum, ErrCount)
		}
		totals[s] = int64(sum)
	}
	var keep []int
	for s, tot := range totals {
		if tot >= depth {
			keep = append(keep, s)
		}
	}
	out := &biom.Table{
		Samples:      make([]string, len(keep)),
		Observations: slices.Clone(t.Observations),
		Indptr:       make([]int, len(keep)+1),
	}
	// Each kept sample's row is drawn into rows[k], on all processors.
	rows := make([]row, len(keep))
	parallel.ForParts(len(keep), opts.Workers, 16, func(_, lo, hi int) {
		var w work
		for k := lo; k < hi; k++ {
			s := keep[k]
			idx, val := t.Row(s)
			r := rand.New(rand.NewPCG(seeds[s], uint64(s)))
			rows[k] = w.draw(idx, val, totals[s], depth, opts.Replace, r)
		}
	})
	nnz := 0
	for k, s := range keep {
		out.Samples[k] = t.Samples[s]
		nnz += len(rows[k].idx)
		out.Indptr[k+1] = nnz
	}
	out.Indices = make([]int32, 0, nnz)
	out.Data = make([]float64, 0, nnz)
	for _, r := range rows {
		out.Indices = append(out.Indices, r.idx...)
		out.Data = append(out.Data, r.val...)
	}
	return out, nil
}

// row is a subsampled sample's nonzero counts.
type row struct {
	idx []int32
	val []float64
}

// work is a goroutine's workspace.
type work struct {
	pos  []int64
	seen map[int64]struct{}
	cum  []int64
}

// draw subsamples the sample (idx, val) of total tot to depth.
func (w *work) draw(idx []int32, val []float64, tot, depth int64, replace bool, r *rand.Rand) row {
	counts := make([]int64, len(val))
	w.cum = w.cum[:0]
	var c int64
	for _, v := range val {
		c += int64(v)
		w.cum = append(w.cum, c) // cum[i]: the individuals of observations 0…i
	}
	switch {
	case replace:
		for range depth {
			p := r.Int64N(tot)
			i, _ := slices.BinarySearch(w.cum, p+1)
			counts[i]++
		}
	default:
		// Floyd: a uniformly random subset of m of the tot positions; with
		// m = tot − depth the positions left out.
		m := depth
		out := false
		if 2*depth > tot {
			m, out = tot-depth, true
		}
		if w.seen == nil {
			w.seen = map[int64]struct{}{}
		}
		clear(w.seen)
		w.pos = w.pos[:0]
		for j := tot - m; j < tot; j++ {
			p := r.Int64N(j + 1)
			if _, dup := w.seen[p]; dup {
				p = j
			}
			w.seen[p] = struct{}{}
			w.pos = append(w.pos, p)
		}
		slices.Sort(w.pos)
		i := 0
		for _, p := range w.pos {
			for w.cum[i] <= p {
				i++
			}
			counts[i]++
		}
		if out {
			for i := range counts {
				counts[i] = int64(val[i]) - counts[i]
			}
		}
	}
	var rw row
	for i, k := range counts {
		if k > 0 {
			rw.idx = append(rw.idx, idx[i])
			rw.val = append(rw.val, float64(k))
		}
	}
	return rw
}
