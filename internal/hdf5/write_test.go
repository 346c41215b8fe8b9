package hdf5

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// writeFile writes ds with the numeric values vals (in declaration
// order) and returns the file.
func writeFile(t *testing.T, ds []Dataset, vals []float64, chunk int) []byte {
	t.Helper()
	var b bytes.Buffer
	w, err := NewWriter(&b, ds)
	if err != nil {
		t.Fatal(err)
	}
	for len(vals) > 0 {
		k := min(chunk, len(vals))
		if err := w.WriteFloats(vals[:k]); err != nil {
			t.Fatal(err)
		}
		vals = vals[k:]
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestWriteRead writes the layout of ssu's HDF5 output and reads it back
// with this package's reader: every dataset's dimensions and elements
// come back as written (float32 values as the rounding of the float64s
// given).
func TestWriteRead(t *testing.T) {
	ids := []string{"S1", "sample.two", "", "ü-3"}
	n := len(ids)
	m := make([]float64, n*n)
	for i := range n {
		for j := range n {
			m[i*n+j] = math.Abs(float64(i-j)) / 3
		}
	}
	eig := []float64{2.5, 1.25, -0.5}
	coords := make([]float64, n*3)
	for i := range coords {
		coords[i] = math.Sqrt(float64(i)) - 1
	}
	ds := []Dataset{
		{Name: "format", Kind: FixedString, Dims: []int{1}, Strings: []string{"BDSM"}},
		{Name: "version", Kind: FixedString, Dims: []int{1}, Strings: []string{"2020.12"}},
		{Name: "order", Kind: VarString, Dims: []int{n}, Strings: ids},
		{Name: "matrix", Kind: Float32, Dims: []int{n, n}},
		{Name: "pcoa_method", Kind: FixedString, Dims: []int{1}, Strings: []string{"eigh"}},
		{Name: "pcoa_eigvals", Kind: Float64, Dims: []int{3}},
		{Name: "pcoa_samples", Kind: Float64, Dims: []int{n, 3}},
		{Name: "names", Kind: FixedString, Dims: []int{2, 2}, Strings: []string{"a", "bb", "ccc", ""}},
	}
	vals := slices.Concat(m, eig, coords)
	for _, chunk := range []int{1, 5, len(vals)} {
		file := writeFile(t, ds, vals, chunk)
		f, err := OpenBytes(file, "w.h5")
		if err != nil {
			t.Fatal(err)
		}
		mem, err := f.Members("/")
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"format", "matrix", "names", "order", "pcoa_eigvals", "pcoa_method", "pcoa_samples", "version"}
		if !slices.Equal(mem, want) {
			t.Fatalf("members %v, want %v", mem, want)
		}
		str := func(name string, want []string, dims ...int) {
			t.Helper()
			v, err := f.Dataset(name)
			if err != nil {
				t.Fatal(err)
			}
			got, err := v.Strings()
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) || !slices.Equal(v.Dims(), dims) {
				t.Errorf("%s: %q %v, want %q %v", name, got, v.Dims(), want, dims)
			}
		}
		str("format", []string{"BDSM"}, 1)
		str("version", []string{"2020.12"}, 1)
		str("pcoa_method", []string{"eigh"}, 1)
		str("order", ids, n)
		str("names", []string{"a", "bb", "ccc", ""}, 2, 2)
		num := func(name string, want []float64, dims ...int) {
			t.Helper()
			v, err := f.Dataset(name)
			if err != nil {
				t.Fatal(err)
			}
			got, err := v.Float64s()
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) || !slices.Equal(v.Dims(), dims) {
				t.Errorf("%s: %v %v, want %v %v", name, got, v.Dims(), want, dims)
			}
		}
		m32 := make([]float64, len(m))
		for i, x := range m {
			m32[i] = float64(float32(x))
		}
		num("matrix", m32, n, n)
		num("pcoa_eigvals", eig, 3)
		num("pcoa_samples", coords, n, 3)
	}
}

// TestWriteManyStrings writes more variable-length strings than one
// global heap collection can index (65,535), and more datasets than the
// default symbol table node holds (8).
func TestWriteManyStrings(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	ids := make([]string, 70000)
	for i := range ids {
		ids[i] = fmt.Sprintf("s%d", i)
	}
	ds := []Dataset{{Name: "order", Kind: VarString, Dims: []int{len(ids)}, Strings: ids}}
	for k := range 11 {
		ds = append(ds, Dataset{Name: fmt.Sprintf("x%02d", k), Kind: Float64, Dims: []int{1}})
	}
	vals := make([]float64, 11)
	for i := range vals {
		vals[i] = float64(i) + 0.5
	}
	f, err := OpenBytes(writeFile(t, ds, vals, 3), "many.h5")
	if err != nil {
		t.Fatal(err)
	}
	v, err := f.Dataset("order")
	if err != nil {
		t.Fatal(err)
	}
	got, err := v.Strings()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, ids) {
		t.Fatal("the strings do not come back")
	}
	for k := range 11 {
		v, err := f.Dataset(fmt.Sprintf("x%02d", k))
		if err != nil {
			t.Fatal(err)
		}
		if x, _ := v.Float64s(); len(x) != 1 || x[0] != vals[k] {
			t.Errorf("x%02d = %v, want %v", k, x, vals[k])
		}
	}
}

// TestWriteSize checks that the file ends where its superblock says.
func TestWriteSize(t *testing.T) {
	ds := []Dataset{
		{Name: "order", Kind: VarString, Dims: []int{2}, Strings: []string{"a", "b"}},
		{Name: "matrix", Kind: Float32, Dims: []int{3}},
	}
	b := writeFile(t, ds, []float64{1, 2, 3}, 3)
	eof := le.Uint64(b[40:])
	if eof != uint64(len(b)) {
		t.Errorf("end of file address %d, file of %d bytes", eof, len(b))
	}
}

func TestWriteErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		ds   []Dataset
		want string
	}{
		{"none", nil, "no dataset"},
		{"empty name", []Dataset{{Name: "", Kind: Float64, Dims: []int{1}}}, "name"},
		{"slash", []Dataset{{Name: "a/b", Kind: Float64, Dims: []int{1}}}, "name"},
		{"twice", []Dataset{{Name: "a", Kind: Float64, Dims: []int{1}}, {Name: "a", Kind: Float32, Dims: []int{1}}}, "two datasets"},
		{"kind", []Dataset{{Name: "a", Dims: []int{1}}}, "kind"},
		{"no dims", []Dataset{{Name: "a", Kind: Float64}}, "dimensions"},
		{"zero dim", []Dataset{{Name: "a", Kind: Float64, Dims: []int{2, 0}}}, "dimensions"},
		{"strings in numbers", []Dataset{{Name: "a", Kind: Float64, Dims: []int{1}, Strings: []string{"x"}}}, "strings"},
		{"string count", []Dataset{{Name: "a", Kind: VarString, Dims: []int{2}, Strings: []string{"x"}}}, "strings"},
	} {
		var b bytes.Buffer
		_, err := NewWriter(&b, c.ds)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one with %q", c.name, err, c.want)
		}
		if b.Len() != 0 {
			t.Errorf("%s: %d bytes written", c.name, b.Len())
		}
	}
	ds := []Dataset{{Name: "a", Kind: Float64, Dims: []int{2}}}
	var b bytes.Buffer
	w, err := NewWriter(&b, ds)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteFloats([]float64{1}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err == nil || !strings.Contains(err.Error(), "missing 1 values") {
		t.Errorf("Close with a value missing: %v", err)
	}
	if err := w.WriteFloats([]float64{2, 3}); err == nil {
		t.Error("WriteFloats past the end: no error")
	}
	w, _ = NewWriter(&b, ds)
	boom := errors.New("boom")
	w.w = failWriter{boom}
	if err := w.WriteFloats([]float64{1, 2}); !errors.Is(err, boom) {
		t.Errorf("a failing writer: %v", err)
	}
	if err := w.Close(); !errors.Is(err, boom) {
		t.Errorf("Close after a failed write: %v", err)
	}
}

type failWriter struct{ err error }

func (f failWriter) Write([]byte) (int, error) { return 0, f.err }

// TestWriteRandom writes files of random datasets (names, kinds,
// dimensions, strings with empty and multi-byte ones, values) and reads
// each back.
func TestWriteRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 29))
	for round := range 200 {
		nds := 1 + r.IntN(12)
		var ds []Dataset
		var vals []float64
		used := map[string]bool{}
		for len(ds) < nds {
			name := fmt.Sprintf("d%d_%s", r.IntN(1000), strings.Repeat("é", r.IntN(3)))
			if used[name] {
				continue
			}
			used[name] = true
			dims := []int{1 + r.IntN(20)}
			if r.IntN(2) == 0 {
				dims = append(dims, 1+r.IntN(5))
			}
			d := Dataset{Name: name, Kind: Kind(1 + r.IntN(4)), Dims: dims}
			n := d.count()
			if d.numeric() {
				for range n {
					vals = append(vals, r.NormFloat64()*math.Pow(10, float64(r.IntN(20)-10)))
				}
			} else {
				for range n {
					s := strings.Repeat(string(rune('a'+r.IntN(26))), r.IntN(5))
					if r.IntN(5) == 0 {
						s += "µ"
					}
					d.Strings = append(d.Strings, s)
				}
			}
			ds = append(ds, d)
		}
		f, err := OpenBytes(writeFile(t, ds, vals, 1+r.IntN(30)), "r.h5")
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		k := 0
		for _, d := range ds {
			v, err := f.Dataset(d.Name)
			if err != nil {
				t.Fatalf("round %d: %s: %v", round, d.Name, err)
			}
			if !slices.Equal(v.Dims(), d.Dims) {
				t.Fatalf("round %d: %s: dims %v, want %v", round, d.Name, v.Dims(), d.Dims)
			}
			if d.numeric() {
				got, err := v.Float64s()
				if err != nil {
					t.Fatal(err)
				}
				for i, x := range got {
					want := vals[k+i]
					if d.Kind == Float32 {
						want = float64(float32(want))
					}
					if x != want {
						t.Fatalf("round %d: %s[%d] = %v, want %v", round, d.Name, i, x, want)
					}
				}
				k += len(got)
				continue
			}
			got, err := v.Strings()
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, d.Strings) {
				t.Fatalf("round %d: %s = %q, want %q", round, d.Name, got, d.Strings)
			}
		}
	}
}
