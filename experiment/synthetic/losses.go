package synthetic

import (
	"github.com/twl-ldl/twl/loss"
	"github.com/twl-ldl/twl/tree"
)

// LossIDs names the losses of Table 1, in its row order: loss.PaperIDs.
var LossIDs = loss.PaperIDs

// LossLabel returns the name of a loss as Table 1 prints it ("KL + ½TW"),
// or id itself if it is not one of LossIDs.
func LossLabel(id string) string { return loss.PaperLabel(id) }

// SinkhornSettings are the paper's Sinkhorn settings for the W¹ losses:
// loss.PaperSinkhorn.
var SinkhornSettings = loss.PaperSinkhorn

// newLoss returns the loss id on tree t; cost is the tree's distance
// matrix, computed on first use.
func newLoss(id string, t *tree.Tree, cost *[]float64) (*loss.Mixed, error) {
	if *cost == nil && (id == "kl+0.5w1" || id == "kl+w1") {
		*cost = t.DistanceMatrix(nil).RawMatrix().Data
	}
	return loss.NewPaper(id, t, *cost)
}
