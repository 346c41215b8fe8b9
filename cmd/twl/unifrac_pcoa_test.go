package main

import (
	"bytes"
	"context"
	"encoding/xml"
	"image"
	_ "image/png"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/ordination"
)

// pcoaSetup parses args with the PCoA flags of a command "pcoatest".
func pcoaSetup(t *testing.T, args ...string) (*pcoaFlags, *env, *bytes.Buffer) {
	t.Helper()
	fs := newFlags("pcoatest", "twl pcoatest [flags]")
	p := addPCoAFlags(fs)
	var stderr bytes.Buffer
	e := &env{ctx: context.Background(), stdout: io.Discard, stderr: &stderr}
	if _, err := fs.parse(e, args); err != nil {
		t.Fatal(err)
	}
	return p, e, &stderr
}

var pcoaIDs = []string{"S1", "S2", "S3", "S4"}

// A non-Euclidean 4×4 matrix (1 + 0.3 < 1.5 breaks the triangle inequality).
var pcoaD = []float64{
	0, 0.3, 1.5, 0.7,
	0.3, 0, 1, 0.6,
	1.5, 1, 0, 0.35,
	0.7, 0.6, 0.35, 0,
}

func TestPCoAFlagsWrite(t *testing.T) {
	dir := t.TempDir()
	meta := filepath.Join(dir, "m.tsv")
	os.WriteFile(meta, []byte("sample-id\tsite\n#q2:types\tcategorical\nS1\tgut\nS2\tgut\nS3\tskin\nS4\tskin\nS9\tx\n"), 0o644)
	plot := filepath.Join(dir, "p.svg")
	p, e, stderr := pcoaSetup(t, "--pcoa", "2", "--metadata", meta, "--color-by", "site", "--plot", plot)
	if !p.enabled() {
		t.Fatal("not enabled")
	}
	out := p.outputs(filepath.Join(dir, "dm.tsv"))
	tsv := filepath.Join(dir, "dm.pcoa.tsv")
	if !slices.Equal(out, []string{tsv, plot}) {
		t.Fatalf("outputs %q", out)
	}
	if err := p.check(pcoaIDs); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.groups, []string{"gut", "gut", "skin", "skin"}) {
		t.Errorf("groups %q", p.groups)
	}
	d := slices.Clone(pcoaD)
	if err := p.write(e, pcoaIDs, d); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(d, pcoaD) {
		t.Error("write modified the matrix")
	}
	// The table is the library's for the same matrix and ids.
	var r ordination.Result
	if err := ordination.PCoA(&r, pcoaD, 4, 2); err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	ordination.WriteTSV(&want, &r, pcoaIDs)
	got, _ := os.ReadFile(tsv)
	if !bytes.Equal(got, want.Bytes()) {
		t.Errorf("table:\n%s\nwant:\n%s", got, want.Bytes())
	}
	svg, _ := os.ReadFile(plot)
	dec := xml.NewDecoder(bytes.NewReader(svg))
	for {
		if _, err := dec.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("svg: %v", err)
		}
	}
	for _, s := range []string{"gut (2)", "skin (2)", "PC1 ("} {
		if !bytes.Contains(svg, []byte(s)) {
			t.Errorf("svg lacks %q", s)
		}
	}
	if !strings.Contains(stderr.String(), "negative eigenvalues") {
		t.Errorf("stderr %q: want a note on the negative eigenvalues", stderr.String())
	}
}

func TestPCoAFlagsPNG(t *testing.T) {
	dir := t.TempDir()
	plot := filepath.Join(dir, "p.PNG")
	p, e, _ := pcoaSetup(t, "--pcoa", "3", "--plot", plot, "--pcoa-out", filepath.Join(dir, "c.tsv"))
	if out := p.outputs("-"); !slices.Equal(out, []string{filepath.Join(dir, "c.tsv"), plot}) {
		t.Fatalf("outputs %q", out)
	}
	if err := p.check(pcoaIDs); err != nil {
		t.Fatal(err)
	}
	if err := p.write(e, pcoaIDs, pcoaD); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(plot)
	if _, format, err := image.Decode(bytes.NewReader(b)); err != nil || format != "png" {
		t.Fatalf("png: %v %q", err, format)
	}
	if p, _, _ := pcoaSetup(t, "--pcoa", "2"); !slices.Equal(p.outputs(""), []string{"pcoa.tsv"}) {
		t.Error("default table name for standard output: want pcoa.tsv")
	}
	if p, _, _ := pcoaSetup(t); p.enabled() || p.outputs("x.tsv") != nil || p.check(pcoaIDs) != nil {
		t.Error("without --pcoa: enabled, outputs or an error")
	}
}

func TestPCoAFlagsErrors(t *testing.T) {
	dir := t.TempDir()
	meta := filepath.Join(dir, "m.tsv")
	os.WriteFile(meta, []byte("id\tsite\tph\nS1\tgut\t7\nS2\tgut\n"), 0o644)
	bad := filepath.Join(dir, "bad.tsv")
	os.WriteFile(bad, []byte("id\tsite\nS1\tgut\nS1\tskin\n"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--plot", "p.png"}, "need --pcoa K"},
		{[]string{"--pcoa", "5"}, "--pcoa 5: more axes than the 4 samples"},
		{[]string{"--pcoa", "-1"}, "--pcoa -1: give the number of axes, at least 1"},
		{[]string{"--pcoa", "0"}, "--pcoa 0: give the number of axes, at least 1"}, // main: off, no error
		{[]string{"--pcoa", "2", "--plot", "p.pdf"}, "must end in .png or .svg"},
		{[]string{"--pcoa", "2", "--plot", "p.png", "--color-by", "site"}, "--metadata and --color-by go together"},
		{[]string{"--pcoa", "2", "--metadata", meta, "--color-by", "site"}, "--color-by colours the points of --plot"},
		{[]string{"--pcoa", "2", "--plot", "p.png", "--metadata", meta, "--color-by", "Site"}, `no column "Site"; the columns are "site", "ph"`},
		{[]string{"--pcoa", "2", "--plot", "p.png", "--metadata", meta, "--color-by", "site"}, `2 of 4 samples have no metadata: "S3", "S4"`},
		{[]string{"--pcoa", "2", "--plot", "p.png", "--metadata", bad, "--color-by", "site"}, "bad.tsv:3: sample id \"S1\" appears twice"},
		{[]string{"--pcoa", "2", "--plot", "p.png", "--metadata", filepath.Join(dir, "none.tsv"), "--color-by", "site"}, "none.tsv"},
	} {
		p, _, _ := pcoaSetup(t, c.args...)
		err := p.check(pcoaIDs)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.args, err, c.want)
		}
	}
	p, e, _ := pcoaSetup(t, "--pcoa", "2", "--pcoa-out", filepath.Join(dir, "c.tsv"))
	p.outputs("")
	d := slices.Clone(pcoaD)
	d[1] = 0.4 // S1–S2 0.4, S2–S1 0.3
	err := p.write(e, pcoaIDs, d)
	if err == nil || !strings.Contains(err.Error(), `distance between "S2" and "S1"`) {
		t.Errorf("asymmetric matrix: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "c.tsv")); err == nil {
		t.Error("a table was written for an invalid matrix")
	}
}
