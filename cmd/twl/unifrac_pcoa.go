package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/twl-ldl/twl/internal/atomicfile"
	"github.com/twl-ldl/twl/metadata"
	"github.com/twl-ldl/twl/ordination"
)

// pcoaFlags are the flags of a command that writes a distance matrix and,
// on request, its principal coordinates analysis (package ordination) as a
// table and a PC1/PC2 scatter plot.
type pcoaFlags struct {
	fs                            *flags
	axes                          int
	out, meta, colorBy, plot, tsv string
	title                         string   // the plot's title; the command may set it
	groups                        []string // the --color-by value of each sample, set by check
}

func addPCoAFlags(fs *flags) *pcoaFlags {
	p := &pcoaFlags{fs: fs}
	fs.IntVar(&p.axes, "pcoa", 0, "also compute a principal coordinates analysis (PCoA) of the matrix on `K` axes")
	fs.OutFileVar(&p.out, "pcoa-out", "write the PCoA coordinates to `FILE` (default: the output file with extension .pcoa.tsv; pcoa.tsv when the matrix goes to standard output)")
	fs.StringVar(&p.meta, "metadata", "", "QIIME 2 style sample metadata `FILE` (TSV, sample id first) for --color-by")
	fs.StringVar(&p.colorBy, "color-by", "", "colour the --plot points by the metadata `COLUMN`")
	fs.OutFileVar(&p.plot, "plot", "draw PC1 against PC2 into `FILE`.png or FILE.svg")
	return p
}

// enabled reports whether --pcoa was given (checkFlags refuses a K < 1).
func (p *pcoaFlags) enabled() bool { return p.fs.isSet("pcoa") }

// outputs returns the files write will write, resolving the default name of
// the table from out, the matrix's output ("" or "-" for standard output).
func (p *pcoaFlags) outputs(out string) []string {
	if !p.enabled() {
		return nil
	}
	p.tsv = p.out
	if p.tsv == "" {
		p.tsv = "pcoa.tsv"
		if out != "" && out != "-" {
			p.tsv = strings.TrimSuffix(out, filepath.Ext(out)) + ".pcoa.tsv"
		}
	}
	return slices.DeleteFunc([]string{p.tsv, p.plot}, func(s string) bool { return s == "" })
}

// addFiles adds the PCoA's input and outputs to files, the overwrite
// check: --metadata, and the table when it goes to the default name
// derived from out (--pcoa-out and --plot are output flags already).
func (p *pcoaFlags) addFiles(files *atomicfile.Files, out string) {
	if !p.enabled() {
		return
	}
	files.Input("--metadata", p.meta)
	if p.outputs(out); p.out == "" {
		files.Output("the PCoA table (default --pcoa-out)", p.tsv)
	}
}

// checkFlags checks the flags among themselves, before any input is read.
func (p *pcoaFlags) checkFlags() error {
	switch {
	case p.enabled() && p.axes < 1:
		return p.fs.fail("--pcoa %d: give the number of axes, at least 1", p.axes)
	case !p.enabled() && (p.out != "" || p.meta != "" || p.colorBy != "" || p.plot != ""):
		return p.fs.fail("--pcoa-out, --plot, --metadata and --color-by need --pcoa K")
	case !p.enabled():
		return nil
	case p.plot != "" && plotFormat(p.plot) == "":
		return p.fs.fail("--plot %s: the file name must end in .png or .svg", p.plot)
	case (p.meta == "") != (p.colorBy == ""):
		return p.fs.fail("--metadata and --color-by go together")
	case p.colorBy != "" && p.plot == "":
		return p.fs.fail("--color-by colours the points of --plot FILE, which is not given")
	}
	return nil
}

// check checks the flags (checkFlags) and against the samples ids, and
// reads the metadata.
func (p *pcoaFlags) check(ids []string) error {
	if err := p.checkFlags(); err != nil || !p.enabled() {
		return err
	}
	switch {
	case len(ids) < 2:
		return fmt.Errorf("PCoA needs at least 2 samples, the table has %d", len(ids))
	case p.axes > len(ids):
		return p.fs.fail("--pcoa %d: more axes than the %d samples", p.axes, len(ids))
	case p.meta == "":
		return nil
	}
	f, err := os.Open(p.meta)
	if err != nil {
		return err
	}
	defer f.Close()
	tab, err := metadata.Read(f, p.meta)
	if err != nil {
		return err
	}
	if p.groups, err = tab.Lookup(ids, p.colorBy); err != nil {
		return fmt.Errorf("%s: %v", p.meta, err)
	}
	return nil
}

func plotFormat(name string) string {
	if ext := strings.ToLower(filepath.Ext(name)); ext == ".png" || ext == ".svg" {
		return ext[1:]
	}
	return ""
}

// pcoaFiles are the bytes of the PCoA's table and plot (nil without
// --plot), computed and not yet written.
type pcoaFiles struct{ tsv, img []byte }

// write computes the PCoA of d and writes its files (compute, commit).
func (p *pcoaFlags) write(e *env, ids []string, d []float64) error {
	out, err := p.compute(e, ids, d)
	if err != nil {
		return err
	}
	return p.commit(e, out)
}

// compute computes the PCoA of d (len(ids)² values, row-major) and the
// bytes of its table and plot, writing nothing.
func (p *pcoaFlags) compute(e *env, ids []string, d []float64) (*pcoaFiles, error) {
	if p.tsv == "" {
		p.outputs("")
	}
	var r ordination.Result
	if err := ordination.PCoA(&r, d, len(ids), p.axes); err != nil {
		var de *ordination.DataError
		if errors.As(err, &de) {
			return nil, fmt.Errorf("PCoA: distance between %q and %q: %s", ids[de.Row], ids[de.Col], de.Msg)
		}
		return nil, err
	}
	var tsv bytes.Buffer
	if err := ordination.WriteTSV(&tsv, &r, ids); err != nil {
		return nil, err
	}
	out := &pcoaFiles{tsv: tsv.Bytes()}
	if p.plot != "" {
		var err error
		opts := &ordination.ScatterOptions{Title: p.title, Groups: p.groups, Legend: p.colorBy}
		if out.img, err = ordination.Scatter(&r, plotFormat(p.plot), opts); err != nil {
			return nil, err
		}
	}
	if n, ratio := r.Negative(); n > 0 && e.stderr != nil {
		fmt.Fprintf(e.stderr, "%s: note: PCoA: %d negative eigenvalues, %.3g of the sum of the positive ones (the distances are not Euclidean)\n", p.fs.Name(), n, ratio)
	}
	return out, e.stopped()
}

// commit writes the table, then the plot, each atomically; if the plot
// fails, it removes the table it wrote.
func (p *pcoaFlags) commit(e *env, out *pcoaFiles) error {
	if err := e.output(p.tsv, out.tsv); err != nil || out.img == nil {
		return err
	}
	if err := e.output(p.plot, out.img); err != nil {
		removeWritten(p.tsv)
		return err
	}
	return nil
}

// removeWritten removes the regular files this run has just written, when
// a later output fails: standard output ("-" or ""), a device or a pipe
// cannot be taken back and stay.
func removeWritten(paths ...string) {
	for _, path := range paths {
		if path == "" || path == "-" {
			continue
		}
		if real, err := filepath.EvalSymlinks(path); err == nil {
			path = real // atomicfile replaced a link's target
		}
		if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() {
			os.Remove(path)
		}
	}
}
