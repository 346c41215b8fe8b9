package labeldist

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"testing"

	"github.com/twl-ldl/twl/tree"
)

// FuzzRead checks that Read never panics; that every row it accepts is
// finite, non-negative and sums to 1; that it agrees with encoding/json on
// which lines are valid JSON of the accepted shape, and on their values; and
// that Write gives back what was read, bit for bit. Seeds are in
// testdata/fuzz/FuzzRead and below.
func FuzzRead(f *testing.F) {
	for _, s := range []string{
		`{"dog": 0.25, "cat": 0.75}`,
		"[0, 0, 0, 0.5, 0.5, 0, 0]\n{\"mammal\": 1}\n",
		"\ufeff{\"cat\":1}\r\n\r\n{\"dog\":1}\r\n",
		`{"c\u0061t": 1e0, "snake": 0E-3}`,
		`{"dog": 1e999}`,
		`{"dog": 0.5, "dog": 0.5}`,
		`{"dog": -0.5, "cat": 1.5}`,
		`{"dog": [1], "cat": {"x": null}}`,
		`{"dog": 1,}`,
		`[1e308, 1e308, 0, 0, 0, 0, 0]`,
		`{"d\ud83d\ude00": 1}`,
		"{\"\xff\": 1}",
		"",
		"__label__cat 0.75 __label__dog 0.25\n__label__snake 1.00001\n",
		"  __label__mammal\t1e-1 __label__mammal 0.9\r\n__label__ 1",
		"__label__dog 0.5__label__cat 0.5\n__label__dog -1 __label__x 2",
	} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	tr := fig1(f)
	f.Fuzz(func(t *testing.T, data []byte, normalize bool) {
		opts := &Options{Normalize: normalize}
		s, err := Read(bytes.NewReader(data), "fuzz", tr, opts)
		lines := bytes.Split(data, []byte("\n"))
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is not an *Error", err)
			}
			if e.Line < 1 || e.Line > len(lines) || e.File != "fuzz" {
				t.Fatalf("error %v: line %d of %d", err, e.Line, len(lines))
			}
			// The lines before the error are fine for encoding/json too; the
			// line of a syntax error is not.
			for n := 1; n < e.Line; n++ {
				if _, kind := jsonRow(tr, lines[n-1], n); kind != jsonOK && kind != jsonBlank {
					t.Fatalf("error %v, but line %d was not ok for encoding/json (%v): %q", err, n, kind, lines[n-1])
				}
			}
			_, kind := jsonRow(tr, lines[e.Line-1], e.Line)
			if errors.Is(err, ErrSyntax) != (kind == jsonInvalid || kind == jsonShape) {
				t.Fatalf("error %v, but encoding/json says %v for %q", err, kind, lines[e.Line-1])
			}
			return
		}
		if s.Rows*s.L != len(s.Data) || len(s.Lines) != s.Rows {
			t.Fatalf("inconsistent Set: Rows=%d L=%d len(Data)=%d len(Lines)=%d", s.Rows, s.L, len(s.Data), len(s.Lines))
		}
		r := 0
		for n, line := range lines {
			raw, kind := jsonRow(tr, line, n+1)
			if kind == jsonBlank {
				continue
			}
			if kind != jsonOK {
				t.Fatalf("Read accepted line %d, encoding/json says %v: %q", n+1, kind, line)
			}
			if r >= s.Rows || s.Lines[r] != n+1 {
				t.Fatalf("row %d is not from line %d: Lines = %v", r, n+1, s.Lines)
			}
			row := s.Row(r)
			var sum float64
			for i, v := range row {
				if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || math.Signbit(v) {
					t.Fatalf("line %d: invalid mass %v", n+1, v)
				}
				if !normalize && v != raw[i] {
					t.Fatalf("line %d, label %d: Read gives %v, encoding/json %v", n+1, i, v, raw[i])
				}
				sum += v
			}
			tol := 1e-6
			if normalize {
				tol = 1e-12
			}
			if math.Abs(sum-1) > tol {
				t.Fatalf("line %d: sum %v", n+1, sum)
			}
			r++
		}
		if r != s.Rows {
			t.Fatalf("%d rows, encoding/json finds %d", s.Rows, r)
		}

		var buf bytes.Buffer
		if err := Write(&buf, tr, s.Data); err != nil {
			t.Fatal(err)
		}
		s2, err := Read(&buf, "again", tr, nil)
		if err != nil {
			t.Fatalf("reading what Write wrote: %v", err)
		}
		if s2.Rows != s.Rows {
			t.Fatalf("wrote %d rows, read %d", s.Rows, s2.Rows)
		}
		for i, v := range s.Data {
			if math.Float64bits(v) != math.Float64bits(s2.Data[i]) {
				t.Fatalf("round trip changed %v to %v", v, s2.Data[i])
			}
		}
	})
}

type jsonKind int

const (
	jsonBlank   jsonKind = iota
	jsonInvalid          // not valid JSON
	jsonShape            // valid JSON, but not a flat object or array of numbers
	jsonOK               // a flat object or array of numbers (other checks aside)
	jsonOther            // the right shape, but a label or a mass is wrong
)

func (k jsonKind) String() string {
	return [...]string{"blank", "invalid JSON", "wrong shape", "ok", "bad label or mass"}[k]
}

// jsonRow decodes line n with encoding/json, as an independent check of the
// parser, and returns the raw masses when the line is fine.
func jsonRow(t *tree.Tree, line []byte, n int) ([]float64, jsonKind) {
	if n == 1 {
		line = bytes.TrimPrefix(line, bom)
	}
	if len(bytes.Trim(line, " \t\r\n")) == 0 {
		return nil, jsonBlank
	}
	if bytes.HasPrefix(bytes.TrimLeft(line, " \t\r\n"), []byte(LabelPrefix)) {
		return probRow(t, line)
	}
	if !json.Valid(line) {
		return nil, jsonInvalid
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, jsonInvalid
	}
	if _, isObj := v.(map[string]any); isObj && !allNumbers(line) {
		// A map keeps only the last of duplicate names; every member's
		// value must still be a number.
		return nil, jsonShape
	}
	row := make([]float64, t.Len())
	parse := func(x any) (float64, jsonKind) {
		num, ok := x.(json.Number)
		if !ok {
			return 0, jsonShape
		}
		f, err := strconv.ParseFloat(string(num), 64)
		if err != nil || f < 0 {
			return 0, jsonOther
		}
		return f + 0, jsonOK
	}
	kind := jsonOK
	switch v := v.(type) {
	case map[string]any:
		for name, x := range v {
			f, k := parse(x)
			if k == jsonShape {
				return nil, jsonShape
			}
			i, ok := t.Index(name)
			if !ok {
				kind = jsonOther
				continue
			}
			row[i] = f
			kind = max(kind, k)
		}
	case []any:
		for i, x := range v {
			f, k := parse(x)
			if k == jsonShape {
				return nil, jsonShape
			}
			if i < len(row) {
				row[i] = f
			}
			kind = max(kind, k)
		}
		if len(v) != len(row) {
			kind = jsonOther
		}
	default:
		return nil, jsonShape
	}
	return row, kind
}

// probRow reads line as fastText's predict-prob layout, by another way
// than the parser's (fields split at JSON white space, each mass decoded
// by encoding/json): pairs of __label__NAME and a JSON number. A line that
// is not such pairs is jsonInvalid; one with an unknown or repeated label,
// or a mass negative or out of range, jsonOther.
func probRow(t *tree.Tree, line []byte) ([]float64, jsonKind) {
	fields := bytes.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == '\t' || r == '\r' || r == '\n' })
	if len(fields)%2 != 0 {
		return nil, jsonInvalid
	}
	row := make([]float64, t.Len())
	seen := map[int]bool{}
	kind := jsonOK
	for k := 0; k < len(fields); k += 2 {
		name, ok := bytes.CutPrefix(fields[k], []byte(LabelPrefix))
		if !ok {
			return nil, jsonInvalid
		}
		dec := json.NewDecoder(bytes.NewReader(fields[k+1]))
		dec.UseNumber()
		var v any
		if dec.Decode(&v) != nil || dec.More() || dec.InputOffset() != int64(len(fields[k+1])) {
			return nil, jsonInvalid
		}
		num, isNum := v.(json.Number)
		if !isNum {
			return nil, jsonInvalid
		}
		f, err := strconv.ParseFloat(string(num), 64)
		i, found := t.Index(string(name))
		switch {
		case err != nil || f < 0 || !found || seen[i]:
			kind = jsonOther
		default:
			seen[i] = true
			row[i] = f + 0
		}
	}
	return row, kind
}

// allNumbers reports whether every member value of the JSON object in line
// is a number, walking its tokens so that duplicate names are all seen.
func allNumbers(line []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return false
	}
	for dec.More() {
		if _, err := dec.Token(); err != nil { // the name
			return false
		}
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		if _, ok := tok.(json.Number); !ok {
			return false
		}
	}
	return true
}
