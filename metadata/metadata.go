package metadata

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Table is a metadata table: Values[i][c] is sample IDs[i]'s value in column
// Columns[c] ("" when missing).
type Table struct {
	// IDName is the header of the id column ("sample-id", "#SampleID" …).
	IDName  string
	Columns []string
	// Types holds each column's "#q2:types" entry, lower case, or "" where
	// the file gives none.
	Types  []string
	IDs    []string
	Values [][]string
	index  map[string]int
}

// Read reads a metadata table from r; name is the file name used in errors.
func Read(r io.Reader, name string) (*Table, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	t := &Table{index: map[string]int{}}
	line := 0
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", name, line, fmt.Sprintf(format, args...))
	}
	header := false
	lastHeader := 0 // the line of the header, for #q2:types
	for sc.Scan() {
		line++
		text := strings.TrimSuffix(sc.Text(), "\r")
		if line == 1 {
			text = strings.TrimPrefix(text, "\ufeff")
		}
		if strings.TrimSpace(text) == "" {
			continue
		}
		if i := strings.IndexByte(text, 0); i >= 0 {
			return nil, fail("a NUL byte at column %d: ids and values may not hold one", i+1)
		}
		cells, err := split(text)
		if err != nil {
			return nil, fail("%v", err)
		}
		first := cells[0]
		if !header {
			if strings.HasPrefix(first, "#") && !isHashID(first) {
				continue
			}
			if first == "" {
				return nil, fail("the header's first cell (the id column's name) is empty")
			}
			t.IDName, t.Columns = first, cells[1:]
			seen := map[string]bool{first: true}
			for _, c := range t.Columns {
				if c == "" {
					return nil, fail("a column of the header has no name")
				}
				if seen[c] {
					return nil, fail("column %q appears twice in the header", c)
				}
				seen[c] = true
			}
			t.Types = make([]string, len(t.Columns))
			header, lastHeader = true, line
			continue
		}
		if strings.EqualFold(first, "#q2:types") {
			if len(t.IDs) > 0 || lastHeader == 0 {
				return nil, fail("#q2:types must come right after the header")
			}
			if len(cells)-1 > len(t.Columns) {
				return nil, fail("#q2:types has %d types for %d columns", len(cells)-1, len(t.Columns))
			}
			for c, ty := range cells[1:] {
				ty = strings.ToLower(ty)
				if ty != "" && ty != "categorical" && ty != "numeric" {
					return nil, fail("column %q: type %q is neither categorical nor numeric", t.Columns[c], cells[c+1])
				}
				t.Types[c] = ty
			}
			lastHeader = 0
			continue
		}
		lastHeader = 0
		if strings.HasPrefix(first, "#") {
			continue
		}
		if first == "" {
			return nil, fail("empty sample id")
		}
		if len(cells)-1 > len(t.Columns) {
			return nil, fail("sample %q has %d values, the header names %d columns", first, len(cells)-1, len(t.Columns))
		}
		if _, ok := t.index[first]; ok {
			return nil, fail("sample id %q appears twice", first)
		}
		row := make([]string, len(t.Columns))
		copy(row, cells[1:])
		for c, v := range row {
			if t.Types[c] == "numeric" && v != "" && !isNumber(v) {
				return nil, fail("sample %q: column %q is numeric, but its value %q is not a number", first, t.Columns[c], v)
			}
		}
		t.index[first] = len(t.IDs)
		t.IDs = append(t.IDs, first)
		t.Values = append(t.Values, row)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%s:%d: line longer than 64 MiB", name, line+1)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if !header {
		return nil, fmt.Errorf("%s: no header row (the first line that is not a comment names the columns)", name)
	}
	return t, nil
}

// isHashID reports whether s is an id column name that starts with '#'.
func isHashID(s string) bool {
	switch strings.ToLower(s) {
	case "#sampleid", "#sample id", "#otuid", "#otu id":
		return true
	}
	return false
}

// split splits a line at tabs, trims the cells and removes double quotes.
func split(text string) ([]string, error) {
	cells := strings.Split(text, "\t")
	for i, c := range cells {
		c = strings.TrimSpace(c)
		if strings.HasPrefix(c, `"`) {
			if len(c) < 2 || !strings.HasSuffix(c, `"`) {
				return nil, fmt.Errorf("cell %d: unterminated double quote", i+1)
			}
			inner := c[1 : len(c)-1]
			if strings.Count(inner, `"`) != 2*strings.Count(inner, `""`) {
				return nil, fmt.Errorf("cell %d: a double quote inside a quoted cell must be doubled", i+1)
			}
			c = strings.ReplaceAll(inner, `""`, `"`)
		}
		cells[i] = c
	}
	return cells, nil
}

// Column returns the index of the named column, or an error that lists the
// columns there are.
func (t *Table) Column(name string) (int, error) {
	if c := slices.Index(t.Columns, name); c >= 0 {
		return c, nil
	}
	quoted := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		quoted[i] = strconv.Quote(c)
	}
	if len(quoted) == 0 {
		return -1, fmt.Errorf("no column %q: the metadata has no columns besides %q", name, t.IDName)
	}
	return -1, fmt.Errorf("no column %q; the columns are %s", name, strings.Join(quoted, ", "))
}

// Lookup returns the values of the named column for the samples ids, in
// their order. It is an error if the column does not exist or if some ids
// have no row (the error names the first few and how many there are).
func (t *Table) Lookup(ids []string, column string) ([]string, error) {
	c, err := t.Column(column)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(ids))
	var missing []string
	count := 0
	for i, id := range ids {
		r, ok := t.index[id]
		if !ok {
			count++
			if len(missing) < 5 {
				missing = append(missing, strconv.Quote(id))
			}
			continue
		}
		out[i] = t.Values[r][c]
	}
	if count > 0 {
		more := ""
		if count > len(missing) {
			more = fmt.Sprintf(" and %d more", count-len(missing))
		}
		return nil, fmt.Errorf("%d of %d samples have no metadata: %s%s", count, len(ids), strings.Join(missing, ", "), more)
	}
	return out, nil
}

// Numeric reports whether column c holds numbers: declared numeric by
// #q2:types, or, with no declaration, every non-empty value parses as a
// finite number (and there is at least one).
func (t *Table) Numeric(c int) bool {
	switch t.Types[c] {
	case "numeric":
		return true
	case "categorical":
		return false
	}
	seen := false
	for _, row := range t.Values {
		if row[c] == "" {
			continue
		}
		if !isNumber(row[c]) {
			return false
		}
		seen = true
	}
	return seen
}

// isNumber reports whether s is a finite decimal number.
func isNumber(s string) bool {
	v, err := strconv.ParseFloat(s, 64)
	return err == nil && !math.IsInf(v, 0) && !math.IsNaN(v) && !strings.ContainsAny(s, "xX_")
}
