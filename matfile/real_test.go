package matfile

import (
	"math"
	"os"
	"path/filepath"
	"testing"
)

// ldlDir holds the LDL benchmark MAT-files (see shared/data/SOURCES.md).
const ldlDir = "../../shared/data/ldl"

func readLDL(t *testing.T, name string) *File {
	t.Helper()
	path := filepath.Join(ldlDir, name+".mat")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("LDL data absent: %v", err)
	}
	f, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestLDLFiles reads the benchmark files. The expected values come from
// scipy.io.loadmat (SciPy 1.10.1, mat_dtype=True) on the same files: shapes,
// single elements printed with repr, math.fsum of all elements (sum) and of
// element (i, j) times j (wsum, which a transposition or a column-major
// mix-up would change).
func TestLDLFiles(t *testing.T) {
	type elem struct {
		i, j int
		v    float64
	}
	type matrix struct {
		name       string
		rows, cols int
		elems      []elem
		sum, wsum  float64
	}
	for _, tc := range []struct {
		file        string
		names       []string
		features    matrix
		labels      matrix
		sumsToOne   bool
		offRowCount int // label rows whose sum is off 1 by more than 1e-6
	}{
		{"SJAFFE", []string{"labels", "features"},
			matrix{"features", 213, 243, []elem{{0, 0, 0.0444095777338154}, {0, 2, 0.0012961320690360871}, {113, 82, 0.0013643495463537757}, {212, 242, 0.3047274711781158}}, 213.0, 34177.2634558974},
			matrix{"labels", 213, 6, []elem{{0, 0, 0.21275018532246107}, {113, 4, 0.1806196440342782}, {212, 5, 0.21201814058956917}}, 213, math.NaN()},
			true, 0},
		{"Yeast_alpha", []string{"features", "labels"},
			matrix{"features", 2465, 24, []elem{{0, 0, 0.6118248175182481}, {1239, 9, 0.6243194192377496}, {2464, 23, 0.2358711566617862}}, 19677.63401489329, 237201.09111395822},
			matrix{"labels", 2465, 18, []elem{{0, 1, 0.04836490185668032}, {1239, 16, 0.04826548409582494}, {2464, 17, 0.054727382283040374}}, 2465, math.NaN()},
			true, 0},
		{"Movie", []string{"features", "labels"},
			matrix{"features", 7755, 1869, []elem{{3884, 624, 0}, {3884, 0, 0.8878504672897196}, {7754, 1868, 0.07499997687499942}}, 143176.0067241374, 141296235.33050296},
			matrix{"labels", 7755, 5, []elem{{0, 2, 0.33333333333333337}, {3884, 3, 0.16}, {7754, 4, 0.1717171717171717}}, 7755, math.NaN()},
			true, 0},
		{"FG-Net", []string{"age", "features", "labels", "x"},
			matrix{"features", 1002, 251, []elem{{0, 0, -0.58754}, {508, 84, 0.00471703}, {1001, 250, -0.00728546}}, 6.920760499777799, 214.0845434901681},
			matrix{"labels", 1002, 70, []elem{{0, 0, 0.03315904626424956}, {508, 68, 3.6171115666225457e-113}, {1001, 69, 1.9218539203715727e-36}}, 956.4484194625456, math.NaN()},
			false, 522},
	} {
		t.Run(tc.file, func(t *testing.T) {
			if testing.Short() && tc.file == "Movie" {
				t.Skip("Movie inflates to 116 MB; skipped with -short")
			}
			f := readLDL(t, tc.file)
			if got := f.Names(); len(got) != len(tc.names) {
				t.Fatalf("Names() = %q, want %q", got, tc.names)
			}
			for i, n := range f.Names() {
				if n != tc.names[i] {
					t.Errorf("Names()[%d] = %q, want %q", i, n, tc.names[i])
				}
			}
			for _, m := range []matrix{tc.features, tc.labels} {
				d, err := f.Matrix(m.name)
				if err != nil {
					t.Fatal(err)
				}
				if r, c := d.Dims(); r != m.rows || c != m.cols {
					t.Fatalf("%s is %d×%d, want %d×%d", m.name, r, c, m.rows, m.cols)
				}
				for _, e := range m.elems {
					if got := d.At(e.i, e.j); got != e.v {
						t.Errorf("%s[%d, %d] = %v, want %v", m.name, e.i, e.j, got, e.v)
					}
				}
				var sum, wsum float64
				for i := range m.rows {
					for j, v := range d.RawRowView(i) {
						sum += v
						wsum += v * float64(j)
					}
				}
				if math.Abs(sum-m.sum) > 1e-9*math.Abs(m.sum) {
					t.Errorf("%s: sum %v, want %v", m.name, sum, m.sum)
				}
				if !math.IsNaN(m.wsum) && math.Abs(wsum-m.wsum) > 1e-9*math.Abs(m.wsum) {
					t.Errorf("%s: weighted sum %v, want %v", m.name, wsum, m.wsum)
				}
			}
			y, _ := f.Matrix("labels")
			off := 0
			for i := range tc.labels.rows {
				var s float64
				for _, v := range y.RawRowView(i) {
					s += v
				}
				if math.Abs(s-1) > 1e-6 {
					off++
				}
			}
			if off != tc.offRowCount {
				t.Errorf("%d label rows do not sum to 1, want %d", off, tc.offRowCount)
			}
		})
	}
}

// TestFGNetExtras checks FG-Net's age and x variables: MATLAB stored these
// double arrays as miUINT8. Expected values from scipy.io.loadmat as above:
// age starts 5 8 10 14 16, ends 25 27 31, sums to 15872; x is 0 … 69.
func TestFGNetExtras(t *testing.T) {
	f := readLDL(t, "FG-Net")
	age, err := f.Matrix("age")
	if err != nil {
		t.Fatal(err)
	}
	if r, c := age.Dims(); r != 1 || c != 1002 {
		t.Fatalf("age is %d×%d", r, c)
	}
	a := age.RawRowView(0)
	var sum float64
	for _, v := range a {
		sum += v
	}
	if a[0] != 5 || a[4] != 16 || a[999] != 25 || a[1001] != 31 || sum != 15872 {
		t.Errorf("age = %v … %v, sum %v", a[:5], a[999:], sum)
	}
	x, err := f.Matrix("x")
	if err != nil {
		t.Fatal(err)
	}
	for j, v := range x.RawRowView(0) {
		if v != float64(j) {
			t.Fatalf("x[%d] = %v", j, v)
		}
	}
}
