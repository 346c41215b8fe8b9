package plotutil

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Group is one set of values with one value per category: a marker at
// Mean[i] with an error bar of ± Std[i]. A NaN mean leaves the category
// out; a NaN or nil Std draws no bar.
type Group struct {
	Name      string
	Mean, Std []float64
}

// ErrorBars returns a figure of a metric per category (for example per
// loss): for each group a marker at the mean with an error bar of one
// standard deviation, groups side by side within a category. The legend
// is drawn when there is more than one group or the group has a name.
// It panics if a group's Mean does not have one value per category, or
// Std is neither nil nor as long as Mean.
func ErrorBars(title, ylabel string, categories []string, groups []Group) *Figure {
	f := newFigure(title, "", ylabel)
	n := len(categories)
	ticks := make([]plot.Tick, n)
	for i, c := range categories {
		ticks[i] = plot.Tick{Value: float64(i), Label: c}
	}
	width := 0.5 // of a category, taken by the groups
	for g, grp := range groups {
		if len(grp.Mean) != n || grp.Std != nil && len(grp.Std) != n {
			panic(fmt.Sprintf("plotutil: group %q has %d means and %d deviations for %d categories", grp.Name, len(grp.Mean), len(grp.Std), n))
		}
		off := 0.0
		if len(groups) > 1 {
			off = width * (float64(g)/float64(len(groups)-1) - 0.5)
		}
		c := Color(g)
		bp := &barPlot{
			glyph: draw.GlyphStyle{Color: c, Radius: vg.Points(3.5), Shape: glyph(g, false)},
			line:  draw.LineStyle{Color: c, Width: vg.Points(1.2)},
		}
		missing := 0
		for i := range n {
			m := grp.Mean[i]
			if math.IsNaN(m) || math.IsInf(m, 0) {
				missing++
				continue
			}
			s := math.NaN()
			if grp.Std != nil {
				s = math.Abs(grp.Std[i])
			}
			if math.IsInf(s, 0) {
				s = math.NaN()
			}
			bp.pts = append(bp.pts, bar{x: float64(i) + off, mean: m, std: s})
		}
		if len(bp.pts) > 0 {
			f.Plot.Add(bp)
		}
		name := grp.Name
		if missing > 0 {
			name += fmt.Sprintf(" (%d missing)", missing)
		}
		if len(groups) > 1 || name != "" {
			f.Legend.Add(name, bp)
		}
	}
	f.Plot.X.Tick.Marker = plot.ConstantTicks(ticks)
	f.Plot.X.Min, f.Plot.X.Max = -0.5, math.Max(float64(n)-0.5, 0.5)
	y := &f.Plot.Y
	if y.Min > y.Max { // no data
		y.Min, y.Max = 0, 1
	} else {
		pad := 0.08 * (y.Max - y.Min)
		if pad == 0 {
			pad = 0.5 * math.Max(math.Abs(y.Max), 1)
		}
		y.Min -= pad
		y.Max += pad
	}
	return f
}

type bar struct{ x, mean, std float64 }

// barPlot draws a group: a marker and an error bar with caps per point.
type barPlot struct {
	pts   []bar
	glyph draw.GlyphStyle
	line  draw.LineStyle
}

var (
	_ plot.Plotter     = (*barPlot)(nil)
	_ plot.DataRanger  = (*barPlot)(nil)
	_ plot.Thumbnailer = (*barPlot)(nil)
)

func (b *barPlot) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	capw := vg.Points(4)
	for _, q := range b.pts {
		x := trX(q.x)
		if !math.IsNaN(q.std) {
			lo, hi := trY(q.mean-q.std), trY(q.mean+q.std)
			c.StrokeLines(b.line, c.ClipLinesY([]vg.Point{{X: x, Y: lo}, {X: x, Y: hi}})...)
			for _, y := range []vg.Length{lo, hi} {
				if y >= c.Min.Y && y <= c.Max.Y {
					c.StrokeLine2(b.line, x-capw, y, x+capw, y)
				}
			}
		}
		if pt := (vg.Point{X: x, Y: trY(q.mean)}); c.Contains(pt) {
			c.DrawGlyph(b.glyph, pt)
		}
	}
}

func (b *barPlot) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, ymin = math.Inf(1), math.Inf(1)
	xmax, ymax = math.Inf(-1), math.Inf(-1)
	for _, q := range b.pts {
		lo, hi := q.mean, q.mean
		if !math.IsNaN(q.std) {
			lo, hi = q.mean-q.std, q.mean+q.std
		}
		xmin, xmax = math.Min(xmin, q.x), math.Max(xmax, q.x)
		ymin, ymax = math.Min(ymin, lo), math.Max(ymax, hi)
	}
	return
}

func (b *barPlot) Thumbnail(c *draw.Canvas) {
	x, y := (c.Min.X+c.Max.X)/2, (c.Min.Y+c.Max.Y)/2
	c.StrokeLine2(b.line, x, c.Min.Y, x, c.Max.Y)
	c.DrawGlyph(b.glyph, vg.Point{X: x, Y: y})
}
