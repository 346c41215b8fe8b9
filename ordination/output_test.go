package ordination

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"image"
	_ "image/png"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestWriteTSV(t *testing.T) {
	var r Result
	if err := PCoA(&r, []float64{0, 1, 3, 1, 0, 2, 3, 2, 0}, 3, 2); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteTSV(&buf, &r, []string{"a", "b", "c"}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 7 || lines[0] != "# PCoA of 3 samples on 2 axes; eigenvalues: 1 positive, 2 zero, 0 negative (negative/positive 0)" ||
		!strings.HasPrefix(lines[1], "#eigenvalue\t") || !strings.HasPrefix(lines[2], "#proportion_explained\t1\t0") ||
		lines[3] != "sample-id\tPC1\tPC2" {
		t.Fatalf("layout:\n%s", buf.String())
	}
	// The numbers read back to the same bits.
	for i, line := range lines[4:] {
		f := strings.Split(line, "\t")
		if f[0] != string(rune('a'+i)) || len(f) != 3 {
			t.Fatalf("row %q", line)
		}
		for k, s := range f[1:] {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil || v != r.Coords[i*2+k] {
				t.Errorf("row %d axis %d: %q, want %v", i, k, s, r.Coords[i*2+k])
			}
		}
	}
	if err := WriteTSV(io.Discard, &r, []string{"a", "b\tc", "d"}); err == nil {
		t.Error("no error for an id with a tab")
	}
}

func TestGroups(t *testing.T) {
	var vals []string
	for c := range 15 { // category c has 15−c members
		for range 15 - c {
			vals = append(vals, fmt.Sprintf("g%02d", c))
		}
	}
	vals = append(vals, "")
	names, of, rest := groups(vals, 12)
	if len(names) != 12 || names[11] != "(other)" || !rest || names[0] != "g00" || names[10] != "g10" {
		t.Fatalf("names %q rest %v", names, rest)
	}
	count := make([]int, 12)
	for _, g := range of {
		count[g]++
	}
	// (other): g11..g14 with 4+3+2+1 members and the one missing value.
	if count[0] != 15 || count[10] != 5 || count[11] != 11 {
		t.Errorf("counts %v", count)
	}
	names, _, rest = groups([]string{"b", "a", "b", ""}, 12)
	if !slices.Equal(names, []string{"b", "(missing)", "a"}) || rest {
		t.Errorf("names %q rest %v", names, rest)
	}
}

func TestScatter(t *testing.T) {
	var r Result
	d := []float64{0, 0.3, 0.5, 0.7, 0.3, 0, 0.4, 0.6, 0.5, 0.4, 0, 0.35, 0.7, 0.6, 0.35, 0}
	if err := PCoA(&r, d, 4, 0); err != nil {
		t.Fatal(err)
	}
	for _, opts := range []*ScatterOptions{nil, {Title: "t", Groups: []string{"x", "y", "x", ""}, Legend: "site"}} {
		png, err := Scatter(&r, "png", opts)
		if err != nil {
			t.Fatal(err)
		}
		img, format, err := image.Decode(bytes.NewReader(png))
		if err != nil || format != "png" || img.Bounds().Dx() < 500 {
			t.Fatalf("png: %v %q", err, format)
		}
		svg, err := Scatter(&r, "svg", opts)
		if err != nil {
			t.Fatal(err)
		}
		dec := xml.NewDecoder(bytes.NewReader(svg))
		for {
			_, err := dec.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("svg: %v", err)
			}
		}
		if !bytes.Contains(svg, []byte("PC1 (")) {
			t.Error("svg has no axis label PC1 (…%)")
		}
		again, _ := Scatter(&r, "svg", opts)
		if !bytes.Equal(svg, again) {
			t.Error("svg bytes differ between two renderings")
		}
	}
	if _, err := Scatter(&r, "pdf", nil); err == nil {
		t.Error("no error for format pdf")
	}
}
