// Package plotutil draws the few kinds of figures twl's experiment reports
// need, on top of gonum.org/v1/plot, and saves them as PNG and SVG.
//
//   - LogLog: several series against a size (time and memory against the
//     number of labels L), log scale on both axes, with markers. Points a
//     method could not be run at are either left out (NaN) and named in the
//     legend, or drawn as hollow markers (Series.Open), for example the memory
//     a method would have needed.
//   - Curves: training curves, several series against the epoch.
//   - ErrorBars: a metric per category (per loss), mean ± standard deviation,
//     one marker per group.
//
// Each returns a Figure: a plot with its legend drawn to the right of the
// data, so that it never hides a point. Figure.Save writes NAME.png and
// NAME.svg atomically (internal/atomicfile); Figure.Render returns the bytes
// of one format.
//
// Values that cannot be drawn (NaN, ±Inf, and values ≤ 0 on a log axis) are
// left out and counted in the series' legend entry; a figure with no
// drawable point at all is still a valid image. Slices of different lengths
// are programmer errors and panic with a "plotutil: " message; rendering and
// I/O failures are returned as errors.
package plotutil
