package corpus

import (
	"fmt"

	"github.com/twl-ldl/twl/tree"
)

// Target says how a label set becomes the target distribution of
// label-distribution learning, the q of KL(q ‖ p) + λ·TW(p, q).
type Target int

const (
	// Uniform puts mass 1/|Y| on every label of the set Y: with sets closed
	// under ancestors, on the path from each label up to its top-level
	// genre. The default.
	Uniform Target = iota
	// Specific puts mass 1/|S| on the most specific labels S of the set:
	// those with no descendant in the set. For the set {Fiction, Fantasy,
	// Epic Fantasy} that is Epic Fantasy alone.
	Specific
)

func (m Target) String() string {
	switch m {
	case Uniform:
		return "uniform"
	case Specific:
		return "specific"
	}
	return fmt.Sprintf("Target(%d)", int(m))
}

// ParseTarget returns the Target named s, "uniform" or "specific".
func ParseTarget(s string) (Target, error) {
	switch s {
	case "uniform":
		return Uniform, nil
	case "specific":
		return Specific, nil
	}
	return 0, fmt.Errorf("unknown target %q: want uniform or specific", s)
}

// Fill stores the target distribution of the label set y, user indices of
// t's nodes sorted ascending and distinct (as Doc.Labels are), in dst
// (length t.Len()) and returns dst. Every entry is written. It panics if
// len(dst) != t.Len(), or y is empty, unsorted, repeats a label or holds an
// index out of range. The Specific rule compares every pair of labels of
// y: O(|y|²).
func (m Target) Fill(dst []float64, t *tree.Tree, y []int) []float64 {
	if len(dst) != t.Len() {
		panic("corpus: len(dst) != t.Len()")
	}
	if len(y) == 0 {
		panic("corpus: empty label set")
	}
	for k, i := range y {
		if i < 0 || i >= t.Len() || k > 0 && i <= y[k-1] {
			panic(fmt.Sprintf("corpus: label set %v is not sorted and distinct within [0, %d)", y, t.Len()))
		}
	}
	clear(dst)
	switch m {
	case Uniform:
		for _, i := range y {
			dst[i] = 1
		}
	case Specific:
		for _, i := range y {
			specific := true
			for _, j := range y {
				if j != i && t.InSubtree(j, i) {
					specific = false
					break
				}
			}
			if specific {
				dst[i] = 1
			}
		}
	default:
		panic(fmt.Sprintf("corpus: unknown target %d", int(m)))
	}
	var n float64
	for _, i := range y {
		n += dst[i]
	}
	for _, i := range y {
		dst[i] /= n
	}
	return dst
}

// Targets returns the target distributions of every document of c, a
// row-major len(c.Docs)×t.Len() matrix. It panics if c has no tree or a
// document has no labels.
func (c *Corpus) Targets(m Target) []float64 {
	if c.Tree == nil {
		panic("corpus: Targets of a corpus read without a tree")
	}
	L := c.Tree.Len()
	out := make([]float64, len(c.Docs)*L)
	for r, d := range c.Docs {
		m.Fill(out[r*L:(r+1)*L], c.Tree, d.Labels)
	}
	return out
}
