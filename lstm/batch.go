package lstm

import (
	"fmt"
	"slices"
)

// layout arranges a mini-batch of documents for the recurrence: sorted by
// length, longest first (ties in batch order), so that the documents still
// running at time step t are the first bt[t] of the order, and their rows
// form a prefix of every per-step matrix. Rows are time-major: row (t, r),
// the r-th running document at step t, is row off[t] + r of the packed
// matrices, off[t] = bt[0] + … + bt[t−1]. There is no padding: a step costs
// what its running documents cost.
type layout struct {
	perm []int // perm[r]: the batch index of the r-th longest document
	lens []int // lens[r]: its length
	bt   []int // bt[t]: documents longer than t; bt[0] ≥ bt[1] ≥ …
	off  []int // off[t]: the first row of step t; off[T] = N, the number of tokens
}

// arrange computes the layout of docs; it reuses l's memory.
func (l *layout) arrange(docs [][]int32) {
	B := len(docs)
	l.perm = l.perm[:0]
	for i := range B {
		l.perm = append(l.perm, i)
	}
	slices.SortStableFunc(l.perm, func(a, b int) int { return len(docs[b]) - len(docs[a]) })
	l.lens = l.lens[:0]
	for _, i := range l.perm {
		l.lens = append(l.lens, len(docs[i]))
	}
	T := 0
	if B > 0 {
		T = l.lens[0]
	}
	l.bt = l.bt[:0]
	l.off = append(l.off[:0], 0)
	r := B
	for t := range T {
		for r > 0 && l.lens[r-1] <= t {
			r--
		}
		l.bt = append(l.bt, r)
		l.off = append(l.off, l.off[t]+r)
	}
}

// steps returns T, the length of the longest document.
func (l *layout) steps() int { return len(l.bt) }

// tokens returns N, the number of tokens of the batch.
func (l *layout) tokens() int { return l.off[len(l.off)-1] }

// check panics for a token ID outside the vocabulary.
func checkTokens(docs [][]int32, V int) {
	for i, d := range docs {
		for _, id := range d {
			if id < 0 || int(id) >= V {
				panic(fmt.Sprintf("lstm: document %d: token ID %d outside the vocabulary of %d", i, id, V))
			}
		}
	}
}
