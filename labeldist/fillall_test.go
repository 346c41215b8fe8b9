package labeldist

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/tree"
)

// fillOne is the referee of FillAll: Fill from one Reader of data to its
// end.
func fillOne(data []byte, t *tree.Tree, opts *Options) (*Rows, error) {
	var s Rows
	_, err := s.Fill(NewReader(bytes.NewReader(data), "in.jsonl", t, opts), math.MaxInt)
	return &s, err
}

// fillParts runs FillAll on data cut into parts of at least part bytes,
// with up to procs of them.
func fillParts(tb testing.TB, data []byte, t *tree.Tree, opts *Options, part int64, procs int) (*Rows, error) {
	tb.Helper()
	defer func(p int64, g int) { partBytes = p; runtime.GOMAXPROCS(g) }(partBytes, runtime.GOMAXPROCS(procs))
	partBytes = part
	var s Rows
	err := s.FillAll(context.Background(), bytes.NewReader(data), int64(len(data)), "in.jsonl", t, opts)
	return &s, err
}

// sameRows fails unless got and want hold the same rows, bit for bit, with
// the same lines, and the same error message.
func sameRows(tb testing.TB, what string, got, want *Rows, gotErr, wantErr error) {
	tb.Helper()
	if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
		tb.Fatalf("%s: error %v, one reading gives %v", what, gotErr, wantErr)
	}
	if wantErr != nil {
		return
	}
	if got.Rows() != want.Rows() || fmt.Sprint(got.Off) != fmt.Sprint(want.Off) || fmt.Sprint(got.Index) != fmt.Sprint(want.Index) || fmt.Sprint(got.Lines) != fmt.Sprint(want.Lines) {
		tb.Fatalf("%s: rows differ:\n got off %v index %v lines %v\nwant off %v index %v lines %v", what, got.Off, got.Index, got.Lines, want.Off, want.Index, want.Lines)
	}
	for k := range want.Mass {
		if math.Float64bits(got.Mass[k]) != math.Float64bits(want.Mass[k]) {
			tb.Fatalf("%s: mass %d is %v, one reading gives %v", what, k, got.Mass[k], want.Mass[k])
		}
	}
}

// TestFillAllParts checks FillAll, cut into parts of every size from a
// few bytes on and up to 4 at once, against one reading (fillOne): the
// same rows, lines and errors, for inputs with blank lines, CRLF line
// endings, a byte order mark at the start or in the middle, no final line
// end, and errors in the first and in later parts.
func TestFillAllParts(t *testing.T) {
	tr := fig1(t)
	good := "\ufeff{\"dog\": 0.25, \"cat\": 0.75}\n\n[0, 0, 0, 0.5, 0.5, 0, 0]\r\n  \n{\"snake\": 1, \"mammal\": 0}\n" +
		"{\"lizard\": 0.5, \"dog\": 0.5}\n[0,0,0,0,0,0,1]\n\n\n{\"cat\":1}"
	cases := []string{
		good,
		good + "\n",
		"",
		"\n\n\n",
		good + "\n{\"dog\": 2}\n" + good,
		"{\"dog\": 2}\n" + good + "\n{\"cow\": 1}\n",
		good + "\n{\"dog\": 1,}\n" + good,
		good + "\n\ufeff{\"dog\": 1}\n" + good,
		good + "\n{\"dog\": 1}\n\ufeff",
		good + "\n[1, 0]\n" + good + "\n{\"dog\": 0.5, \"dog\": 0.5}",
	}
	for _, normalize := range []bool{false, true} {
		opts := &Options{Normalize: normalize}
		for c, in := range cases {
			want, wantErr := fillOne([]byte(in), tr, opts)
			for part := int64(1); part <= int64(len(in))+1; part++ {
				for _, procs := range []int{2, 3, 4} {
					got, err := fillParts(t, []byte(in), tr, opts, part, procs)
					sameRows(t, fmt.Sprintf("case %d, normalize %v, parts of %d bytes, %d procs", c, normalize, part, procs), got, want, err, wantErr)
				}
			}
		}
	}
}

// TestFillAllJSON checks FillAll in parts on many rows over a larger tree,
// where the labels are found through the packed index, against the rows
// encoding/json reads (jsonRow), row by row, with their lines; and one
// reading, which builds its index of the labels after the first rows,
// against them.
func TestFillAllJSON(t *testing.T) {
	tr, data := benchSparse(2000, 300, 100) // rows of about 100 labels: radixSort
	got, err := fillParts(t, data, tr, nil, 1<<10, 4)
	if err != nil {
		t.Fatal(err)
	}
	one, err := fillOne(data, tr, nil)
	sameRows(t, "one reading", one, got, err, nil)
	r := 0
	dense := make([]float64, tr.Len())
	for n, line := range bytes.Split(data, []byte("\n")) {
		want, kind := jsonRow(tr, line, n+1)
		if kind == jsonBlank {
			continue
		}
		if kind != jsonOK {
			t.Fatalf("line %d: encoding/json says %v", n+1, kind)
		}
		if got.Line(r) != n+1 {
			t.Fatalf("row %d: line %d, want %d", r, got.Line(r), n+1)
		}
		got.Dense(dense, r)
		for i := range want {
			if math.Float64bits(dense[i]) != math.Float64bits(want[i]) {
				t.Fatalf("line %d, label %q: %v, encoding/json %v", n+1, tr.Name(i), dense[i], want[i])
			}
		}
		r++
	}
	if r != got.Rows() || r != 300 {
		t.Fatalf("%d rows, encoding/json reads %d", got.Rows(), r)
	}
}

// TestFillAllAppends checks that FillAll appends to rows already held,
// giving them lines 0 where they have none.
func TestFillAllAppends(t *testing.T) {
	tr := fig1(t)
	var s Rows
	s.Append([]int{0}, []float64{1})
	in := "{\"cat\": 1}\n\n{\"dog\": 1}\n"
	if err := s.FillAll(nil, strings.NewReader(in), int64(len(in)), "x", tr, nil); err != nil {
		t.Fatal(err)
	}
	cat, _ := tr.Index("cat")
	dog, _ := tr.Index("dog")
	if fmt.Sprint(s.Off, s.Index, s.Lines) != fmt.Sprint([]int{0, 1, 2, 3}, []int{0, cat, dog}, []int{0, 1, 3}) {
		t.Fatalf("got off %v index %v lines %v", s.Off, s.Index, s.Lines)
	}
}

// TestFillAllStopped checks that FillAll returns the context's error once
// it is done.
func TestFillAllStopped(t *testing.T) {
	tr, data := benchSparse(500, 100, 10)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, part := range []int64{64, 1 << 30} {
		defer func(p int64) { partBytes = p }(partBytes)
		partBytes = part
		var s Rows
		if err := s.FillAll(ctx, bytes.NewReader(data), int64(len(data)), "x", tr, nil); !errors.Is(err, context.Canceled) {
			t.Fatalf("parts of %d bytes: error %v, want context.Canceled", part, err)
		}
	}
}

// TestMaxRowsBytes checks the bound on the memory of rows read from n
// bytes on the densest inputs: rows of one label of one digit, and arrays
// of one-digit masses.
func TestMaxRowsBytes(t *testing.T) {
	tr := tree.Star(4)
	for _, in := range []string{
		"[1]\n",
		strings.Repeat("{\"0\":1}\n", 50),
		strings.Repeat("[1,1,1,1]\n", 50),
		strings.Repeat("[1,1,1,1]", 1),
	} {
		s, err := fillOne([]byte(in), tr, &Options{Normalize: true})
		if err != nil {
			if len(in) == 4 {
				continue // the star has more labels than one
			}
			t.Fatal(err)
		}
		if s.Bytes() > MaxRowsBytes(int64(len(in))) {
			t.Fatalf("%q: %d bytes of rows, bound %d", in, s.Bytes(), MaxRowsBytes(int64(len(in))))
		}
	}
}

// FuzzFillAll checks FillAll in parts of a fuzzed size against one
// reading (fillOne) on any input: the same rows, lines and error.
func FuzzFillAll(f *testing.F) {
	f.Add([]byte("{\"dog\": 0.25, \"cat\": 0.75}\n\n[0, 0, 0, 0.5, 0.5, 0, 0]\r\n"), uint8(5), false)
	f.Add([]byte("\ufeff{\"cat\":1}\r\n\r\n\ufeff{\"dog\":1}\r\n"), uint8(3), true)
	f.Add([]byte("{\"dog\": 1}\n{\"dog\": 1,}\n{\"cat\": 2}"), uint8(1), false)
	tr := fig1(f)
	f.Fuzz(func(t *testing.T, data []byte, part uint8, normalize bool) {
		opts := &Options{Normalize: normalize}
		want, wantErr := fillOne(data, tr, opts)
		got, err := fillParts(t, data, tr, opts, int64(part)+1, 3)
		sameRows(t, fmt.Sprintf("parts of %d bytes", int(part)+1), got, want, err, wantErr)
	})
}

// benchSparse returns a random tree of n nodes, named as a phylogeny's
// ("t12" and "<node 7>"), and rows lines, each of about k random labels
// (in one random order, which is not the tree's) with masses that sum to
// 1, in the shortest form that reads back, as encoding/json writes them.
func benchSparse(n, rows, k int) (*tree.Tree, []byte) {
	rng := rand.New(rand.NewPCG(2, uint64(n)))
	parent := make([]int, n)
	parent[0] = -1
	for i := 1; i < n; i++ {
		parent[i] = rng.IntN(i)
	}
	names := make([]string, n)
	for i, j := range rng.Perm(n) {
		names[j] = "t" + strconv.Itoa(i/2)
		if i%2 == 1 {
			names[j] = "<node " + strconv.Itoa(i/2) + ">"
		}
	}
	t, err := tree.FromParents(parent, nil, names, nil)
	if err != nil {
		panic(err)
	}
	order := rng.Perm(n)
	var b bytes.Buffer
	var labels []int
	var weights []float64
	for range rows {
		labels, weights = labels[:0], weights[:0]
		var sum float64
		for _, i := range order {
			if rng.IntN(n) < k || len(labels) == 0 && i == order[n-1] {
				w := float64(1 + rng.IntN(1000))
				labels, weights = append(labels, i), append(weights, w)
				sum += w
			}
		}
		b.WriteByte('{')
		for j, i := range labels {
			if j > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "%q:%v", t.Name(i), weights[j]/sum)
		}
		b.WriteString("}\n")
	}
	return t, b.Bytes()
}
