package pointtree_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/embedding"
	"github.com/twl-ldl/twl/pointtree"
)

// vectors: three words in 2 dimensions, and one ("#x") that cannot name a
// node of a tree.
const vectors = `4 2
red 1 0
#x 5 5
blue 0 1
green 0 3
`

func readVec(t testing.TB) *embedding.Vectors {
	v, err := embedding.ReadVec(strings.NewReader(vectors), "v.vec")
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestWordPoints(t *testing.T) {
	p, err := pointtree.WordPoints(readVec(t), "v.vec", 0)
	if err != nil {
		t.Fatal(err)
	}
	// By hand: #x is left out; the others keep their order and vectors.
	if !slices.Equal(p.Names, []string{"red", "blue", "green"}) || !slices.Equal(p.X, []float64{1, 0, 0, 1, 0, 3}) || p.D != 2 {
		t.Errorf("got %v %v d=%d", p.Names, p.X, p.D)
	}
	if p.Skipped != 1 || p.SkipWhy == "" {
		t.Errorf("Skipped %d (%q), want 1", p.Skipped, p.SkipWhy)
	}
	p, err = pointtree.WordPoints(readVec(t), "v.vec", 2) // red and #x: one point
	if err != nil || p.Len() != 1 {
		t.Errorf("max 2: %v, %v", p, err)
	}
}

func TestLabelPoints(t *testing.T) {
	// "red blue" sits at the mean of (1, 0) and (0, 1).
	p, err := pointtree.LabelPoints(readVec(t), "v.vec", strings.NewReader("# labels\nred blue\n\ngreen\n"), "l.txt")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.Names, []string{"red blue", "green"}) || !slices.Equal(p.X, []float64{0.5, 0.5, 0, 3}) {
		t.Errorf("got %v %v", p.Names, p.X)
	}
	for _, c := range []struct{ in, want string }{
		{"red\nred\n", `l.txt:2: the label "red" is listed twice (first on line 1)`},
		{"red\npurple\n", `l.txt:2: no word of the label "purple" has a vector in v.vec (words: purple)`},
		{"red\n", "l.txt: 1 label; a tree needs at least 2"},
	} {
		_, err := pointtree.LabelPoints(readVec(t), "v.vec", strings.NewReader(c.in), "l.txt")
		if err == nil || err.Error() != c.want {
			t.Errorf("%q: err = %v, want %s", c.in, err, c.want)
		}
	}
}

// Build over the points red (1, 0), blue (0, 1) and green (0, 3): a
// clustering tree with two branches puts red and blue, the nearer pair,
// under one cluster.
func ExampleBuild() {
	src, err := embedding.ReadVec(strings.NewReader("3 2\nred 1 0\nblue 0 1\ngreen 0 3\n"), "v.vec")
	if err != nil {
		panic(err)
	}
	p, err := pointtree.WordPoints(src, "v.vec", 0)
	if err != nil {
		panic(err)
	}
	t, err := pointtree.Build(p, &pointtree.BuildOptions{Method: "cluster", K: 2, Seed: 1})
	if err != nil {
		panic(err)
	}
	red, _ := t.Index("red")
	blue, _ := t.Index("blue")
	green, _ := t.Index("green")
	fmt.Println(t.Parent(red) == t.Parent(blue), t.Parent(red) == t.Parent(green))
	// Output: true false
}

func TestBuildMethods(t *testing.T) {
	p, err := pointtree.WordPoints(readVec(t), "v.vec", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []pointtree.BuildOptions{{Method: "quad", Seed: 2}, {Method: "cluster", K: 2, Fit: true, Seed: 3}} {
		tr, err := pointtree.Build(p, &o)
		if err != nil {
			t.Fatalf("%+v: %v", o, err)
		}
		for _, name := range p.Names {
			if i, ok := tr.Index(name); !ok || !tr.IsLeaf(i) {
				t.Errorf("%+v: %s is not a leaf", o, name)
			}
		}
	}
	if _, err := pointtree.Build(p, &pointtree.BuildOptions{Method: "ball"}); err == nil {
		t.Error("unknown method: no error")
	}
}
