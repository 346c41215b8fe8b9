package ordination

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// WriteTSV writes the coordinates of r as a table, one row per sample, after
// three comment lines:
//
//	# PCoA of 3 samples on 2 axes; eigenvalues: 1 positive, 1 zero, 1 negative (negative/positive 0.185)
//	#eigenvalue	4.5	0
//	#proportion_explained	1	0
//	sample-id	PC1	PC2
//	S1	0	0
//	S2	1.5	0
//	S3	-1.5	0
//
// When r.Exact is false (the Krylov path of PCoAWith) the first line says
// that only the top K eigenvalues were computed and gives the trace that
// the proportions are relative to:
//
//	# PCoA of 3000 samples on 10 axes; top 10 eigenvalues only, negative ones not computed; proportions of the trace 1234.5 (sum of all eigenvalues)
//
// Numbers are written in the shortest form that reads back to the same
// float64. The table loads with pandas.read_csv(path, sep="\t",
// comment="#", index_col=0) or R's read.delim(path, comment.char="#",
// row.names=1), and is itself a valid QIIME 2 metadata file (the "#" lines
// are comments there), so its axes can be used as metadata columns. The
// eigenvalues and proportions are the second and third lines. Sample ids
// must not contain tabs or line breaks; it panics if len(ids) != r.N.
func WriteTSV(w io.Writer, r *Result, ids []string) error {
	if len(ids) != r.N {
		panic(fmt.Sprintf("ordination: %d ids for %d samples", len(ids), r.N))
	}
	for _, id := range ids {
		if id == "" || strings.ContainsAny(id, "\t\r\n") || strings.HasPrefix(id, "#") {
			return fmt.Errorf("ordination: sample id %q cannot be written in a TSV row", id)
		}
	}
	bw := bufio.NewWriter(w)
	npos, nzero, nneg := 0, 0, 0
	for _, v := range r.Eigenvalues {
		switch {
		case v > 0:
			npos++
		case v < 0:
			nneg++
		default:
			nzero++
		}
	}
	_, ratio := r.Negative()
	axes := "axes"
	if r.K == 1 {
		axes = "axis"
	}
	if r.Exact {
		fmt.Fprintf(bw, "# PCoA of %d samples on %d %s; eigenvalues: %d positive, %d zero, %d negative (negative/positive %.3g)\n",
			r.N, r.K, axes, npos, nzero, nneg, ratio)
	} else {
		fmt.Fprintf(bw, "# PCoA of %d samples on %d %s; top %d eigenvalues only, negative ones not computed; proportions of the trace %s (sum of all eigenvalues)\n",
			r.N, r.K, axes, r.K, strconv.FormatFloat(r.Total, 'g', -1, 64))
	}
	row := func(name string, v []float64) {
		bw.WriteString(name)
		for _, x := range v {
			bw.WriteByte('\t')
			bw.WriteString(strconv.FormatFloat(x, 'g', -1, 64))
		}
		bw.WriteByte('\n')
	}
	row("#eigenvalue", r.Eigenvalues[:r.K])
	row("#proportion_explained", r.Proportion[:r.K])
	bw.WriteString("sample-id")
	for k := range r.K {
		fmt.Fprintf(bw, "\tPC%d", k+1)
	}
	bw.WriteByte('\n')
	for i, id := range ids {
		row(id, r.Coords[i*r.K:(i+1)*r.K])
	}
	return bw.Flush()
}

// AxisLabel returns the label of axis k (0-based) with its proportion
// explained: "PC1 (34.2%)".
func (r *Result) AxisLabel(k int) string {
	if k >= r.K {
		return fmt.Sprintf("PC%d", k+1)
	}
	return fmt.Sprintf("PC%d (%.1f%%)", k+1, 100*r.Proportion[k])
}
