package biom

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// The table of testdata/unifrac, as recorded in its README.md (written by
// biom-format 2.1.12 in every format): samples S1 S2 S3, observations O1
// O2 O_3 "O 4" O5, counts per sample:
//
//	S1: O1 1, O_3 4
//	S2: O2 3, O_3 5, O 4 0.5
//	S3: O1 2, O 4 6
var (
	wantSamples = []string{"S1", "S2", "S3"}
	wantObs     = []string{"O1", "O2", "O_3", "O 4", "O5"}
	wantIndptr  = []int{0, 2, 5, 7}
	wantIndices = []int32{0, 2, 1, 2, 3, 0, 3}
	wantData    = []float64{1, 4, 3, 5, 0.5, 2, 6}
)

func TestTestdata(t *testing.T) {
	for _, name := range []string{"table.biom", "table.json", "table-dense.json", "table.tsv", "table-taxonomy.tsv", "table.qza"} {
		tb, err := ReadFile("../testdata/unifrac/"+name, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(tb.Samples, wantSamples) || !reflect.DeepEqual(tb.Observations, wantObs) ||
			!reflect.DeepEqual(tb.Indptr, wantIndptr) || !reflect.DeepEqual(tb.Indices, wantIndices) ||
			!reflect.DeepEqual(tb.Data, wantData) {
			t.Errorf("%s: got %+v", name, tb)
		}
		if tb.At(1, 3) != 0.5 || tb.At(1, 0) != 0 || tb.NNZ() != 7 {
			t.Errorf("%s: At or NNZ wrong", name)
		}
	}
}

func TestWarnEmptySample(t *testing.T) {
	var warnings []string
	in := "#OTU ID\tS1\tS2\nA\t1\t0\nB\t2\t0\n"
	tb, err := Parse([]byte(in), "e.tsv", &Options{Warn: func(m string) { warnings = append(warnings, m) }})
	if err != nil {
		t.Fatal(err)
	}
	if tb.NNZ() != 2 || len(warnings) != 1 || warnings[0] != `e.tsv: sample "S2" has no counts` {
		t.Errorf("nnz %d, warnings %q", tb.NNZ(), warnings)
	}
}

func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		in       string
		sentinel error
		want     string
	}{
		{"#OTU ID\tS1\tS2\nA\t1\t-2\n", ErrCount, `t:2: invalid count: count -2 of observation "A" in sample "S2"`},
		{"#OTU ID\tS1\tS2\nA\t1\tNaN\n", ErrCount, ""},
		{"#OTU ID\tS1\tS2\nA\t1\tx\n", ErrCount, `t:2: invalid count: count "x" of sample "S2" is not a number`},
		{"#OTU ID\tS1\tS1\nA\t1\t2\n", ErrDuplicateID, `t: invalid id: samples 1 and 2 have the same id "S1"`},
		{"#OTU ID\tS1\nA\t1\nA\t2\n", ErrDuplicateID, ""},
		{"#OTU ID\tS1\tS2\nA\t1\n", ErrFormat, "t:2: invalid BIOM table: 2 fields, the header (line 1) has 3"},
		{"A\t1\n", ErrFormat, ""},
		{"", ErrFormat, ""},
		{`{"rows":[{"id":"A"}],"columns":[{"id":"S"}],"matrix_type":"sparse","data":[[0,1,2]]}`, ErrFormat, ""},
		{`{"rows":[{"id":"A"}],"columns":[{"id":"S"}],"matrix_type":"sparse","data":[[0,0,2],[0,0,3]]}`, ErrFormat, ""},
		{`{"rows":[{"id":"A"}],"columns":[{"id":"S"}],"matrix_type":"dense","data":[[-1]]}`, ErrCount, ""},
		{`{"rows":[{"id":"A"}],"columns":[{"id":"S"}],"matrix_type":"csr","data":[]}`, ErrFormat, ""},
		{"{\n\"rows\": [}", ErrFormat, "t:2: invalid BIOM table: BIOM 1.0 JSON: invalid character '}' looking for beginning of value"},
		{"\x89HDF\r\n\x1a\nxxxx", ErrFormat, ""},
		{"PK\x03\x04xx", ErrFormat, ""},
	} {
		_, err := Parse([]byte(tc.in), "t", nil)
		if !errors.Is(err, tc.sentinel) {
			t.Errorf("%q: error %v, want %v", tc.in, err, tc.sentinel)
			continue
		}
		if tc.want != "" && err.Error() != tc.want {
			t.Errorf("%q:\n got %s\nwant %s", tc.in, err, tc.want)
		}
	}
}

// TestCutHDF5 cuts table.biom at several lengths: each read fails with an
// *Error that names the file.
func TestCutHDF5(t *testing.T) {
	tb, err := ReadFile("../testdata/unifrac/table.biom", nil)
	if err != nil || tb == nil {
		t.Fatal(err)
	}
	full, _ := readAll("../testdata/unifrac/table.biom")
	for _, n := range []int{8, 100, 1000, 4000, 10000} {
		_, err := Parse(full[:n], "cut.biom", nil)
		if !errors.Is(err, ErrFormat) || !strings.HasPrefix(err.Error(), "cut.biom: ") || strings.Count(err.Error(), "cut.biom") != 1 {
			t.Errorf("cut at %d: %v", n, err)
		}
	}
	// The root group's object header starts at byte 96 of table.biom (its
	// address at byte 64 of the version 0 superblock), a version 1 header
	// whose messages go on in a continuation block of 632 bytes: cut at
	// 500 bytes, that block runs past the end; cut at 700, the next object
	// header the reader follows, at byte 800, lies beyond the end. Main said "invalid BIOM table: byte
	// 96: corrupt HDF5 data: object header block of 632 bytes".
	for _, c := range []struct {
		n    int
		want string
	}{
		{500, "cut.biom: the file ends at byte 500, inside the HDF5 object header at byte 96: truncated or damaged BIOM table"},
		{700, "cut.biom: the file ends at byte 700, before the HDF5 object header at byte 800: truncated or damaged BIOM table"},
	} {
		if _, err := Parse(full[:c.n], "cut.biom", nil); err == nil || err.Error() != c.want {
			t.Errorf("cut at %d: %v\nwant %s", c.n, err, c.want)
		}
	}
}
