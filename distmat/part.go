package distmat

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
)

// partMagic is the first line of a partial file, with its version.
const (
	partMagic   = "twl-distmat-part"
	PartVersion = 1
)

// maxSamples bounds N in a partial file.
const maxSamples = 1 << 30

// Header describes the stripe of a matrix that a partial file holds.
type Header struct {
	Tree   string // hex SHA-256 of the tree
	Table  string // hex SHA-256 of the table
	Method string // the distance, one word
	Alpha  string // the method's parameter, one word ("-" for none)
	N      int    // samples: the matrix is N×N
	IDHash string // hex SHA-256 of the sample ids (HashIDs)
	Lo, Hi int    // the stripe: rows [Lo, Hi)
	Shard  int    // 1-based shard number
	Shards int    // number of shards; 0 (and Shard 0) for rows not cut as shard I of N
}

// ErrPart is wrapped by the errors of a malformed partial file.
var ErrPart = errors.New("invalid partial matrix file")

// partError is an error of a partial file that says what is wrong in its
// own words and wraps ErrPart.
type partError struct{ msg string }

func (e *partError) Error() string { return e.msg }
func (e *partError) Unwrap() error { return ErrPart }

// HashIDs returns the hex SHA-256 of the ids, each followed by '\n'.
func HashIDs(ids []string) string {
	h := sha256.New()
	for _, id := range ids {
		h.Write([]byte(id))
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Stripe returns the rows [lo, hi) of shard (1-based) of shards over n
// rows: whole blocks of align rows when each shard gets at least one,
// else ranges of equal size within one row. It panics unless
// 1 ≤ shard ≤ shards and align ≥ 1.
func Stripe(shard, shards, n, align int) (lo, hi int) {
	if shard < 1 || shard > shards || align < 1 || n < 0 {
		panic("distmat: Stripe out of range")
	}
	k := shard - 1
	if blocks := (n + align - 1) / align; blocks >= shards {
		lo, hi = k*blocks/shards*align, (k+1)*blocks/shards*align
		return min(lo, n), min(hi, n)
	}
	return k * n / shards, (k + 1) * n / shards
}

func isWord(s string) bool {
	return s != "" && len(s) <= 256 && !strings.ContainsAny(s, " \t\n\r")
}

func isHash(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := range len(s) {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// check validates the header's fields.
func (h *Header) check() error {
	switch {
	case !isHash(h.Tree):
		return fmt.Errorf("tree hash %q is not 64 lower-case hex digits", h.Tree)
	case !isHash(h.Table):
		return fmt.Errorf("table hash %q is not 64 lower-case hex digits", h.Table)
	case !isHash(h.IDHash):
		return fmt.Errorf("ids hash %q is not 64 lower-case hex digits", h.IDHash)
	case !isWord(h.Method):
		return fmt.Errorf("method %q is not one word", h.Method)
	case !isWord(h.Alpha):
		return fmt.Errorf("alpha %q is not one word", h.Alpha)
	case h.N < 0 || h.N > maxSamples:
		return fmt.Errorf("%d samples, out of range [0, %d]", h.N, maxSamples)
	case h.Lo < 0 || h.Hi < h.Lo || h.Hi > h.N:
		return fmt.Errorf("rows [%d, %d) out of range [0, %d]", h.Lo, h.Hi, h.N)
	case h.Shards == 0 && h.Shard == 0:
	case h.Shards < 1 || h.Shard < 1 || h.Shard > h.Shards:
		return fmt.Errorf("shard %d/%d out of range", h.Shard, h.Shards)
	}
	return nil
}

func (h *Header) appendText(b []byte) []byte {
	b = fmt.Appendf(b, "%s %d\ntree %s\ntable %s\nmethod %s\nalpha %s\nsamples %d %s\nrows %d %d\n",
		partMagic, PartVersion, h.Tree, h.Table, h.Method, h.Alpha, h.N, h.IDHash, h.Lo, h.Hi)
	if h.Shards == 0 {
		return append(b, "shard -\n\n"...)
	}
	return fmt.Appendf(b, "shard %d/%d\n\n", h.Shard, h.Shards)
}

// NewPartWriter starts the partial file of the stripe h describes on w: it
// writes the header and the ids, and returns a Writer that takes the rows
// [h.Lo, h.Hi), in order. h.N and h.IDs must agree with ids.
func NewPartWriter(w io.Writer, h *Header, ids []string) (*Writer, error) {
	if err := h.check(); err != nil {
		return nil, fmt.Errorf("distmat: %w", err)
	}
	if err := CheckIDs(ids); err != nil {
		return nil, err
	}
	if len(ids) != h.N || HashIDs(ids) != h.IDHash {
		return nil, fmt.Errorf("distmat: header of %d samples does not match the %d ids", h.N, len(ids))
	}
	b := h.appendText(nil)
	for _, id := range ids {
		b = append(b, id...)
		b = append(b, '\n')
	}
	if _, err := w.Write(b); err != nil {
		return nil, err
	}
	return newWriter(w, part, ids, h.Lo, h.Hi, nil), nil
}

// maxLine bounds a line of a partial file's header or ids.
const maxLine = 1 << 16

// readLine reads one '\n'-terminated line of at most maxLine bytes.
func readLine(r *bufio.Reader) (string, error) {
	var b []byte
	for {
		frag, err := r.ReadSlice('\n')
		b = append(b, frag...)
		if len(b) > maxLine {
			return "", fmt.Errorf("a line longer than %d bytes", maxLine)
		}
		switch {
		case err == nil:
			return string(b[:len(b)-1]), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			return "", io.ErrUnexpectedEOF
		default:
			return "", err
		}
	}
}

// ReadHeader reads the header and the ids of a partial file from r, which
// is left at the first value. file names the input in errors, which wrap
// ErrPart: "FILE:LINE: invalid partial matrix file: ...".
func ReadHeader(r *bufio.Reader, file string) (*Header, []string, error) {
	line := 0
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s:%d: %w: %s", file, line, ErrPart, fmt.Sprintf(format, args...))
	}
	next := func(key string) ([]string, error) {
		line++
		s, err := readLine(r)
		if err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) {
				return nil, fail("the file ends before the %s line", key)
			}
			return nil, fail("%v", err)
		}
		f := strings.Split(s, " ")
		if f[0] != key {
			return nil, fail("want the %s line, found %q", key, trunc(s))
		}
		return f[1:], nil
	}
	var h Header
	f, err := next(partMagic)
	if err != nil {
		return nil, nil, &partError{fmt.Sprintf("%s is not a partial file of 'twl unifrac --shard' (it does not start with %s)", file, partMagic)}
	}
	if len(f) != 1 || f[0] != strconv.Itoa(PartVersion) {
		return nil, nil, fail("format version %q, want %d", strings.Join(f, " "), PartVersion)
	}
	one := func(key string, dst *string) error {
		f, err := next(key)
		if err != nil {
			return err
		}
		if len(f) != 1 {
			return fail("the %s line holds %d words, want 1", key, len(f))
		}
		*dst = f[0]
		return nil
	}
	for _, kv := range []struct {
		key string
		dst *string
	}{{"tree", &h.Tree}, {"table", &h.Table}, {"method", &h.Method}, {"alpha", &h.Alpha}} {
		if err := one(kv.key, kv.dst); err != nil {
			return nil, nil, err
		}
	}
	num := func(s string) (int, error) {
		v, err := strconv.Atoi(s)
		if err != nil || v < 0 || v > maxSamples || strings.HasPrefix(s, "+") {
			return 0, fail("%q is not a count", trunc(s))
		}
		return v, nil
	}
	if f, err = next("samples"); err != nil {
		return nil, nil, err
	}
	if len(f) != 2 {
		return nil, nil, fail("the samples line holds %d words, want 2 (N and the ids' hash)", len(f))
	}
	if h.N, err = num(f[0]); err != nil {
		return nil, nil, err
	}
	h.IDHash = f[1]
	if f, err = next("rows"); err != nil {
		return nil, nil, err
	}
	if len(f) != 2 {
		return nil, nil, fail("the rows line holds %d words, want 2", len(f))
	}
	if h.Lo, err = num(f[0]); err != nil {
		return nil, nil, err
	}
	if h.Hi, err = num(f[1]); err != nil {
		return nil, nil, err
	}
	if h.Hi < h.Lo || h.Hi > h.N {
		return nil, nil, fail("rows [%d, %d) out of range [0, %d]", h.Lo, h.Hi, h.N)
	}
	if f, err = next("shard"); err != nil {
		return nil, nil, err
	}
	a, b, ok := strings.Cut(strings.Join(f, " "), "/")
	switch {
	case len(f) == 1 && f[0] == "-":
	case len(f) != 1 || !ok:
		return nil, nil, fail("the shard line must be I/N or -")
	default:
		if h.Shard, err = num(a); err != nil {
			return nil, nil, err
		}
		if h.Shards, err = num(b); err != nil {
			return nil, nil, err
		}
		if h.Shards == 0 {
			return nil, nil, fail("shard %d/0 out of range", h.Shard)
		}
	}
	if err := h.check(); err != nil {
		return nil, nil, fail("%v", err)
	}
	line++
	if s, err := readLine(r); err != nil || s != "" {
		return nil, nil, fail("want the empty line that ends the header")
	}
	ids := make([]string, 0, min(h.N, 1<<16))
	for range h.N {
		line++
		s, err := readLine(r)
		if err != nil {
			return nil, nil, fail("the file ends within the %d sample ids", h.N)
		}
		ids = append(ids, s)
	}
	if HashIDs(ids) != h.IDHash {
		return nil, nil, fail("the sample ids do not match their hash in the header")
	}
	if err := CheckIDs(ids); err != nil {
		return nil, nil, fail("%v", err)
	}
	return &h, ids, nil
}

func trunc(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// Part is an open partial file.
type Part struct {
	Header
	IDs  []string // the sample ids
	Name string   // the file's name
	f    *os.File
	r    *bufio.Reader
}

// OpenPart opens the partial file name, reads its header and ids, and
// checks that its size is that of the header's rows: a truncated or
// overlong file is an error.
func OpenPart(name string) (*Part, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	cr := &countReader{r: f}
	r := bufio.NewReaderSize(cr, 1<<16)
	h, ids, err := ReadHeader(r, name)
	if err != nil {
		f.Close()
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	off := cr.n - int64(r.Buffered())
	want := int64(h.Hi-h.Lo) * int64(h.N) * 8
	if got := fi.Size() - off; got != want {
		f.Close()
		return nil, sizeError(name, h, got, want)
	}
	return &Part{Header: *h, IDs: ids, Name: name, f: f, r: r}, nil
}

// sizeError is the error of a partial file of got bytes of values where
// its header's rows need want: rows are 1-based, as a user counts them.
func sizeError(name string, h *Header, got, want int64) error {
	holds := fmt.Sprintf("shard %d/%d holds rows %d to %d of %d", h.Shard, h.Shards, h.Lo+1, h.Hi, h.N)
	if h.Shards == 0 {
		holds = fmt.Sprintf("it holds rows %d to %d of %d", h.Lo+1, h.Hi, h.N)
	}
	if got > want {
		return &partError{fmt.Sprintf("%s: %d bytes more than its rows need (%s): damaged or not a partial file", name, got-want, holds)}
	}
	k := got / (8 * int64(h.N)) // whole rows in the file
	if k == 0 {
		return &partError{fmt.Sprintf("%s: the file ends before its first row, row %d (%s): truncated", name, h.Lo+1, holds)}
	}
	return &partError{fmt.Sprintf("%s: the file ends after row %d of %d (%s): truncated", name, int64(h.Lo)+k, h.Hi, holds)}
}

type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// Close closes the file.
func (p *Part) Close() error { return p.f.Close() }

// CheckParts checks that the parts make one whole matrix: the same tree,
// table, method, alpha, N and ids, every row in exactly one part. It sorts
// parts by their first row.
func CheckParts(parts []*Part) error {
	if len(parts) == 0 {
		return errors.New("no partial files to merge")
	}
	a := parts[0]
	for _, p := range parts[1:] {
		for _, c := range []struct{ what, x, y string }{
			{"tree", a.Tree, p.Tree},
			{"table", a.Table, p.Table},
			{"method", a.Method, p.Method},
			{"alpha", a.Alpha, p.Alpha},
			{"samples", strconv.Itoa(a.N), strconv.Itoa(p.N)},
			{"sample ids", a.IDHash, p.IDHash},
		} {
			if c.x != c.y {
				return fmt.Errorf("%s and %s are parts of different matrices: %s %s differs from %s (all parts must come from the same tree, table, method and alpha)",
					a.Name, p.Name, c.what, short(c.x), short(c.y))
			}
		}
	}
	slices.SortStableFunc(parts, func(x, y *Part) int { return x.Lo - y.Lo })
	row := 0
	for i, p := range parts {
		if p.Lo == p.Hi {
			continue
		}
		switch {
		case p.Lo > row:
			return fmt.Errorf("%s in no part: %s", isAre(row, p.Lo), missingHint(parts, i))
		case p.Lo < row:
			prev := parts[i-1]
			for j := i - 1; j >= 0 && parts[j].Hi <= p.Lo; j-- {
				prev = parts[j]
			}
			return fmt.Errorf("%s (%s) and %s (%s) overlap: give each shard once",
				prev.Name, rowRange(prev.Lo, prev.Hi), p.Name, rowRange(p.Lo, p.Hi))
		}
		row = p.Hi
	}
	if row < a.N {
		return fmt.Errorf("%s in no part: %s", isAre(row, a.N), missingHint(parts, len(parts)))
	}
	return nil
}

// rowRange names the rows [lo, hi), lo < hi, 1-based.
func rowRange(lo, hi int) string {
	if hi == lo+1 {
		return fmt.Sprintf("row %d (1-based)", hi)
	}
	return fmt.Sprintf("rows %d to %d (1-based)", lo+1, hi)
}

// isAre is rowRange with its verb.
func isAre(lo, hi int) string {
	if hi == lo+1 {
		return rowRange(lo, hi) + " is"
	}
	return rowRange(lo, hi) + " are"
}

func missingHint(parts []*Part, _ int) string {
	if parts[0].Shards == 0 {
		return "a part is missing"
	}
	have := make([]bool, parts[0].Shards+1)
	for _, p := range parts {
		if p.Shards == parts[0].Shards {
			have[p.Shard] = true
		}
	}
	var miss []string
	for s := 1; s < len(have); s++ {
		if !have[s] {
			miss = append(miss, fmt.Sprintf("%d/%d", s, parts[0].Shards))
		}
		if len(miss) == 5 {
			miss = append(miss, "…")
			break
		}
	}
	if len(miss) == 0 {
		return "a shard is missing"
	}
	return "missing shard " + strings.Join(miss, ", ")
}

func short(s string) string {
	if isHash(s) {
		return s[:12] + "…"
	}
	return strconv.Quote(s)
}

// Merge checks the parts (CheckParts) and writes the whole matrix to w in
// format f, reading the parts' rows in order; it returns ctx's error if
// ctx is cancelled. Its output is byte for byte that of a Writer given
// the same rows. It does not close the parts.
func Merge(ctx context.Context, w io.Writer, f Format, parts []*Part, opts *Options) error {
	if err := CheckParts(parts); err != nil {
		return err
	}
	mw, err := NewWriter(w, f, parts[0].IDs, opts)
	if err != nil {
		return err
	}
	if err := MergeRows(ctx, parts, mw.WriteRows); err != nil {
		return err
	}
	return mw.Close()
}

// MergeRows checks the parts (CheckParts) and calls fn with the rows of
// the whole matrix, in order, a few at a time (row-major, a multiple of N
// values; the slice is reused between calls). It returns fn's first error,
// or ctx's if ctx is cancelled. It does not close the parts.
func MergeRows(ctx context.Context, parts []*Part, fn func(rows []float64) error) error {
	if err := CheckParts(parts); err != nil {
		return err
	}
	n := parts[0].N
	stripe := max(1, (8<<20)/(8*max(n, 1)))
	buf := make([]float64, stripe*n)
	raw := make([]byte, stripe*n*8)
	for _, p := range parts {
		for r := p.Lo; r < p.Hi; r += stripe {
			if err := ctx.Err(); err != nil {
				return err
			}
			k := min(stripe, p.Hi-r)
			b := raw[:k*n*8]
			if _, err := io.ReadFull(p.r, b); err != nil {
				return fmt.Errorf("%s: %w", p.Name, err)
			}
			v := buf[:k*n]
			for i := range v {
				v[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
			}
			if err := fn(v); err != nil {
				return err
			}
		}
	}
	return nil
}

// ParseShard reads "I/N", shard I (1-based) of N.
func ParseShard(s string) (shard, shards int, err error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return 0, 0, fmt.Errorf("%q is not I/N with 1 ≤ I ≤ N", s)
	}
	return i, n, nil
}
