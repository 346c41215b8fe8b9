package hdf5

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// FuzzOpen checks that no input makes the reader panic and that every
// error is an *Error. Seeds: the HDF5 files of testdata/unifrac.
func FuzzOpen(f *testing.F) {
	capMinimize()
	for _, pat := range []string{"*.h5", "*.biom"} {
		paths, _ := filepath.Glob("../../testdata/unifrac/" + pat)
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got := transcript(t, b, false)
		if mem := transcript(t, b, true); mem != got {
			t.Fatalf("OpenBytes read\n%s\nOpen read\n%s", mem, got)
		}
	})
}

// transcript reads everything FuzzOpen looks at from b, with Open or
// OpenBytes, and writes what it got, values and errors, as text. It fails
// t on an error that is not an *Error.
func transcript(t *testing.T, b []byte, mem bool) string {
	var sb strings.Builder
	check := func(err error) {
		var e *Error
		if err != nil && !errors.As(err, &e) {
			t.Fatalf("error %v is not an *Error", err)
		}
		fmt.Fprintf(&sb, "err %v\n", err)
	}
	var file *File
	var err error
	if mem {
		file, err = OpenBytes(b, "fuzz.h5")
	} else {
		file, err = Open(bytes.NewReader(b), int64(len(b)), "fuzz.h5")
	}
	check(err)
	if err != nil {
		return sb.String()
	}
	value := func(v *Value) {
		s, err := v.Strings()
		check(err)
		fmt.Fprintf(&sb, "%q\n", s)
		x, err := v.Float64s()
		check(err)
		fmt.Fprintf(&sb, "%v\n", x)
	}
	for _, g := range []string{"/", "g", "observation", "sample/matrix"} {
		members, err := file.Members(g)
		check(err)
		attrs, err := file.Attrs(g)
		check(err)
		for _, a := range attrs {
			v, err := file.Attr(g, a)
			check(err)
			if err == nil {
				value(v)
			}
		}
		for _, m := range members {
			v, err := file.Dataset(g + "/" + m)
			check(err)
			if err == nil {
				value(v)
			}
			sameNumbers(t, file, g+"/"+m)
		}
	}
	return sb.String()
}

// sameNumbers checks that DatasetNumbers reads the dataset at path as
// Dataset does: the same error, or the same elements as floats and as
// 32-bit integers.
func sameNumbers(t *testing.T, file *File, path string) {
	t.Helper()
	v, err := file.Dataset(path)
	w, errw := file.DatasetNumbers(path)
	if fmt.Sprint(err) != fmt.Sprint(errw) {
		t.Fatalf("%s: Dataset: %v, DatasetNumbers: %v", path, err, errw)
	}
	if err != nil {
		return
	}
	if v.Len() != w.Len() || v.IsString() != w.IsString() || !reflect.DeepEqual(v.Dims(), w.Dims()) {
		t.Fatalf("%s: %d elements %v, DatasetNumbers %d %v", path, v.Len(), v.Dims(), w.Len(), w.Dims())
	}
	x, errx := v.Float64s()
	y, erry := w.Float64s()
	if fmt.Sprint(errx) != fmt.Sprint(erry) || (errx == nil && !slices.EqualFunc(x, y, func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) })) {
		t.Fatalf("%s: Float64s %v %v, DatasetNumbers %v %v", path, x, errx, y, erry)
	}
	i, oki := v.Int32s()
	j, okj := w.Int32s()
	if oki != okj || !slices.Equal(i, j) {
		t.Fatalf("%s: Int32s %v %v, DatasetNumbers %v %v", path, i, oki, j, okj)
	}
	a, erra := v.Int64s()
	b, errb := w.Int64s()
	if fmt.Sprint(erra) != fmt.Sprint(errb) || !slices.Equal(a, b) {
		t.Fatalf("%s: Int64s %v %v, DatasetNumbers %v %v", path, a, erra, b, errb)
	}
}

// minimizeLimit is the budget capMinimize gives the fuzzer's minimization
// of each new interesting input.
const minimizeLimit = "1000x"

// capMinimize bounds the fuzzer's minimization to minimizeLimit runs per
// input unless -test.fuzzminimizetime was given. The fuzzer minimizes each
// new interesting input before it goes on, for 60 s by default, and counts
// none of those runs in its progress lines; inputs grown from the
// kilobyte-size seeds (mostly zero padding, each removable byte one more
// candidate) use the whole minute, so a short -fuzztime run spends its time
// minimizing and does a handful of executions.
func capMinimize() {
	set := false
	flag.Visit(func(fl *flag.Flag) { set = set || fl.Name == "test.fuzzminimizetime" })
	if !set && flag.Lookup("test.fuzzminimizetime") != nil {
		flag.Set("test.fuzzminimizetime", minimizeLimit)
	}
}

// TestCapMinimize checks that FuzzOpen's minimization budget is bounded
// when no -test.fuzzminimizetime is given: without it a 10 s fuzzing run
// spent its time minimizing and ran about ten inputs.
func TestCapMinimize(t *testing.T) {
	fl := flag.Lookup("test.fuzzminimizetime")
	if fl == nil {
		t.Skip("no -test.fuzzminimizetime flag")
	}
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == fl.Name })
	if given {
		t.Skip("-test.fuzzminimizetime given")
	}
	old := fl.Value.String()
	defer fl.Value.Set(old)
	capMinimize()
	if got := fl.Value.String(); got != minimizeLimit {
		t.Errorf("minimize budget %q after capMinimize, want %q (default %q)", got, minimizeLimit, old)
	}
}
