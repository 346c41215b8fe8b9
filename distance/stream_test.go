package distance_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/distance"
	"github.com/twl-ldl/twl/labeldist"
	"github.com/twl-ldl/twl/tree"
)

const figure1 = "animal\tmammal\nanimal\treptile\nmammal\tdog\nmammal\tcat\nreptile\tlizard\nreptile\tsnake\n"

func figureTree(t testing.TB) *tree.Tree {
	tr, err := tree.Read(strings.NewReader(figure1), "figure1.tree", nil)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func readers(t *tree.Tree, a, b string) (*labeldist.Reader, *labeldist.Reader) {
	return labeldist.NewReader(strings.NewReader(a), "a.jsonl", t, nil), labeldist.NewReader(strings.NewReader(b), "b.jsonl", t, nil)
}

// TestWriteRows: the distances on the tree of Figure 1 by hand (dog → cat
// 2, snake → cat 4, half of dog → cat 1), in chunks of 2 rows, as text and
// as JSON.
func TestWriteRows(t *testing.T) {
	tr := figureTree(t)
	a := "{\"dog\": 1}\n{\"snake\": 1}\n{\"dog\": 0.5, \"cat\": 0.5}\n"
	b := strings.Repeat("{\"cat\": 1}\n", 3)
	for _, c := range []struct {
		json bool
		want string
	}{
		{false, "2\n4\n1\n"},
		{true, `{"method":"tw","pairwise":false,"distances":[2,4,1],"rows":3}` + "\n"},
	} {
		A, B := readers(tr, a, b)
		var out bytes.Buffer
		chunks := 0
		err := distance.WriteRows(context.Background(), &out, distance.NewTW(tr, nil), A, B,
			&distance.StreamOptions{JSON: c.json, ChunkRows: 2, Progress: func(int) error { chunks++; return nil }})
		if err != nil || out.String() != c.want || chunks != 2 {
			t.Errorf("json %v: %q, %v, %d chunks; want %q", c.json, out.String(), err, chunks, c.want)
		}
	}
}

func TestWriteRowsErrors(t *testing.T) {
	tr := figureTree(t)
	A, B := readers(tr, "{\"dog\": 1}\n{\"dog\": 1}\n", "{\"cat\": 1}\n")
	err := distance.WriteRows(context.Background(), new(bytes.Buffer), distance.NewTW(tr, nil), A, B, nil)
	var ue *labeldist.UnpairedError
	if !errors.As(err, &ue) || ue.Line != 2 {
		t.Errorf("unpaired: %v", err)
	}
	A, B = readers(tr, "", "")
	if err := distance.WriteRows(context.Background(), new(bytes.Buffer), distance.NewTW(tr, nil), A, B, nil); err == nil ||
		err.Error() != "a.jsonl: no distributions (the file is empty or blank)" {
		t.Errorf("empty: %v", err)
	}
	// Locate: row 1 of each chunk was read from line 3 of its file (line 1
	// is blank).
	A, B = readers(tr, "\n{\"dog\": 1}\n{\"cat\": 1}\n", "\n{\"cat\": 1}\n{\"cat\": 1}\n")
	var ra, rb labeldist.Rows
	if _, err := labeldist.FillPair(&ra, &rb, A, B, 2, ""); err != nil {
		t.Fatal(err)
	}
	inner := errors.New("no")
	err = distance.Locate(&distance.PairError{A: 1, B: 1, Err: inner}, A, B, &ra, &rb)
	var le *distance.LineError
	if !errors.As(err, &le) || !errors.Is(err, inner) || err.Error() != "a.jsonl:3 and b.jsonl:3: no" {
		t.Errorf("Locate: %v", err)
	}
	if err := distance.Locate(inner, A, B, &ra, &rb); err != inner {
		t.Errorf("Locate of another error: %v", err)
	}
}

// The distances of three predictions from the truth "cat" on the tree of
// Figure 1, one per line.
func ExampleWriteRows() {
	t, err := tree.Read(strings.NewReader(figure1), "figure1.tree", nil)
	if err != nil {
		panic(err)
	}
	A := labeldist.NewReader(strings.NewReader(`{"dog": 1}
{"snake": 1}
{"cat": 0.9, "dog": 0.1}
`), "pred.jsonl", t, nil)
	B := labeldist.NewReader(strings.NewReader(strings.Repeat(`{"cat": 1}`+"\n", 3)), "truth.jsonl", t, nil)
	if err := distance.WriteRows(context.Background(), os.Stdout, distance.NewTW(t, nil), A, B, nil); err != nil {
		panic(err)
	}
	// Output:
	// 2
	// 4
	// 0.2
}
