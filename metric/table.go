package metric

import (
	"bytes"
	"fmt"
	"io"
	"strconv"

	"github.com/twl-ldl/twl/internal/jsonfloat"
)

// WriteText writes the table for people, as 'twl eval' prints it: one
// line per measure with its direction (↓ lower is better, ↑ higher), mean
// and standard deviation to 6 significant digits, the number of pairs, and
// a note when kl is infinite.
func (t *Table) WriteText(w io.Writer) error {
	var buf bytes.Buffer
	t.appendText(&buf)
	_, err := w.Write(buf.Bytes())
	return err
}

func (t *Table) appendText(buf *bytes.Buffer) {
	res := t.Result
	fmt.Fprintf(buf, "%-16s %12s %12s\n", "measure", "mean", "std")
	for _, name := range res.Names {
		arrow := "↑"
		if LowerIsBetter(name) {
			arrow = "↓"
		}
		fmt.Fprintf(buf, "%-16s %12s %12s\n", name+" "+arrow, g6(res.Mean[name]), g6(res.Std[name]))
	}
	fmt.Fprintf(buf, "\n%s; mean and sample standard deviation over the pairs.\n", plural(res.Rows, "pair"))
	if t.InfKL > 0 {
		fmt.Fprintf(buf, "kl is +Inf for %s: the prediction has no mass on a label of the target,\n"+
			"first at %s.\n"+
			"--pyldl clips masses to [2.2e-16, 1], as PyLDL does, which keeps kl finite.\n",
			plural(t.InfKL, "pair"), t.FirstInfKL)
	}
}

// WriteJSON writes one line of JSON, as 'twl eval --format json' does: the
// keys rows, then NAME and NAME_std for every measure, in the order of
// Names. Numbers are written in the shortest form that reads back to the
// same float64; infinities and NaN, which JSON lacks, as the strings
// "+Inf", "-Inf" and "NaN".
func (t *Table) WriteJSON(w io.Writer) error {
	b := fmt.Appendf(nil, `{"rows":%d`, t.Rows)
	b = appendMeasures(b, t.Result, t.Names)
	_, err := w.Write(append(b, "}\n"...))
	return err
}

// appendMeasures appends ,"NAME":mean,"NAME_std":std for each of names.
func appendMeasures(b []byte, res *Result, names []string) []byte {
	for _, name := range names {
		b = appendFloat(fmt.Appendf(b, `,"%s":`, name), res.Mean[name])
		b = appendFloat(fmt.Appendf(b, `,"%s_std":`, name), res.Std[name])
	}
	return b
}

// appendFloat appends v as jsonfloat.Append does.
func appendFloat(b []byte, v float64) []byte { return jsonfloat.Append(b, v) }

func g6(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }

// plural returns "1 pair", "2 pairs".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
