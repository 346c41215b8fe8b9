package dataset

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/twl-ldl/twl/tree"
)

// WriteJSONL writes ds to w in the JSON Lines format of the package
// documentation, one sample per line: features and masses in the shortest
// decimal form that reads back to the same float64 (as encoding/json writes
// them), labels in column order, zero masses omitted. Reading the output
// with ReadJSONL and the same tree gives back X and Y bit for bit.
//
// Label names are t's node names; t may be nil, and then ds.Labels are used.
// A sample that would not read back (a non-finite value, a negative mass, a
// label row of zeros) is an *Error whose Line is the 1-based sample number;
// what was written before it stays written. Write errors of w are returned
// as they are. WriteJSONL panics if Y's width differs from t.Len() (or from
// len(ds.Labels) when t is nil), or if ds.Labels is set and differs from t's
// names.
func WriteJSONL(w io.Writer, ds *Dataset, t *tree.Tree) error {
	n, _ := ds.X.Dims()
	ny, L := ds.Y.Dims()
	if ny != n {
		panic(fmt.Sprintf("dataset: X has %d rows, Y has %d", n, ny))
	}
	names := ds.Labels
	if t != nil {
		if t.Len() != L {
			panic(fmt.Sprintf("dataset: Y has %d columns, the tree %d nodes", L, t.Len()))
		}
		if names != nil && len(names) != L {
			panic(fmt.Sprintf("dataset: %d label names for %d columns", len(names), L))
		}
		for j := range L {
			if names != nil && names[j] != t.Name(j) {
				panic(fmt.Sprintf("dataset: label %d is %q in the data set, %q in the tree", j, names[j], t.Name(j)))
			}
		}
		names = t.Names()
	} else if len(names) != L {
		panic(fmt.Sprintf("dataset: %d label names for %d columns", len(names), L))
	}
	keys := make([][]byte, L) // "name":
	for j, name := range names {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.Encode(name) // a string always encodes
		keys[j] = append(bytes.TrimSuffix(b.Bytes(), []byte{'\n'}), ':')
	}

	bw := bufio.NewWriterSize(w, 1<<16)
	var line []byte
	for i := range n {
		line = append(line[:0], `{"x":[`...)
		for k, v := range ds.X.RawRowView(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return &Error{Line: i + 1, Err: ErrNonFinite, Msg: fmt.Sprintf("feature %d is %v", k+1, v)}
			}
			if k > 0 {
				line = append(line, ',')
			}
			line = appendFloat(line, v)
		}
		line = append(line, `],"y":{`...)
		first := true
		for j, v := range ds.Y.RawRowView(i) {
			switch {
			case math.IsNaN(v) || math.IsInf(v, 0):
				return &Error{Line: i + 1, Err: ErrNonFinite, Msg: fmt.Sprintf("the mass of %q is %v", names[j], v)}
			case v < 0:
				return &Error{Line: i + 1, Err: ErrNegative, Msg: fmt.Sprintf("%q has mass %v", names[j], v)}
			case v == 0:
				continue
			}
			if !first {
				line = append(line, ',')
			}
			first = false
			line = append(line, keys[j]...)
			line = appendFloat(line, v)
		}
		if first {
			return &Error{Line: i + 1, Err: ErrZeroRow}
		}
		line = append(line, "}}\n"...)
		if _, err := bw.Write(line); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// appendFloat appends v as encoding/json writes a float64: the shortest
// decimal that reads back to v, in exponent form only below 1e-6 or from
// 1e21 up, with a short exponent (1e-7, not 1e-07).
func appendFloat(b []byte, v float64) []byte {
	abs := math.Abs(v)
	fmt := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		fmt = 'e'
	}
	b = strconv.AppendFloat(b, v, fmt, -1, 64)
	if fmt == 'e' {
		// clean up e-09 to e-9
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}
