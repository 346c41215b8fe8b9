package newick

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"
	"unsafe"

	"github.com/twl-ldl/twl/internal/human"
	"github.com/twl-ldl/twl/internal/qza"
	"github.com/twl-ldl/twl/internal/underflow"
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
	// MaxBytes, when positive, bounds the memory that reading may take:
	// the text (or the .qza archive and the text it inflates to) and
	// NodeBytes for each node it may hold, one more than its '(' and ','
	// (the text is not parsed when they would pass it). What would pass it
	// is refused, before it is allocated, with an error wrapping
	// ErrTooLarge. Whatever MaxBytes, the tree of a .qza may inflate to
	// 256 MiB at most.
	MaxBytes int64
}

// NodeBytes bounds the memory that reading takes per node of the tree,
// beside the text: the parser's fields for the node (41 bytes), its name,
// the tree built from them (package tree, about 80 bytes a node) and the
// buffers of the building (measured: 153 bytes a node for a star of 10⁶
// tips, 182 for a caterpillar of 2·10⁶ nodes, allocations included).
const NodeBytes = 200

// maxBytes returns opts.MaxBytes, or 0 for no limit.
func (opts *Options) maxBytes() int64 {
	if opts == nil || opts.MaxBytes <= 0 {
		return 0
	}
	return opts.MaxBytes
}

// tooLarge is the error of an input of size bytes past limit.
func tooLarge(file string, size, limit int64) error {
	return &Error{File: file, Err: ErrTooLarge, Msg: fmt.Sprintf("the file's %s are more than the %s allowed", human.Bytes(float64(size)), human.Bytes(float64(limit)))}
}

// Flags of a node.
const (
	named  = 1 << iota // the node has a label (possibly "")
	quoted             // its label is quoted
	tip                // it is a tip
)

// parser holds the nodes read so far, in preorder, as one slice per field:
// parent and length are the arrays tree.FromParents takes, label becomes
// the nodes' names.
type parser struct {
	s      string // the text: labels and lengths are cut from it
	i      int
	file   string
	opts   Options
	parent []int     // parent node, -1 for the root
	length []float64 // branch length, 0 when none
	label  []string
	at     []int   // byte offset of the node's label, or of its '(' or first byte
	flags  []uint8 // named, quoted, tip
}

// add appends a node with the given parent, offset and flags.
func (p *parser) add(parent, at int, flags uint8) {
	p.parent = append(p.parent, parent)
	p.length = append(p.length, 0)
	p.label = append(p.label, "")
	p.at = append(p.at, at)
	p.flags = append(p.flags, flags)
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
		if limit := opts.maxBytes(); limit > 0 && fi.Size() > limit {
			return nil, tooLarge(path, fi.Size(), limit)
		}
		// Read a regular file in one piece, through a small buffer into
		// the string that is parsed.
		var sb strings.Builder
		sb.Grow(int(fi.Size()))
		buf := make([]byte, min(fi.Size()+1, 256<<10))
		limit, nodes, zip := opts.maxBytes(), int64(1), false
		for {
			n, err := f.Read(buf)
			if sb.Len() == 0 {
				zip = bytes.HasPrefix(buf[:n], []byte(qza.Magic)) // counted once inflated
			}
			if limit > 0 && !zip {
				// The nodes are counted as the text is read, so that a
				// text that has too many stops being read at once.
				nodes += int64(bytes.Count(buf[:n], []byte("(")) + bytes.Count(buf[:n], []byte(",")))
				if need := fi.Size() + NodeBytes*nodes; need > limit {
					return nil, &Error{File: path, Err: ErrTooLarge, Msg: fmt.Sprintf("its %d bytes and at least %d nodes (one more than its '(' and ',' in the first %d bytes) need more than the %s allowed",
						fi.Size(), nodes, sb.Len()+n, human.Bytes(float64(limit)))}
				}
			}
			sb.Write(buf[:n])
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, fmt.Errorf("%s: %w", path, err)
			}
		}
		text := sb.String()
		if strings.HasPrefix(text, qza.Magic) {
			return parseArtifact(unsafe.Slice(unsafe.StringData(text), len(text)), path, opts)
		}
		return parse(text, path, opts, 0)
	}
	return Read(r, path, opts)
}

// Read parses one Newick tree from r, or from the tree.nwk of a QIIME 2
// artifact when r holds a zip archive. file names the input in errors. See
// the package documentation for the dialect and the names given to nodes.
func Read(r io.Reader, file string, opts *Options) (*tree.Tree, error) {
	limit := opts.maxBytes()
	if limit > 0 {
		r = io.LimitReader(r, limit+1)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if limit > 0 && int64(len(b)) > limit {
		return nil, &Error{File: file, Err: ErrTooLarge, Msg: fmt.Sprintf("the input is larger than the %s allowed", human.Bytes(float64(limit)))}
	}
	return parseArtifact(b, file, opts)
}

// parseArtifact parses b, a Newick text or a QIIME 2 artifact holding one;
// Options.MaxBytes counts b.
func parseArtifact(b []byte, file string, opts *Options) (*tree.Tree, error) {
	held := int64(0) // the archive's bytes, held while its text is parsed
	if qza.IsZip(b) {
		left := opts.maxBytes()
		if left > 0 {
			if left -= int64(len(b)); left <= 0 {
				return nil, tooLarge(file, int64(len(b)), opts.maxBytes())
			}
		}
		data, inner, err := qza.Payload(b, "tree.nwk", left)
		if errors.Is(err, ErrTooLarge) {
			return nil, &Error{File: file, Err: ErrTooLarge, Msg: err.Error()}
		}
		if err != nil {
			return nil, &Error{File: file, Err: ErrSyntax, Msg: "QIIME 2 artifact: " + err.Error()}
		}
		b, file, held = data, file+":"+inner, int64(len(b))
	}
	return parse(unsafe.String(unsafe.SliceData(b), len(b)), file, opts, held)
}

// Parse parses one Newick tree held in b; see Read. Options.MaxBytes
// counts b.
func Parse(b []byte, file string, opts *Options) (*tree.Tree, error) {
	return parse(string(b), file, opts, 0)
}

// parse parses one Newick tree held in s; held is what the caller holds
// beside s, counted against Options.MaxBytes.
func parse(s, file string, opts *Options, held int64) (*tree.Tree, error) {
	p := &parser{s: s, file: file}
	// A node starts the text, or follows a '(' or a ','.
	n := 1 + strings.Count(s, "(") + strings.Count(s, ",")
	if limit := opts.maxBytes(); limit > 0 {
		if need := held + int64(len(s)) + NodeBytes*int64(n); need > limit {
			return nil, &Error{File: file, Err: ErrTooLarge, Msg: fmt.Sprintf("its %d bytes and up to %d nodes (one more than its '(' and ',') need about %s to read, more than the %s allowed",
				len(s), n, human.Bytes(float64(need)), human.Bytes(float64(limit)))}
		}
	}
	p.parent = make([]int, 0, n)
	p.length = make([]float64, 0, n)
	p.label = make([]string, 0, n)
	p.at = make([]int, 0, n)
	p.flags = make([]uint8, 0, n)
	if opts != nil {
		p.opts = *opts
	}
	if err := p.parse(); err != nil {
		return nil, err
	}
	return p.build()
}

func (p *parser) errAt(at int, sentinel error, format string, args ...any) error {
	line := 1 + strings.Count(p.s[:min(at, len(p.s))], "\n")
	return &Error{File: p.file, Line: line, Err: sentinel, Msg: fmt.Sprintf("at byte %d: ", at) + fmt.Sprintf(format, args...)}
}

// skip moves past white space and [comments]; comments may nest.
func (p *parser) skip() error {
	for p.i < len(p.s) {
		switch c := p.s[p.i]; c {
		case ' ', '\t', '\n', '\r', '\v', '\f':
			p.i++
		case '[':
			start, depth := p.i, 0
			for ; p.i < len(p.s); p.i++ {
				if p.s[p.i] == '[' {
					depth++
				} else if p.s[p.i] == ']' {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			if p.i == len(p.s) {
				return p.errAt(start, ErrSyntax, "comment '[' is never closed by ']'")
			}
			p.i++
		case ']':
			return p.errAt(p.i, ErrSyntax, "']' closes no comment")
		default:
			if p.i == 0 && strings.HasPrefix(p.s, "\ufeff") {
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
	j := strings.IndexByte(p.s[p.i:], '\'')
	if j < 0 {
		return "", p.errAt(start, ErrSyntax, "quoted label is never closed by '")
	}
	if end := p.i + j + 1; end == len(p.s) || p.s[end] != '\'' {
		// The common case, no '' inside: the text between the quotes.
		label := p.s[p.i : p.i+j]
		p.i = end
		return label, nil
	}
	var sb strings.Builder
	for {
		j := strings.IndexByte(p.s[p.i:], '\'')
		if j < 0 {
			return "", p.errAt(start, ErrSyntax, "quoted label is never closed by '")
		}
		sb.WriteString(p.s[p.i : p.i+j])
		p.i += j + 1
		if p.i < len(p.s) && p.s[p.i] == '\'' { // '' stands for '
			sb.WriteByte('\'')
			p.i++
			continue
		}
		return sb.String(), nil
	}
}

// readLabel reads the optional label and branch length of node k.
func (p *parser) readLabel(k int) error {
	if err := p.skip(); err != nil {
		return err
	}
	if p.i < len(p.s) && p.s[p.i] == '\'' {
		p.at[k], p.flags[k] = p.i, p.flags[k]|named|quoted
		label, err := p.quoted()
		if err != nil {
			return err
		}
		p.label[k] = label
	} else {
		start := p.i
		for p.i < len(p.s) && !isDelim(p.s[p.i]) {
			p.i++
		}
		lo, hi := start, p.i
		for lo < hi && isSpace(p.s[lo]) {
			lo++
		}
		for hi > lo && isSpace(p.s[hi-1]) {
			hi--
		}
		if lo < hi {
			raw := p.s[lo:hi]
			if p.opts.Underscores {
				raw = strings.ReplaceAll(raw, "_", " ")
			}
			p.at[k], p.flags[k], p.label[k] = lo, p.flags[k]|named, raw
		}
	}
	if err := p.skip(); err != nil {
		return err
	}
	if p.i < len(p.s) && p.s[p.i] == ':' {
		p.i++
		if err := p.skip(); err != nil {
			return err
		}
		start := p.i
		if w, ok := p.plainLength(); ok {
			p.length[k] = w
			return p.skip()
		}
		for p.i < len(p.s) && !isDelim(p.s[p.i]) && !isSpace(p.s[p.i]) {
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
		case underflow.Decimal(s, w):
			// A subnormal float64 holds fewer digits (7e-324 reads as
			// 5e-324), and products with it lose the rest; 1e-400 reads
			// as 0.
			return p.errAt(start, ErrBadLength, "branch length %s is below 2.2e-308, the smallest normal float64: too small to compute with in full precision (scale the lengths up)", s)
		}
		p.length[k] = w + 0 // -0 → +0
		return p.skip()
	}
	return nil
}

func (p *parser) parse() error {
	if err := p.skip(); err != nil {
		return err
	}
	if p.i == len(p.s) {
		return &Error{File: p.file, Err: ErrEmpty, Msg: "the input holds no Newick tree"}
	}
	var stack []int // open internal nodes
	parent := -1
	for {
		// At the start of a node.
		if err := p.skip(); err != nil {
			return err
		}
		if p.i < len(p.s) && p.s[p.i] == '(' {
			p.add(parent, p.i, 0)
			parent = len(p.parent) - 1
			stack = append(stack, parent)
			p.i++
			continue
		}
		p.add(parent, p.i, tip)
		if err := p.readLabel(len(p.parent) - 1); err != nil {
			return err
		}
		// After a node: ',' ')' or ';'.
		for {
			if p.i == len(p.s) {
				if len(stack) > 0 {
					return p.errAt(p.at[stack[len(stack)-1]], ErrSyntax, "'(' is never closed by ')'")
				}
				return p.errAt(p.i, ErrSyntax, "the tree does not end with ';'")
			}
			c := p.s[p.i]
			switch {
			case c == ',' && len(stack) > 0:
				p.i++
			case c == ')' && len(stack) > 0:
				p.i++
				top := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if err := p.readLabel(top); err != nil {
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
				if p.i < len(p.s) {
					return p.errAt(p.i, ErrSyntax, "text after the ';' that ends the tree (only one tree is read)")
				}
				return nil
			case c == ';':
				return p.errAt(p.i, ErrSyntax, "';' before the ')' that closes the '(' at byte %d", p.at[stack[len(stack)-1]])
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
	return p.errAt(p.at[k], ErrBadName, "tip %q already appears at byte %d", p.label[k], at)
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

// plainLength reads the branch length at p.i when it is a plain decimal
// that shortDecimal takes, ended by a delimiter, a blank or the end of the
// input, in the same pass that finds its end; it leaves p.i alone and
// reports false for any other text. The value is shortDecimal's, never
// negative zero.
func (p *parser) plainLength() (float64, bool) {
	b := p.s
	var m uint64
	digits, frac, dot := 0, 0, false
	j := p.i
	for ; j < len(b); j++ {
		c := b[j]
		if d := c - '0'; d < 10 {
			if m != 0 || d != 0 {
				digits++
			}
			m = m*10 + uint64(d)
			if dot {
				frac++
			}
			continue
		}
		if c == '.' && !dot {
			dot = true
			continue
		}
		if !isDelim(c) && !isSpace(c) {
			return 0, false
		}
		break
	}
	n := j - p.i
	if digits > 15 || n == frac+btoi(dot) || frac >= len(pow10) {
		return 0, false // too many digits, no digit, or too many places
	}
	p.i = j
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
	n := len(p.parent)
	// The labels become the nodes' names. One pass over them: the tips
	// keep theirs; the internal nodes with a label are listed in labeled,
	// their labels counted in inner when they may name their node
	// (support values never do), and dropped below where they do not name
	// it. Tip labels
	// are unique: a repeated one is reported below. The made-up names
	// "<node K>" clash with no label unless a label starts so (clash);
	// then each is checked. Otherwise they are written into one string
	// and cut from it.
	names := p.label
	inner := make(map[string]int)
	var labeled []int32
	clash := false
	for k, label := range names {
		if label == "" {
			continue
		}
		clash = clash || strings.HasPrefix(label, "<node ")
		f := p.flags[k]
		if f&tip != 0 {
			continue
		}
		labeled = append(labeled, int32(k))
		if f&named != 0 && (f&quoted != 0 || !isSupport(label)) {
			inner[label]++
		}
	}
	// The tips' labels are looked up only for internal labels and clashing
	// made-up names; FromParents checks the tips' labels otherwise.
	var tipAt map[string]int
	if len(inner) > 0 || clash {
		tipAt = make(map[string]int, n/2+1)
		for k, label := range names {
			if p.flags[k]&tip == 0 || label == "" {
				continue
			}
			if ok, why := tree.ValidName(label); !ok {
				return nil, p.errAt(p.at[k], ErrBadName, "%s", why)
			}
			if at, dup := tipAt[label]; dup {
				return nil, p.dupTip(k, at)
			}
			tipAt[label] = p.at[k]
		}
	}
	count := func(label string) int {
		c := inner[label]
		if _, ok := tipAt[label]; ok {
			c++
		}
		return c
	}
	for _, k := range labeled {
		label := names[k]
		if (p.flags[k]&quoted == 0 && isSupport(label)) || count(label) > 1 {
			names[k] = ""
		} else if ok, _ := tree.ValidName(label); !ok {
			names[k] = ""
		}
	}
	if !clash {
		unnamed := 0
		for k := range names {
			if names[k] == "" {
				unnamed++
			}
		}
		var arena strings.Builder
		arena.Grow(unnamed * (len("<node >") + len(strconv.Itoa(n))))
		ends := make([]int32, 0, unnamed)
		var num [20]byte
		for k := range names {
			if names[k] == "" {
				arena.WriteString("<node ")
				arena.Write(strconv.AppendInt(num[:0], int64(k+1), 10))
				arena.WriteByte('>')
				ends = append(ends, int32(arena.Len()))
			}
		}
		all, lo, e := arena.String(), 0, 0
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
	t, err := tree.FromParents(p.parent, p.length, names, nil)
	if err != nil {
		if e, ok := err.(*tree.Error); ok && e.Line > 0 && e.Err == tree.ErrBadName {
			// Only a tip's label can be invalid or repeated here.
			k := e.Line - 1
			if ok, why := tree.ValidName(names[k]); !ok {
				return nil, p.errAt(p.at[k], ErrBadName, "%s", why)
			}
			for j := range k {
				if names[j] == names[k] {
					return nil, p.dupTip(k, p.at[j])
				}
			}
		}
		if e, ok := err.(*tree.Error); ok && e.Line > 0 {
			return nil, p.errAt(p.at[e.Line-1], ErrBadLength, "%s", e.Msg)
		}
		return nil, &Error{File: p.file, Err: ErrSyntax, Msg: err.Error()}
	}
	return t, nil
}
