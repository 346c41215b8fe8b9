package synthetic

import (
	"github.com/twl-ldl/twl/loss"
	"github.com/twl-ldl/twl/ot/sinkhorn"
	"github.com/twl-ldl/twl/tree"
)

// LossIDs names the losses of Table 1, in its row order.
var LossIDs = []string{"kl", "kl+0.5w1", "kl+w1", "kl+0.5tw", "kl+tw"}

// lossSpec describes one loss of Table 1.
type lossSpec struct {
	id, label string
	lambda    float64
	sinkhorn  bool // W¹ by Sinkhorn; else TW (when lambda > 0)
}

var lossSpecs = map[string]lossSpec{
	"kl":       {"kl", "KL", 0, false},
	"kl+0.5w1": {"kl+0.5w1", "KL + ½W¹", 0.5, true},
	"kl+w1":    {"kl+w1", "KL + W¹", 1, true},
	"kl+0.5tw": {"kl+0.5tw", "KL + ½TW", 0.5, false},
	"kl+tw":    {"kl+tw", "KL + TW", 1, false},
}

// LossLabel returns the name of a loss as Table 1 prints it ("KL + ½TW"),
// or id itself if it is not one of LossIDs.
func LossLabel(id string) string {
	if s, ok := lossSpecs[id]; ok {
		return s.label
	}
	return id
}

// SinkhornSettings are the paper's Sinkhorn settings for the W¹ losses:
// log domain, λ = 50 (POT reg 0.02), exactly 10 iterations.
var SinkhornSettings = sinkhorn.Settings{Lambda: 50, Iters: 10, Tol: -1}

// newLoss returns the loss id on tree t; cost is the tree's distance
// matrix, computed on first use.
func newLoss(id string, t *tree.Tree, cost *[]float64) (*loss.Mixed, error) {
	s := lossSpecs[id]
	switch {
	case s.lambda == 0:
		return loss.NewKL(t.Len()), nil
	case s.sinkhorn:
		if *cost == nil {
			*cost = t.DistanceMatrix(nil).RawMatrix().Data
		}
		return loss.NewKLSinkhorn(*cost, t.Len(), s.lambda, SinkhornSettings)
	}
	return loss.NewKLTW(t, s.lambda), nil
}
