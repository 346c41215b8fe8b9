package efficiency

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot/vg"

	"github.com/twl-ldl/twl/experiment/report"
	"github.com/twl-ldl/twl/internal/human"
	"github.com/twl-ldl/twl/internal/plotutil"
)

// labels of the methods in the table and the plots.
var methodLabel = map[string]string{
	TWLossGrad:       "TW: loss + gradient",
	TWLoss:           "TW: loss only",
	SinkhornCold:     "W¹ with CPU: Sinkhorn cold (New + Solve)",
	SinkhornColdGrad: "W¹ with CPU: Sinkhorn cold + gradient",
	SinkhornWarm:     "W¹ with CPU: Sinkhorn warm (kernel cached)",
	SinkhornWarmGrad: "W¹ with CPU: Sinkhorn warm + gradient",
}

// plotLabel are the short names of the methods in the plots' legends.
var plotLabel = map[string]string{
	TWLossGrad:       "TW loss+grad",
	TWLoss:           "TW loss",
	SinkhornCold:     "Sinkhorn cold",
	SinkhornColdGrad: "Sinkhorn cold+grad",
	SinkhornWarm:     "Sinkhorn warm",
	SinkhornWarmGrad: "Sinkhorn warm+grad",
}

// Markdown returns the report: Table 3 with the paper's figures beside
// twl's, how each figure was measured, and the run's conditions.
func (r *Result) Markdown() string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("# Computational efficiency (the paper's Table 3)\n\n")
	p("Time and memory to evaluate the loss of one pair of random distributions on L labels: ")
	p("the tree-Wasserstein distance TW on a random tree with unit weights, and the Sinkhorn ")
	p("Wasserstein loss W¹ (log domain, λ = %g, %d iterations) on the cost 11ᵀ − I. ", r.Lambda, r.Iters)
	p("**Paper**: the published Table 3 (PyTorch). **twl**: this run. ")
	p("**Elsewhere**: POT and PyTorch on a CPU of the same kind as this machine (REFERENCE.md, at `../shared/REFERENCE.md` relative to the repository), not the paper's. ")
	p("For TW the first of them is the strongest PyTorch form, an Euler tour: nodes in depth-first order, subtree sums as differences of one cumulative sum, autograd for the gradient.\n\n")

	p("| L | Loss | Paper time (s) | Paper memory | twl time | twl allocated | twl peak RSS − start | Elsewhere, CPU (REFERENCE.md) |\n")
	p("|---:|---|---:|---:|---:|---:|---:|---|\n")
	for _, s := range r.Sizes {
		first := true
		row := func(loss, ptime, pmem, time, alloc, rss, ref string) {
			l := ""
			if first {
				l = pow10(s.Labels)
				first = false
			}
			p("| %s | %s | %s | %s | %s | %s | %s | %s |\n", l, loss, ptime, pmem, time, alloc, rss, ref)
		}
		pub := func(m map[int]published) (string, string) {
			if v, ok := m[s.Labels]; ok {
				return v.TimeText, v.MemoryText
			}
			return "", ""
		}
		gpuShown := false
		for _, c := range s.Cases {
			var pt, pm, ref string
			switch c.Method {
			case TWLossGrad:
				pt, pm = pub(paperTW)
				ref = joinRefs(s.Labels, "PyTorch Euler tour (strongest)", refTorchEuler,
					"PyTorch level-wise scatter", refTorchScatter, "PyTorch sparse subtree matrix", refTorchSparse)
			case SinkhornCold:
				pt, pm = pub(paperCPU)
				ref = joinRefs(s.Labels, "POT sinkhorn2 log", refPOT)
			}
			if !gpuShown && !isTW(c.Method) {
				if t, m := pub(paperGPU); t != "" {
					row("W¹ with GPU", t, m, "(no GPU code in twl)", "", "", "")
				}
				gpuShown = true
			}
			row(methodLabel[c.Method], pt, pm, c.timeText(), c.allocText(), c.rssText(), ref)
		}
	}
	p("\n")
	r.findings(&b)
	r.notes(&b)
	return b.String()
}

func (c *Case) timeText() string {
	if c.Skipped != "" {
		return "— (not run)"
	}
	unit, scale := human.SecondsUnit(c.Seconds)
	return fmt.Sprintf("%s ± %s %s", human.Sig3(c.Seconds*scale), human.Sig3(c.StdSeconds*scale), unit)
}

func (c *Case) allocText() string {
	if c.Skipped != "" {
		return "(" + formatBytes(float64(c.NeedBytes)) + ")"
	}
	return formatBytes(float64(c.AllocBytes))
}

func (c *Case) rssText() string {
	if c.PeakRSSBytes < 0 {
		return "—"
	}
	return formatBytes(float64(c.PeakRSSBytes - c.BaseRSSBytes))
}

// joinRefs writes the reference figures at L of the given (name, table)
// pairs.
func joinRefs(L int, pairs ...any) string {
	var out []string
	for i := 0; i+1 < len(pairs); i += 2 {
		if v, ok := pairs[i+1].(map[int]reference)[L]; ok {
			out = append(out, pairs[i].(string)+": "+v.Text)
		}
	}
	return strings.Join(out, "; ")
}

// findings writes, per size, the comparisons a reader looks for.
func (r *Result) findings(b *strings.Builder) {
	p := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	p("## Findings\n\n")
	for _, s := range r.Sizes {
		var parts []string
		t := r.Case(TWLossGrad, s.Labels)
		if t != nil && t.Skipped == "" {
			parts = append(parts, fmt.Sprintf("TW loss + gradient %s, %s allocated", human.Seconds(t.Seconds), formatBytes(float64(t.AllocBytes))))
		}
		for _, m := range []string{SinkhornCold, SinkhornWarmGrad} {
			w := r.Case(m, s.Labels)
			switch {
			case w == nil:
			case w.Skipped != "":
				parts = append(parts, fmt.Sprintf("%s not run: it needs %s", plotLabel[m], formatBytes(float64(w.NeedBytes))))
			case t != nil && t.Skipped == "":
				parts = append(parts, fmt.Sprintf("%s %s (%s× TW's time), %s (%s× TW's allocation)", plotLabel[m],
					human.Seconds(w.Seconds), ratio(w.Seconds, t.Seconds), formatBytes(float64(w.AllocBytes)), ratio(float64(w.AllocBytes), float64(t.AllocBytes))))
			default:
				parts = append(parts, fmt.Sprintf("%s %s, %s allocated", plotLabel[m], human.Seconds(w.Seconds), formatBytes(float64(w.AllocBytes))))
			}
		}
		if pt, ok := paperTW[s.Labels]; ok && t != nil && t.Skipped == "" {
			parts = append(parts, fmt.Sprintf("the paper's TW took %s s, %s× twl's", pt.TimeText, ratio(pt.Seconds, t.Seconds)))
		}
		if e, ok := refTorchEuler[s.Labels]; ok && t != nil && t.Skipped == "" {
			parts = append(parts, fmt.Sprintf("PyTorch's strongest TW (Euler tour, REFERENCE.md) %s, %s× twl's time", e.timeText(), e.times(t.Seconds)))
		}
		if e, ok := refTorchScatter[s.Labels]; ok && t != nil && t.Skipped == "" {
			parts = append(parts, fmt.Sprintf("its level-wise scatter %s, %s×", e.timeText(), e.times(t.Seconds)))
		}
		if len(parts) > 0 {
			p("- L = %s: %s.\n", pow10(s.Labels), strings.Join(parts, "; "))
		}
	}
	p("\n")
}

// timeText is the time of a reference figure alone: "4.2–6.4 ms".
func (v reference) timeText() string {
	if v.Max > 0 {
		unit, scale := human.SecondsUnit(v.Max)
		return trimZeros(human.Sig3(v.Seconds*scale)) + "–" + trimZeros(human.Sig3(v.Max*scale)) + " " + unit
	}
	return human.Seconds(v.Seconds)
}

// times is the reference time over twl's time t: "21.0–32.0" for a range.
func (v reference) times(t float64) string {
	if v.Max > 0 {
		return ratio(v.Seconds, t) + "–" + ratio(v.Max, t)
	}
	return ratio(v.Seconds, t)
}

// trimZeros drops trailing zeros after a decimal point: "4.20" → "4.2".
func trimZeros(s string) string {
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

func ratio(a, b float64) string {
	if !(b > 0) || math.IsInf(a/b, 0) {
		return "∞"
	}
	return human.Sig3(a / b)
}

// notes writes how the figures were measured, and the run's conditions.
func (r *Result) notes(b *strings.Builder) {
	p := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	m := r.Machine
	p("## How the figures were measured\n\n")
	p("- **twl time**: mean ± standard deviation of at least %s per case (at least 10 for cases under 50 ms), each the mean of enough back-to-back calls to last %s, after one warm-up call and a garbage collection. ", report.Plural(r.Repeats, "measurement", "measurements"), human.Seconds(r.MinTime))
	p("TW runs on one goroutine; Sinkhorn on up to %d. Cold Sinkhorn builds the kernel exp(−λC) and solves, as one call of POT's sinkhorn2 does; warm Sinkhorn reuses a kernel built beforehand, as a training loop would. The paper's W¹ CPU figures are set beside twl's cold Sinkhorn, loss only.\n", r.Workers)
	p("- **twl allocated**: bytes allocated on the Go heap (runtime.MemStats.TotalAlloc) to build what the method needs and make one call: the ground metric (TW: tree.Random + BreadthFirst, temporaries included; Sinkhorn: the L×L cost matrix, 8L² bytes), the setup (tw.NewWorkspace and the gradient vector; sinkhorn.New with its kernel, 8L² bytes), and the call itself (for cold Sinkhorn, New + Solve). The two input distributions (16L bytes, common to all methods) and goroutine stacks are not counted. In parentheses: what a case that was not run would need (cost matrix + kernel for Sinkhorn). The JSON also has each part and the live heap held.\n")
	if hasRSS(r) {
		p("- **twl peak RSS − start**: %s, minus the same process's peak before it built anything (the Go runtime and program: %s), so that the parent's memory does not count. It includes garbage not yet collected and memory the Go runtime keeps.\n", r.RSS, r.baseRSSRange())
	} else {
		p("- **twl peak RSS − start**: %s.\n", r.RSS)
	}
	p("- **Paper memory**: as published; the paper does not say how it was measured. Its \"(40.00 GB)\" for W¹ at 10⁵ is the L×L cost matrix in float32 (4L² bytes); twl computes in float64, and Sinkhorn needs the cost matrix and the kernel, 16L² bytes.\n")
	p("- **Limit**: cases whose estimated need exceeded %s (%s) were reported, not run.\n\n", formatBytes(float64(r.MaxBytes)), r.MaxBytesFrom)
	p("Run: %s, %s/%s", r.Date.Format("2006-01-02 15:04 UTC"), m.GOOS, m.GOARCH)
	if m.CPU != "" {
		p(", %s", m.CPU)
	}
	p(", %d CPUs, GOMAXPROCS %d, %s", m.NumCPU, m.GOMAXPROCS, m.GoVersion)
	if m.MemTotal > 0 {
		p(", %s memory", formatBytes(float64(m.MemTotal)))
	}
	p("; seed %d; %.0f s in all.", r.Seed, m.WallClock)
	if m.LoadStart != "" {
		p(" Load average (/proc/loadavg) at start: %s; at end: %s.", m.LoadStart, m.LoadEnd)
	}
	p("\n")
}

// hasRSS reports whether any case has a peak RSS.
func hasRSS(r *Result) bool {
	for _, s := range r.Sizes {
		for _, c := range s.Cases {
			if c.PeakRSSBytes >= 0 {
				return true
			}
		}
	}
	return false
}

// baseRSSRange describes the start RSS of the measurement processes.
func (r *Result) baseRSSRange() string {
	lo, hi := int64(math.MaxInt64), int64(-1)
	for _, s := range r.Sizes {
		for _, c := range s.Cases {
			if c.BaseRSSBytes >= 0 {
				lo, hi = min(lo, c.BaseRSSBytes), max(hi, c.BaseRSSBytes)
			}
		}
	}
	switch {
	case hi < 0:
		return "not measured"
	case lo == hi:
		return formatBytes(float64(lo))
	}
	return formatBytes(float64(lo)) + " to " + formatBytes(float64(hi))
}

// WriteJSON writes the result, every measurement included, as indented
// JSON.
func (r *Result) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// Plot file names, without extension, written by WriteFiles.
const (
	TimePlot   = "efficiency-time"
	MemoryPlot = "efficiency-memory"
)

// Report file names written by WriteFiles; plots without extension.
const (
	MarkdownFile = "efficiency.md"
	JSONFile     = "efficiency.json"
)

// WriteFiles writes the report to dir, creating it if needed: MarkdownFile,
// JSONFile, and TimePlot and MemoryPlot, the time and memory against L on
// log-log axes, as PNG and SVG, every file atomically. It returns the names
// of the files written, relative to dir.
func (r *Result) WriteFiles(dir string) ([]string, error) {
	var js bytes.Buffer
	if err := r.WriteJSON(&js); err != nil {
		return nil, err
	}
	return report.WriteFiles(dir, []report.File{{Name: MarkdownFile, Data: []byte(r.Markdown())}, {Name: JSONFile, Data: js.Bytes()}},
		[]report.Figure{{Name: TimePlot, Figure: r.timeFigure()}, {Name: MemoryPlot, Figure: r.memoryFigure()}})
}

var (
	twColor   = plotutil.Color(0)
	twColor2  = plotutil.Color(5)
	skColor   = plotutil.Color(1)
	skColor2  = plotutil.Color(4)
	skColor3  = plotutil.Color(3)
	refColor  = color.Gray{0x55}
	refColor2 = color.Gray{0x99}
)

// series returns a method's points: y(c) for each size where ok.
func (r *Result) series(method, name string, col color.Color, marker int, y func(c *Case) (v float64, open, ok bool)) plotutil.Series {
	s := plotutil.Series{Name: name, Color: col, Marker: marker}
	anyOpen := false
	for _, sz := range r.Sizes {
		c := r.Case(method, sz.Labels)
		if c == nil {
			continue
		}
		v, open, ok := y(c)
		if !ok {
			continue
		}
		s.X = append(s.X, float64(sz.Labels))
		s.Y = append(s.Y, v)
		s.Open = append(s.Open, open)
		anyOpen = anyOpen || open
	}
	if !anyOpen {
		s.Open = nil
	}
	return s
}

// pubSeries returns published figures as a dashed series.
func pubSeries(name string, m map[int]published, col color.Color, marker int, y func(p published) (float64, bool)) plotutil.Series {
	s := plotutil.Series{Name: name, Color: col, Marker: marker, Dashed: true}
	anyOpen := false
	for _, L := range []int{100, 1000, 10000, 100000} {
		if v, ok := m[L]; ok {
			yv, open := y(v)
			s.X, s.Y, s.Open = append(s.X, float64(L)), append(s.Y, yv), append(s.Open, open)
			anyOpen = anyOpen || open
		}
	}
	if !anyOpen {
		s.Open = nil
	}
	return s
}

func refSeries(name string, m map[int]reference, col color.Color, marker int, y func(v reference) float64) plotutil.Series {
	s := plotutil.Series{Name: name, Color: col, Marker: marker, Dashed: true}
	for _, L := range []int{100, 1000, 10000, 100000} {
		if v, ok := m[L]; ok && y(v) > 0 {
			s.X, s.Y = append(s.X, float64(L)), append(s.Y, y(v))
		}
	}
	return s
}

func (r *Result) timeFigure() *plotutil.Figure {
	t := func(c *Case) (float64, bool, bool) { return c.Seconds, false, c.Skipped == "" }
	pt := func(p published) (float64, bool) {
		if p.Seconds == 0 {
			return math.NaN(), false
		}
		return p.Seconds, false
	}
	var ss []plotutil.Series
	for _, m := range []struct {
		method string
		col    color.Color
		marker int
	}{
		{TWLossGrad, twColor, 1}, {TWLoss, twColor2, 2},
		{SinkhornCold, skColor, 1}, {SinkhornWarm, skColor2, 2}, {SinkhornWarmGrad, skColor3, 3},
	} {
		if slices.Contains(r.Methods, m.method) {
			ss = append(ss, r.series(m.method, "twl "+plotLabel[m.method], m.col, m.marker, t))
		}
	}
	f := outsideFigure("Time of one loss evaluation", "time per call", human.Seconds, ss, pt, "", func(v reference) float64 { return v.Seconds })
	f.Notes = append(f.Notes, "Dashed: the paper's published figures, and figures measured outside twl on this kind of machine (ref.: REFERENCE.md; a range drawn at its fastest).")
	if l := r.notRun(); l != "" {
		f.Notes = append(f.Notes, "twl Sinkhorn not run at L = "+l+": not enough memory (see the memory plot).")
	}
	return f
}

func (r *Result) memoryFigure() *plotutil.Figure {
	alloc := func(c *Case) (float64, bool, bool) {
		if c.Skipped != "" {
			return float64(c.NeedBytes), true, true
		}
		return float64(c.AllocBytes), false, true
	}
	rss := func(c *Case) (float64, bool, bool) {
		return float64(c.PeakRSSBytes - c.BaseRSSBytes), false, c.PeakRSSBytes >= 0
	}
	pm := func(p published) (float64, bool) { return p.Bytes, p.Estimated }
	var ss []plotutil.Series
	for _, m := range []struct {
		method string
		col    color.Color
	}{{TWLossGrad, twColor}, {SinkhornCold, skColor}} {
		if slices.Contains(r.Methods, m.method) {
			ss = append(ss,
				r.series(m.method, "twl "+plotLabel[m.method]+", allocated", m.col, 1, alloc),
				r.series(m.method, "twl "+plotLabel[m.method]+", peak RSS", m.col, 2, rss))
		}
	}
	f := outsideFigure("Memory of one loss evaluation", "bytes", formatBytes, ss, pm, ", peak", func(v reference) float64 { return v.Peak })
	f.Notes = append([]string(nil), "Allocated: Go heap allocations to build the metric, set up and make one call. Peak RSS: of a separate process, minus its own at start.",
		"Hollow: what a case not run would need (twl: cost matrix and kernel in float64; the paper: as published).",
		"Dashed: the paper's published figures, and figures measured outside twl on this kind of machine (ref.: REFERENCE.md).")
	return f
}

// outsideFigure returns the log-log figure titled title of twl's series
// ss beside the paper's published figures (pick chooses the value) and the
// reference measurements outside twl (ref chooses the value; suffix ends
// their names), the y axis labelled ylabel and ticked by format.
func outsideFigure(title, ylabel string, format func(float64) string, ss []plotutil.Series,
	pick func(published) (float64, bool), suffix string, ref func(reference) float64) *plotutil.Figure {
	ss = append(ss,
		pubSeries("paper TW", paperTW, twColor, 4, pick),
		pubSeries("paper W¹ CPU", paperCPU, skColor, 4, pick),
		pubSeries("paper W¹ GPU", paperGPU, skColor2, 5, pick),
		refSeries("ref. PyTorch TW Euler tour, CPU"+suffix, refTorchEuler, refColor, 1, ref),
		refSeries("ref. PyTorch TW level-wise, CPU"+suffix, refTorchScatter, refColor, 3, ref),
		refSeries("ref. POT Sinkhorn, CPU"+suffix, refPOT, refColor2, 2, ref),
	)
	f := plotutil.LogLog(title, "labels L", ylabel, ss)
	f.Width, f.Height = figureWidth, figureHeight
	f.Plot.Y.Tick.Marker = plotutil.LogTicks{Format: format}
	f.Plot.X.Tick.Marker = plotutil.LogTicks{Format: pow10Plain}
	return f
}

// Size of the saved figures.
const (
	figureWidth  = 24 * vg.Centimeter
	figureHeight = 12 * vg.Centimeter
)

// notRun lists the sizes at which Sinkhorn was not run, "" if none.
func (r *Result) notRun() string {
	var ls []string
	for _, s := range r.Sizes {
		for _, c := range s.Cases {
			if !isTW(c.Method) && c.Skipped != "" {
				ls = append(ls, pow10(s.Labels))
				break
			}
		}
	}
	return strings.Join(ls, ", ")
}

// pow10 writes L as 10ⁿ when it is a power of ten from 10¹ to 10⁸ (the
// superscripts Markdown readers and the plot fonts have), else in digits.
func pow10(L int) string {
	e := 0
	for v := L; v > 1 && v%10 == 0; v /= 10 {
		e++
	}
	if L > 0 && e >= 1 && e <= 8 && intPow10(e) == L {
		return "10" + string([]rune("⁰¹²³⁴⁵⁶⁷⁸⁹")[e])
	}
	return strconv.Itoa(L)
}

func intPow10(e int) int {
	v := 1
	for range e {
		v *= 10
	}
	return v
}

// pow10Plain labels an axis tick of L.
func pow10Plain(v float64) string {
	if v == math.Trunc(v) && v >= 1 && v < 1e15 {
		return pow10(int(v))
	}
	return plotutil.FormatPow10(v)
}

// formatBytes writes a byte count in decimal units with 3 significant
// digits, as the paper does: "512 B", "1.58 MB", "160 GB".
func formatBytes(v float64) string {
	if math.IsNaN(v) {
		return "n/a"
	}
	if v < 1000 {
		return strconv.FormatFloat(v, 'f', 0, 64) + " B"
	}
	for _, u := range []string{"kB", "MB", "GB", "TB", "PB", "EB"} {
		v /= 1000
		if v < 999.5 || u == "EB" {
			return human.Sig3(v) + " " + u
		}
	}
	panic("unreachable")
}
