package newick

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/twl-ldl/twl/internal/qza"
	"github.com/twl-ldl/twl/tree"
)

// Options controls how labels are read. The zero value matches ssu.
type Options struct {
	// Underscores makes '_' in unquoted labels stand for a space, as the
	// Newick standard and scikit-bio's reader (convert_underscores=True)
	// have it. The default keeps '_' as it is, as ssu (Striped UniFrac)
	// and the unifrac package do, so that a tip A_b matches the table id
	// "A_b".
	Underscores bool
}

// node is one node of the tree being parsed, in preorder.
type node struct {
	parent int32
	length float64
	label  string
	at     int  // byte offset of the node's label, or of its '(' or first byte
	named  bool // the node has a label (possibly "")
	quoted bool
	tip    bool
}

type parser struct {
	b     []byte
	s     string // b as a string: labels and lengths are cut from it
	i     int
	file  string
	opts  Options
	nodes []node
}

// ReadFile reads a Newick tree from the named file, or from the tree.nwk
// of a QIIME 2 Phylogeny artifact (.qza, recognised by its content). The
// path names the file in errors.
func ReadFile(path string, opts *Options) (*tree.Tree, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("%s: %w, not a file", path, syscall.EISDIR)
	}
	var r io.Reader = f
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() > 0 {
		// Read a regular file in one piece, with room to see its end.
		b := make([]byte, 0, fi.Size()+1)
		for {
			n, err := f.Read(b[len(b):cap(b)])
			b = b[:len(b)+n]
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, fmt.Errorf("%s: %w", path, err)
			}
			if len(b) == cap(b) {
				b = append(b, 0)[:len(b)]
			}
		}
		r = bytes.NewReader(b)
	}
	return Read(r, path, opts)
}

// Read parses one Newick tree from r, or from the tree.nwk of a QIIME 2
// artifact when r holds a zip archive. file names the input in errors. See
// the package documentation for the dialect and the names given to nodes.
func Read(r io.Reader, file string, opts *Options) (*tree.Tree, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if qza.IsZip(b) {
		data, inner, err := qza.Payload(b, "tree.nwk")
		if err != nil {
			return nil, &Error{File: file, Err: ErrSyntax, Msg: "QIIME 2 artifact: " + err.Error()}
		}
		b, file = data, file+":"+inner
	}
	return Parse(b, file, opts)
}

// Parse parses one Newick tree held in b; see Read.
func Parse(b []byte, file string, opts *Options) (*tree.Tree, error) {
	p := &parser{b: b, s: string(b), file: file}
	// A node starts the text, or follows a '(' or a ','.
	p.nodes = make([]node, 0, 1+bytes.Count(b, []byte("("))+bytes.Count(b, []byte(",")))
	if opts != nil {
		p.opts = *opts
	}
	if err := p.parse(); err != nil {
		return nil, err
	}
	return p.build()
}

func (p *parser) errAt(at int, sentinel error, format string, args ...any) error {
	line := 1 + strings.Count(string(p.b[:min(at, len(p.b))]), "\n")
	return &Error{File: p.file, Line: line, Err: sentinel, Msg: fmt.Sprintf("at byte %d: ", at) + fmt.Sprintf(format, args...)}
}

// skip moves past white space and [comments]; comments may nest.
func (p *parser) skip() error {
	for p.i < len(p.b) {
		switch c := p.b[p.i]; c {
		case ' ', '\t', '\n', '\r', '\v', '\f':
			p.i++
		case '[':
			start, depth := p.i, 0
			for ; p.i < len(p.b); p.i++ {
				if p.b[p.i] == '[' {
					depth++
				} else if p.b[p.i] == ']' {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			if p.i == len(p.b) {
				return p.errAt(start, ErrSyntax, "comment '[' is never closed by ']'")
			}
			p.i++
		case ']':
			return p.errAt(p.i, ErrSyntax, "']' closes no comment")
		default:
			if p.i == 0 && strings.HasPrefix(string(p.b[:min(3, len(p.b))]), "\ufeff") {
				p.i += 3 // UTF-8 byte-order mark
				continue
			}
			return nil
		}
	}
	return nil
}

func isDelim(c byte) bool {
	switch c {
	case '(', ')', ',', ':', ';', '[', ']', '\'':
		return true
	}
	return false
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// quoted reads the quoted label at p.i (two quotes inside stand for one).
func (p *parser) quoted() (string, error) {
	start := p.i
	p.i++
	j := bytes.IndexByte(p.b[p.i:], '\'')
	if j < 0 {
		return "", p.errAt(start, ErrSyntax, "quoted label is never closed by '")
	}
	if end := p.i + j + 1; end == len(p.b) || p.b[end] != '\'' {
		// The common case, no '' inside: the text between the quotes.
		label := p.s[p.i : p.i+j]
		p.i = end
		return label, nil
	}
	var sb strings.Builder
	for {
		j := bytes.IndexByte(p.b[p.i:], '\'')
		if j < 0 {
			return "", p.errAt(start, ErrSyntax, "quoted label is never closed by '")
		}
		sb.Write(p.b[p.i : p.i+j])
		p.i += j + 1
		if p.i < len(p.b) && p.b[p.i] == '\'' { // '' stands for '
			sb.WriteByte('\'')
			p.i++
			continue
		}
		return sb.String(), nil
	}
}

// label reads the optional label and branch length of node n.
func (p *parser) label(n *node) error {
	if err := p.skip(); err != nil {
		return err
	}
	if p.i < len(p.b) && p.b[p.i] == '\'' {
		n.at, n.named, n.quoted = p.i, true, true
		label, err := p.quoted()
		if err != nil {
			return err
		}
		n.label = label
	} else {
		start := p.i
		for p.i < len(p.b) && !isDelim(p.b[p.i]) {
			p.i++
		}
		lo, hi := start, p.i
		for lo < hi && isSpace(p.b[lo]) {
			lo++
		}
		for hi > lo && isSpace(p.b[hi-1]) {
			hi--
		}
		if lo < hi {
			raw := p.s[lo:hi]
			if p.opts.Underscores {
				raw = strings.ReplaceAll(raw, "_", " ")
			}
			n.at, n.named, n.label = lo, true, raw
		}
	}
	if err := p.skip(); err != nil {
		return err
	}
	if p.i < len(p.b) && p.b[p.i] == ':' {
		p.i++
		if err := p.skip(); err != nil {
			return err
		}
		start := p.i
		for p.i < len(p.b) && !isDelim(p.b[p.i]) && !isSpace(p.b[p.i]) {
			p.i++
		}
		s := p.s[start:p.i]
		if s == "" {
			return p.errAt(start, ErrBadLength, "':' is not followed by a branch length")
		}
		w, ok := shortDecimal(s)
		var err error
		if !ok {
			w, err = strconv.ParseFloat(s, 64)
		}
		switch {
		case err != nil || notDecimal(s):
			return p.errAt(start, ErrBadLength, "branch length %q is not a decimal number", s)
		case w < 0:
			return p.errAt(start, ErrBadLength, "branch length %s is negative", s)
		}
		n.length = w + 0 // -0 → +0
		return p.skip()
	}
	return nil
}

func (p *parser) parse() error {
	if err := p.skip(); err != nil {
		return err
	}
	if p.i == len(p.b) {
		return &Error{File: p.file, Err: ErrEmpty, Msg: "the input holds no Newick tree"}
	}
	var stack []int32 // open internal nodes
	parent := int32(-1)
	for {
		// At the start of a node.
		if err := p.skip(); err != nil {
			return err
		}
		if p.i < len(p.b) && p.b[p.i] == '(' {
			p.nodes = append(p.nodes, node{parent: parent, at: p.i})
			parent = int32(len(p.nodes) - 1)
			stack = append(stack, parent)
			p.i++
			continue
		}
		p.nodes = append(p.nodes, node{parent: parent, at: p.i, tip: true})
		if err := p.label(&p.nodes[len(p.nodes)-1]); err != nil {
			return err
		}
		// After a node: ',' ')' or ';'.
		for {
			if p.i == len(p.b) {
				if len(stack) > 0 {
					return p.errAt(p.nodes[stack[len(stack)-1]].at, ErrSyntax, "'(' is never closed by ')'")
				}
				return p.errAt(p.i, ErrSyntax, "the tree does not end with ';'")
			}
			c := p.b[p.i]
			switch {
			case c == ',' && len(stack) > 0:
				p.i++
			case c == ')' && len(stack) > 0:
				p.i++
				top := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if err := p.label(&p.nodes[top]); err != nil {
					return err
				}
				if len(stack) > 0 {
					parent = stack[len(stack)-1]
				} else {
					parent = -1
				}
				continue
			case c == ';' && len(stack) == 0:
				p.i++
				if err := p.skip(); err != nil {
					return err
				}
				if p.i < len(p.b) {
					return p.errAt(p.i, ErrSyntax, "text after the ';' that ends the tree (only one tree is read)")
				}
				return nil
			case c == ';':
				return p.errAt(p.i, ErrSyntax, "';' before the ')' that closes the '(' at byte %d", p.nodes[stack[len(stack)-1]].at)
			case c == ',' || c == ')':
				return p.errAt(p.i, ErrSyntax, "%q outside parentheses", c)
			case c == '\'':
				return p.errAt(p.i, ErrSyntax, "a quoted label must be the whole label")
			case c == '(':
				return p.errAt(p.i, ErrSyntax, "'(' after a node: a ',' is missing")
			default:
				return p.errAt(p.i, ErrSyntax, "unexpected %q after a label or branch length", c)
			}
			break
		}
	}
}

// dupTip is the error of tip k, whose label a tip at byte at has already.
func (p *parser) dupTip(k, at int) error {
	return p.errAt(p.nodes[k].at, ErrBadName, "tip %q already appears at byte %d", p.nodes[k].label, at)
}

// pow10 are the powers of ten that float64 holds exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// shortDecimal parses s when it is digits with at most one '.', at most 15
// digits after leading zeros, and at least one digit: the form branch
// lengths nearly always take. Then the value is m / 10^k with m < 2^53 and
// k ≤ 22, both exact in float64, and their quotient is correctly rounded:
// the same bits as strconv.ParseFloat (Clinger's fast path). ok is false
// for every other s, which the caller gives to strconv.ParseFloat.
func shortDecimal(s string) (f float64, ok bool) {
	var m uint64
	digits, frac, dot := 0, 0, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			if m != 0 || c != '0' {
				digits++
			}
			m = m*10 + uint64(c-'0')
			if dot {
				frac++
			}
			if digits > 15 {
				return 0, false
			}
		case c == '.' && !dot:
			dot = true
		default:
			return 0, false
		}
	}
	if len(s) == frac+btoi(dot) || frac >= len(pow10) {
		return 0, false // no digit, or too many places
	}
	return float64(m) / pow10[frac], true
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// notDecimal reports whether s, which ParseFloat accepts, holds one of the
// bytes of its non-decimal forms (underscores, hexadecimal, Inf, NaN).
func notDecimal(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '_', 'x', 'X', 'p', 'P', 'i', 'I', 'n', 'N':
			return true
		}
	}
	return false
}

// isSupport reports whether an unquoted internal label is a support value.
func isSupport(s string) bool {
	if _, ok := shortDecimal(s); ok {
		return true
	}
	_, err := strconv.ParseFloat(s, 64)
	return err == nil && !notDecimal(s)
}

func (p *parser) build() (*tree.Tree, error) {
	n := len(p.nodes)
	// inner counts the labels of internal nodes that may name them (support
	// values never do); count is the number of nodes with a label, tips
	// included. Tip labels are unique: a repeated one is reported below.
	inner := make(map[string]int)
	for k := range p.nodes {
		nd := &p.nodes[k]
		if !nd.tip && nd.named && nd.label != "" && (nd.quoted || !isSupport(nd.label)) {
			inner[nd.label]++
		}
	}
	names := make([]string, n)
	for k := range p.nodes {
		if nd := &p.nodes[k]; nd.tip {
			names[k] = nd.label
		}
	}
	// The made-up names "<node K>" clash with no label unless a label
	// starts so; then each is checked. Otherwise they are written into one
	// string and cut from it.
	clash := false
	for k := range p.nodes {
		clash = clash || strings.HasPrefix(p.nodes[k].label, "<node ")
	}
	// The tips' labels are looked up only for internal labels and clashing
	// made-up names; FromParents checks the tips' labels otherwise.
	var tipAt map[string]int
	if len(inner) > 0 || clash {
		tipAt = make(map[string]int, n/2+1)
		for k := range p.nodes {
			nd := &p.nodes[k]
			if !nd.tip || nd.label == "" {
				continue
			}
			if ok, why := tree.ValidName(nd.label); !ok {
				return nil, p.errAt(nd.at, ErrBadName, "%s", why)
			}
			if at, dup := tipAt[nd.label]; dup {
				return nil, p.dupTip(k, at)
			}
			tipAt[nd.label] = nd.at
		}
	}
	count := func(label string) int {
		c := inner[label]
		if _, ok := tipAt[label]; ok {
			c++
		}
		return c
	}
	for k := range p.nodes {
		nd := &p.nodes[k]
		if nd.tip || nd.label == "" || (!nd.quoted && isSupport(nd.label)) || count(nd.label) > 1 {
			continue
		}
		if ok, _ := tree.ValidName(nd.label); ok {
			names[k] = nd.label
		}
	}
	if !clash {
		var arena []byte
		var ends []int32
		for k := range names {
			if names[k] == "" {
				arena = append(arena, "<node "...)
				arena = strconv.AppendInt(arena, int64(k+1), 10)
				arena = append(arena, '>')
				ends = append(ends, int32(len(arena)))
			}
		}
		all, lo, e := string(arena), 0, 0
		for k := range names {
			if names[k] == "" {
				names[k] = all[lo:ends[e]]
				lo = int(ends[e])
				e++
			}
		}
	}
	for k := range names {
		if names[k] != "" {
			continue
		}
		base := "<node " + strconv.Itoa(k+1) + ">"
		name := base
		for j := 2; count(name) > 0; j++ {
			name = base + "#" + strconv.Itoa(j)
		}
		names[k] = name
	}
	parent := make([]int, n)
	weight := make([]float64, n)
	for k, nd := range p.nodes {
		parent[k] = int(nd.parent)
		weight[k] = nd.length
	}
	t, err := tree.FromParents(parent, weight, names, nil)
	if err != nil {
		if e, ok := err.(*tree.Error); ok && e.Line > 0 && e.Err == tree.ErrBadName {
			// Only a tip's label can be invalid or repeated here.
			k := e.Line - 1
			if ok, why := tree.ValidName(names[k]); !ok {
				return nil, p.errAt(p.nodes[k].at, ErrBadName, "%s", why)
			}
			for j := range k {
				if names[j] == names[k] {
					return nil, p.dupTip(k, p.nodes[j].at)
				}
			}
		}
		if e, ok := err.(*tree.Error); ok && e.Line > 0 {
			return nil, p.errAt(p.nodes[e.Line-1].at, ErrBadLength, "%s", e.Msg)
		}
		return nil, &Error{File: p.file, Err: ErrSyntax, Msg: err.Error()}
	}
	return t, nil
}
