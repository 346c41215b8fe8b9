package tree_test

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/tree"
)

// TestReadTaxonomy checks the taxonomy format against the same hierarchy
// written by hand as an edge list: the same names, parents and weights.
func TestReadTaxonomy(t *testing.T) {
	tax := "Root\tcs\tmath\n" +
		"cs\tcs.lg\tcs.cv\n" +
		"\n# comment\n" +
		"math\tmath.st\n" +
		"Root\tstat\n" + // Root may have several lines
		"stat\tstat.ml\n"
	edges := "cs\tcs.lg\ncs\tcs.cv\nmath\tmath.st\nstat\tstat.ml\n"
	got, err := tree.ReadTaxonomy(strings.NewReader(tax), "t.taxonomy", nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := tree.Read(strings.NewReader(edges), "t.tree", nil)
	if err != nil {
		t.Fatal(err)
	}
	sameTree(t, got, want)
	if !got.Virtual() {
		t.Error("three top-level labels: want a forest under the virtual root")
	}
	if _, ok := got.Index("Root"); ok {
		t.Error(`"Root" became a label`)
	}
	// Order of first appearance, Root excluded.
	if n := got.Names(); strings.Join(n, " ") != "cs math cs.lg cs.cv math.st stat stat.ml" {
		t.Errorf("names %q", n)
	}
}

func TestReadTaxonomyErrors(t *testing.T) {
	for _, c := range []struct {
		name, in string
		want     error
		line     int
	}{
		{"no child", "Root\ta\na\n", tree.ErrSyntax, 2},
		{"root twice", "Root\ta\tb\nRoot\ta\n", tree.ErrDuplicateEdge, 2},
		{"root as child", "Root\ta\na\tRoot\n", tree.ErrBadName, 2},
		{"top with a parent", "Root\ta\tb\nb\ta\n", tree.ErrTwoParents, 2},
		{"top with a parent, edge first", "b\ta\nRoot\ta\tb\n", tree.ErrTwoParents, 2},
		{"two parents", "Root\ta\tb\na\tc\nb\tc\n", tree.ErrTwoParents, 3},
		{"cycle", "Root\ta\nb\tc\nc\tb\n", tree.ErrCycle, 3},
		{"self-loop", "a\ta\n", tree.ErrSelfLoop, 1},
		{"no Root line", "a\tb\n", tree.ErrSyntax, 0},
		{"a root not under Root", "Root\ta\tb\nq\tz\n", tree.ErrSyntax, 2},
		{"empty field", "Root\t\ta\n", tree.ErrSyntax, 1},
		{"binary", "Root\ta\n\x00\x01\n", tree.ErrSyntax, 2},
		{"empty", "# nothing\n", tree.ErrEmpty, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := tree.ReadTaxonomy(strings.NewReader(c.in), "x.taxonomy", nil)
			checkErr(t, err, c.want, "x.taxonomy", c.line)
		})
	}
}

// TestReadTaxonomyAAPD reads the AAPD taxonomy of ../shared (skipped when
// absent): 54 labels under 7 top-level subjects, every edge of weight 1.
func TestReadTaxonomyAAPD(t *testing.T) {
	const path = "../../shared/data/text/aapd/aapd.taxonomy"
	if _, err := os.Stat(path); err != nil {
		t.Skip("AAPD taxonomy not available:", err)
	}
	tr, err := tree.ReadTaxonomyFile(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Counted independently: grep -o TAB | wc -l on the file gives the
	// number of children listed, every label exactly once.
	data, _ := os.ReadFile(path)
	if want := bytes.Count(data, []byte("\t")); tr.Len() != want {
		t.Errorf("%d labels, want %d", tr.Len(), want)
	}
	roots := 0
	for i := range tr.Len() {
		if tr.Parent(i) < 0 {
			roots++
		}
		if tr.Parent(i) >= 0 && tr.Weight(i) != 1 {
			t.Errorf("%q: weight %v", tr.Name(i), tr.Weight(i))
		}
	}
	if want := bytes.Count(data, []byte("Root\t")); want != 1 {
		t.Fatalf("%d Root lines", want)
	}
	if top := strings.Count(strings.SplitN(string(data[bytes.Index(data, []byte("Root\t")):]), "\n", 2)[0], "\t"); roots != top {
		t.Errorf("%d roots, the Root line lists %d", roots, top)
	}
}

func FuzzReadTaxonomy(f *testing.F) {
	for _, s := range []string{
		"Root\ta\tb\na\tc\n", "Root\ta\nRoot\ta\n", "a\tRoot\n", "Root\n", "x\ty\tz\ny\tw\n", "\ufeffRoot\ta\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := tree.ReadTaxonomy(bytes.NewReader(data), "fuzz", nil)
		if err != nil {
			var te *tree.Error
			if !errors.As(err, &te) || te.File != "fuzz" {
				t.Fatalf("error %q (%T) is not a *tree.Error for file fuzz", err, err)
			}
			return
		}
		if _, ok := tr.Index(tree.TaxonomyRoot); ok {
			t.Fatal("Root became a label")
		}
		for i := range tr.Len() {
			if tr.Parent(i) >= 0 && tr.Weight(i) != 1 {
				t.Fatalf("weight %v", tr.Weight(i))
			}
		}
	})
}
