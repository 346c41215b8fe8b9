package tree

import (
	"errors"
	"github.com/twl-ldl/twl/internal/race"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestLongLineEarly reads edge lists and taxonomies of 64 MiB that hold a
// line longer than 1 MiB after a few valid lines: the error names the
// file and the line, and the reading stops at that line (the reader is
// asked for no more than the line's first MiB and a block).
func TestLongLineEarly(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ spec, name, head string }{
		{"", "edges.tree", "a\tb\nb\tc\n"},
		{"edges:", "edges2.tree", "a\tb\n"},
		{"taxonomy:", "t.taxonomy", "Root\ta\na\tb\tc\n"},
		{"", "t.taxonomy", "Root\ta\na\tb\tc\n"},
	} {
		path := filepath.Join(dir, tc.name)
		size := 64 << 20
		if race.Enabled {
			size = 8 << 20 // still far past maxLine + 1 MiB, the bound checked
		}
		body := tc.head + strings.Repeat("x", size) // no newline
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		line := strings.Count(tc.head, "\n") + 1
		_, err := Open(tc.spec+path, nil)
		var e *Error
		if !errors.As(err, &e) || e.File != path || e.Line != line || !strings.Contains(e.Msg, "line longer than") {
			t.Errorf("%s%s: error %v, want line %d longer than the most", tc.spec, tc.name, err, line)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		cr := &countReader{r: f}
		if strings.HasSuffix(tc.name, ".taxonomy") {
			_, err = ReadTaxonomy(cr, path, nil)
		} else {
			_, err = Read(cr, path, nil)
		}
		f.Close()
		if !errors.As(err, &e) || e.Line != line {
			t.Errorf("Read %s: error %v, want line %d", tc.name, err, line)
		}
		if cr.n > maxLine+1<<20 {
			t.Errorf("Read %s: read %d bytes before the error", tc.name, cr.n)
		}
	}
}

type countReader struct {
	r interface{ Read([]byte) (int, error) }
	n int
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// TestMaxBytes refuses, under Options.MaxBytes, a generated tree whose
// nodes would pass it (star:N with N·NodeBytes past the limit), a file
// larger than the limit, and a text whose nodes would pass it; a tree
// within the limit is read.
func TestMaxBytes(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.tree")
	var sb strings.Builder
	for i := range 20000 {
		sb.WriteString("r\tn" + strings.Repeat("x", i%5) + strconv.Itoa(i) + "\n")
	}
	if err := os.WriteFile(big, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	size := int64(sb.Len())
	for _, tc := range []struct {
		spec  string
		limit int64
		ok    bool
	}{
		{"star:10000000", 100 << 20, false},
		{"star:100000", 100 << 20, true},
		{"chain:1000000", 100 << 20, false},
		{big, size - 1, false},                                 // the file is larger
		{big, size + NodeBytes*10000, false},                   // its nodes need more
		{"taxonomy:" + big, size + NodeBytes*40002 + 1, false}, // a taxonomy's nodes cost more
		{big, size + NodeBytes*40002, true},
	} {
		_, err := Open(tc.spec, &Options{MaxBytes: tc.limit})
		if tc.ok && err != nil {
			t.Errorf("%s under %d: %v", tc.spec, tc.limit, err)
		}
		if !tc.ok && !errors.Is(err, ErrTooLarge) {
			t.Errorf("%s under %d: error %v, want ErrTooLarge", tc.spec, tc.limit, err)
		}
	}
}
