package distmat

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// wholeMatrix returns ids of varied lengths and a symmetric matrix whose
// values cover AppendG16's paths: distances in [1e-4, 1), tiny ones, 0,
// 1, integers, negative and huge values, and the longest text
// (-1.234567890123456e-308).
func wholeMatrix(n int, seed uint64) ([]string, []float64) {
	r := rand.New(rand.NewPCG(seed, 7))
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("S%d%s", i, strings.Repeat("x", r.IntN(40)))
	}
	v := make([]float64, n*n)
	for i := range n {
		for j := i + 1; j < n; j++ {
			var x float64
			switch r.IntN(12) {
			case 0:
				x = 0
			case 1, 2, 3:
				x = 1
			case 4:
				x = r.Float64() * 1e-6
			case 5:
				x = float64(r.IntN(1000))
			case 6:
				x = -r.Float64() * 1e300
			case 7:
				x = -1.234567890123456e-308
			default:
				x = r.Float64()
			}
			v[i*n+j], v[j*n+i] = x, x
		}
	}
	return ids, v
}

// condensedOf returns the pairs i < j of the n×n matrix v in row order.
func condensedOf(v []float64, n int) []float64 {
	var c []float64
	for i := range n {
		c = append(c, v[i*n+i+1:(i+1)*n]...)
	}
	return c
}

// TestWriteCondensed compares WriteCondensed with the full matrix given to
// WriteRows at once (the reference), for sizes around the group of rows,
// both formats and several numbers of workers.
func TestWriteCondensed(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, wholeRows - 1, wholeRows, wholeRows + 1, 2*wholeRows + 5, 150} {
		ids, v := wholeMatrix(n, uint64(n))
		c := condensedOf(v, n)
		for _, f := range []Format{TSV, NPY} {
			want := oneShot(t, f, ids, v)
			for _, workers := range []int{1, 2, 3, 8} {
				var buf bytes.Buffer
				// MaxBytes 1 takes the path by stripes for TSV too.
				w, err := NewWriter(&buf, f, ids, &Options{Workers: workers, MaxBytes: int64(workers % 2)})
				if err != nil {
					t.Fatal(err)
				}
				if err := w.WriteCondensed(context.Background(), c); err != nil {
					t.Fatalf("n %d %v workers %d: %v", n, f, workers, err)
				}
				if err := w.Close(); err != nil {
					t.Fatalf("n %d %v workers %d: Close: %v", n, f, workers, err)
				}
				if !bytes.Equal(buf.Bytes(), want) {
					t.Fatalf("n %d %v workers %d: output differs from WriteRows'", n, f, workers)
				}
			}
		}
	}
}

// TestWriteCondensedShortText compares WriteCondensed with WriteRows (the
// reference) on lines of the shortest texts: ids of one or two characters
// and values 0 and 1 among long ones, so that the end of a line is
// shorter than the slot of a pair.
func TestWriteCondensedShortText(t *testing.T) {
	for _, n := range []int{2, wholeRows + 3, 2*wholeRows + 1, 70} {
		r := rand.New(rand.NewPCG(uint64(n), 9))
		ids := make([]string, n)
		for i := range ids {
			ids[i] = strconv.FormatInt(int64(i), 36)
		}
		v := make([]float64, n*n)
		for i := range n {
			for j := i + 1; j < n; j++ {
				x := float64(r.IntN(2))
				if r.IntN(8) == 0 {
					x = -r.Float64() * 1e-300
				}
				v[i*n+j], v[j*n+i] = x, x
			}
		}
		want := oneShot(t, TSV, ids, v)
		for _, workers := range []int{1, 2} {
			var buf bytes.Buffer
			w, err := NewWriter(&buf, TSV, ids, &Options{Workers: workers})
			if err != nil {
				t.Fatal(err)
			}
			if err := w.WriteCondensed(context.Background(), condensedOf(v, n)); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				g := buf.Bytes()
				k := 0
				for k < len(g) && k < len(want) && g[k] == want[k] {
					k++
				}
				t.Fatalf("n %d workers %d: output differs from WriteRows' at byte %d: %q, want %q", n, workers, k, g[max(0, k-40):min(len(g), k+40)], want[max(0, k-40):min(len(want), k+40)])
			}
		}
	}
}

// TestWriteCondensedNaN checks that a value that is not finite is refused
// with WriteRows' message, naming the first bad pair in row-major order,
// and that nothing is written after the header.
func TestWriteCondensedNaN(t *testing.T) {
	n := 40
	ids, v := wholeMatrix(n, 3)
	for _, bad := range [][2]int{{0, 1}, {5, 39}, {38, 39}} {
		for _, x := range []float64{math.NaN(), math.Inf(1)} {
			u := append([]float64(nil), v...)
			i, j := bad[0], bad[1]
			u[i*n+j], u[j*n+i] = x, x
			// A later bad pair must not be the one named.
			u[39*n+38], u[38*n+39] = math.Inf(-1), math.Inf(-1)
			if bad == [2]int{38, 39} {
				u[i*n+j], u[j*n+i] = x, x
			}
			var ref bytes.Buffer
			rw, _ := NewWriter(&ref, TSV, ids, nil)
			wantErr := rw.WriteRows(u)
			var buf bytes.Buffer
			w, _ := NewWriter(&buf, TSV, ids, nil)
			head := buf.Len()
			err := w.WriteCondensed(context.Background(), condensedOf(u, n))
			if err == nil || wantErr == nil || err.Error() != wantErr.Error() {
				t.Fatalf("pair %v = %v: error %v, WriteRows' %v", bad, x, err, wantErr)
			}
			if buf.Len() != head {
				t.Fatalf("pair %v: %d bytes written after the header", bad, buf.Len()-head)
			}
		}
	}
}

// failAfter fails every write once limit bytes have been written.
type failAfter struct {
	n, limit int
}

var errFull = errors.New("disk full")

func (f *failAfter) Write(p []byte) (int, error) {
	if f.n+len(p) > f.limit {
		return 0, errFull
	}
	f.n += len(p)
	return len(p), nil
}

// TestWriteCondensedStops checks that a failed write and a cancelled
// context end WriteCondensed with their error (and no deadlock of the
// workers waiting for buffers).
func TestWriteCondensedStops(t *testing.T) {
	n := 300
	ids, v := wholeMatrix(n, 5)
	c := condensedOf(v, n)
	for _, limit := range []int{0, 100, 50_000, 500_000} {
		var head bytes.Buffer
		NewWriter(&head, TSV, ids, nil)
		fw := &failAfter{limit: limit + head.Len()} // the header fits
		w, err := NewWriter(fw, TSV, ids, &Options{Workers: 3})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.WriteCondensed(context.Background(), c); !errors.Is(err, errFull) {
			t.Fatalf("limit %d: error %v, want %v", limit, err, errFull)
		}
		if err := w.Close(); !errors.Is(err, errFull) {
			t.Fatalf("limit %d: Close %v, want %v", limit, err, errFull)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	w, _ := NewWriter(&bytes.Buffer{}, TSV, ids, nil)
	if err := w.WriteCondensed(ctx, c); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: error %v", err)
	}
}

// BenchmarkWriteCondensed is BenchmarkWriteTSV from the condensed form
// (MB/s of output): each pair formatted once.
func BenchmarkWriteCondensed(b *testing.B) {
	ids, v := randomMatrix(1000, 1)
	n := len(ids)
	c := condensedOf(v, n)
	b.SetBytes(int64(len(oneShot(b, TSV, ids, v))))
	b.ReportAllocs()
	for b.Loop() {
		w, _ := NewWriter(discard{}, TSV, ids, nil)
		w.WriteCondensed(context.Background(), c)
		w.Close()
	}
}
