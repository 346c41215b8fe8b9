package ordination

import (
	"bytes"
	"os"
	"testing"

	"github.com/twl-ldl/twl/metadata"
)

// The example of docs/ordination.md: the weighted unnormalized UniFrac
// distances of testdata/unifrac as ssu (unifrac-tools 1.2) computes them
// (recorded in testdata/unifrac/README.md), coloured by body site. The
// committed docs/img/pcoa-unifrac.svg must be what Scatter draws; run with
// TWL_UPDATE_DOCS=1 to rewrite it.
func TestDocsImage(t *testing.T) {
	const s12, s13, s23 = 1.46764705882353, 1.5125, 2.165441176470588
	d := []float64{0, s12, s13, s12, 0, s23, s13, s23, 0}
	ids := []string{"S1", "S2", "S3"}
	f, err := os.Open("testdata/unifrac-metadata.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tab, err := metadata.Read(f, "testdata/unifrac-metadata.tsv")
	if err != nil {
		t.Fatal(err)
	}
	groups, err := tab.Lookup(ids, "body-site")
	if err != nil {
		t.Fatal(err)
	}
	var r Result
	if err := PCoA(&r, d, 3, 2); err != nil {
		t.Fatal(err)
	}
	svg, err := Scatter(&r, "svg", &ScatterOptions{Title: "Weighted UniFrac, testdata/unifrac", Groups: groups, Legend: "body-site"})
	if err != nil {
		t.Fatal(err)
	}
	const path = "../docs/img/pcoa-unifrac.svg"
	if os.Getenv("TWL_UPDATE_DOCS") != "" {
		if err := os.MkdirAll("../docs/img", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, svg, 0o644); err != nil {
			t.Fatal(err)
		}
		var tsv bytes.Buffer
		WriteTSV(&tsv, &r, ids)
		t.Logf("table:\n%s", tsv.String())
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, svg) {
		t.Errorf("%s differs from what Scatter draws; run TWL_UPDATE_DOCS=1 go test ./ordination -run DocsImage", path)
	}
}
