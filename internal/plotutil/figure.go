package plotutil

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/twl-ldl/twl/internal/atomicfile"
)

// Default size of a saved figure.
const (
	DefaultWidth  = 18 * vg.Centimeter
	DefaultHeight = 10 * vg.Centimeter
)

// DPI is the resolution of PNG output: 150 dots per inch, so that the
// default figure is 1063×591 pixels.
const DPI = 150

// A Figure is a plot and its legend, drawn to the right of the plot.
type Figure struct {
	// Plot holds the axes and the data. Its own legend is not used.
	Plot *plot.Plot
	// Legend is drawn in a column to the right of Plot; empty means no
	// column.
	Legend plot.Legend
	// Notes are lines of text drawn under the legend (for example what
	// hollow markers mean).
	Notes []string
	// Width and Height are the size of the image; zero means DefaultWidth
	// and DefaultHeight.
	Width, Height vg.Length
}

// newFigure returns a figure with a titled plot and an empty legend.
func newFigure(title, xlabel, ylabel string) *Figure {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	p.Add(newGrid())
	l := plot.NewLegend()
	l.Top, l.Left = true, true
	l.TextStyle.Font.Size = 9
	return &Figure{Plot: p, Legend: l}
}

// Render draws the figure in format "png" or "svg" (or any other format of
// plot.WriterTo) and returns the encoded image.
func (f *Figure) Render(format string) ([]byte, error) {
	w, h := f.Width, f.Height
	if w <= 0 {
		w = DefaultWidth
	}
	if h <= 0 {
		h = DefaultHeight
	}
	var c vg.CanvasWriterTo
	if format == "png" {
		c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(DPI))}
	} else {
		var err error
		if c, err = draw.NewFormattedCanvas(w, h, format); err != nil {
			return nil, fmt.Errorf("plotutil: %w", err)
		}
	}
	if err := f.draw(draw.New(c)); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("plotutil: render %s: %w", format, err)
	}
	return buf.Bytes(), nil
}

// draw draws the plot and the legend column on dc. Gonum's plot panics
// on some degenerate inputs; such a panic is returned as an error.
func (f *Figure) draw(dc draw.Canvas) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("plotutil: drawing %q: %v", f.Plot.Title.Text, r)
		}
	}()
	fixLogRange(&f.Plot.X)
	fixLogRange(&f.Plot.Y)
	dc = draw.Crop(dc, 2*vg.Millimeter, -2*vg.Millimeter, 2*vg.Millimeter, -3*vg.Millimeter)
	// The legend column takes at most half the width; a wider legend gets
	// a smaller font, down to 6 points.
	limit := (dc.Max.X-dc.Min.X)/2 - 6*vg.Millimeter
	width := f.legendWidth()
	for width > limit && f.Legend.TextStyle.Font.Size > 6 {
		f.Legend.TextStyle.Font.Size -= 0.5
		width = f.legendWidth()
	}
	if width > 0 {
		width = min(width, limit) + 6*vg.Millimeter
	}
	f.Plot.Draw(draw.Crop(dc, 0, -width, 0, 0))
	if width == 0 {
		return nil
	}
	lc := draw.Crop(dc, dc.Max.X-dc.Min.X-width+3*vg.Millimeter, -2*vg.Millimeter, 0, -f.titleHeight()-2*vg.Millimeter)
	f.Legend.Draw(lc)
	sty := f.Legend.TextStyle
	sty.Font.Size = 8
	sty.XAlign = draw.XLeft
	y := lc.Max.Y - f.legendHeight(lc) - 3*vg.Millimeter
	for _, n := range f.Notes {
		for _, line := range wrapText(sty, n, lc.Max.X-lc.Min.X) {
			y -= sty.Height(line)
			lc.FillText(sty, vg.Point{X: lc.Min.X, Y: y}, line)
		}
	}
	return nil
}

func (f *Figure) titleHeight() vg.Length {
	if f.Plot.Title.Text == "" {
		return 0
	}
	return f.Plot.Title.TextStyle.Height(f.Plot.Title.Text) + f.Plot.Title.Padding
}

// legendWidth is the width of the legend column: the widest of the
// entries and the notes (notes wrap at 40 characters' width).
func (f *Figure) legendWidth() vg.Length {
	r := f.Legend.Rectangle(draw.Canvas{})
	w := r.Max.X - r.Min.X
	if len(f.Notes) > 0 {
		sty := f.Legend.TextStyle
		sty.Font.Size = 8
		w = max(w, min(sty.Width(strings.Repeat("n", 40)), maxWidth(sty, f.Notes)))
	}
	return w
}

func (f *Figure) legendHeight(c draw.Canvas) vg.Length {
	r := f.Legend.Rectangle(c)
	return r.Max.Y - r.Min.Y
}

func maxWidth(sty draw.TextStyle, lines []string) vg.Length {
	var w vg.Length
	for _, l := range lines {
		w = max(w, sty.Width(l))
	}
	return w
}

// wrapText splits text into lines no wider than width, at spaces.
func wrapText(sty draw.TextStyle, text string, width vg.Length) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		try := word
		if line != "" {
			try = line + " " + word
		}
		if line != "" && sty.Width(try) > width {
			lines = append(lines, line)
			try = word
		}
		line = try
	}
	return append(lines, line)
}

// Save writes the figure to base+".png" and base+".svg", each atomically:
// a reader sees the old file or the complete new one. Both images are
// rendered before either file is written.
func (f *Figure) Save(base string) error {
	png, err := f.Render("png")
	if err != nil {
		return err
	}
	svg, err := f.Render("svg")
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(base+".png", png, 0o644); err != nil {
		return err
	}
	return atomicfile.WriteFile(base+".svg", svg, 0o644)
}

// palette holds the Okabe–Ito colours, distinguishable with the common
// forms of colour blindness, in the order series get them.
var palette = []color.Color{
	color.RGBA{0x00, 0x72, 0xB2, 0xff}, // blue
	color.RGBA{0xD5, 0x5E, 0x00, 0xff}, // vermillion
	color.RGBA{0x00, 0x9E, 0x73, 0xff}, // bluish green
	color.RGBA{0xCC, 0x79, 0xA7, 0xff}, // reddish purple
	color.RGBA{0xE6, 0x9F, 0x00, 0xff}, // orange
	color.RGBA{0x56, 0xB4, 0xE9, 0xff}, // sky blue
	color.RGBA{0x00, 0x00, 0x00, 0xff}, // black
	color.RGBA{0x99, 0x88, 0x22, 0xff}, // dark yellow
}

// Color returns the i-th colour of the palette, cycling.
func Color(i int) color.Color { return palette[((i%len(palette))+len(palette))%len(palette)] }

// glyphs pairs a filled marker with its hollow form, in the order series
// get them.
var glyphs = [][2]draw.GlyphDrawer{
	{draw.CircleGlyph{}, draw.RingGlyph{}},
	{draw.BoxGlyph{}, draw.SquareGlyph{}},
	{draw.PyramidGlyph{}, draw.TriangleGlyph{}},
	{draw.CrossGlyph{}, draw.RingGlyph{}},
	{draw.PlusGlyph{}, draw.SquareGlyph{}},
}

// glyph returns the i-th marker, filled or hollow.
func glyph(i int, hollow bool) draw.GlyphDrawer {
	g := glyphs[((i%len(glyphs))+len(glyphs))%len(glyphs)]
	if hollow {
		return g[1]
	}
	return g[0]
}

// LogTicks marks the powers of ten of a log axis, labelled by Format, and
// the multiples 2…9 of each power as minor ticks when the axis spans at
// most 6 decades; beyond 10 decades only every other power is labelled.
// When the range spans less than a decade the first and last ticks are
// labelled as well. LogLog and Curves set it, with the default format, on
// their log axes; a caller may replace it to label in units
// (f.Plot.Y.Tick.Marker = LogTicks{Format: ...}).
type LogTicks struct {
	// Format labels a tick value; nil means FormatPow10.
	Format func(v float64) string
}

var _ plot.Ticker = LogTicks{}

// Ticks returns the ticks between lo and hi, which must be positive; it
// returns none otherwise.
func (lt LogTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(lo > 0) || !(hi >= lo) || math.IsInf(hi, 0) {
		return nil
	}
	format := lt.Format
	if format == nil {
		format = FormatPow10
	}
	var ticks []plot.Tick
	e0, e1 := int(math.Floor(math.Log10(lo))), int(math.Ceil(math.Log10(hi)))
	step := 1
	if e1-e0 > 10 {
		step = 2
	}
	for e := e0; e <= e1; e++ {
		p := math.Pow(10, float64(e))
		for k := 1; k <= 9; k++ {
			v := float64(k) * p
			if v < lo*(1-1e-9) || v > hi*(1+1e-9) || k > 1 && e1-e0 > 6 {
				continue
			}
			t := plot.Tick{Value: v}
			if k == 1 && e%step == 0 {
				t.Label = format(v)
			}
			ticks = append(ticks, t)
		}
	}
	labelled := 0
	for _, t := range ticks {
		if t.Label != "" {
			labelled++
		}
	}
	if labelled < 2 && len(ticks) > 0 {
		ticks[0].Label = format(ticks[0].Value)
		ticks[len(ticks)-1].Label = format(ticks[len(ticks)-1].Value)
	}
	return ticks
}

// FormatPow10 writes a tick value plainly from 0.001 to 1000 and in
// exponent form outside: "0.01", "100", "1e4", "2e-6", "1.5e7". (The
// plot fonts lack the superscripts ⁰, ⁹ and ⁻, so 10ⁿ is not written.)
func FormatPow10(v float64) string {
	if a := math.Abs(v); a == 0 || a >= 1e-3 && a < 1e4 {
		return strconv.FormatFloat(v, 'g', 4, 64)
	}
	s := strconv.FormatFloat(v, 'e', -1, 64) // "1e+06", "2.5e-07"
	mant, exp, _ := strings.Cut(s, "e")
	exp = strings.TrimPrefix(exp, "+")
	neg := strings.HasPrefix(exp, "-")
	exp = strings.TrimLeft(strings.TrimPrefix(exp, "-"), "0")
	if neg {
		exp = "-" + exp
	}
	return mant + "e" + exp
}

// setLog puts an axis on a log scale with logTicks.
func setLog(a *plot.Axis) {
	a.Scale = plot.LogScale{}
	a.Tick.Marker = LogTicks{}
}

// fixLogRange gives a log axis without data (or with a range gonum would
// reject) a drawable range, [1, 10] or a decade around the one value.
func fixLogRange(a *plot.Axis) {
	if _, ok := a.Scale.(plot.LogScale); !ok {
		return
	}
	switch {
	case !(a.Min > 0) || math.IsInf(a.Min, 0) || !(a.Max > 0) || math.IsInf(a.Max, 0) || a.Min > a.Max:
		a.Min, a.Max = 1, 10
	case a.Min == a.Max:
		a.Min, a.Max = a.Min/math.Sqrt(10), a.Max*math.Sqrt(10)
	default:
		// Pad by 10% of a decade on each side so markers are not clipped.
		a.Min /= math.Pow(10, 0.1)
		a.Max *= math.Pow(10, 0.1)
	}
}

// grid draws light major grid lines; unlike plotter.Grid it draws no minor
// lines, which crowd a log axis.
type grid struct{ style draw.LineStyle }

func newGrid() *grid {
	return &grid{style: draw.LineStyle{Color: color.Gray{0xdd}, Width: vg.Points(0.5)}}
}

func (g *grid) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for _, t := range p.X.Tick.Marker.Ticks(p.X.Min, p.X.Max) {
		if t.IsMinor() {
			continue
		}
		x := trX(t.Value)
		c.StrokeLine2(g.style, x, c.Min.Y, x, c.Max.Y)
	}
	for _, t := range p.Y.Tick.Marker.Ticks(p.Y.Min, p.Y.Max) {
		if t.IsMinor() {
			continue
		}
		y := trY(t.Value)
		c.StrokeLine2(g.style, c.Min.X, y, c.Max.X, y)
	}
}
