package labeldist

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/tree"
)

func TestFormat(t *testing.T) {
	tr := fig1(t)
	for _, tc := range []struct {
		name string
		row  []float64
		want string
	}{
		{"point mass", []float64{0, 0, 0, 0, 1, 0, 0}, `{"cat":1}`},
		{"user order, zeros omitted", []float64{0, 0.1, 0, 0.2, 0.7, 0, 0}, `{"mammal":0.1,"dog":0.2,"cat":0.7}`},
		// Shortest round-trip forms, as strconv.FormatFloat(v, 'g', -1, 64).
		{"shortest forms", []float64{1.0 / 3, 0, 0, 1e-7, 2e21, 0, 5e-324}, `{"animal":0.3333333333333333,"dog":1e-07,"cat":2e+21,"snake":5e-324}`},
		{"negative zero is zero", []float64{math.Copysign(0, -1), 0, 0, 0, 1, 0, 0}, `{"cat":1}`},
		{"all zero", make([]float64, 7), `{}`},
	} {
		got, err := Format(tr, tc.row)
		if err != nil || got != tc.want {
			t.Errorf("%s: got %s, %v, want %s", tc.name, got, err, tc.want)
		}
	}
}

func TestFormatErrors(t *testing.T) {
	tr := fig1(t)
	for _, tc := range []struct {
		v   float64
		err error
	}{
		{math.NaN(), ErrNonFinite},
		{math.Inf(1), ErrNonFinite},
		{math.Inf(-1), ErrNonFinite},
		{-0.5, ErrNegative},
	} {
		row := []float64{0, 0, 0, 0, 1, tc.v, 0}
		dst := []byte("keep")
		got, err := AppendFormat(dst, tr, row)
		if !errors.Is(err, tc.err) || string(got) != "keep" || !strings.Contains(err.Error(), `"lizard"`) {
			t.Errorf("%v: got %q, %v; want %v and dst unchanged", tc.v, got, err, tc.err)
		}
	}
}

// TestWriteAtomic checks that Write checks every row before it writes.
func TestWriteAtomic(t *testing.T) {
	tr := fig1(t)
	data := []float64{
		0, 0, 0, 0, 1, 0, 0,
		0, 0, 0, 0.5, 0.5, 0, 0,
		0, 0, 0, 0, math.NaN(), 0, 0,
	}
	var buf bytes.Buffer
	err := Write(&buf, tr, data)
	var e *Error
	if !errors.As(err, &e) || e.Line != 3 || !errors.Is(err, ErrNonFinite) || buf.Len() != 0 {
		t.Fatalf("got %v with %q written", err, buf.String())
	}
	if err := Write(&buf, tr, data[:14]); err != nil {
		t.Fatal(err)
	}
	if want := "{\"cat\":1}\n{\"dog\":0.5,\"cat\":0.5}\n"; buf.String() != want {
		t.Errorf("got %q, want %q", buf.String(), want)
	}
}

func TestWriteEscapes(t *testing.T) {
	// Names with control characters or invalid UTF-8 are refused by the
	// tree (TestBuildErrors in package tree), so these are the names that
	// need escaping (or, for HTML, must not be escaped) in JSON.
	names := []string{"a\"b", `back\slash`, "é ü", "line\u2028sep", "<&>"}
	tr, err := tree.FromParents([]int{-1, 0, 0, 0, 0}, nil, names, nil)
	if err != nil {
		t.Fatal(err)
	}
	row := []float64{0.1, 0.2, 0.1, 0.2, 0.4}
	got, err := Format(tr, row)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"a\"b":0.1,"back\\slash":0.2,"é ü":0.1,"line\u2028sep":0.2,"<&>":0.4}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	s, err := Read(strings.NewReader(got), "x", tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range s.Row(0) {
		if v != row[i] {
			t.Errorf("label %q: read %v, wrote %v", names[i], v, row[i])
		}
	}
}

func TestWritePanics(t *testing.T) {
	tr := fig1(t)
	for name, f := range map[string]func(){
		"AppendFormat short row": func() { AppendFormat(nil, tr, make([]float64, 6)) },
		"Write ragged data":      func() { Write(&bytes.Buffer{}, tr, make([]float64, 8)) },
		"Row out of range":       func() { (&Set{L: 7}).Row(0) },
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.HasPrefix(r.(string), "labeldist: ") {
					t.Errorf("%s: recovered %v, want a labeldist panic", name, r)
				}
			}()
			f()
		}()
	}
}
