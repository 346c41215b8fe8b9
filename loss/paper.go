package loss

import (
	"fmt"

	"github.com/twl-ldl/twl/ot/sinkhorn"
	"github.com/twl-ldl/twl/tree"
)

// PaperIDs names the five losses the paper compares (its Tables 1 and 2),
// in the order of their rows: KL alone, KL plus ½ or 1 times the
// Wasserstein distance by Sinkhorn (W¹, the baseline of Frogner et al.),
// and KL plus ½ or 1 times the exact tree-Wasserstein distance (TW).
var PaperIDs = []string{"kl", "kl+0.5w1", "kl+w1", "kl+0.5tw", "kl+tw"}

// paperLoss describes one loss of PaperIDs.
type paperLoss struct {
	label    string
	lambda   float64
	sinkhorn bool // W¹ by Sinkhorn; else TW (when lambda > 0)
}

var paperLosses = map[string]paperLoss{
	"kl":       {"KL", 0, false},
	"kl+0.5w1": {"KL + ½W¹", 0.5, true},
	"kl+w1":    {"KL + W¹", 1, true},
	"kl+0.5tw": {"KL + ½TW", 0.5, false},
	"kl+tw":    {"KL + TW", 1, false},
}

// PaperLabel returns the name of a loss as the paper's tables print it
// ("KL + ½TW"), or id itself if it is not one of PaperIDs.
func PaperLabel(id string) string {
	if s, ok := paperLosses[id]; ok {
		return s.label
	}
	return id
}

// PaperSinkhorn are the paper's Sinkhorn settings for the W¹ losses: log
// domain, λ = 50 (POT's reg 0.02), exactly 10 iterations.
var PaperSinkhorn = sinkhorn.Settings{Lambda: 50, Iters: 10, Tol: -1}

// NewPaper returns the loss id of PaperIDs on tree t. The W¹ losses need
// the tree's distance matrix: cost, if not nil, holds it (t.Len()² values,
// row-major), else NewPaper computes it (O(L²) time and memory).
func NewPaper(id string, t *tree.Tree, cost []float64) (*Mixed, error) {
	s, ok := paperLosses[id]
	switch {
	case !ok:
		return nil, fmt.Errorf("loss: unknown loss %q: want one of %v", id, PaperIDs)
	case s.lambda == 0:
		return NewKL(t.Len()), nil
	case s.sinkhorn:
		if cost == nil {
			cost = t.DistanceMatrix(nil).RawMatrix().Data
		}
		return NewKLSinkhorn(cost, t.Len(), s.lambda, PaperSinkhorn)
	}
	return NewKLTW(t, s.lambda), nil
}
