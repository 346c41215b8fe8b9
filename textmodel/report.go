package textmodel

import (
	"fmt"
	"strings"

	"github.com/twl-ldl/twl/internal/human"
	"github.com/twl-ldl/twl/train"
)

// Report describes how training m went, h being the history Fit returned:
// the epochs and documents, the final training loss, the best validation
// loss and its epoch, and the time of every epoch trained (with, after a
// resume, the part of this run).
func (m *Model) Report(h train.History) string {
	info := m.Train
	if info == nil {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s on %s", plural(info.EpochsRun, "epoch"), plural(info.Docs, "document"))
	if h.Resumed > 0 {
		fmt.Fprintf(&b, " (resumed after epoch %d)", h.Resumed)
	}
	fmt.Fprintf(&b, ", final training loss %.6g", info.TrainLoss)
	if info.ValLoss != nil {
		fmt.Fprintf(&b, "; best validation loss %.6g on %s at epoch %d", *info.ValLoss, plural(info.ValDocs, "document"), info.BestEpoch)
		if h.Stopped {
			b.WriteString(", stopped early")
		}
	}
	fmt.Fprintf(&b, "; %s", human.Seconds(info.Seconds))
	if h.Resumed > 0 {
		var this float64
		for _, ep := range h.Epochs[min(h.Resumed, len(h.Epochs)):] {
			this += ep.Seconds
		}
		fmt.Fprintf(&b, " in all, %s this run", human.Seconds(this))
	}
	return b.String()
}
