package jsonscan

import (
	"slices"
	"strings"
	"testing"
)

// TestCutLines checks the cuts against offsets counted by hand.
func TestCutLines(t *testing.T) {
	// Lines end at offsets 3, 7, 11 and 15 ("ab\n" is 3 bytes, then three
	// of 4): cuts fall just after them.
	in := "ab\ncde\nfgh\nijk\n"
	for _, c := range []struct {
		in    string
		parts int
		want  []int64
	}{
		{in, 1, nil},
		{in, 2, []int64{11}},           // from 7: the '\n' at 10
		{in, 3, []int64{7, 11}},        // from 5 and 10
		{in, 15, []int64{3, 7, 11}},    // repeated cuts once; none at the end
		{"abc", 2, nil},                // no line end
		{"ab\n" + BOM + "c\n", 2, nil}, // a cut at a byte order mark
		{"ab\ncd", 2, []int64{3}},      // the last line unended
	} {
		got := CutLines(strings.NewReader(c.in), int64(len(c.in)), c.parts)
		if !slices.Equal(got, c.want) {
			t.Errorf("CutLines(%q, %d) = %v, want %v", c.in, c.parts, got, c.want)
		}
	}
	if got, err := LineEndAfter(strings.NewReader(in), 4, int64(len(in))); got != 7 || err != nil {
		t.Errorf("LineEndAfter(4) = %d, %v; want 7", got, err)
	}
	if got, err := LineEndAfter(strings.NewReader(in), 15, int64(len(in))); got != -1 || err != nil {
		t.Errorf("LineEndAfter(15) = %d, %v; want -1", got, err)
	}
}
