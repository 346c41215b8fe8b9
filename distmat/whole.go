package distmat

import (
	"context"
	"encoding/binary"
	"fmt"
	"sync"
	"sync/atomic"
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
// earlier ones are written, when the text of all pairs takes at most 40
// MiB (and Options.MaxBytes); a larger matrix is expanded and written by
// stripes. A value that is NaN or infinite is an error naming its pair of
// samples, and nothing is written. ctx is checked between groups of rows.
// It panics unless len(c) = N(N−1)/2 and the Writer writes the whole
// matrix from row 0.
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
	if text := int64(len(c)) * (slotLen + 1); w.f == TSV && text <= maxPairText && (w.maxText <= 0 || text <= w.maxText) {
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

// pairText is the text of the pairs of a matrix, each a tab and its
// value, formatted once: row j of the condensed form (the pairs (j, i),
// i > j) is the line of row j past its diagonal.
type pairText struct {
	n    int
	lens []uint8  // the text's length of each pair, in condensed order
	buf  [][]byte // the text of the rows of each chunk, with slotLen slack
	row  []int32  // row j's chunk
	off  []int32  // where row j starts in its chunk's text
	end  []int32  // where row j ends
	// grp[j·groups + g] is where pair (j, g·wholeRows) starts in row j's
	// text, for g·wholeRows > j.
	grp    []int32
	groups int
	first  []int // chunk q holds rows [first[q], first[q+1])
}

// newPairText returns the index of the text of the pairs of an n×n
// matrix, split in chunks of rows of about the same number of pairs, none
// formatted yet.
func newPairText(n int) *pairText {
	groups := (n + wholeRows - 1) / wholeRows
	t := &pairText{n: n, lens: make([]uint8, n*(n-1)/2), row: make([]int32, n), off: make([]int32, n),
		end: make([]int32, n), grp: make([]int32, n*groups), groups: groups}
	const chunkPairs = 1 << 14
	t.first = []int{0}
	for j, pairs := 0, 0; j < n; j++ {
		pairs += n - j - 1
		if pairs >= chunkPairs || j == n-1 {
			t.first = append(t.first, j+1)
			pairs = 0
		}
	}
	t.buf = make([][]byte, len(t.first)-1)
	return t
}

// chunks returns the number of chunks.
func (t *pairText) chunks() int { return len(t.buf) }

// format formats the pairs of chunk q from c, the condensed form, in
// scratch (kept between calls), then keeps a copy of just their length,
// with slotLen bytes of slack for the whole-slot copies of assemble.
func (t *pairText) format(c []float64, q int, scratch *[]byte) {
	n := t.n
	lo, hi := t.first[q], t.first[q+1]
	k := lo*n - lo*(lo+1)/2 // pair (lo, lo+1)
	pairs := 0
	for j := lo; j < hi; j++ {
		pairs += n - j - 1
	}
	// Room for the longest text of each pair.
	if need := (pairs + 1) * slotLen; cap(*scratch) < need {
		*scratch = make([]byte, 0, need)
	}
	b := (*scratch)[:0]
	for j := lo; j < hi; j++ {
		t.row[j], t.off[j] = int32(q), int32(len(b))
		for i := j + 1; i < n; i++ {
			if i%wholeRows == 0 {
				t.grp[j*t.groups+i/wholeRows] = int32(len(b)) - t.off[j]
			}
			at := len(b)
			b = append(b, '\t')
			b = AppendG16(b, c[k])
			if len(b)-at > slotLen {
				panic("distmat: a value's text overflows its slot")
			}
			t.lens[k] = uint8(len(b) - at)
			k++
		}
		t.end[j] = int32(len(b))
	}
	t.buf[q] = make([]byte, len(b)+slotLen)
	copy(t.buf[q], b)
}

// wholeTSV writes the TSV lines of the matrix from its condensed form. The
// workers take tasks in order: format a chunk of pairs, or assemble a
// group of wholeRows lines from the text of the pairs, once the chunks of
// its rows and of the rows above are formatted. This goroutine writes the
// groups in order as they come, while later ones are formatted.
func (w *Writer) wholeTSV(ctx context.Context, c []float64) error {
	n := w.n
	pt := newPairText(n)
	groups := pt.groups
	// Tasks: −1−q formats chunk q; g ≥ 0 assembles group g, which needs
	// the first need[g] chunks. A group comes lead chunks after those it
	// needs, so that it seldom waits for one.
	lead := 2 * w.workers
	var tasks []int32
	need := make([]int, groups)
	for g, q, nq := 0, 0, 0; g < groups; g++ {
		for hi := min((g+1)*wholeRows, n); nq < pt.chunks() && pt.first[nq] < hi; nq++ {
		}
		need[g] = nq
		for ; q < min(nq+lead, pt.chunks()); q++ {
			tasks = append(tasks, int32(-1-q))
		}
		tasks = append(tasks, int32(g))
	}
	formatted := make([]chan struct{}, pt.chunks())
	for q := range formatted {
		formatted[q] = make(chan struct{})
	}
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
			var scratch []byte // a chunk's text as it is formatted
			seen := 0          // chunks known to be formatted
			for {
				// The buffer first, then the task: the groups that hold
				// buffers are then the first ones not yet written, and the
				// writer never waits for a group without one. A chunk
				// gives its buffer back at once.
				buf := <-free
				k := int(next.Add(1) - 1)
				if k >= len(tasks) {
					free <- buf
					return
				}
				if tk := int(tasks[k]); tk < 0 {
					free <- buf
					if !stop.Load() {
						pt.format(c, -1-tk, &scratch)
					}
					close(formatted[-1-tk])
					continue
				}
				g := int(tasks[k])
				// Its chunks were taken before it: they are done or being
				// formatted.
				for ; seen < need[g]; seen++ {
					<-formatted[seen]
				}
				if !stop.Load() {
					*buf = pt.assemble((*buf)[:0], w.ids, g)
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

// assemble appends the TSV lines of the rows of group g to b. Line i is
// its id, the pairs (j, i) for j < i, "\t0" and row i's own text. The
// pairs (j, i) of the group's lines come from row j's text, where they lie
// side by side: row after row j, each is copied to its line by a
// whole-slot copy (the bytes past its text are overwritten by what
// follows), so that the text and lengths are read in order; a pair whose
// slot would reach the next line's pairs is copied exactly. The ids and
// the rest of the lines are written after.
func (t *pairText) assemble(b []byte, ids []string, g int) []byte {
	n := t.n
	lo, hi := g*wholeRows, min((g+1)*wholeRows, n)
	m := hi - lo
	// low[i-lo] is the length of the pairs (j, i), j < i, of line i.
	var low, cur [wholeRows]int
	for j := range hi - 1 {
		a := max(lo, j+1)
		k := j*n - j*(j+1)/2 + a - j - 1 // pair (j, a)
		lens := t.lens[k : k+hi-a]
		for x, l := range lens {
			low[a-lo+x] += int(l)
		}
	}
	need := slotLen
	for i := lo; i < hi; i++ {
		cur[i-lo] = need - slotLen + len(ids[i])
		need += len(ids[i]) + low[i-lo] + 3 + int(t.end[i]-t.off[i])
	}
	if cap(b) < need {
		b = make([]byte, 0, need+need/8)
	}
	b = b[:need]
	// A whole slot may be copied at p if p+slotLen ≤ limit[i-lo], the
	// start of the next line's pairs (which are written before the end of
	// line i); nearer, the copy is exact.
	var limit [wholeRows]int
	copy(limit[:], cur[1:m])
	limit[m-1] = need
	for j := range hi - 1 {
		a := max(lo, j+1)
		k := j*n - j*(j+1)/2 + a - j - 1
		q := int(t.off[j])
		if j < lo {
			q += int(t.grp[j*t.groups+g])
		}
		src := t.buf[t.row[j]]
		lens := t.lens[k : k+hi-a]
		dst, lim := cur[a-lo:m], limit[a-lo:m]
		for x, l := range lens {
			p := dst[x]
			if p+slotLen <= lim[x] {
				copySlot(b[p:p+slotLen], src[q:q+slotLen])
			} else {
				copy(b[p:p+int(l)], src[q:q+int(l)])
			}
			dst[x] = p + int(l)
			q += int(l)
		}
	}
	p := 0
	for i := lo; i < hi; i++ {
		copy(b[p:], ids[i])
		p = cur[i-lo]
		b[p], b[p+1] = '\t', '0'
		p += 2
		p += copy(b[p:], t.buf[t.row[i]][t.off[i]:t.end[i]])
		b[p] = '\n'
		p++
	}
	return b[:p]
}

// copySlot copies a slot of text in three words (a copy of an array of
// slotLen bytes would be a call of memmove).
func copySlot(dst, src []byte) {
	_, _ = dst[slotLen-1], src[slotLen-1]
	binary.LittleEndian.PutUint64(dst, binary.LittleEndian.Uint64(src))
	binary.LittleEndian.PutUint64(dst[8:], binary.LittleEndian.Uint64(src[8:]))
	binary.LittleEndian.PutUint64(dst[16:], binary.LittleEndian.Uint64(src[16:]))
}
