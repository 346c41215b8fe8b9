package plotutil

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Series is one named line of points (X[i], Y[i]).
type Series struct {
	Name string
	X, Y []float64
	// Open, if not nil, has one entry per point: true draws the point as a
	// hollow marker joined to its neighbours by a dotted segment, for a
	// value that was estimated rather than measured (the memory a method
	// would need where it could not be run).
	Open []bool
	// Dashed draws the line dashed, for reference values such as
	// published figures.
	Dashed bool
	// Color is the colour of the series; nil means Color(i) for the i-th
	// series of the figure.
	Color color.Color
	// Marker is the marker shape, 1 to 5 (circle, square, triangle, cross,
	// plus); 0 means the i-th shape for the i-th series.
	Marker int
}

// check panics if the slices of s have different lengths.
func (s *Series) check() {
	if len(s.X) != len(s.Y) || s.Open != nil && len(s.Open) != len(s.X) {
		panic(fmt.Sprintf("plotutil: series %q has %d x, %d y and %d open values", s.Name, len(s.X), len(s.Y), len(s.Open)))
	}
}

// LogLog returns a figure of the series on log scales in x and y, with
// markers and a legend. Points whose x or y is not a positive finite number
// are left out and listed in the series' legend entry ("missing at x =
// …"); hollow markers (Series.Open) are explained in a note under the
// legend.
func LogLog(title, xlabel, ylabel string, series []Series) *Figure {
	f := newFigure(title, xlabel, ylabel)
	setLog(&f.Plot.X)
	setLog(&f.Plot.Y)
	f.addSeries(series, true, true)
	return f
}

// Curves returns a figure of training curves: each series is a line of y
// against x (the epoch) on a linear x axis, and on a log y axis if logY
// (points with y ≤ 0 are then left out). Markers are drawn on series of
// at most 30 points.
func Curves(title, xlabel, ylabel string, logY bool, series []Series) *Figure {
	f := newFigure(title, xlabel, ylabel)
	if logY {
		setLog(&f.Plot.Y)
	}
	f.addSeries(series, false, logY)
	return f
}

// addSeries adds the drawable points of each series to the plot and its
// entry to the legend.
func (f *Figure) addSeries(series []Series, logX, logY bool) {
	anyOpen := false
	for i := range series {
		s := &series[i]
		s.check()
		sp := &seriesPlot{markers: len(s.X) <= 30 || logX}
		var missing []string
		bad := 0
		for k := range s.X {
			x, y := s.X[k], s.Y[k]
			if !drawable(x, logX) || !drawable(y, logY) {
				if drawable(x, logX) {
					missing = append(missing, FormatPow10(x))
				} else {
					bad++
				}
				continue
			}
			open := s.Open != nil && s.Open[k]
			anyOpen = anyOpen || open
			sp.pts = append(sp.pts, point{x, y, open})
		}
		c := s.Color
		if c == nil {
			c = Color(i)
		}
		m := i
		if s.Marker > 0 {
			m = s.Marker - 1
		}
		sp.line = draw.LineStyle{Color: c, Width: vg.Points(1.5)}
		if s.Dashed {
			sp.line.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
		}
		sp.dotted = draw.LineStyle{Color: c, Width: vg.Points(1), Dashes: []vg.Length{vg.Points(1), vg.Points(2.5)}}
		sp.glyph = draw.GlyphStyle{Color: c, Radius: vg.Points(3.5), Shape: glyph(m, false)}
		sp.hollow = draw.GlyphStyle{Color: c, Radius: vg.Points(3.5), Shape: glyph(m, true)}
		name := s.Name
		switch {
		case len(s.X) == 0:
			name += " (no data)"
		case len(missing) > 0:
			name += " (missing at x = " + strings.Join(missing, ", ") + ")"
		}
		if bad > 0 {
			name += fmt.Sprintf(" (%d points with invalid x left out)", bad)
		}
		if len(sp.pts) > 0 {
			f.Plot.Add(sp)
		}
		f.Legend.Add(name, sp)
	}
	if anyOpen {
		f.Notes = append(f.Notes, "Hollow markers and dotted lines: estimated, not measured.")
	}
}

// drawable reports whether v can be placed on an axis.
func drawable(v float64, log bool) bool {
	return !math.IsNaN(v) && !math.IsInf(v, 0) && (!log || v > 0)
}

type point struct {
	x, y float64
	open bool
}

// seriesPlot draws one series: segments between consecutive points (dotted
// where either end is open) and a marker per point.
type seriesPlot struct {
	pts           []point
	line, dotted  draw.LineStyle
	glyph, hollow draw.GlyphStyle
	markers       bool
}

var (
	_ plot.Plotter     = (*seriesPlot)(nil)
	_ plot.DataRanger  = (*seriesPlot)(nil)
	_ plot.Thumbnailer = (*seriesPlot)(nil)
)

func (s *seriesPlot) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for k := 1; k < len(s.pts); k++ {
		a, b := s.pts[k-1], s.pts[k]
		st := s.line
		if a.open || b.open {
			st = s.dotted
		}
		seg := []vg.Point{{X: trX(a.x), Y: trY(a.y)}, {X: trX(b.x), Y: trY(b.y)}}
		c.StrokeLines(st, c.ClipLinesXY(seg)...)
	}
	if !s.markers && len(s.pts) > 1 {
		return
	}
	for _, q := range s.pts {
		pt := vg.Point{X: trX(q.x), Y: trY(q.y)}
		if !c.Contains(pt) {
			continue
		}
		g := s.glyph
		if q.open {
			g = s.hollow
		}
		c.DrawGlyph(g, pt)
	}
}

func (s *seriesPlot) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, ymin = math.Inf(1), math.Inf(1)
	xmax, ymax = math.Inf(-1), math.Inf(-1)
	for _, q := range s.pts {
		xmin, xmax = math.Min(xmin, q.x), math.Max(xmax, q.x)
		ymin, ymax = math.Min(ymin, q.y), math.Max(ymax, q.y)
	}
	return
}

func (s *seriesPlot) Thumbnail(c *draw.Canvas) {
	y := (c.Min.Y + c.Max.Y) / 2
	c.StrokeLine2(s.line, c.Min.X, y, c.Max.X, y)
	if s.markers {
		c.DrawGlyph(s.glyph, vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: y})
	}
}
