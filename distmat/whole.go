package distmat

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/twl-ldl/twl/internal/parallel"
)

// slotLen is the room of a pair's TSV text: a tab and up to 23 bytes,
// the longest text of AppendG16 ("-1.234567890123456e-308").
const slotLen = 24

// maxPairText bounds the memory WriteCondensed spends on the text of the
// pairs (slotLen + 1 bytes each); a larger matrix is written by stripes.
const maxPairText = 40 << 20

// wholeRows is the number of rows a task of WriteCondensed assembles.
const wholeRows = 16

// WriteCondensed writes every row of the matrix whose pairs i < j the
// condensed slice c holds (in the order of ExpandRows), as if the rows
// that ExpandRows makes were given to WriteRows: the output is the same,
// byte for byte. It must be the Writer's only call of WriteRows or
// WriteCondensed. For TSV, each pair's text is formatted once (a pair
// appears in two rows) and the lines are assembled in parallel while
// earlier ones are written, when the text of all pairs takes at most
// 40 MiB; a larger matrix is expanded and written by stripes. A value that
// is NaN or infinite is an error naming its pair of samples, and nothing is
// written. ctx is checked between groups of rows. It panics unless
// len(c) = N(N−1)/2 and the Writer writes the whole matrix from row 0.
func (w *Writer) WriteCondensed(ctx context.Context, c []float64) error {
	n := w.n
	if len(c) != n*(n-1)/2 || w.next != 0 || w.end != n {
		panic("distmat: WriteCondensed with a wrong number of values or rows")
	}
	if w.err != nil {
		return w.err
	}
	if ctx == nil {
		ctx = context.Background()
	}
	for k, v := range c {
		if v-v != 0 { // NaN or ±Inf: the first in row-major order too
			i, j := pairOf(k, n)
			w.err = fmt.Errorf("distmat: the distance between samples %q and %q is %v, not a finite number", w.ids[i], w.ids[j], v)
			return w.err
		}
	}
	if w.f == TSV && int64(len(c))*(slotLen+1) <= maxPairText {
		return w.wholeTSV(ctx, c)
	}
	stripe := max(1, min(n, 256))
	buf := make([]float64, stripe*n)
	for r := 0; r < n; r += stripe {
		if err := ctx.Err(); err != nil {
			return err
		}
		k := min(stripe, n-r)
		ExpandRows(buf[:k*n], c, n, r, r+k)
		if err := w.WriteRows(buf[:k*n]); err != nil {
			return err
		}
	}
	return nil
}

// pairOf returns the pair (i, j), i < j, at index k of the condensed form
// of an n×n matrix.
func pairOf(k, n int) (int, int) {
	i := 0
	for row := n - 1; k >= row; row-- {
		k -= row
		i++
	}
	return i, i + 1 + k
}

// wholeTSV writes the TSV lines of the matrix from its condensed form:
// first the text of every pair into a slot of slotLen bytes (a tab, then
// the digits), in parallel; then groups of wholeRows lines, assembled by
// the workers from the slots and written in order by this goroutine as
// they come.
func (w *Writer) wholeTSV(ctx context.Context, c []float64) error {
	n := w.n
	slots := make([]byte, len(c)*slotLen)
	lens := make([]uint8, len(c))
	parallel.For(len(c), w.workers, 4096, func(lo, hi int) {
		for k := lo; k < hi; k++ {
			s := slots[k*slotLen : k*slotLen : (k+1)*slotLen]
			s = append(s, '\t')
			s = AppendG16(s, c[k])
			if len(s) > slotLen || &s[0] != &slots[k*slotLen] {
				panic("distmat: a value's text overflows its slot")
			}
			lens[k] = uint8(len(s))
		}
	})
	groups := (n + wholeRows - 1) / wholeRows
	type result struct {
		buf  *[]byte
		done chan struct{}
	}
	res := make([]result, groups)
	for g := range res {
		res[g].done = make(chan struct{})
	}
	// Buffers in flight: a group is assembled only into a free one, so at
	// most that many groups wait to be written.
	inFlight := 2*w.workers + 2
	free := make(chan *[]byte, inFlight)
	for range inFlight {
		free <- new([]byte)
	}
	var next atomic.Int64
	var stop atomic.Bool
	var wg sync.WaitGroup
	for range w.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var ends [wholeRows]int
			for {
				// The buffer first, then the group: the groups that hold
				// buffers are then the first ones not yet written, and the
				// writer never waits for a group without one.
				buf := <-free
				g := int(next.Add(1) - 1)
				if g >= groups {
					free <- buf
					return
				}
				if !stop.Load() {
					*buf = assembleRows((*buf)[:0], &ends, w.ids, slots, lens, n, g*wholeRows, min((g+1)*wholeRows, n))
				}
				res[g].buf = buf
				close(res[g].done)
			}
		}()
	}
	var err error
	for g := range res {
		<-res[g].done
		if err == nil {
			err = ctx.Err()
		}
		if err == nil {
			if _, err = w.w.Write(*res[g].buf); err != nil {
				w.err = err
			}
		}
		if err != nil {
			stop.Store(true)
		}
		free <- res[g].buf
	}
	wg.Wait()
	if err != nil {
		return err
	}
	w.next = n
	return nil
}

// assembleRows appends the TSV lines of rows [lo, hi) to b from the
// pairs' slots. Each line gets a region of its longest length, filled by
// whole-slot copies (a slot's bytes past its text are overwritten by the
// next value), and the lines are then moved together.
func assembleRows(b []byte, ends *[wholeRows]int, ids []string, slots []byte, lens []uint8, n, lo, hi int) []byte {
	stride := 0
	for i := lo; i < hi; i++ {
		stride = max(stride, len(ids[i]))
	}
	stride += n*slotLen + 1 + slotLen // the id, the values, the line feed and a slot's slack
	need := (hi - lo) * stride
	if cap(b) < need {
		b = make([]byte, 0, need+need/8)
	}
	b = b[:need]
	var pos [wholeRows]int
	for r := range hi - lo {
		p := r * stride
		pos[r] = p + copy(b[p:], ids[lo+r])
	}
	// Columns j < lo: the pairs (j, i), i in [lo, hi), lie side by side in
	// row j of the condensed form.
	base := -1 // index of pair (j, j+1) minus (j+1), for j = 0
	for j := range lo {
		for r := range hi - lo {
			k := base + lo + r
			p := pos[r]
			*(*[slotLen]byte)(b[p : p+slotLen]) = *(*[slotLen]byte)(slots[k*slotLen : (k+1)*slotLen])
			pos[r] = p + int(lens[k])
		}
		base += n - j - 2
	}
	for r := range hi - lo {
		i := lo + r
		p := pos[r]
		// Columns j in [lo, i): pairs (j, i) of this group's rows.
		bj := base
		for j := lo; j < i; j++ {
			k := bj + i
			*(*[slotLen]byte)(b[p : p+slotLen]) = *(*[slotLen]byte)(slots[k*slotLen : (k+1)*slotLen])
			p += int(lens[k])
			bj += n - j - 2
		}
		b[p], b[p+1] = '\t', '0'
		p += 2
		// Columns j > i: row i of the condensed form, in order.
		start := i*n - i*(i+1)/2
		for k := start; k < start+n-i-1; k++ {
			*(*[slotLen]byte)(b[p : p+slotLen]) = *(*[slotLen]byte)(slots[k*slotLen : (k+1)*slotLen])
			p += int(lens[k])
		}
		b[p] = '\n'
		ends[r] = p + 1
	}
	// Move the lines together.
	end := ends[0]
	for r := 1; r < hi-lo; r++ {
		end += copy(b[end:], b[r*stride:ends[r]])
	}
	return b[:end]
}
