package dataset

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Standardizer centres and scales features: Transform maps feature k of a
// row to (x_k − Mean[k]) / Scale[k]. Fit it on the training rows only, then
// transform training and test rows alike.
type Standardizer struct {
	// Mean[k] is the mean of feature k over the fitting rows.
	Mean []float64
	// Scale[k] is the population standard deviation of feature k over the
	// fitting rows, sqrt(Σ(x−mean)²/m) for m rows, or 1 when the feature
	// takes a single value on them; Mean[k] is then that value, so that
	// the feature maps to exactly 0 on those rows rather than to NaN.
	Scale []float64
}

// Fit sets s.Mean and s.Scale from rows rows of x, or from all rows if rows
// is nil, reusing their storage. x is not changed. It costs O(m·d) time for
// m rows of d features. It panics if rows is empty but not nil, or holds an
// index out of range.
func (s *Standardizer) Fit(x *mat.Dense, rows []int) {
	n, d := x.Dims()
	if rows != nil && len(rows) == 0 {
		panic("dataset: Standardizer.Fit on no rows")
	}
	m := len(rows)
	if rows == nil {
		m = n
	}
	row := func(r int) []float64 {
		if rows == nil {
			return x.RawRowView(r)
		}
		i := rows[r]
		if i < 0 || i >= n {
			panic(fmt.Sprintf("dataset: Standardizer.Fit row %d out of range [0, %d)", i, n))
		}
		return x.RawRowView(i)
	}
	s.Mean = resize(s.Mean, d)
	s.Scale = resize(s.Scale, d)
	mean, scale := s.Mean, s.Scale
	lo := make([]float64, d)
	hi := make([]float64, d)
	copy(lo, row(0))
	copy(hi, row(0))
	for r := range m {
		for k, v := range row(r) {
			mean[k] += v
			lo[k] = min(lo[k], v)
			hi[k] = max(hi[k], v)
		}
	}
	for k := range mean {
		mean[k] /= float64(m)
	}
	for k := range mean {
		if math.IsInf(mean[k], 0) { // the sum overflowed: add v/m instead
			mean[k] = 0
			for r := range m {
				mean[k] += row(r)[k] / float64(m)
			}
		}
	}
	// Two passes over the deviations, the second scaled by the largest, so
	// that squaring neither overflows nor underflows.
	for r := range m {
		for k, v := range row(r) {
			scale[k] = max(scale[k], math.Abs(v-mean[k]))
		}
	}
	ss := make([]float64, d) // sums of squared scaled deviations
	for r := range m {
		for k, v := range row(r) {
			if scale[k] > 0 {
				z := (v - mean[k]) / scale[k]
				ss[k] += z * z
			}
		}
	}
	for k := range scale {
		if hi[k] == lo[k] || scale[k] == 0 {
			mean[k], scale[k] = hi[k], 1 // exact, so the fitting rows map to 0
			continue
		}
		scale[k] *= math.Sqrt(ss[k] / float64(m))
	}
}

func resize(b []float64, n int) []float64 {
	if cap(b) < n {
		return make([]float64, n)
	}
	b = b[:n]
	clear(b)
	return b
}

// Transform sets dst to the standardized src. dst may be src (in place);
// otherwise src is not changed. It panics if the shapes of dst and src
// differ or their width is not len(s.Mean).
func (s *Standardizer) Transform(dst, src *mat.Dense) {
	n, d := src.Dims()
	if rn, rd := dst.Dims(); rn != n || rd != d {
		panic(fmt.Sprintf("dataset: Transform into %d×%d from %d×%d", rn, rd, n, d))
	}
	if d != len(s.Mean) || d != len(s.Scale) {
		panic(fmt.Sprintf("dataset: Transform of %d features with a Standardizer of %d", d, len(s.Mean)))
	}
	for i := range n {
		out, in := dst.RawRowView(i), src.RawRowView(i)
		for k, v := range in {
			out[k] = (v - s.Mean[k]) / s.Scale[k]
		}
	}
}
