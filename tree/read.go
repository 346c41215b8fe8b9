package tree

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxLine bounds the length of one line of an edge-list file.
const maxLine = 1 << 20

// Read parses a tree in the edge-list format (see the package documentation)
// from r. file names the input in error messages, which read
// "FILE:LINE: what is wrong".
func Read(r io.Reader, file string, opts *Options) (*Tree, error) {
	b := Builder{file: file}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), maxLine)
	line := 0
	for sc.Scan() {
		line++
		b.lineNo = line
		text := sc.Text()
		if line == 1 {
			text = strings.TrimPrefix(text, "\ufeff") // UTF-8 byte-order mark
		}
		text = strings.TrimSuffix(text, "\r")
		if msg := notText(text); msg != "" {
			return nil, &Error{File: file, Line: line, Err: ErrSyntax, Msg: msg}
		}
		trimmed := strings.TrimSpace(text)
		if trimmed == "" || trimmed[0] == '#' {
			continue
		}
		fields := strings.Split(text, "\t")
		for i := range fields {
			fields[i] = strings.TrimSpace(fields[i])
			if fields[i] == "" {
				return nil, &Error{File: file, Line: line, Err: ErrSyntax, Msg: fmt.Sprintf("field %d is empty", i+1)}
			}
		}
		switch len(fields) {
		case 1:
			b.AddNode(fields[0])
		case 2:
			b.AddEdge(fields[0], fields[1], 1)
		case 3:
			w, err := strconv.ParseFloat(fields[2], 64)
			if err == nil && strings.ContainsAny(fields[2], "_xXpP") {
				// Go syntax that is no decimal number: 1_0, 0x1p-2.
				err = strconv.ErrSyntax
			}
			w += 0 // -0 → +0
			if err != nil {
				if errors.Is(err, strconv.ErrRange) {
					return nil, &Error{File: file, Line: line, Err: ErrBadWeight, Msg: fmt.Sprintf("weight %q is out of range", fields[2])}
				}
				return nil, &Error{File: file, Line: line, Err: ErrBadWeight, Msg: fmt.Sprintf("weight %q is not a number", fields[2])}
			}
			b.AddEdge(fields[0], fields[1], w)
		default:
			return nil, &Error{File: file, Line: line, Err: ErrSyntax, Msg: fmt.Sprintf("%d tab-separated fields, want parent<TAB>child[<TAB>weight] or a single node name", len(fields))}
		}
		if b.err != nil {
			return nil, b.err
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, &Error{File: file, Line: line + 1, Err: ErrSyntax, Msg: fmt.Sprintf("line longer than %d bytes", maxLine)}
		}
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	b.lineNo = 0
	return b.Build(opts)
}

// notText reports a NUL byte or invalid UTF-8 in a line, the marks of a
// file that is not text (a binary file given by mistake), or "" if there is
// none. Other control characters are left to the name checks.
func notText(line string) string {
	for i := 0; i < len(line); {
		r, size := utf8.DecodeRuneInString(line[i:])
		switch {
		case r == 0:
			return fmt.Sprintf("NUL byte at column %d: not a text file", i+1)
		case r == utf8.RuneError && size == 1:
			return fmt.Sprintf("byte 0x%02x at column %d is not UTF-8 (a binary file, or text in another encoding?)", line[i], i+1)
		}
		i += size
	}
	return ""
}

// ReadFile reads a tree in the edge-list format from the named file.
func ReadFile(path string, opts *Options) (*Tree, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path, opts)
}

// Write writes the tree in the edge-list format, one edge per line in
// breadth-first order, with every weight written (shortest representation that
// round-trips). The roots of a forest are written as single-name lines when
// they have no children, and the virtual root never appears, so Read with the
// same Options gives back an equal tree (same names, parents and weights;
// the user order may differ). A forest's virtual edge weight is not part of
// the format.
func (t *Tree) Write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	var buf []byte
	for k := 1; k < len(t.parent); k++ {
		i := t.label[k]
		p := t.parent[k]
		buf = buf[:0]
		if t.label[p] < 0 {
			if t.first[k+1] > t.first[k] {
				continue // a forest root with children appears in its edges
			}
			buf = append(buf, t.names[i]...)
		} else {
			buf = append(buf, t.names[t.label[p]]...)
			buf = append(buf, '\t')
			buf = append(buf, t.names[i]...)
			buf = append(buf, '\t')
			buf = strconv.AppendFloat(buf, t.weight[k], 'g', -1, 64)
		}
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	if len(t.parent) == 1 {
		if _, err := bw.WriteString(t.names[0] + "\n"); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// Format returns the tree in the edge-list format, as Write writes it.
func (t *Tree) Format() string {
	var b bytes.Buffer
	t.Write(&b) // writes to a bytes.Buffer do not fail
	return b.String()
}
