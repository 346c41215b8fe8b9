package newick

// The parser as it was first written, kept as the reference that the
// faster Parse is checked against (FuzzSameAsReference, TestSameAsReference).

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/twl-ldl/twl/tree"
)

// node is one node of the tree being parsed, in preorder.
type refNode struct {
	parent int32
	length float64
	label  string
	at     int  // byte offset of the node's label, or of its '(' or first byte
	named  bool // the node has a label (possibly "")
	quoted bool
	tip    bool
}

type refParser struct {
	b     []byte
	i     int
	file  string
	opts  Options
	nodes []refNode
}

// refParse is the straightforward parser that Parse must agree with.
func refParse(b []byte, file string, opts *Options) (*tree.Tree, error) {
	p := &refParser{b: b, file: file}
	// A node starts the text, or follows a '(' or a ','.
	p.nodes = make([]refNode, 0, 1+bytes.Count(b, []byte("("))+bytes.Count(b, []byte(",")))
	if opts != nil {
		p.opts = *opts
	}
	if err := p.parse(); err != nil {
		return nil, err
	}
	return p.build()
}

func (p *refParser) errAt(at int, sentinel error, format string, args ...any) error {
	line := 1 + strings.Count(string(p.b[:min(at, len(p.b))]), "\n")
	return &Error{File: p.file, Line: line, Err: sentinel, Msg: fmt.Sprintf("at byte %d: ", at) + fmt.Sprintf(format, args...)}
}

// skip moves past white space and [comments]; comments may nest.
func (p *refParser) skip() error {
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

func refIsDelim(c byte) bool {
	switch c {
	case '(', ')', ',', ':', ';', '[', ']', '\'':
		return true
	}
	return false
}

func refIsSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// label reads the optional label and branch length of node n.
func (p *refParser) label(n *refNode) error {
	if err := p.skip(); err != nil {
		return err
	}
	if p.i < len(p.b) && p.b[p.i] == '\'' {
		n.at, n.named, n.quoted = p.i, true, true
		var sb strings.Builder
		start := p.i
		p.i++
		for {
			j := bytes.IndexByte(p.b[p.i:], '\'')
			if j < 0 {
				return p.errAt(start, ErrSyntax, "quoted label is never closed by '")
			}
			sb.Write(p.b[p.i : p.i+j])
			p.i += j + 1
			if p.i < len(p.b) && p.b[p.i] == '\'' { // '' stands for '
				sb.WriteByte('\'')
				p.i++
				continue
			}
			break
		}
		n.label = sb.String()
	} else {
		start := p.i
		for p.i < len(p.b) && !refIsDelim(p.b[p.i]) {
			p.i++
		}
		lo, hi := start, p.i
		for lo < hi && refIsSpace(p.b[lo]) {
			lo++
		}
		for hi > lo && refIsSpace(p.b[hi-1]) {
			hi--
		}
		if lo < hi {
			raw := string(p.b[lo:hi])
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
		for p.i < len(p.b) && !refIsDelim(p.b[p.i]) && !refIsSpace(p.b[p.i]) {
			p.i++
		}
		s := string(p.b[start:p.i])
		if s == "" {
			return p.errAt(start, ErrBadLength, "':' is not followed by a branch length")
		}
		w, err := strconv.ParseFloat(s, 64)
		switch {
		case err != nil || refNotDecimal(s):
			return p.errAt(start, ErrBadLength, "branch length %q is not a decimal number", s)
		case w < 0:
			return p.errAt(start, ErrBadLength, "branch length %s is negative", s)
		case w > 0 && w < 0x1p-1022, w == 0 && refNonzero(s):
			return p.errAt(start, ErrBadLength, "branch length %s is below 2.2e-308, the smallest normal float64: too small to compute with in full precision (scale the lengths up)", s)
		}
		n.length = w + 0 // -0 → +0
		return p.skip()
	}
	return nil
}

func (p *refParser) parse() error {
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
			p.nodes = append(p.nodes, refNode{parent: parent, at: p.i})
			parent = int32(len(p.nodes) - 1)
			stack = append(stack, parent)
			p.i++
			continue
		}
		p.nodes = append(p.nodes, refNode{parent: parent, at: p.i, tip: true})
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

// notDecimal reports whether s, which ParseFloat accepts, holds one of the
// bytes of its non-decimal forms (underscores, hexadecimal, Inf, NaN).
func refNotDecimal(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '_', 'x', 'X', 'p', 'P', 'i', 'I', 'n', 'N':
			return true
		}
	}
	return false
}

// isSupport reports whether an unquoted internal label is a support value.
func refIsSupport(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil && !refNotDecimal(s)
}

func (p *refParser) build() (*tree.Tree, error) {
	n := len(p.nodes)
	// inner counts the labels of internal nodes that may name them (a
	// support value is no name, so it clashes with none); tip labels are
	// unique, and count is the number of nodes with a label.
	inner := make(map[string]int)
	for k := range p.nodes {
		nd := &p.nodes[k]
		if !nd.tip && nd.named && nd.label != "" && (nd.quoted || !refIsSupport(nd.label)) {
			inner[nd.label]++
		}
	}
	names := make([]string, n)
	tipAt := make(map[string]int, n/2+1)
	count := func(label string) int {
		c := inner[label]
		if _, ok := tipAt[label]; ok {
			c++
		}
		return c
	}
	for k := range p.nodes {
		nd := &p.nodes[k]
		if !nd.tip || nd.label == "" {
			continue
		}
		if ok, why := tree.ValidName(nd.label); !ok {
			return nil, p.errAt(nd.at, ErrBadName, "%s", why)
		}
		if at, dup := tipAt[nd.label]; dup {
			return nil, p.errAt(nd.at, ErrBadName, "tip %q already appears at byte %d", nd.label, at)
		}
		tipAt[nd.label] = nd.at
		names[k] = nd.label
	}
	for k := range p.nodes {
		nd := &p.nodes[k]
		if nd.tip || nd.label == "" || count(nd.label) > 1 || (!nd.quoted && refIsSupport(nd.label)) {
			continue
		}
		if ok, _ := tree.ValidName(nd.label); ok {
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
		if e, ok := err.(*tree.Error); ok && e.Line > 0 {
			return nil, p.errAt(p.nodes[e.Line-1].at, ErrBadLength, "%s", e.Msg)
		}
		return nil, &Error{File: p.file, Err: ErrSyntax, Msg: err.Error()}
	}
	return t, nil
}

// refNonzero reports whether the decimal s has a digit other than 0 before
// its exponent: a number that is not zero, though it may read as 0.
func refNonzero(s string) bool {
	mantissa, _, _ := strings.Cut(strings.ToLower(s), "e")
	return strings.ContainsAny(mantissa, "123456789")
}
