package report

import (
	"fmt"
	"math"
	"strings"
)

// MeasureTable writes a Markdown table of the measures named by measures
// for the conditions ids (rows, named by label): each cell the Stat of
// table[id][measure] (Cell), the best condition of each measure (best)
// in bold; k is the k of top-k cost in the headers.
func MeasureTable(b *strings.Builder, first string, ids []string, label func(string) string, measures []string,
	table map[string]map[string]Stat, best map[string]string, k int) {
	heads := []string{first}
	for _, name := range measures {
		heads = append(heads, MeasureLabel(name, k)+" "+Arrow(name))
	}
	b.WriteString(TableHead(heads, "l"+strings.Repeat("r", len(measures))))
	for _, id := range ids {
		fmt.Fprintf(b, "| %s |", label(id))
		for _, name := range measures {
			v := Cell(table[id][name])
			if best[name] == id {
				v = "**" + v + "**"
			}
			fmt.Fprintf(b, " %s |", v)
		}
		b.WriteString("\n")
	}
}

// TP formats the t statistic and the p-value of c for a table: "—" where
// they are undefined (fewer than two seeds), "n/a (all differences 0)"
// for t when every difference is 0, the same number format (3
// significant digits) for every other value.
func TP(c Comparison) (t, p string) {
	num := func(v Float) string {
		if math.IsNaN(float64(v)) {
			return "—"
		}
		return strings.TrimPrefix(fmt.Sprintf("%.3g", float64(v)), "+")
	}
	t, p = num(c.T), num(c.P)
	if c.N >= 2 && c.MeanDiff == 0 && c.SDDiff == 0 {
		t = "n/a (all differences 0)"
	}
	return t, p
}

// ComparisonTable writes the Markdown table of the comparisons cs of a
// condition with a baseline on the measures shown (each row a condition,
// named by label, and a measure): mean d, t, p, and on how many seeds the
// condition was better. seeds is the number of seeds of the experiment.
func ComparisonTable(b *strings.Builder, first, noun string, seeds int, cs []Comparison, shown []string, label func(string) string, k int) {
	ComparisonTableWith(b, first, noun, "KL", seeds, cs, shown, label, k)
}

// ComparisonTableWith is ComparisonTable for a baseline named base.
func ComparisonTableWith(b *strings.Builder, first, noun, base string, seeds int, cs []Comparison, shown []string, label func(string) string, k int) {
	fmt.Fprintf(b, "Paired across seeds: d = %s − %s per seed; mean, t statistic, two-sided p-value (Student's t, %s), and on how many seeds the %s was better than %s.\n\n",
		noun, base, Plural(seeds-1, "degree of freedom", "degrees of freedom"), noun, base)
	fmt.Fprintf(b, "| %s | Measure | mean d | t | p | better |\n|---|---|---:|---:|---:|---:|\n", first)
	for _, c := range cs {
		if !containsString(shown, c.Metric) {
			continue
		}
		t, p := TP(c)
		fmt.Fprintf(b, "| %s | %s | %+.4f | %s | %s | %d of %d |\n", label(c.B), MeasureLabel(c.Metric, k), float64(c.MeanDiff), t, p, c.BBetter, c.N)
	}
}

func containsString(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// TableHead returns the head of a Markdown table: a row of the cells heads,
// then the rule, each column aligned by its letter in aligns: l left, r
// right.
func TableHead(heads []string, aligns string) string {
	var b strings.Builder
	b.WriteString("|")
	for _, h := range heads {
		b.WriteString(" " + h + " |")
	}
	b.WriteString("\n|")
	for _, a := range aligns {
		if a == 'r' {
			b.WriteString("---:|")
		} else {
			b.WriteString("---|")
		}
	}
	b.WriteString("\n")
	return b.String()
}
