package textmodel

import (
	"fmt"
	"strconv"
	"strings"

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
	fmt.Fprintf(&b, "; %s", seconds(info.Seconds))
	if h.Resumed > 0 {
		var this float64
		for _, ep := range h.Epochs[min(h.Resumed, len(h.Epochs)):] {
			this += ep.Seconds
		}
		fmt.Fprintf(&b, " in all, %s this run", seconds(this))
	}
	return b.String()
}

// seconds writes a duration with 3 significant digits and a unit: "152
// ns", "1.23 µs", "45.6 ms", "2.10 s".
func seconds(s float64) string {
	sig3 := func(v float64) string {
		switch {
		case v < 10:
			return strconv.FormatFloat(v, 'f', 2, 64)
		case v < 100:
			return strconv.FormatFloat(v, 'f', 1, 64)
		}
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	switch {
	case s < 1e-6:
		return sig3(s*1e9) + " ns"
	case s < 1e-3:
		return sig3(s*1e6) + " µs"
	case s < 1:
		return sig3(s*1e3) + " ms"
	}
	return sig3(s) + " s"
}
