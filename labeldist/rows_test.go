package labeldist

import (
	"slices"
	"strings"
	"testing"
)

func TestRows(t *testing.T) {
	tr := fig1(t)
	in := "\n" + `{"dog": 1}` + "\n" + `{"cat": 0.25, "dog": 0.75}` + "\n\n" + `{"snake": 1}` + "\n"
	rd := NewReader(strings.NewReader(in), "x.jsonl", tr, nil)
	var s Rows
	if s.Rows() != 0 || s.Bytes() != 0 {
		t.Fatalf("zero Rows: %d rows, %d bytes", s.Rows(), s.Bytes())
	}
	n, err := s.Fill(rd, 2)
	if err != nil || n != 2 {
		t.Fatalf("Fill: %d, %v", n, err)
	}
	n, err = s.Fill(rd, 5)
	if err != nil || n != 1 {
		t.Fatalf("second Fill: %d, %v", n, err)
	}
	if s.Rows() != 3 || !slices.Equal(s.Lines, []int{2, 3, 5}) || !slices.Equal(s.Off, []int{0, 1, 3, 4}) {
		t.Fatalf("rows %d, lines %v, off %v", s.Rows(), s.Lines, s.Off)
	}
	// 4 labels listed, 3 rows: 16 bytes each.
	if s.Bytes() != 16*4+16*3 {
		t.Errorf("Bytes %d", s.Bytes())
	}
	dog, _ := tr.Index("dog")
	cat, _ := tr.Index("cat")
	idx, mass := s.Row(1)
	want := []int{dog, cat}
	if cat < dog {
		want = []int{cat, dog}
	}
	if !slices.Equal(idx, want) || len(mass) != 2 {
		t.Errorf("row 1: %v %v", idx, mass)
	}
	dense := make([]float64, tr.Len())
	s.Dense(dense, 1)
	if dense[dog] != 0.75 || dense[cat] != 0.25 {
		t.Errorf("Dense: %v", dense)
	}
	if v := s.Sparse(2); v.Len() != 1 || v.Mass[0] != 1 {
		t.Errorf("Sparse(2): %+v", v)
	}
	sub := s.Subset([]int{2, 0})
	if sub.Rows() != 2 || !slices.Equal(sub.Lines, []int{5, 2}) || sub.Sparse(1).Index[0] != dog {
		t.Errorf("Subset: %+v", sub)
	}
	s.Reset()
	if s.Rows() != 0 || s.Bytes() != 0 || len(s.Lines) != 0 {
		t.Errorf("after Reset: %+v", s)
	}
	// Rows without lines, then rows with: Line is 0 for the first.
	s.Append([]int{dog}, []float64{1})
	if s.Line(0) != 0 {
		t.Errorf("Line of an appended row: %d", s.Line(0))
	}
	rd = NewReader(strings.NewReader(`{"cat": 1}`), "y.jsonl", tr, nil)
	if n, err := s.Fill(rd, 1); n != 1 || err != nil || s.Line(0) != 0 || s.Line(1) != 1 {
		t.Errorf("Fill after Append: %d %v, lines %v", n, err, s.Lines)
	}
	defer func() {
		if recover() == nil {
			t.Error("Append with lengths that differ did not panic")
		}
	}()
	s.Append([]int{1}, nil)
}

// TestRowsGrow checks that after Grow(rows, entries) appending that many
// rows of that many entries in all moves no slice (their first elements
// keep their addresses), and that the rows read back as appended.
func TestRowsGrow(t *testing.T) {
	var s Rows
	s.Append([]int{4}, []float64{1})
	s.Grow(3, 6)
	off, idx, mass := &s.Off[0], &s.Index[0], &s.Mass[0]
	rows := [][]int{{0, 1}, {2}, {3, 5, 6}}
	for _, r := range rows {
		m := make([]float64, len(r))
		for k := range m {
			m[k] = 1 / float64(len(r))
		}
		s.Append(r, m)
	}
	if &s.Off[0] != off || &s.Index[0] != idx || &s.Mass[0] != mass {
		t.Error("appending within the room Grow made moved a slice")
	}
	if s.Rows() != 4 || !slices.Equal(s.Off, []int{0, 1, 3, 4, 7}) || !slices.Equal(s.Index, []int{4, 0, 1, 2, 3, 5, 6}) {
		t.Errorf("rows %d, off %v, index %v", s.Rows(), s.Off, s.Index)
	}
	var z Rows
	z.Grow(2, 0) // the zero value gets its leading offset
	if z.Rows() != 0 || len(z.Off) != 1 || cap(z.Off) < 3 {
		t.Errorf("zero Rows after Grow: %d rows, off %v (cap %d)", z.Rows(), z.Off, cap(z.Off))
	}
}
