package loss

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"

	"github.com/twl-ldl/twl/tsw"
)

// NewKLTSW returns KL + lambda·TSW, the tree-sliced Wasserstein distance of
// package tsw, over the points of s: the labels are s's points in s's order,
// L = s.Len(). For a flat label set, the trees are built from embeddings of
// the label names (a tree per seed), with a leaf per label. The per-row
// gradient of TSW with respect to p is the mean over the trees of their TW
// path sums (package tsw), and goes through the same softmax chain rule as
// KL + λ·TW. The loss evaluates on clones of s and never touches s's own
// scratch memory, so the caller may keep using s. lambda must be
// non-negative and finite; it panics otherwise, or if s is nil.
func NewKLTSW(s *tsw.Sliced, lambda float64) *Mixed {
	checkLambda(lambda)
	if s == nil {
		panic("loss: NewKLTSW with a nil Sliced")
	}
	return &Mixed{L: s.Len(), Lambda: lambda, Dist: &TSW{Batch: tsw.NewBatch(s, 0)}}
}

// TSW is the tree-sliced Wasserstein Distance term.
type TSW struct {
	Batch *tsw.Batch

	name string // made by the first Name
}

var _ Distance = (*TSW)(nil)

// BatchGrad implements Distance.
func (d *TSW) BatchGrad(values, grads, P, Y []float64) error {
	d.Batch.DistanceGrad(values, grads, P, Y)
	return nil
}

// Name returns "tsw(T=N,trees=H)" for N trees, H being 8 hexadecimal
// digits of an FNV-1a hash of the points' names and of every tree's node
// names, parents and weights, in order. The trees change the loss, so they
// are part of its name, as Sinkhorn's settings are of its: a checkpoint is
// resumed only by a loss on the same trees.
func (d *TSW) Name() string {
	if d.name == "" {
		d.name = fmt.Sprintf("tsw(T=%d,trees=%08x)", d.Batch.Sliced().Trees(), treesHash(d.Batch.Sliced()))
	}
	return d.name
}

// treesHash returns the low 32 bits of the FNV-1a hash of s's points and
// trees (see TSW.Name): O(n + Σ_t L_t).
func treesHash(s *tsw.Sliced) uint32 {
	h := fnv.New64a()
	var b [8]byte
	num := func(x uint64) {
		binary.LittleEndian.PutUint64(b[:], x)
		h.Write(b[:])
	}
	str := func(x string) {
		num(uint64(len(x)))
		h.Write([]byte(x))
	}
	num(uint64(s.Len()))
	for i := range s.Len() {
		str(s.Name(i))
	}
	num(uint64(s.Trees()))
	for k := range s.Trees() {
		t := s.Tree(k)
		num(uint64(t.Len()))
		for i := range t.Len() {
			str(t.Name(i))
			num(uint64(int64(t.Parent(i))))
			num(math.Float64bits(t.Weight(i)))
		}
	}
	return uint32(h.Sum64())
}
