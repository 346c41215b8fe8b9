package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/twl-ldl/twl/distmat"
	"github.com/twl-ldl/twl/internal/jsonfloat"
	"github.com/twl-ldl/twl/metadata"
	"github.com/twl-ldl/twl/permanova"
)

func runPermanova(e *env, args []string) error {
	fs := newFlags("permanova", "twl permanova --dm D.tsv --metadata M.tsv --column COLUMN [flags]")
	dm := fs.String("dm", "", "the distance matrix `FILE`: TSV as ssu, scikit-bio and QIIME 2 write it, or D.npy with its ids in D.ids.txt (required)")
	meta := fs.String("metadata", "", "QIIME 2 style sample metadata `FILE` (TSV, sample id first) (required)")
	column := fs.String("column", "", "the metadata `COLUMN` whose values group the samples (required)")
	perms := fs.Int("permutations", permanova.DefaultPermutations, "the number `P` of permutations for the p-value; 0 for none (the p-value is then NaN)")
	seed := fs.Uint64("seed", 1, "`S` seeds the permutations")
	format := fs.String("format", "text", "output `FORMAT`: text or json")
	drop := fs.Bool("drop-missing", false, "leave out the samples with no value in --column, as QIIME 2's beta-group-significance does, instead of refusing them")
	workers := fs.Int("workers", 0, "`N` goroutines read and test (0: all cores); the result does not depend on it")
	pos, err := fs.parse(e, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) > 0:
		return fs.fail("unexpected argument %q: the inputs are --dm and --metadata", pos[0])
	case *dm == "":
		return fs.fail("--dm is required: the distance matrix")
	case *meta == "":
		return fs.fail("--metadata is required: the sample metadata")
	case *column == "":
		return fs.fail("--column is required: the metadata column that groups the samples")
	case *perms < 0:
		return fs.fail("--permutations %d is negative", *perms)
	case *workers < 0:
		return fs.fail("--workers %d is negative", *workers)
	case *format != "text" && *format != "json":
		return fs.fail("--format must be text or json, not %q", *format)
	}
	tab, err := readMetadata(*meta)
	if err != nil {
		return err
	}
	if _, err := tab.Column(*column); err != nil {
		return fmt.Errorf("%s: %v", *meta, err)
	}
	mat, err := distmat.ReadFile(*dm, &distmat.Options{Workers: *workers})
	if err != nil {
		return err
	}
	labels, err := groupLabels(tab, mat.IDs, *meta, *column, *drop)
	if err != nil {
		return err
	}
	dropped := 0
	if *drop {
		dropped = keepLabelled(mat, labels)
		labels = slices.DeleteFunc(labels, func(l string) bool { return l == "" })
	}
	n := len(mat.IDs)
	m, err := permanova.New(mat.D, n, *workers)
	if err != nil {
		return matrixError(err, *dm, mat)
	}
	mat.D = nil // the test needs only m
	ctx := e.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	opts := &permanova.Options{Permutations: *perms, Seed: *seed, Workers: *workers}
	if *perms == 0 {
		opts.Permutations = -1
	}
	r, err := m.Test(ctx, labels, opts)
	switch {
	case errors.Is(err, permanova.ErrOneGroup) || errors.Is(err, permanova.ErrAllUnique):
		return fmt.Errorf("%s: column %q: %v", *meta, *column, err)
	case err != nil:
		return err
	}
	var out []byte
	if *format == "json" {
		out = permanovaJSON(r, *column, *seed, dropped)
	} else {
		out = permanovaText(r, *column, dropped)
	}
	return e.output("", out)
}

// readMetadata reads a metadata file.
func readMetadata(name string) (*metadata.Table, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return metadata.Read(f, name)
}

// groupLabels returns the value of column for each sample of ids, as
// scikit-bio groups a DistanceMatrix by a DataFrame column: every sample
// of the matrix must have a row and, unless drop, a value (rows of other
// samples are ignored). With drop, a sample without a value has the label
// "".
func groupLabels(tab *metadata.Table, ids []string, name, column string, drop bool) ([]string, error) {
	labels, err := tab.Lookup(ids, column)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if drop {
		return labels, nil
	}
	var missing []string
	count := 0
	for i, l := range labels {
		if l == "" {
			if count++; count <= 5 {
				missing = append(missing, strconv.Quote(ids[i]))
			}
		}
	}
	if count > 0 {
		more := ""
		if count > len(missing) {
			more = fmt.Sprintf(" and %d more", count-len(missing))
		}
		return nil, fmt.Errorf("%s: %d of %d samples have no value in column %q: %s%s (--drop-missing leaves them out)", name, count, len(ids), column, strings.Join(missing, ", "), more)
	}
	return labels, nil
}

// keepLabelled leaves in mat only the samples whose label is not empty,
// and returns how many it left out.
func keepLabelled(mat *distmat.Matrix, labels []string) int {
	var keep []int
	for i, l := range labels {
		if l != "" {
			keep = append(keep, i)
		}
	}
	n, k := len(labels), len(keep)
	if k == n {
		return 0
	}
	d := make([]float64, k*k)
	for a, i := range keep {
		for b, j := range keep {
			d[a*k+b] = mat.D[i*n+j]
		}
	}
	ids := make([]string, k)
	var lines []int
	for a, i := range keep {
		ids[a] = mat.IDs[i]
		if mat.Lines != nil {
			lines = append(lines, mat.Lines[i])
		}
	}
	mat.IDs, mat.D, mat.Lines = ids, d, lines
	return n - k
}

// matrixError words an invalid entry of the matrix with the samples' ids
// and, for a TSV file, the line of its row.
func matrixError(err error, name string, mat *distmat.Matrix) error {
	var de *permanova.DataError
	if !errors.As(err, &de) {
		return fmt.Errorf("%s: %v", name, err)
	}
	where := name
	if mat.Lines != nil {
		where = fmt.Sprintf("%s:%d", name, mat.Lines[de.Row])
	}
	return fmt.Errorf("%s: the distance from %q to %q: %s", where, mat.IDs[de.Row], mat.IDs[de.Col], de.Msg)
}

// permanovaText lays the result out as scikit-bio's result Series prints,
// then the groups.
func permanovaText(r *permanova.Result, column string, dropped int) []byte {
	var b bytes.Buffer
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintf(w, "method name\tPERMANOVA\n")
	fmt.Fprintf(w, "test statistic name\tpseudo-F\n")
	fmt.Fprintf(w, "sample size\t%d\n", r.N)
	fmt.Fprintf(w, "number of groups\t%d\n", r.Groups)
	fmt.Fprintf(w, "test statistic\t%s\n", strconv.FormatFloat(r.F, 'g', 7, 64))
	fmt.Fprintf(w, "p-value\t%s\n", strconv.FormatFloat(r.P, 'g', -1, 64))
	fmt.Fprintf(w, "number of permutations\t%d\n", r.Permutations)
	w.Flush()
	fmt.Fprintf(&b, "\ngroups of %s:\n", strconv.Quote(column))
	w = tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	for g, name := range r.Names {
		fmt.Fprintf(w, "  %d\t  %s\n", r.Sizes[g], name)
	}
	w.Flush()
	if dropped > 0 {
		fmt.Fprintf(&b, "left out: %s with no value in %s\n", plural(dropped, "sample"), strconv.Quote(column))
	}
	return b.Bytes()
}

// permanovaJSON is the result as one JSON object.
func permanovaJSON(r *permanova.Result, column string, seed uint64, dropped int) []byte {
	groups := []byte{'['}
	for g, name := range r.Names {
		if g > 0 {
			groups = append(groups, ',')
		}
		q, _ := json.Marshal(name) // a string always encodes
		groups = append(groups, `{"name":`...)
		groups = append(groups, q...)
		groups = append(groups, `,"samples":`...)
		groups = strconv.AppendInt(groups, int64(r.Sizes[g]), 10)
		groups = append(groups, '}')
	}
	groups = append(groups, ']')
	return jsonfloat.AppendObject(nil,
		"method", "PERMANOVA",
		"test_statistic_name", "pseudo-F",
		"sample_size", r.N,
		"number_of_groups", r.Groups,
		"test_statistic", r.F,
		"p_value", r.P,
		"permutations", r.Permutations,
		"seed", strconv.AppendUint(nil, seed, 10),
		"column", column,
		"groups", groups,
		"left_out", dropped)
}
