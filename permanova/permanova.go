package permanova

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"slices"
	"unsafe"

	"github.com/twl-ldl/twl/internal/hugepage"
	"github.com/twl-ldl/twl/internal/parallel"
)

// DefaultPermutations is the number of permutations of a test whose
// Options.Permutations is 0: 999, scikit-bio's default.
const DefaultPermutations = 999

// Errors of a grouping that PERMANOVA cannot test (scikit-bio raises a
// ValueError for both).
var (
	// ErrOneGroup: every sample is in the same group, so there is no
	// distance between groups.
	ErrOneGroup = errors.New("all samples are in one group: there are no distances between groups")
	// ErrAllUnique: every sample is in a group of its own, so there is no
	// distance within a group.
	ErrAllUnique = errors.New("every sample is in a group of its own: there are no distances within groups")
)

// DataError is an invalid entry of a distance matrix. Row and Col are
// 0-based sample indices.
type DataError struct {
	Row, Col int
	Msg      string
}

func (e *DataError) Error() string {
	return fmt.Sprintf("distance matrix: entry (%d, %d): %s", e.Row+1, e.Col+1, e.Msg)
}

// Matrix is what the test needs of an n×n distance matrix: its squared
// distances above the diagonal, laid out for the kernel, and their total.
// It is read-only once made, so that any number of tests (of several
// groupings of the same samples) may run on it, one after another or at
// once.
type Matrix struct {
	n      int
	chunks int       // chunks of 8 columns: ⌈n/8⌉
	tri    []float64 // row i: chunks (i+1)/8 … chunks−1 of row i of D², 0 at columns ≤ i and ≥ n
	off    []int     // row i of tri is tri[off[i]:off[i+1]], for i < n−1
	blocks []int     // rows blocks[b] … blocks[b+1]−1 make block b
	sT     float64   // Σ_{i<j} d²_ij / n
}

// first returns the first chunk of row i.
func first(i int) int { return (i + 1) / 8 }

// N returns the number of samples.
func (m *Matrix) N() int { return m.n }

// New checks the n×n distance matrix d (row-major) and prepares it for
// tests. d must be symmetric (exactly, entry for entry, as scikit-bio's
// DistanceMatrix requires), with zeros on the diagonal, and its entries
// finite and non-negative; otherwise New returns a *DataError naming the
// first invalid entry in row-major order. Only the part above the diagonal
// is kept. workers bounds the goroutines (≤ 0: runtime.GOMAXPROCS(0)); the
// Matrix does not depend on it. d is not modified. New panics if n < 0 or
// len(d) != n·n.
func New(d []float64, n, workers int) (*Matrix, error) {
	if n < 0 || len(d) != n*n {
		panic(fmt.Sprintf("permanova: distance matrix of length %d for %d samples", len(d), n))
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	m := &Matrix{n: n, chunks: (n + 7) / 8}
	rows := max(n-1, 0)
	m.off = make([]int, rows+1)
	for i := range rows {
		m.off[i+1] = m.off[i] + 8*(m.chunks-first(i))
	}
	m.tri = make([]float64, m.off[rows])
	hugepage.Advise(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(m.tri))), 8*len(m.tri)))
	m.blocks = rowBlocks(m.off)
	// Each task checks and squares a tile of rows against its transpose
	// (the first rows are the longest: tasks are handed out one at a
	// time); bad records the tiles with an invalid entry.
	tiles := (rows + tile - 1) / tile
	bad := make([]bool, tiles)
	parallel.Each(tiles, workers, func(t int) {
		bad[t] = !m.fill(d, t*tile, min((t+1)*tile, rows))
	})
	if n > 0 && d[(n-1)*n+n-1] != 0 || slices.Contains(bad, true) {
		return nil, firstInvalid(d, n)
	}
	// Σ d² by rows, each row's sum compensated (Neumaier), the rows' sums
	// added in order: the bits do not depend on the workers.
	sums := make([]float64, rows)
	parallel.For(rows, workers, 64, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			sums[i] = compensated(m.row(i))
		}
	})
	total := compensated(sums)
	if !(total <= math.MaxFloat64) { // +Inf, or NaN from Inf − Inf
		return nil, errors.New("distance matrix: the sum of the squared distances overflows")
	}
	if n > 0 {
		m.sT = total / float64(n)
	}
	return m, nil
}

// row returns row i of the triangle.
func (m *Matrix) row(i int) []float64 { return m.tri[m.off[i]:m.off[i+1]] }

// tile is the side of the blocks in which fill walks d beside its
// transpose.
const tile = 64

// fill checks rows [lo, hi) of d above the diagonal against their
// transposes, and the diagonal, and writes their squares into m.tri. It
// reports whether every entry is valid.
func (m *Matrix) fill(d []float64, lo, hi int) bool {
	n := m.n
	ok := true
	for ib := lo; ib < hi; ib += tile {
		ie := min(ib+tile, hi)
		for jb := ib; jb < n; jb += tile {
			je := min(jb+tile, n)
			for i := ib; i < ie; i++ {
				if d[i*n+i] != 0 {
					ok = false
				}
				row := m.row(i)
				base := 8 * first(i)
				for j := max(jb, i+1); j < je; j++ {
					v, w := d[i*n+j], d[j*n+i]
					// NaN fails every comparison: the test is true for a
					// valid pair only.
					if !(v == w && v >= 0 && v <= math.MaxFloat64) {
						ok = false
					}
					row[j-base] = v * v
				}
			}
		}
	}
	return ok
}

// firstInvalid returns the error for the first invalid entry of d in
// row-major order.
func firstInvalid(d []float64, n int) error {
	for i := range n {
		for j := range n {
			v := d[i*n+j]
			switch {
			case math.IsNaN(v) || math.IsInf(v, 0):
				return &DataError{i, j, fmt.Sprintf("%v is not a finite number", v)}
			case v < 0:
				return &DataError{i, j, fmt.Sprintf("%v is negative", v)}
			case i == j && v != 0:
				return &DataError{i, j, fmt.Sprintf("%v on the diagonal: a distance matrix has zeros there", v)}
			case v != d[j*n+i]:
				return &DataError{i, j, fmt.Sprintf("%v, but entry (%d, %d) is %v: the matrix is not symmetric", v, j+1, i+1, d[j*n+i])}
			}
		}
	}
	return errors.New("distance matrix: invalid") // not reached: fill found an entry
}

// compensated returns the sum of x by Neumaier's compensated summation.
func compensated(x []float64) float64 {
	var s, c float64
	for _, v := range x {
		t := s + v
		if math.Abs(s) >= math.Abs(v) {
			c += (s - t) + v
		} else {
			c += (v - t) + s
		}
		s = t
	}
	return s + c
}

// rowBlocks cuts the rows of the triangle whose offsets are off into at most
// 64 blocks of about equal size, as a function of the rows alone.
func rowBlocks(off []int) []int {
	rows := len(off) - 1
	nb := min(rows, 64)
	blocks := []int{0}
	if rows == 0 {
		return blocks
	}
	total := off[rows]
	for b := 1; b < nb; b++ {
		// The first row whose start reaches b/nb of the cells.
		i, _ := slices.BinarySearch(off, (total*b+nb-1)/nb)
		if i > blocks[len(blocks)-1] && i < rows {
			blocks = append(blocks, i)
		}
	}
	return append(blocks, rows)
}

// Options are the settings of a test. The zero value is the default.
type Options struct {
	// Permutations is the number of permutations of the grouping; 0 means
	// DefaultPermutations (999), and a negative number none at all (the
	// p-value is then NaN, as scikit-bio's with permutations=0).
	Permutations int
	// Seed seeds the permutations: permutation k (1, 2, …) is a
	// Fisher–Yates shuffle drawn from PCG(Seed, k), so that the result
	// does not depend on Workers, and the first P permutations of a test
	// with more are the P of a test with P.
	Seed uint64
	// Workers bounds the goroutines (≤ 0: runtime.GOMAXPROCS(0)). The
	// result does not depend on it.
	Workers int
}

// Result is the outcome of a test, the fields of scikit-bio's result
// Series: method name "PERMANOVA", test statistic name "pseudo-F", sample
// size N, number of groups, test statistic F, p-value P and number of
// permutations.
type Result struct {
	N      int     // sample size
	Groups int     // number of groups
	F      float64 // the pseudo-F statistic
	// P is the p-value, (1 + the number of permutations whose pseudo-F is
	// ≥ F) / (1 + Permutations); NaN when Permutations is 0.
	P            float64
	Permutations int
	// Names holds the groups' labels in increasing order (of bytes) and
	// Sizes their numbers of samples.
	Names []string
	Sizes []int
}

// Test runs PERMANOVA on the matrix with the grouping labels: labels[i] is
// the group of sample i (any string; equal strings are one group). It
// returns ErrOneGroup or ErrAllUnique for a grouping that cannot be tested,
// and ctx's error if ctx is cancelled (checked between batches of
// permutations). It panics if len(labels) != m.N().
func (m *Matrix) Test(ctx context.Context, labels []string, o *Options) (*Result, error) {
	if len(labels) != m.n {
		panic(fmt.Sprintf("permanova: %d labels for %d samples", len(labels), m.n))
	}
	var opts Options
	if o != nil {
		opts = *o
	}
	perms := opts.Permutations
	switch {
	case perms == 0:
		perms = DefaultPermutations
	case perms < 0:
		perms = 0
	}
	names := slices.Clone(labels)
	slices.Sort(names)
	names = slices.Compact(names)
	G := len(names)
	switch {
	case m.n == 0:
		return nil, errors.New("no samples")
	case G == m.n:
		return nil, ErrAllUnique
	case G == 1:
		return nil, ErrOneGroup
	}
	index := make(map[string]int32, G)
	for g, s := range names {
		index[s] = int32(g)
	}
	groups := make([]int32, m.n)
	sizes := make([]int, G)
	for i, s := range labels {
		g := index[s]
		groups[i] = g
		sizes[g]++
	}
	fs, err := m.statistics(ctx, groups, sizes, perms, opts.Seed, opts.Workers)
	if err != nil {
		return nil, err
	}
	r := &Result{N: m.n, Groups: G, F: fs[0], P: math.NaN(), Permutations: perms, Names: names, Sizes: sizes}
	if perms > 0 {
		count := 0
		for _, f := range fs[1:] {
			if f >= r.F {
				count++
			}
		}
		r.P = float64(count+1) / float64(perms+1)
	}
	return r, nil
}

// PseudoF returns the pseudo-F statistic of the grouping groups[i] ∈ [0, G)
// with G = max(groups)+1 groups, each of which must be non-empty. It
// panics if len(groups) != m.N() or a group is negative or empty. It is
// the statistic of Test, bit for bit, and that of any permutation that
// gives the same partition of the samples.
func (m *Matrix) PseudoF(groups []int) float64 {
	if len(groups) != m.n {
		panic(fmt.Sprintf("permanova: %d groups for %d samples", len(groups), m.n))
	}
	G := 0
	for _, g := range groups {
		if g < 0 {
			panic("permanova: negative group")
		}
		G = max(G, g+1)
	}
	sizes := make([]int, G)
	g32 := make([]int32, m.n)
	for i, g := range groups {
		sizes[g]++
		g32[i] = int32(g)
	}
	if slices.Contains(sizes, 0) {
		panic("permanova: empty group")
	}
	fs, _ := m.statistics(context.Background(), g32, sizes, 0, 0, 1)
	return fs[0]
}

// fstat returns the pseudo-F of a within-group sum of squares sW, for G
// groups: ((s_T − s_W)/(G − 1)) / (s_W/(N − G)), scikit-bio's formula.
func (m *Matrix) fstat(sW float64, G int) float64 {
	return ((m.sT - sW) / float64(G-1)) / (sW / float64(m.n-G))
}

// statistics returns the pseudo-F of the grouping groups (index 0) and of
// its permutations 1 … perms.
//
// The permutations go in batches of K. For each, the labels of the
// samples and one bitset per group (byte c, bit k: sample 8c+k is in the
// group) are drawn; then each block of rows is swept once for the whole
// batch: row i stays in cache while the kernel sums it, for each
// permutation q, at the columns of the bitset of i's group in q, and adds
// the sum over the group's size to block b's part of q's s_W. The parts
// are then added in block order, so s_W, a sum over rows in increasing
// order of each row's sum divided by its group's size, depends on the
// partition of the samples alone.
func (m *Matrix) statistics(ctx context.Context, groups []int32, sizes []int, perms int, seed uint64, workers int) ([]float64, error) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	n, G, cb := m.n, len(sizes), m.chunks
	total := perms + 1
	// K permutations a batch: their bitsets within about 2 MiB.
	K := max(4, min(256, (2<<20)/max(G*cb, 1))/4*4)
	K = min(K, (total+3)/4*4)
	lab := make([]int32, n*K)     // lab[i*K+q]: sample i's group in permutation q
	set := make([]byte, K*G*cb)   // set[(q*G+g)*cb + c]: chunk c of group g's bitset in q
	nb := len(m.blocks) - 1       // row blocks
	part := make([]float64, nb*K) // part[b*K+q]: block b's share of s_W in q
	size := make([]float64, G)
	for g, s := range sizes {
		size[g] = float64(s)
	}
	fs := make([]float64, total)
	scratch := make([][]int32, parallel.Parts(K, workers, 1))
	for start := 0; start < total; start += K {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		k := min(K, total-start)
		clear(set[:k*G*cb])
		parallel.ForParts(k, workers, 1, func(p, lo, hi int) {
			if scratch[p] == nil {
				scratch[p] = make([]int32, n)
			}
			for q := lo; q < hi; q++ {
				perm := scratch[p]
				copy(perm, groups)
				if idx := start + q; idx > 0 {
					shuffle(perm, rand.NewPCG(seed, uint64(idx)))
				}
				bs := set[q*G*cb : (q+1)*G*cb]
				for i, g := range perm {
					lab[i*K+q] = g
					bs[int(g)*cb+i>>3] |= 1 << (i & 7)
				}
			}
		})
		clear(part)
		parallel.Each(nb, workers, func(b int) {
			m.sweep(part[b*K:b*K+k], b, lab, K, set, G, size)
		})
		for q := range k {
			sW := 0.0
			for b := range nb {
				sW += part[b*K+q]
			}
			fs[start+q] = m.fstat(sW, G)
		}
	}
	return fs, nil
}

// sweep adds to acc[q] block b's share of s_W in permutation q, for q <
// len(acc): for each row i of the block in order, the sum of its squared
// distances to the later samples of its group, over the group's size.
func (m *Matrix) sweep(acc []float64, b int, lab []int32, K int, set []byte, G int, size []float64) {
	cb := m.chunks
	k := len(acc)
	var s [4]float64
	for i := m.blocks[b]; i < m.blocks[b+1]; i++ {
		row := m.row(i)
		c0 := first(i)
		l := lab[i*K : i*K+k]
		mask := func(q int) []byte {
			o := (q*G+int(l[q]))*cb + c0
			return set[o : o+cb-c0]
		}
		q := 0
		for ; q+4 <= k; q += 4 {
			maskSum4(&s, row, mask(q), mask(q+1), mask(q+2), mask(q+3))
			acc[q] += s[0] / size[l[q]]
			acc[q+1] += s[1] / size[l[q+1]]
			acc[q+2] += s[2] / size[l[q+2]]
			acc[q+3] += s[3] / size[l[q+3]]
		}
		for ; q < k; q++ {
			acc[q] += maskSum(row, mask(q)) / size[l[q]]
		}
	}
}

// shuffle permutes x by Fisher–Yates with draws from src: for i from
// len(x)−1 down to 1, x[i] and x[j] swap, j uniform in [0, i] by Lemire's
// multiply-and-reject method on src's 64-bit outputs. The sequence is
// fixed here, not by a library that may change it.
func shuffle(x []int32, src *rand.PCG) {
	for i := len(x) - 1; i > 0; i-- {
		j := uniform(src, uint64(i)+1)
		x[i], x[j] = x[j], x[i]
	}
}

// uniform returns a uniform integer in [0, n), n > 0.
func uniform(src *rand.PCG, n uint64) uint64 {
	hi, lo := bits.Mul64(src.Uint64(), n)
	if lo < n {
		thresh := -n % n
		for lo < thresh {
			hi, lo = bits.Mul64(src.Uint64(), n)
		}
	}
	return hi
}
