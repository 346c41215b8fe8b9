package dataset

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/twl-ldl/twl/matfile"
)

func fromMAT(t *testing.T, b []byte, opts *Options) (*Dataset, Report, error) {
	t.Helper()
	f, err := matfile.Read(bytes.NewReader(b), "m.mat")
	if err != nil {
		t.Fatal(err)
	}
	return FromMAT(f, opts)
}

func TestFromMAT(t *testing.T) {
	features := matVar{"features", 3, 2, []float64{1, 2, 3, 4, 5, 6}}
	labels := matVar{"labels", 3, 3, []float64{
		0.5, 0.5, 0,
		0.25, 0, 0.25, // sums to 0.5: rescaled to 0.5, 0, 0.5
		0, 0, 1,
	}}
	ds, rep, err := fromMAT(t, matFile(labels, features), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(ds.X, mat.NewDense(3, 2, features.data)) {
		t.Errorf("X = %v", mat.Formatted(ds.X))
	}
	wantY := mat.NewDense(3, 3, []float64{0.5, 0.5, 0, 0.5, 0, 0.5, 0, 0, 1})
	if !mat.Equal(ds.Y, wantY) {
		t.Errorf("Y = %v", mat.Formatted(ds.Y))
	}
	if want := []string{"0", "1", "2"}; !reflect.DeepEqual(ds.Labels, want) || ds.Lines != nil {
		t.Errorf("Labels = %q, Lines = %v", ds.Labels, ds.Lines)
	}
	wantRep := Report{File: "m.mat", Rows: 3, Tol: 1e-6, Rescaled: 1, FirstRow: 1, MaxDeviation: 0.5}
	if rep != wantRep {
		t.Errorf("report %+v, want %+v", rep, wantRep)
	}
	if got, want := rep.String(), "m.mat: 1 of 3 label rows did not sum to 1 within 1e-06 (largest deviation 0.5) and were rescaled; the first is row 2"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if _, _, err := fromMAT(t, matFile(labels, features), &Options{Strict: true}); !errors.Is(err, ErrSum) || err.Error() != "m.mat: masses do not sum to 1: row 2: they sum to 0.5 (tolerance 1e-06)" {
		t.Errorf("Strict: %v", err)
	}
}

func TestFromMATErrors(t *testing.T) {
	x := matVar{"features", 2, 1, []float64{1, 2}}
	y := matVar{"labels", 2, 2, []float64{1, 0, 0, 1}}
	for _, tc := range []struct {
		name string
		vars []matVar
		err  error
		msg  string
	}{
		{"no labels", []matVar{x}, matfile.ErrNoVariable, `m.mat: variable "labels": no such variable: the file holds "features"`},
		{"no features", []matVar{y}, matfile.ErrNoVariable, `m.mat: variable "features": no such variable: the file holds "labels"`},
		{"row counts differ", []matVar{x, {"labels", 1, 2, []float64{1, 0}}}, ErrDimension, "m.mat: wrong dimension: features has 2 rows (samples), labels has 1"},
		{"NaN feature", []matVar{{"features", 2, 1, []float64{1, math.NaN()}}, y}, ErrNonFinite, "m.mat: non-finite value: row 2: feature 1 is NaN"},
		{"Inf mass", []matVar{x, {"labels", 2, 2, []float64{1, 0, math.Inf(1), 1}}}, ErrNonFinite, "m.mat: non-finite value: row 2: label 0 has mass +Inf"},
		{"negative mass", []matVar{x, {"labels", 2, 2, []float64{1.5, -0.5, 0, 1}}}, ErrNegative, "m.mat: negative mass: row 1: label 1 has mass -0.5"},
		{"zero row", []matVar{x, {"labels", 2, 2, []float64{1, 0, 0, 0}}}, ErrZeroRow, "m.mat: all masses are zero: row 2"},
	} {
		_, _, err := fromMAT(t, matFile(tc.vars...), nil)
		if !errors.Is(err, tc.err) || err.Error() != tc.msg {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.msg)
		}
	}
}

// TestReadMATFiles reads the LDL benchmark files. Shapes and the number of
// FG-Net rows off 1 (522, the first being row 1) come from scipy.io.loadmat
// (SciPy 1.10.1) on the same files.
func TestReadMATFiles(t *testing.T) {
	dir := "../../shared/data/ldl"
	for _, tc := range []struct {
		file           string
		n, d, l        int
		rescaled, frst int
	}{
		{"SJAFFE", 213, 243, 6, 0, -1},
		{"Yeast_alpha", 2465, 24, 18, 0, -1},
		{"Movie", 7755, 1869, 5, 0, -1},
		{"FG-Net", 1002, 251, 70, 522, 0},
	} {
		t.Run(tc.file, func(t *testing.T) {
			if testing.Short() && tc.file == "Movie" {
				t.Skip("Movie inflates to 116 MB; skipped with -short")
			}
			path := filepath.Join(dir, tc.file+".mat")
			if _, err := os.Stat(path); err != nil {
				t.Skipf("LDL data absent: %v", err)
			}
			ds, rep, err := ReadMAT(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			n, d := ds.X.Dims()
			_, l := ds.Y.Dims()
			if n != tc.n || d != tc.d || l != tc.l || len(ds.Labels) != l || ds.Labels[l-1] != strconv.Itoa(l-1) {
				t.Errorf("%d×%d features, %d labels (%q…), want %d×%d, %d", n, d, l, ds.Labels[:1], tc.n, tc.d, tc.l)
			}
			if rep.Rescaled != tc.rescaled || rep.FirstRow != tc.frst || rep.Rows != n {
				t.Errorf("report %+v, want %d rescaled, first row %d", rep, tc.rescaled, tc.frst)
			}
			for i := range n {
				var s float64
				for _, v := range ds.Y.RawRowView(i) {
					s += v
				}
				if math.Abs(s-1) > 1e-6 {
					t.Fatalf("row %d sums to %v", i, s)
				}
			}
		})
	}
}
