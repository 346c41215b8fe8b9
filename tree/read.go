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
	"syscall"
	"unicode/utf8"

	"github.com/twl-ldl/twl/internal/human"
	"github.com/twl-ldl/twl/internal/underflow"
)

// maxLine bounds the length of one line of an edge-list file.
const maxLine = 1 << 20

// Read parses a tree in the edge-list format (see the package documentation)
// from r. file names the input in error messages, which read
// "FILE:LINE: what is wrong".
//
// A line with spaces and no TAB declares a node whose name has spaces; if
// such a node gets no edge, opts.Warn (when set) hears of it, as the mark
// of an edge list separated by spaces.
func Read(r io.Reader, file string, opts *Options) (*Tree, error) {
	b := Builder{file: file}
	var spaced []lineName // single names with spaces
	edges := false
	err := eachLine(r, file, &b, opts.maxBytes(), edgeListBytes, func(line int, fields []string) error {
		edges = edges || len(fields) > 1
		switch len(fields) {
		case 1:
			if strings.ContainsAny(fields[0], " \v\f\u00a0") && opts != nil && opts.Warn != nil {
				spaced = append(spaced, lineName{line, fields[0]})
			}
			b.AddNode(fields[0])
		case 2:
			b.AddEdge(fields[0], fields[1], 1)
		case 3:
			w, err := strconv.ParseFloat(fields[2], 64)
			if err == nil && goOnlyNumber(fields[2]) {
				// Go syntax that is no decimal number: 1_0, 0x1p-2.
				err = strconv.ErrSyntax
			}
			if err == nil && w == 0 && underflow.Decimal(fields[2], w) {
				// 1e-400 reads as 0: refused as a subnormal weight is
				// (checkWeight).
				return &Error{File: file, Line: line, Err: ErrBadWeight, Msg: fmt.Sprintf("weight %s %s", fields[2], belowNormal)}
			}
			w += 0 // -0 → +0
			if err != nil {
				if errors.Is(err, strconv.ErrRange) {
					return &Error{File: file, Line: line, Err: ErrBadWeight, Msg: fmt.Sprintf("weight %q is out of range", fields[2])}
				}
				return &Error{File: file, Line: line, Err: ErrBadWeight, Msg: fmt.Sprintf("weight %q is not a number", fields[2])}
			}
			b.AddEdge(fields[0], fields[1], w)
		default:
			return &Error{File: file, Line: line, Err: ErrSyntax, Msg: fmt.Sprintf("%d tab-separated fields, want parent<TAB>child[<TAB>weight] or a single node name", len(fields))}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	warning := spacedWarning(&b, file, spaced, edges)
	t, err := b.build(opts, true)
	if err == nil && warning != "" {
		opts.Warn(warning)
	}
	return t, err
}

// goOnlyNumber reports whether s, which strconv.ParseFloat reads, has Go
// syntax that is no decimal number: an underscore (1_0) or a hexadecimal
// mantissa or exponent (0x1p-2).
func goOnlyNumber(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '_', 'x', 'X', 'p', 'P':
			return true
		}
	}
	return false
}

// lineName is a node name and the line that declared it.
type lineName struct {
	line int
	name string
}

// spacedWarning returns the warning about the names of spaced that got no
// edge in b, or "" if every one of them did. edges says whether the file
// has any line with a TAB.
func spacedWarning(b *Builder, file string, spaced []lineName, edges bool) string {
	if len(spaced) == 0 {
		return ""
	}
	hasChild := make([]bool, len(b.names))
	for _, p := range b.parent {
		if p >= 0 {
			hasChild[p] = true
		}
	}
	var alone []lineName
	for _, s := range spaced {
		if i, ok := b.index.Get(s.name); ok && b.parent[i] < 0 && !hasChild[i] {
			alone = append(alone, s)
		}
	}
	if len(alone) == 0 {
		return ""
	}
	first := alone[0]
	fix := "separate parent and child with a TAB, not spaces: parent<TAB>child"
	if !edges {
		if len(alone) == 1 {
			return fmt.Sprintf("%s:%d: no line has a TAB: the one line with spaces, %q, was read as the name of one node without edges; %s",
				file, first.line, first.name, fix)
		}
		return fmt.Sprintf("%s:%d: no line has a TAB: each of the %d lines with spaces, such as %q, was read as the name of one node without edges; %s",
			file, first.line, len(alone), first.name, fix)
	}
	more := ""
	switch len(alone) {
	case 1:
	case 2:
		more = " (and 1 more such line)"
	default:
		more = fmt.Sprintf(" (and %d more such lines)", len(alone)-1)
	}
	return fmt.Sprintf("%s:%d: %q has spaces but no TAB: it was read as the name of one node without edges%s; if it is an edge, %s",
		file, first.line, first.name, more, fix)
}

// TaxonomyRoot is the name that stands for the top of the hierarchy in the
// taxonomy format: the line starting with it lists the top-level labels.
const TaxonomyRoot = "Root"

// ReadTaxonomy parses a tree in the taxonomy format of the hierarchical
// text-classification toolkits (HiAGM and its successors) from r: one line
// per parent, parent<TAB>child<TAB>child…, every edge of weight 1. The line
// whose parent is TaxonomyRoot ("Root") lists the top-level labels; Root is
// not a label, and the top-level labels are the roots of a forest, joined
// under the virtual root as usual (see Forests). A file without a Root line,
// or with a label that has no parent and is not listed under Root, is an
// error. Blank lines, # comments,
// byte order mark, CRLF, spaces around fields and the errors are as for
// Read; in addition a line with a parent and no child is a syntax error, a
// label listed under Root twice or listed under Root and under a parent is
// an error, and Root cannot be a child. Root may have several lines. Nodes
// are numbered in the order they first appear, Root excluded.
func ReadTaxonomy(r io.Reader, file string, opts *Options) (*Tree, error) {
	b := Builder{file: file}
	top := make(map[string]int)     // top-level label → its line
	parents := make(map[string]int) // parent → the first line it heads
	err := eachLine(r, file, &b, opts.maxBytes(), taxonomyBytes, func(line int, fields []string) error {
		if _, ok := parents[fields[0]]; !ok {
			parents[fields[0]] = line
		}
		if len(fields) < 2 {
			return &Error{File: file, Line: line, Err: ErrSyntax, Msg: fmt.Sprintf("%q has no children: want parent<TAB>child<TAB>child…", fields[0])}
		}
		parent := fields[0]
		for _, child := range fields[1:] {
			switch {
			case child == TaxonomyRoot:
				return &Error{File: file, Line: line, Err: ErrBadName, Msg: fmt.Sprintf("%s stands for the top of the taxonomy and cannot be the child of %q", TaxonomyRoot, parent)}
			case parent != TaxonomyRoot:
				b.AddEdge(parent, child, 1)
			case top[child] > 0:
				return &Error{File: file, Line: line, Err: ErrDuplicateEdge, Msg: fmt.Sprintf("%q is listed under %s twice (line %d)", child, TaxonomyRoot, top[child])}
			default:
				top[child] = line
				b.AddNode(child)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(top) == 0 && len(b.names) > 0 {
		return nil, &Error{File: file, Err: ErrSyntax, Msg: fmt.Sprintf("no %s line naming the top-level labels (an edge list?)", TaxonomyRoot)}
	}
	for i, name := range b.names {
		l := top[name]
		switch {
		case l > 0 && b.parent[i] >= 0:
			return nil, &Error{File: file, Line: max(l, b.line[i]), Err: ErrTwoParents,
				Msg: fmt.Sprintf("%q is listed under %s (line %d) and has parent %q (line %d)", name, TaxonomyRoot, l, b.names[b.parent[i]], b.line[i])}
		case l == 0 && b.parent[i] < 0:
			return nil, &Error{File: file, Line: parents[name], Err: ErrSyntax,
				Msg: fmt.Sprintf("%q has no parent and is not listed under %s", name, TaxonomyRoot)}
		}
	}
	return b.Build(opts)
}

// ReadTaxonomyFile reads a tree in the taxonomy format from the named file.
// A path that names a directory is an error wrapping syscall.EISDIR:
// "PATH: is a directory, not a file".
func ReadTaxonomyFile(path string, opts *Options) (*Tree, error) {
	f, err := openFile(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadTaxonomy(f, path, opts)
}

// openFile opens the named file for reading, refusing a directory (which
// would otherwise fail at its first read, as line 1 of the file).
func openFile(path string) (*os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		f.Close()
		return nil, fmt.Errorf("%s: %w, not a file", path, syscall.EISDIR)
	}
	return f, nil
}

// edgeListBytes bounds what reading the edge list text takes: the text,
// and NodeBytes for each node it may name, two a line.
func edgeListBytes(text string) (need float64, nodes int) {
	nodes = 2*strings.Count(text, "\n") + 2
	return float64(len(text)) + NodeBytes*float64(nodes), nodes
}

// taxonomyBytes bounds what reading the taxonomy text takes: the text,
// and TaxonomyNodeBytes for each node it may name, one a field.
func taxonomyBytes(text string) (need float64, nodes int) {
	nodes = strings.Count(text, "\n") + strings.Count(text, "\t") + 1
	return float64(len(text)) + TaxonomyNodeBytes*float64(nodes), nodes
}

// eachLine calls fn with the 1-based number and the TAB-separated, trimmed
// fields of every line of r that is not blank or a comment, after the text
// checks common to both formats; it stops at fn's first error or b's. A
// line ends with "\n", and up to two '\r' before it are removed with it.
// The input is read whole first, into one string that the fields share
// (up to a line longer than maxLine, which is reported after the lines
// before it), and b is told how many nodes to expect: about one a line.
// Under a limit (positive), an input larger than it is not read, and one
// whose text and nodes would need more than it (need) is not parsed.
func eachLine(r io.Reader, file string, b *Builder, limit int64, need func(string) (float64, int), fn func(line int, fields []string) error) error {
	// On a read error, the lines read before it are still checked first.
	text, rerr := readAll(r, file, limit)
	if errors.Is(rerr, ErrTooLarge) {
		return rerr
	}
	if limit > 0 && rerr == nil {
		if n, nodes := need(text); n > float64(limit) {
			return &Error{File: file, Err: ErrTooLarge, Msg: fmt.Sprintf("its %d bytes and up to %d nodes need about %s to read, more than the %s allowed",
				len(text), nodes, human.Bytes(n), human.Bytes(float64(limit)))}
		}
	}
	b.grow(strings.Count(text, "\n") + 1)
	fields := make([]string, 0, 4)
	line := 0
	for len(text) > 0 {
		s := text
		if k := strings.IndexByte(text, '\n'); k >= 0 {
			s, text = text[:k], text[k+1:]
		} else {
			text = ""
		}
		line++
		if len(s) >= maxLine {
			return &Error{File: file, Line: line, Err: ErrSyntax, Msg: fmt.Sprintf("line longer than %d bytes", maxLine)}
		}
		b.lineNo = line
		if line == 1 {
			s = strings.TrimPrefix(s, "\ufeff") // UTF-8 byte-order mark
		}
		s = strings.TrimSuffix(strings.TrimSuffix(s, "\r"), "\r")
		if msg := notText(s); msg != "" {
			return &Error{File: file, Line: line, Err: ErrSyntax, Msg: msg}
		}
		trimmed := strings.TrimSpace(s)
		if trimmed == "" || trimmed[0] == '#' {
			continue
		}
		fields = fields[:0]
		for {
			f, rest, more := strings.Cut(s, "\t")
			fields = append(fields, strings.TrimSpace(f))
			if fields[len(fields)-1] == "" {
				return &Error{File: file, Line: line, Err: ErrSyntax, Msg: fmt.Sprintf("field %d is empty", len(fields))}
			}
			if !more {
				break
			}
			s = rest
		}
		if err := fn(line, fields); err != nil {
			return err
		}
		if b.err != nil {
			return b.err
		}
	}
	if e := (*Error)(nil); errors.As(rerr, &e) {
		return rerr // a line too long, or an input too large
	}
	if rerr != nil {
		return fmt.Errorf("%s: %w", file, rerr)
	}
	b.lineNo = 0
	return nil
}

// text is a reader of a string that readAll takes as it is, with no copy,
// and the error that ended its reading, if any (a line too long).
type text struct {
	s   string
	err error
}

func (t *text) Read(p []byte) (int, error) {
	if len(t.s) == 0 {
		if t.err != nil {
			return 0, t.err
		}
		return 0, io.EOF
	}
	n := copy(p, t.s)
	t.s = t.s[n:]
	return n, nil
}

// readAll returns all of r as one string, read into a buffer of the size
// of r where r tells it (a file, or a reader with a Len method), without
// a copy of its own. It stops at a line longer than maxLine, returning the
// text before that line and the line's error; under a limit (positive), it
// stops past limit bytes, with an error wrapping ErrTooLarge.
func readAll(r io.Reader, file string, limit int64) (string, error) {
	if t, ok := r.(*text); ok {
		s, err := t.s, t.err
		t.s, t.err = "", nil
		if err != nil {
			return s, err
		}
		if limit > 0 && int64(len(s)) > limit {
			return "", &Error{File: file, Err: ErrTooLarge, Msg: fmt.Sprintf("%s, more than the %s allowed", human.Bytes(float64(len(s))), human.Bytes(float64(limit)))}
		}
		for i, start := 0, 0; ; i++ {
			k := strings.IndexByte(s[start:], '\n')
			if k < 0 {
				k = len(s) - start
			}
			if k >= maxLine {
				return s[:start], longLine(file, s[:start])
			}
			if start += k + 1; start >= len(s) {
				return s, nil
			}
		}
	}
	var sb strings.Builder
	switch r := r.(type) {
	case *os.File:
		if fi, err := r.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() < 1<<40 {
			if limit > 0 && fi.Size() > limit {
				return "", &Error{File: file, Err: ErrTooLarge, Msg: fmt.Sprintf("the file's %s are more than the %s allowed", human.Bytes(float64(fi.Size())), human.Bytes(float64(limit)))}
			}
			sb.Grow(int(fi.Size()) + 1)
		}
	case interface{ Len() int }:
		sb.Grow(r.Len())
	}
	// Read by blocks, each looked at for the end of the line: the length
	// of the last line so far is kept, so that a line too long is found
	// as it is read, not after the whole file.
	var buf [256 << 10]byte
	line := 0 // bytes of the last line read so far
	for {
		n, err := r.Read(buf[:])
		b := buf[:n]
		if k := bytes.IndexByte(b, '\n'); k < 0 {
			line += n
		} else {
			if line+k >= maxLine {
				sb.Write(b[:k])
				t := sb.String()
				start := strings.LastIndexByte(t, '\n') + 1
				return t[:start], longLine(file, t[:start])
			}
			line = n - 1 - bytes.LastIndexByte(b, '\n') // a block is shorter than maxLine
		}
		if line >= maxLine {
			sb.Write(b)
			t := sb.String()
			start := strings.LastIndexByte(t, '\n') + 1
			return t[:start], longLine(file, t[:start])
		}
		sb.Write(b)
		if limit > 0 && int64(sb.Len()) > limit {
			return "", &Error{File: file, Err: ErrTooLarge, Msg: fmt.Sprintf("the input is larger than the %s allowed", human.Bytes(float64(limit)))}
		}
		if err == io.EOF {
			return sb.String(), nil
		}
		if err != nil {
			return sb.String(), err
		}
	}
}

// longLine is the error of the line after before, longer than maxLine.
func longLine(file, before string) error {
	return &Error{File: file, Line: strings.Count(before, "\n") + 1, Err: ErrSyntax, Msg: fmt.Sprintf("line longer than %d bytes", maxLine)}
}

// notText reports a NUL byte or invalid UTF-8 in a line, the marks of a
// file that is not text (a binary file given by mistake), or "" if there is
// none. Other control characters are left to the name checks.
func notText(line string) string {
	i := 0
	for i < len(line) && line[i] != 0 && line[i] < utf8.RuneSelf {
		i++
	}
	for i < len(line) {
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

// ReadFile reads a tree in the edge-list format from the named file. A
// path that names a directory is an error wrapping syscall.EISDIR: "PATH:
// is a directory, not a file".
func ReadFile(path string, opts *Options) (*Tree, error) {
	f, err := openFile(path)
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
