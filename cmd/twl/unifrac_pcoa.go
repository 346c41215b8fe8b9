package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

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

func (p *pcoaFlags) enabled() bool { return p.axes > 0 }

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

// check checks the flags against the samples ids and reads the metadata.
func (p *pcoaFlags) check(ids []string) error {
	switch {
	case p.axes < 0:
		return p.fs.fail("--pcoa %d: the number of axes must be positive", p.axes)
	case !p.enabled() && (p.out != "" || p.meta != "" || p.colorBy != "" || p.plot != ""):
		return p.fs.fail("--pcoa-out, --plot, --metadata and --color-by need --pcoa K")
	case !p.enabled():
		return nil
	case len(ids) < 2:
		return fmt.Errorf("PCoA needs at least 2 samples, the table has %d", len(ids))
	case p.axes > len(ids):
		return p.fs.fail("--pcoa %d: more axes than the %d samples", p.axes, len(ids))
	case p.plot != "" && plotFormat(p.plot) == "":
		return p.fs.fail("--plot %s: the file name must end in .png or .svg", p.plot)
	case (p.meta == "") != (p.colorBy == ""):
		return p.fs.fail("--metadata and --color-by go together")
	case p.colorBy != "" && p.plot == "":
		return p.fs.fail("--color-by colours the points of --plot FILE, which is not given")
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

// write computes the PCoA of d (len(ids)² values, row-major) and writes the
// table and the plot, each atomically, after both are computed.
func (p *pcoaFlags) write(e *env, ids []string, d []float64) error {
	if p.tsv == "" {
		p.outputs("")
	}
	var r ordination.Result
	if err := ordination.PCoA(&r, d, len(ids), p.axes); err != nil {
		var de *ordination.DataError
		if errors.As(err, &de) {
			return fmt.Errorf("PCoA: distance between %q and %q: %s", ids[de.Row], ids[de.Col], de.Msg)
		}
		return err
	}
	var tsv bytes.Buffer
	if err := ordination.WriteTSV(&tsv, &r, ids); err != nil {
		return err
	}
	var img []byte
	if p.plot != "" {
		var err error
		opts := &ordination.ScatterOptions{Title: p.title, Groups: p.groups, Legend: p.colorBy}
		if img, err = ordination.Scatter(&r, plotFormat(p.plot), opts); err != nil {
			return err
		}
	}
	if n, ratio := r.Negative(); n > 0 && e.stderr != nil {
		fmt.Fprintf(e.stderr, "%s: note: PCoA: %d negative eigenvalues, %.3g of the sum of the positive ones (the distances are not Euclidean)\n", p.fs.Name(), n, ratio)
	}
	if err := e.stopped(); err != nil {
		return err
	}
	if err := e.output(p.tsv, tsv.Bytes()); err != nil || img == nil {
		return err
	}
	return e.output(p.plot, img)
}
