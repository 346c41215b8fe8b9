package distance_test

import (
	"bytes"
	"errors"
	"github.com/twl-ldl/twl/internal/race"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/distance"
)

// matrixText is the text of a matrix written one number at a time: the
// reference MatrixWriter must equal whatever its workers and calls (NaN
// and the infinities as the JSON strings "NaN", "+Inf" and "-Inf").
func matrixText(dst []float64, cols int, json bool, name string) string {
	var b strings.Builder
	if json {
		b.WriteString(`{"method":"` + name + `","pairwise":true,"distances":[`)
	}
	rows := 0
	if cols > 0 {
		rows = len(dst) / cols
	}
	for r := range rows {
		if json && r > 0 {
			b.WriteByte(',')
		}
		if json {
			b.WriteByte('[')
		}
		for j := range cols {
			v := dst[r*cols+j]
			if j > 0 {
				if json {
					b.WriteByte(',')
				} else {
					b.WriteByte('\t')
				}
			}
			switch {
			case json && math.IsNaN(v):
				b.WriteString(`"NaN"`)
			case json && math.IsInf(v, 1):
				b.WriteString(`"+Inf"`)
			case json && math.IsInf(v, -1):
				b.WriteString(`"-Inf"`)
			default:
				b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
			}
		}
		if json {
			b.WriteByte(']')
		} else {
			b.WriteByte('\n')
		}
	}
	if json {
		b.WriteString(`],"rows":` + strconv.Itoa(rows) + `,"cols":` + strconv.Itoa(cols) + "}\n")
	}
	return b.String()
}

// TestMatrixWriter checks MatrixWriter's bytes against matrixText for
// text and JSON, several numbers of workers and cuts of the rows into
// calls, on matrices of few and many columns with NaN and infinities.
func TestMatrixWriter(t *testing.T) {
	rng := rand.New(rand.NewPCG(51, 52))
	cases := []struct{ rows, cols int }{{1, 1}, {7, 3}, {300, 5}, {40, 20000}}
	if testing.Short() || race.Enabled {
		cases[3].rows = 4 // rows still past a task's 256 KiB
	}
	for _, c := range cases {
		dst := make([]float64, c.rows*c.cols)
		for k := range dst {
			switch rng.IntN(50) {
			case 0:
				dst[k] = math.NaN()
			case 1:
				dst[k] = math.Inf(1 - 2*rng.IntN(2))
			case 2:
				dst[k] = 0
			default:
				dst[k] = rng.ExpFloat64() * math.Pow(10, float64(rng.IntN(30)-15))
			}
		}
		for _, json := range []bool{false, true} {
			want := matrixText(dst, c.cols, json, "tw")
			for _, workers := range []int{1, 3} {
				for _, chunk := range []int{1, 13, c.rows} {
					var b bytes.Buffer
					mw := distance.NewMatrixWriter(&b, "tw", c.cols, json, workers)
					for lo := 0; lo < c.rows; lo += chunk {
						hi := min(lo+chunk, c.rows)
						if err := mw.WriteRows(dst[lo*c.cols : hi*c.cols]); err != nil {
							t.Fatal(err)
						}
					}
					if err := mw.Close(); err != nil {
						t.Fatal(err)
					}
					if mw.Rows() != c.rows || b.String() != want {
						t.Fatalf("%d×%d json=%v workers=%d chunks of %d: %d rows, bytes equal %v", c.rows, c.cols, json, workers, chunk, mw.Rows(), b.String() == want)
					}
				}
			}
		}
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// TestMatrixWriterError checks that a failing writer's error is returned.
func TestMatrixWriterError(t *testing.T) {
	for _, json := range []bool{false, true} {
		mw := distance.NewMatrixWriter(failWriter{}, "tw", 2, json, 2)
		if err := mw.WriteRows([]float64{1, 2}); err == nil || err.Error() != "disk full" {
			t.Fatalf("json=%v: %v", json, err)
		}
	}
}
