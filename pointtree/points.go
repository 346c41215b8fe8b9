package pointtree

import (
	"errors"
	"fmt"
	"github.com/twl-ldl/twl/internal/fmath"
	"math"
	"strconv"
	"strings"

	"github.com/twl-ldl/twl/internal/fileerr"
	"github.com/twl-ldl/twl/tree"
)

// Sentinel errors wrapped by *Error; test for them with errors.Is. Bad and
// duplicate point names are reported by package tree's rules, as an *Error
// wrapping tree.ErrBadName; a name FitWeights cannot find in its tree wraps
// tree.ErrUnknownNode.
var (
	ErrEmpty      = errors.New("no points")
	ErrNoDims     = errors.New("points have no coordinates")
	ErrCoordinate = errors.New("invalid coordinate")
	ErrOption     = errors.New("invalid option")
)

// Error describes invalid input. Line is the 1-based index of the offending
// point (0 when no single point is at fault); File is left empty for
// readers of point files to fill in. It is the error type of package tree.
type Error = fileerr.Error

// MaxCoordinate bounds the absolute value of a coordinate, so that squared
// distances between points and their sums over many points stay finite for any
// practical dimension d.
const MaxCoordinate = 1e100

// checkShape panics on the programmer's shape mistakes.
func checkShape(fn string, points []float64, n, d int, names []string) {
	switch {
	case n < 0 || d < 0:
		panic(fmt.Sprintf("pointtree: %s with n = %d, d = %d", fn, n, d))
	case n >= 1<<30:
		panic("pointtree: " + fn + " with 2³⁰ points or more")
	case d > 0 && n > math.MaxInt/d, len(points) != n*d:
		panic(fmt.Sprintf("pointtree: %s: len(points) = %d != n·d = %d·%d", fn, len(points), n, d))
	case names != nil && len(names) != n:
		panic(fmt.Sprintf("pointtree: %s: len(names) = %d != n = %d", fn, len(names), n))
	}
}

// checkPoints reports an empty point set, points without coordinates, and
// coordinates that are NaN, infinite or larger than MaxCoordinate.
func checkPoints(points []float64, n, d int) error {
	if n == 0 {
		return &Error{Err: ErrEmpty}
	}
	if d == 0 {
		return &Error{Err: ErrNoDims}
	}
	for k, x := range points {
		if !(math.Abs(x) <= MaxCoordinate) { // also NaN
			return &Error{Line: k/d + 1, Err: ErrCoordinate, Msg: fmt.Sprintf("coordinate %d of point %d is %v", k%d, k/d, x)}
		}
	}
	return nil
}

// pointNames returns the names of the points: names, or "0" … "n−1".
func pointNames(names []string, n int) []string {
	if names != nil {
		return names
	}
	s := make([]string, n)
	for i := range s {
		s[i] = strconv.Itoa(i)
	}
	return s
}

// checkNames reports the first invalid or repeated name, by package tree's
// rules, as an *Error wrapping tree.ErrBadName whose Line is the point's
// 1-based index. It builds the forest of the names alone, the cheapest way
// to apply those rules before the work starts.
func checkNames(names []string) error {
	if names == nil {
		return nil // "0" … "n−1" are valid and distinct
	}
	parent := make([]int, len(names))
	for i := range parent {
		parent[i] = -1
	}
	_, err := tree.FromParents(parent, nil, names, nil)
	return err
}

// internalPrefix returns the name of the root of the internal nodes: base,
// or base+"#2", base+"#3", …, the first P such that no point is named P or
// begins with P+"/". Internal nodes are then named P, P/i, P/i/j, … without
// colliding with any point.
func internalPrefix(names []string, base string) string {
	if names == nil {
		return base // decimal names never begin with base's "·"
	}
	p := base
	for k := 2; ; k++ {
		taken := false
		for _, s := range names {
			if strings.HasPrefix(s, p) && (len(s) == len(p) || s[len(p)] == '/') {
				taken = true
				break
			}
		}
		if !taken {
			return p
		}
		p = base + "#" + strconv.Itoa(k)
	}
}

// childName returns the name of the i-th internal child of the node named
// parent.
func childName(parent string, i int) string {
	return parent + "/" + strconv.Itoa(i)
}

// rescale returns points and 0 when squared distances between them are
// safe from underflow. Otherwise (every coordinate below 2^−400 in
// magnitude) it returns a copy scaled by a power of two 2^e that brings
// the largest magnitude into [1, 2), and −e: the computations then run
// on the copy, which changes no bit of their arithmetic but exponents,
// and lengths are scaled back by 2^−e.
func rescale(points []float64) (scaled []float64, unscale int) {
	var m float64
	for _, v := range points {
		m = max(m, math.Abs(v))
	}
	if m == 0 || m >= 0x1p-400 {
		return points, 0
	}
	_, exp := math.Frexp(m) // m = f·2^exp, f ∈ [½, 1)
	scaled = make([]float64, len(points))
	for i, x := range points {
		scaled[i] = math.Ldexp(x, 1-exp)
	}
	return scaled, exp - 1
}

// dist returns the Euclidean distance between x and y.
func dist(x, y []float64) float64 { return math.Sqrt(fmath.SqDist(x, y)) }

// row returns point i of a row-major n×d matrix.
func row(points []float64, d, i int) []float64 {
	return points[i*d : i*d+d : i*d+d]
}
