package ldl

import (
	"bytes"
	"fmt"
	"io"
	"strconv"

	"github.com/twl-ldl/twl/internal/human"
	"github.com/twl-ldl/twl/internal/jsonfloat"
	"github.com/twl-ldl/twl/metric"
	"github.com/twl-ldl/twl/model"
	"github.com/twl-ldl/twl/train"
)

// WriteText writes the result for people, as 'twl cv' prints it: the
// protocol, the data d, the training options o (with their defaults), and
// the mean ± sample standard deviation of every measure of metric.Names
// to 4 decimals. pyldl says the measures were computed as PyLDL does
// (CVOptions.PyLDL). Options that do not resolve are an error.
func (r *CVResult) WriteText(w io.Writer, d *Data, o *Options, pyldl bool) error {
	s, err := o.resolve()
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	n, in := d.X.Dims()
	fmt.Fprintf(&buf, "%d-fold cross-validation × %s: %s\n", r.Folds, plural(r.Repeats, "repeat"), plural(r.Folds*r.Repeats, "model"))
	fmt.Fprintf(&buf, "data %s: %s, %s, %s; tree %s\n", d.Name, plural(n, "sample"), plural(in, "feature"),
		plural(d.Tree.Len(), "label"), d.Ref.Source)
	lossName := s.Loss
	if lossName != "kl" {
		lossName += fmt.Sprintf(" (λ %g)", s.lambda)
	}
	std := "standardized"
	if s.Raw {
		std = "raw features"
	}
	fmt.Fprintf(&buf, "loss %s; %d epochs, batch %d, lr %g, weight decay %g, %s", lossName, s.Epochs, s.Batch, s.LR, s.decay, std)
	if s.Val > 0 {
		fmt.Fprintf(&buf, ", validation %g", s.Val)
		if s.Patience > 0 {
			fmt.Fprintf(&buf, " (patience %d)", s.Patience)
		}
	}
	fmt.Fprintf(&buf, "; seed %d\n\n", s.Seed)
	fmt.Fprintf(&buf, "%-16s %10s   %-8s\n", "measure", "mean", "± std")
	for _, name := range metric.Names {
		arrow := "↑"
		if metric.LowerIsBetter(name) {
			arrow = "↓"
		}
		fmt.Fprintf(&buf, "%-16s %10s ± %-8s\n", name+" "+arrow,
			strconv.FormatFloat(r.Summary[name].Mean, 'f', 4, 64), strconv.FormatFloat(r.Summary[name].Std, 'f', 4, 64))
	}
	conv := "exact measures"
	if pyldl {
		conv = "measures as PyLDL computes them"
	}
	fmt.Fprintf(&buf, "\nmean and sample standard deviation of the %d per-fold means; %s.\n", r.Folds*r.Repeats, conv)
	_, err = w.Write(buf.Bytes())
	return err
}

// WriteJSON writes the result as one line of JSON: "folds", "repeats",
// "rows", and for each measure name of metric.Names {"mean": ..., "std":
// ...}, numbers as jsonfloat writes them.
func (r *CVResult) WriteJSON(w io.Writer) error {
	kv := make([]any, 0, 6+2*len(metric.Names))
	kv = append(kv, "folds", r.Folds, "repeats", r.Repeats, "rows", r.Rows)
	for _, name := range metric.Names {
		b := jsonfloat.Append([]byte(`{"mean":`), r.Summary[name].Mean)
		b = jsonfloat.Append(append(b, `,"std":`...), r.Summary[name].Std)
		kv = append(kv, name, append(b, '}'))
	}
	_, err := w.Write(jsonfloat.AppendObject(nil, kv...))
	return err
}

// WriteFitText writes what Fit did for people, as 'twl train' prints it:
// the model f written to path, its shape and loss, the epochs and rows
// trained on (and resumed after, from h), the final training loss, the
// best validation loss and where training stopped, and the time taken.
func WriteFitText(w io.Writer, path string, f *model.File, h train.History) error {
	var buf bytes.Buffer
	info := f.Train
	fmt.Fprintf(&buf, "wrote %s: %s, %s → %s, loss %s\n", path, f.Model, plural(f.In, "feature"), plural(len(f.Labels), "label"), f.Loss)
	fmt.Fprintf(&buf, "%s on %s", plural(info.EpochsRun, "epoch"), plural(info.Rows, "row"))
	if h.Resumed > 0 {
		fmt.Fprintf(&buf, " (resumed after epoch %d)", h.Resumed)
	}
	fmt.Fprintf(&buf, ", final training loss %.6g", info.TrainLoss)
	if info.ValLoss != nil {
		fmt.Fprintf(&buf, "; best validation loss %.6g on %s at epoch %d", *info.ValLoss, plural(info.ValRows, "row"), info.BestEpoch)
		if h.Stopped {
			buf.WriteString(", stopped early")
		}
	}
	fmt.Fprintf(&buf, "; %s\n", human.Seconds(info.Seconds))
	_, err := w.Write(buf.Bytes())
	return err
}

// WriteFitJSON writes what Fit did as one line of JSON, with the keys
// model (path), in, labels, loss, rows, val_rows, epochs_run, best_epoch,
// stopped_early, resumed_from, train_loss, val_loss (with validation only)
// and seconds.
func WriteFitJSON(w io.Writer, path string, f *model.File) error {
	info := f.Train
	kv := []any{"model", path, "in", f.In, "labels", len(f.Labels), "loss", f.Loss,
		"rows", info.Rows, "val_rows", info.ValRows, "epochs_run", info.EpochsRun, "best_epoch", info.BestEpoch,
		"stopped_early", info.Stopped, "resumed_from", info.Resumed, "train_loss", info.TrainLoss}
	if info.ValLoss != nil {
		kv = append(kv, "val_loss", *info.ValLoss)
	}
	kv = append(kv, "seconds", info.Seconds)
	_, err := w.Write(jsonfloat.AppendObject(nil, kv...))
	return err
}
