package pointtree_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/internal/testutil"
	"github.com/twl-ldl/twl/pointtree"
	"github.com/twl-ldl/twl/tree"
)

// checkErr checks that err is an *Error wrapping want, at the given
// 1-based point (0: none).
func checkErr(t *testing.T, name string, err, want error, line int) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error, want %v", name, want)
		return
	}
	var e *pointtree.Error
	if !errors.Is(err, want) || !errors.As(err, &e) || e.Line != line {
		t.Errorf("%s: error %q (%T), want a *pointtree.Error wrapping %q at line %d", name, err, err, want, line)
	}
}

// builders runs the two tree builders on the same arguments.
var builders = []struct {
	name  string
	build func(x []float64, n, d int, nm []string) (*tree.Tree, error)
}{
	{"Cluster", func(x []float64, n, d int, nm []string) (*tree.Tree, error) {
		return pointtree.Cluster(x, n, d, nm, nil)
	}},
	{"Quad", func(x []float64, n, d int, nm []string) (*tree.Tree, error) {
		return pointtree.Quad(x, n, d, nm, nil)
	}},
}

func TestErrors(t *testing.T) {
	x := []float64{0, 1, 2, 3, 4, 5}
	for _, tc := range []struct {
		name string
		x    []float64
		n, d int
		nm   []string
		want error
		line int
	}{
		{"no points", nil, 0, 2, nil, pointtree.ErrEmpty, 0},
		{"no coordinates", nil, 3, 0, nil, pointtree.ErrNoDims, 0},
		{"NaN", []float64{0, 1, 2, math.NaN(), 4, 5}, 3, 2, nil, pointtree.ErrCoordinate, 2},
		{"infinity", []float64{0, 1, 2, 3, 4, math.Inf(-1)}, 3, 2, nil, pointtree.ErrCoordinate, 3},
		{"too large", []float64{1e101, 1, 2, 3, 4, 5}, 3, 2, nil, pointtree.ErrCoordinate, 1},
		{"repeated name", x, 3, 2, []string{"a", "b", "a"}, tree.ErrBadName, 3},
		{"empty name", x, 3, 2, []string{"a", "", "c"}, tree.ErrBadName, 2},
		{"name with a tab", x, 3, 2, []string{"a\tb", "b", "c"}, tree.ErrBadName, 1},
	} {
		for _, b := range builders {
			_, err := b.build(tc.x, tc.n, tc.d, tc.nm)
			checkErr(t, b.name+": "+tc.name, err, tc.want, tc.line)
		}
	}
	for _, tc := range []struct {
		name string
		opts pointtree.ClusterOptions
	}{
		{"K = 1", pointtree.ClusterOptions{K: 1}},
		{"K < 0", pointtree.ClusterOptions{K: -3}},
		{"Depth < 0", pointtree.ClusterOptions{Depth: -1}},
		{"Iters < 0", pointtree.ClusterOptions{Iters: -1}},
	} {
		_, err := pointtree.Cluster(x, 3, 2, nil, &tc.opts)
		checkErr(t, "Cluster: "+tc.name, err, pointtree.ErrOption, 0)
	}
	for _, tc := range []struct {
		name string
		opts pointtree.QuadOptions
	}{
		{"Depth < 0", pointtree.QuadOptions{Depth: -1}},
		{"Depth too large", pointtree.QuadOptions{Depth: pointtree.MaxQuadDepth + 1}},
		{"Shift = 1", pointtree.QuadOptions{Shift: []float64{0, 1}}},
		{"Shift NaN", pointtree.QuadOptions{Shift: []float64{math.NaN(), 0}}},
	} {
		_, err := pointtree.Quad(x, 3, 2, nil, &tc.opts)
		checkErr(t, "Quad: "+tc.name, err, pointtree.ErrOption, 0)
	}
}

func TestPanics(t *testing.T) {
	x := []float64{0, 1, 2, 3, 4, 5}
	for _, tc := range []struct {
		name string
		f    func()
	}{
		{"Cluster: len(points) != n·d", func() { pointtree.Cluster(x, 4, 2, nil, nil) }},
		{"Cluster: len(names) != n", func() { pointtree.Cluster(x, 3, 2, []string{"a"}, nil) }},
		{"Cluster: n < 0", func() { pointtree.Cluster(nil, -1, 2, nil, nil) }},
		{"Quad: len(points) != n·d", func() { pointtree.Quad(x, 2, 2, nil, nil) }},
		{"Quad: d < 0", func() { pointtree.Quad(nil, 0, -2, nil, nil) }},
		{"Quad: len(Shift) != d", func() { pointtree.Quad(x, 3, 2, nil, &pointtree.QuadOptions{Shift: []float64{0}}) }},
	} {
		ok, v := testutil.Panics(tc.f)
		if s, _ := v.(string); !ok || !strings.HasPrefix(s, "pointtree: ") {
			t.Errorf("%s: panicked %v with %v, want a \"pointtree: \" panic", tc.name, ok, v)
		}
	}
}

// Internal names avoid the points' names: a point named "·c" or "·c/…"
// moves the internal nodes to "·c#2", a point "·c#2/x" then to "·c#3".
func TestInternalNames(t *testing.T) {
	x := []float64{0, 1, 10, 11, 20, 21}
	for _, tc := range []struct {
		nm     []string
		prefix string
	}{
		{[]string{"a", "b", "c", "d", "e", "f"}, "·c"},
		{[]string{"a", "·c", "c", "d", "e", "f"}, "·c#2"},
		{[]string{"a", "b", "·c/0", "d", "e", "f"}, "·c#2"},
		{[]string{"·c/0", "·c#2/x", "c", "d", "e", "f"}, "·c#3"},
		{[]string{"·cc", "·c#2x", "·c#", "d", "e", "f"}, "·c"},
	} {
		tr, err := pointtree.Cluster(x, 6, 1, tc.nm, &pointtree.ClusterOptions{K: 2})
		if err != nil {
			t.Fatal(err)
		}
		checkStructure(t, tr, 6, tc.nm, tc.prefix)
	}
	tr, err := pointtree.Quad(x, 6, 1, []string{"·q", "b", "c", "d", "e", "f"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkStructure(t, tr, 6, []string{"·q", "b", "c", "d", "e", "f"}, "·q#2")
}
