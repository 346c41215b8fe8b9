package ldl

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/metric"
)

// TestCVResultWrite: a result made by hand, written as text and JSON; the
// expected lines follow from the options (kl+tw with λ 0.5, the defaults
// otherwise: 100 epochs, batch 32, lr 0.001, weight decay 0.03) and the
// numbers to 4 decimals, in columns padded by bytes (↓ is 3).
func TestCVResultWrite(t *testing.T) {
	d := load(t, 6, 2)
	r := &CVResult{Folds: 3, Repeats: 1, Rows: 6, Summary: map[string]Summary{}}
	for i, name := range metric.Names {
		r.Summary[name] = Summary{Mean: float64(i) + 0.12345, Std: 0.5}
	}
	r.Summary["kl"] = Summary{Mean: math.Inf(1), Std: math.NaN()}
	var buf bytes.Buffer
	if err := r.WriteText(&buf, d, &Options{Loss: "kl+tw", Lambda: 0.5, Seed: 7}, true); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(buf.String(), "\n")
	for i, want := range map[int]string{
		0:  "3-fold cross-validation × 1 repeat: 3 models",
		2:  "loss kl+tw (λ 0.5); 100 epochs, batch 32, lr 0.001, weight decay 0.03, standardized; seed 7",
		5:  "wasserstein ↓        0.1235 ± 0.5000  ",
		6:  "kl ↓                   +Inf ± NaN     ",
		13: "mean and sample standard deviation of the 3 per-fold means; measures as PyLDL computes them.",
	} {
		if i >= len(lines) || lines[i] != want {
			t.Errorf("line %d:\n%q\nwant\n%q\n(all: %s)", i+1, lines[min(i, len(lines)-1)], want, buf.String())
		}
	}
	buf.Reset()
	if err := r.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	if want := `{"folds":3,"repeats":1,"rows":6,"wasserstein":{"mean":0.12345,"std":0.5},"kl":{"mean":"+Inf","std":"NaN"},`; !strings.HasPrefix(buf.String(), want) {
		t.Errorf("JSON %s, want it to start %s", buf.String(), want)
	}
}

// TestWriteFit: the summary of a fit of 2 epochs on 10 rows with 2 held out
// for validation (Val 0.2): the counts by hand, the losses as the model
// file records them.
func TestWriteFit(t *testing.T) {
	d := load(t, 10, 2)
	f, h, err := Fit(context.Background(), d, &Options{Epochs: 2, Val: 0.2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteFitText(&buf, "m.json", f, h); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(buf.String(), "\n")
	if want := "wrote m.json: softmax-linear, 2 features → 3 labels, loss kl"; lines[0] != want {
		t.Errorf("line 1 %q, want %q", lines[0], want)
	}
	if want := "2 epochs on 8 rows, final training loss "; !strings.HasPrefix(lines[1], want) || !strings.Contains(lines[1], "on 2 rows at epoch") {
		t.Errorf("line 2 %q", lines[1])
	}
	buf.Reset()
	if err := WriteFitJSON(&buf, "m.json", f); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Model            string
		In, Labels, Rows int
		ValRows          int     `json:"val_rows"`
		EpochsRun        int     `json:"epochs_run"`
		ValLoss          float64 `json:"val_loss"`
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.Model != "m.json" || got.In != 2 || got.Labels != 3 || got.Rows != 8 || got.ValRows != 2 || got.EpochsRun != 2 || got.ValLoss != *f.Train.ValLoss {
		t.Errorf("JSON %s", buf.String())
	}
}
