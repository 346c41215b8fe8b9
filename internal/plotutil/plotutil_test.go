package plotutil

import (
	"bytes"
	"image"
	_ "image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot"
)

// sample figures of each kind, including the degenerate cases.
func figures() map[string]*Figure {
	L := []float64{1e2, 1e3, 1e4, 1e5, 1e6}
	nan := math.NaN()
	return map[string]*Figure{
		"loglog": LogLog("Time per pair", "labels L", "seconds", []Series{
			{Name: "TW", X: L, Y: []float64{1e-6, 1e-5, 1.2e-4, 2e-3, 3e-2}},
			{Name: "Sinkhorn", X: L, Y: []float64{1e-4, 1e-2, 1.5, nan, nan}},
			{Name: "Sinkhorn, would need", X: L[:4], Y: []float64{1e3, 1e5, 1e7, 1.6e11}, Open: []bool{false, false, false, true}},
			{Name: "paper", X: L[:4], Y: []float64{0.0024, 0.0126, 0.12, 1.65}, Dashed: true},
		}),
		"loglog-empty":  LogLog("nothing", "x", "y", nil),
		"loglog-nodata": LogLog("empty series", "x", "y", []Series{{Name: "a"}, {Name: "b", X: []float64{-1, 0}, Y: []float64{nan, 1}}}),
		"loglog-one":    LogLog("one point", "x", "y", []Series{{Name: "a", X: []float64{10}, Y: []float64{5}}}),
		"curves": Curves("Training", "epoch", "loss", false, []Series{
			{Name: "KL", X: seq(100), Y: decay(100, 1)},
			{Name: "KL + TW", X: seq(100), Y: decay(100, 2)},
		}),
		"curves-log":   Curves("Training", "epoch", "loss", true, []Series{{Name: "KL", X: seq(10), Y: decay(10, 1)}}),
		"curves-empty": Curves("", "", "", true, []Series{{Name: "none"}}),
		"errorbars": ErrorBars("Wasserstein on the test set", "W₁", []string{"KL", "KL + ½W¹", "KL + W¹", "KL + ½TW", "KL + TW"}, []Group{
			{Name: "twl", Mean: []float64{1.2, 1.1, 1.15, 0.9, 0.85}, Std: []float64{0.05, 0.04, nan, 0.03, 0.02}},
			{Name: "paper", Mean: []float64{1.25, 1.12, nan, 0.95, 0.88}},
		}),
		"errorbars-empty": ErrorBars("", "", nil, nil),
		"errorbars-const": ErrorBars("", "", []string{"a"}, []Group{{Mean: []float64{0}, Std: []float64{0}}}),
	}
}

func seq(n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = float64(i + 1)
	}
	return x
}

func decay(n int, r float64) []float64 {
	y := make([]float64, n)
	for i := range y {
		y[i] = 1 + 3*math.Exp(-r*float64(i)/20)
	}
	return y
}

func TestSave(t *testing.T) {
	dir := t.TempDir()
	if d := os.Getenv("PLOTUTIL_KEEP"); d != "" {
		dir = d // to look at the images: PLOTUTIL_KEEP=/tmp/x go test -run TestSave
	}
	for name, f := range figures() {
		base := filepath.Join(dir, name)
		if err := f.Save(base); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		png, err := os.ReadFile(base + ".png")
		if err != nil {
			t.Fatal(err)
		}
		img, format, err := image.Decode(bytes.NewReader(png))
		if err != nil || format != "png" {
			t.Fatalf("%s.png: format %q, %v", name, format, err)
		}
		if b := img.Bounds(); b.Dx() < 500 || b.Dy() < 300 {
			t.Errorf("%s.png is %v, want at least 500×300", name, b)
		}
		svg, err := os.ReadFile(base + ".svg")
		if err != nil {
			t.Fatal(err)
		}
		if s := strings.TrimSpace(string(svg)); !strings.HasPrefix(s, "<?xml") && !strings.HasPrefix(s, "<svg") || !strings.Contains(s, "</svg>") {
			t.Errorf("%s.svg does not look like SVG: %.80q", name, s)
		}
	}
	// Nothing but the images: no temporary files left behind.
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}

func TestLegendNotes(t *testing.T) {
	f := LogLog("", "", "", []Series{
		{Name: "s", X: []float64{1, 10, 100}, Y: []float64{1, math.NaN(), 3}, Open: []bool{false, false, true}},
	})
	svg, err := f.Render("svg")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"missing at x = 10", "estimated,"} {
		if !bytes.Contains(svg, []byte(want)) {
			t.Errorf("SVG lacks %q", want)
		}
	}
}

func TestSaveError(t *testing.T) {
	f := LogLog("", "", "", nil)
	if err := f.Save(filepath.Join(t.TempDir(), "no", "such", "dir", "x")); err == nil {
		t.Error("Save into a missing directory succeeded")
	}
}

func TestShapePanics(t *testing.T) {
	for name, fn := range map[string]func(){
		"series": func() { LogLog("", "", "", []Series{{X: []float64{1}, Y: nil}}) },
		"open":   func() { LogLog("", "", "", []Series{{X: []float64{1}, Y: []float64{1}, Open: []bool{}}}) },
		"group":  func() { ErrorBars("", "", []string{"a", "b"}, []Group{{Mean: []float64{1}}}) },
	} {
		func() {
			defer func() {
				r := recover()
				if s, _ := r.(string); !strings.HasPrefix(s, "plotutil: ") {
					t.Errorf("%s: recovered %v, want a plotutil panic", name, r)
				}
			}()
			fn()
		}()
	}
}

func TestLogTicks(t *testing.T) {
	labels := func(ticks []plot.Tick) string {
		var l []string
		for _, tk := range ticks {
			if tk.Label != "" {
				l = append(l, tk.Label)
			}
		}
		return strings.Join(l, " ")
	}
	for _, c := range []struct {
		lo, hi float64
		want   string
		n      int // number of ticks, minor included
	}{
		{50, 2e6, "100 1000 1e4 1e5 1e6", 43},                 // 5 decades: minor ticks
		{1e-7, 2e-1, "1e-7 1e-6 1e-5 1e-4 0.001 0.01 0.1", 7}, // 7 decades: no minor ticks
		{1, 1e12, "1 100 1e4 1e6 1e8 1e10 1e12", 13},          // every other label
		{2, 5, "2 5", 4}, // under a decade: ends labelled
		{0, 5, "", 0},    // not a log range
	} {
		ticks := LogTicks{}.Ticks(c.lo, c.hi)
		if got := labels(ticks); got != c.want || len(ticks) != c.n {
			t.Errorf("Ticks(%g, %g): %d ticks labelled %q, want %d labelled %q", c.lo, c.hi, len(ticks), got, c.n, c.want)
		}
	}
	custom := LogTicks{Format: func(v float64) string { return "x" }}.Ticks(1, 100)
	if got := labels(custom); got != "x x x" {
		t.Errorf("custom format: %q", got)
	}
}

func TestFormatPow10(t *testing.T) {
	for v, want := range map[float64]string{1e6: "1e6", 2.5e-7: "2.5e-7", 0.001: "0.001", 1000: "1000", 1e4: "1e4", 0: "0", 1e100: "1e100"} {
		if got := FormatPow10(v); got != want {
			t.Errorf("FormatPow10(%g) = %q, want %q", v, got, want)
		}
	}
}
