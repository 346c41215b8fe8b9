package ordination

import (
	"cmp"
	"fmt"
	"image/color"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/twl-ldl/twl/internal/plotutil"
)

// ScatterOptions are the options of Scatter.
type ScatterOptions struct {
	// Title is drawn above the plot; "" draws none.
	Title string
	// Groups, if not nil, holds each sample's category (a metadata
	// value): samples are coloured by it, with a legend. "" is drawn as
	// "(missing)".
	Groups []string
	// Legend is the legend's heading (the metadata column's name).
	Legend string
	// MaxGroups is the most legend entries: the MaxGroups−1 largest
	// categories keep their own colour and the rest are drawn grey as
	// "(other)". 0 means 12.
	MaxGroups int
}

// Scatter draws the samples on the first two axes of r, labelled with the
// proportion explained ("PC1 (34.2%)"), and returns the image encoded as
// format: "png" (150 dpi) or "svg". With one axis (two samples) the second
// coordinate is 0. Categories are ordered by size (largest first, then by
// name), each with its own colour and marker. It panics if Groups is not
// nil and its length is not r.N.
func Scatter(r *Result, format string, opts *ScatterOptions) ([]byte, error) {
	if opts == nil {
		opts = &ScatterOptions{}
	}
	if opts.Groups != nil && len(opts.Groups) != r.N {
		panic(fmt.Sprintf("ordination: %d groups for %d samples", len(opts.Groups), r.N))
	}
	if format != "png" && format != "svg" {
		return nil, fmt.Errorf("ordination: plot format %q: want png or svg", format)
	}
	p := plot.New()
	p.Title.Text = opts.Title
	p.X.Label.Text = r.AxisLabel(0)
	p.Y.Label.Text = r.AxisLabel(1)
	grid := plotter.NewGrid()
	grid.Vertical.Color, grid.Horizontal.Color = color.Gray{0xdd}, color.Gray{0xdd}
	p.Add(grid)
	leg := plot.NewLegend()
	leg.Top, leg.Left = true, true
	leg.TextStyle.Font.Size = 9
	fig := &plotutil.Figure{Plot: p}
	xy := func(i int) (float64, float64) {
		x, y := r.Coords[i*r.K], 0.0
		if r.K > 1 {
			y = r.Coords[i*r.K+1]
		}
		return x, y
	}
	if opts.Groups == nil {
		pts := make(plotter.XYs, r.N)
		for i := range pts {
			pts[i].X, pts[i].Y = xy(i)
		}
		s, _ := plotter.NewScatter(pts)
		s.GlyphStyle = draw.GlyphStyle{Color: plotutil.Color(0), Radius: vg.Points(3), Shape: draw.CircleGlyph{}}
		p.Add(s)
		pad(p)
		return fig.Render(format)
	}
	limit := opts.MaxGroups
	if limit <= 0 {
		limit = 12
	}
	names, of, rest := groups(opts.Groups, limit)
	if opts.Legend != "" {
		fig.Notes = []string{"colour: " + opts.Legend}
	}
	shapes := []draw.GlyphDrawer{draw.CircleGlyph{}, draw.PyramidGlyph{}, draw.BoxGlyph{}}
	for g, name := range names {
		var pts plotter.XYs
		for i := range r.N {
			if of[i] == g {
				x, y := xy(i)
				pts = append(pts, plotter.XY{X: x, Y: y})
			}
		}
		s, _ := plotter.NewScatter(pts)
		c, shape := plotutil.Color(g), shapes[(g/8)%len(shapes)]
		if g == len(names)-1 && rest {
			c = color.Gray{0x99}
		}
		s.GlyphStyle = draw.GlyphStyle{Color: c, Radius: vg.Points(3), Shape: shape}
		p.Add(s)
		leg.Add(fmt.Sprintf("%s (%d)", name, len(pts)), s)
	}
	fig.Legend = leg
	pad(p)
	return fig.Render(format)
}

// groups names the categories of values, the largest first (then by
// name), at most limit of them; when there are more, the last is "(other)",
// holding the rest, and rest is true. of[i] is value i's category.
func groups(values []string, limit int) (names []string, of []int, rest bool) {
	count := map[string]int{}
	for _, v := range values {
		count[label(v)]++
	}
	for name := range count {
		names = append(names, name)
	}
	slices.SortFunc(names, func(a, b string) int {
		if c := cmp.Compare(count[b], count[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	index := map[string]int{}
	for g, name := range names {
		index[name] = min(g, limit-1)
	}
	if len(names) > limit {
		names, rest = append(names[:limit-1], "(other)"), true
	}
	of = make([]int, len(values))
	for i, v := range values {
		of[i] = index[label(v)]
	}
	return names, of, rest
}

func label(v string) string {
	if v == "" {
		return "(missing)"
	}
	return v
}

// pad widens both axes by 5% of their range on each side, so that no
// marker is cut by the frame.
func pad(p *plot.Plot) {
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		w := a.Max - a.Min
		if w == 0 {
			w = 1
		}
		a.Min -= 0.05 * w
		a.Max += 0.05 * w
	}
}
