package distmat

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/bits"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/twl-ldl/twl/internal/parallel"
)

// Format is the layout of a matrix file.
type Format int

const (
	// TSV is ssu's ASCII matrix: a header of ids, then id and values per
	// line, tab-separated.
	TSV Format = iota
	// NPY is a NumPy .npy file of N×N float64 values; the ids go to a
	// sidecar file (WriteIDs).
	NPY
	// part is a partial file: header, ids and raw rows.
	part
)

// String returns "tsv" or "npy".
func (f Format) String() string {
	switch f {
	case TSV:
		return "tsv"
	case NPY:
		return "npy"
	case part:
		return "part"
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// ParseFormat returns the Format named "tsv" or "npy".
func ParseFormat(s string) (Format, error) {
	switch s {
	case "tsv":
		return TSV, nil
	case "npy":
		return NPY, nil
	}
	return 0, fmt.Errorf("unknown matrix format %q (available: tsv, npy)", s)
}

// FormatOf guesses the format from a file name: NPY for a name ending in
// .npy, TSV otherwise.
func FormatOf(name string) Format {
	if strings.EqualFold(filepath.Ext(name), ".npy") {
		return NPY
	}
	return TSV
}

// IDsPath returns the name of the sidecar file of the ids of the .npy
// matrix file name: name without its .npy extension, plus ".ids.txt".
func IDsPath(name string) string {
	if strings.EqualFold(filepath.Ext(name), ".npy") {
		name = name[:len(name)-4]
	}
	return name + ".ids.txt"
}

// Options tunes a Writer. The zero value (or nil) is ready to use.
type Options struct {
	// Workers bounds the goroutines that format TSV lines; ≤ 0 means
	// runtime.GOMAXPROCS(0). The output does not depend on it.
	Workers int
	// MaxBytes, when positive, bounds the memory that WriteCondensed may
	// spend on the text of all pairs (25 bytes a pair); a matrix that
	// needs more is written by stripes. The output does not depend on it.
	MaxBytes int64
}

// CheckIDs returns an error for ids that cannot be written: an id holding
// a tab, a line feed or a carriage return, or an empty id.
func CheckIDs(ids []string) error {
	for i, id := range ids {
		if id == "" {
			return fmt.Errorf("sample %d has an empty id", i+1)
		}
		if strings.ContainsAny(id, "\t\n\r") {
			return fmt.Errorf("sample id %q holds a tab or a line break: it cannot be written in a matrix file", id)
		}
		if strings.IndexByte(id, 0) >= 0 {
			return fmt.Errorf("sample id %q holds a NUL byte", id)
		}
	}
	return nil
}

// WriteIDs writes ids one per line: the sidecar of an NPY matrix.
func WriteIDs(w io.Writer, ids []string) error {
	if err := CheckIDs(ids); err != nil {
		return err
	}
	var b strings.Builder
	for _, id := range ids {
		b.WriteString(id)
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Writer writes the rows of a matrix in order, a stripe at a time. It is
// not safe for concurrent use.
type Writer struct {
	w       io.Writer
	f       Format
	ids     []string
	n       int // columns
	next    int // next row
	end     int // one past the last row to write
	workers int
	maxText int64    // Options.MaxBytes
	bufs    [][]byte // per-row text buffers (TSV)
	bin     []byte   // encoded values (NPY, part)
	err     error
}

// NewWriter starts a matrix of the len(ids) samples in format f (TSV or
// NPY) on w: it writes the header (TSV: the line of ids; NPY: the .npy
// header). The caller then gives every row, in order, to WriteRows and
// calls Close. It returns an error for ids that CheckIDs refuses or for a
// failed write.
func NewWriter(w io.Writer, f Format, ids []string, opts *Options) (*Writer, error) {
	if f != TSV && f != NPY {
		return nil, fmt.Errorf("distmat: unknown format %v", f)
	}
	if err := CheckIDs(ids); err != nil {
		return nil, err
	}
	mw := newWriter(w, f, ids, 0, len(ids), opts)
	var head []byte
	if f == TSV {
		for _, id := range ids {
			head = append(head, '\t')
			head = append(head, id...)
		}
		head = append(head, '\n')
	} else {
		head = npyHeader(len(ids))
	}
	if _, err := w.Write(head); err != nil {
		return nil, err
	}
	return mw, nil
}

func newWriter(w io.Writer, f Format, ids []string, lo, hi int, opts *Options) *Writer {
	workers, maxText := 0, int64(0)
	if opts != nil {
		workers, maxText = opts.Workers, opts.MaxBytes
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	return &Writer{w: w, f: f, ids: ids, n: len(ids), next: lo, end: hi, workers: workers, maxText: maxText}
}

// npyHeader returns the .npy 1.0 header of an n×n float64 matrix.
func npyHeader(n int) []byte {
	dict := fmt.Sprintf("{'descr': '<f8', 'fortran_order': False, 'shape': (%d, %d), }", n, n)
	total := 10 + len(dict) + 1
	pad := (64 - total%64) % 64
	h := make([]byte, 0, total+pad)
	h = append(h, "\x93NUMPY\x01\x00"...)
	h = binary.LittleEndian.AppendUint16(h, uint16(len(dict)+pad+1))
	h = append(h, dict...)
	for range pad {
		h = append(h, ' ')
	}
	return append(h, '\n')
}

// textGroup bounds the bytes of TSV text formatted before it is written.
const textGroup = 16 << 20

// WriteRows writes the next len(rows)/N rows of the matrix, row-major. A
// value that is NaN or infinite is an error naming its pair of samples,
// and nothing of rows is written. It panics unless len(rows) is a multiple of N and the rows fit in the
// matrix (or, for a partial file, in its stripe).
func (w *Writer) WriteRows(rows []float64) error {
	if w.err != nil {
		return w.err
	}
	if w.n == 0 {
		if len(rows) != 0 {
			panic("distmat: rows for a matrix without samples")
		}
		return nil
	}
	if len(rows)%w.n != 0 || w.next+len(rows)/w.n > w.end {
		panic("distmat: WriteRows with a wrong number of values")
	}
	k := len(rows) / w.n
	if err := w.checkFinite(rows); err != nil {
		w.err = err
		return err
	}
	if w.f != TSV {
		const chunk = 1 << 16 // values per write
		for lo := 0; lo < len(rows); lo += chunk {
			hi := min(lo+chunk, len(rows))
			b := w.bin[:0]
			for _, v := range rows[lo:hi] {
				b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
			}
			w.bin = b
			if _, err := w.w.Write(b); err != nil {
				w.err = err
				return err
			}
		}
		w.next += k
		return nil
	}
	group := max(1, min(k, textGroup/(24*w.n+32)))
	group = max(group, min(k, w.workers))
	if len(w.bufs) < group {
		w.bufs = append(w.bufs, make([][]byte, group-len(w.bufs))...)
	}
	for g := 0; g < k; g += group {
		m := min(group, k-g)
		parallel.For(m, w.workers, 1, func(lo, hi int) {
			for r := lo; r < hi; r++ {
				i := w.next + g + r
				if w.bufs[r] == nil {
					w.bufs[r] = make([]byte, 0, 19*w.n+64) // a line of distances in [1e-4, 1)
				}
				w.bufs[r] = appendRow(w.bufs[r][:0], w.ids[i], rows[(g+r)*w.n:(g+r+1)*w.n])
			}
		})
		for r := range m {
			if _, err := w.w.Write(w.bufs[r]); err != nil {
				w.err = err
				return err
			}
		}
	}
	w.next += k
	return nil
}

// checkFinite returns an error naming the first pair of samples of rows
// (the next rows to write) whose distance is NaN or infinite.
func (w *Writer) checkFinite(rows []float64) error {
	for i, v := range rows {
		if v-v != 0 { // NaN or ±Inf
			r, c := w.next+i/w.n, i%w.n
			return fmt.Errorf("distmat: the distance between samples %q and %q is %v, not a finite number", w.ids[r], w.ids[c], v)
		}
	}
	return nil
}

// appendRow appends one TSV line: the id, then each value after a tab.
func appendRow(b []byte, id string, row []float64) []byte {
	b = append(b, id...)
	for _, v := range row {
		b = append(b, '\t')
		b = AppendG16(b, v)
	}
	return append(b, '\n')
}

// AppendG16 appends x as C's printf("%.16g") writes it: 16 significant
// digits, correctly rounded, without trailing zeros; 0 (either sign) is
// "0".
//
// Integers below 10^15 in magnitude (such as the distance 1 between
// samples that share no branch) are written as integers. Values in
// [1e-4, 1), the normalized distances, take an exact integer path: x = M·2^E times 10^(15+k) is a 128-bit product whose rounding to
// an integer (half to even, as glibc's printf rounds the exact binary
// value) gives the 16 digits. Other values go to strconv, which rounds
// correctly too.
func AppendG16(b []byte, x float64) []byte {
	switch x {
	case 0:
		return append(b, '0')
	case 1: // samples that share no branch
		return append(b, '1')
	}
	if !(x >= 1e-4 && x < 1) {
		if x == math.Trunc(x) && math.Abs(x) < 1e15 {
			// An integer of at most 15 digits is written in full.
			return strconv.AppendInt(b, int64(x), 10)
		}
		return strconv.AppendFloat(b, x, 'g', 16, 64)
	}
	u := math.Float64bits(x)
	mant := u&(1<<52-1) | 1<<52 // x ≥ 1e-4 is normal
	shift := uint(1075 - int(u>>52&0x7ff))
	k := 1 // x in [10^-k, 10^(1-k)): 16 digits are x·10^(15+k)
	for x < negPow10[k] {
		k++
	}
	var m uint64
	for {
		hi, lo := bits.Mul64(mant, pow10[15+k])
		// P = hi·2⁶⁴ + lo; m = ⌊P / 2^shift⌋, shift in [53, 67].
		var rem, half uint64
		if shift >= 64 {
			s := shift - 64
			m = hi >> s
			rh := hi & (1<<s - 1)
			// remainder = rh·2⁶⁴ + lo, half = 2^(shift−1)
			if s == 0 {
				// lo against 2⁶³, halved: the order holds, and the sign
				// below stays in reach.
				rem, half = lo>>1|lo&1, 1<<62
			} else {
				h := uint64(1) << (s - 1) // half's high part
				switch {
				case rh > h || rh == h && lo > 0:
					rem, half = 2, 1
				case rh == h:
					rem, half = 1, 1
				default:
					rem, half = 0, 1
				}
			}
		} else {
			m = hi<<(64-shift) | lo>>shift
			rem, half = lo&(1<<shift-1), 1<<(shift-1)
		}
		switch {
		case m < 1e15 && k < 4:
			k++
			continue
		case m >= 1e16:
			k--
			continue
		}
		// Up when rem > half, or rem = half and m is odd: when
		// rem + (m&1) > half, the sign of half − rem − (m&1) (rem and
		// half are below 2⁶³), without a branch.
		m += (half - rem - m&1) >> 63
		break
	}
	if m == 1e16 { // rounded up to the next power of ten
		m, k = 1e15, k-1
		if k == 0 {
			return append(b, '1')
		}
	}
	// "0.", k−1 zeros and the 16 digits of m, each half of eight written
	// as one word; then the trailing zeros are dropped.
	n := len(b)
	if cap(b)-n < 24 {
		b = slices.Grow(b, 24)
	}
	d := b[n : n+24]
	hi, lo := digits8(uint32(m/1e8)), digits8(uint32(m%1e8))
	tz := bits.LeadingZeros64(lo) / 8 // the last digit is the highest byte
	if lo == 0 {
		tz = 8 + bits.LeadingZeros64(hi)/8 // hi ≠ 0: m ≥ 10^15
	}
	const zeros = 0x3030303030303030 // "00000000"
	binary.LittleEndian.PutUint64(d, zeros&^0xff00|'.'<<8)
	p := 1 + k
	binary.LittleEndian.PutUint64(d[p:], hi+zeros)
	binary.LittleEndian.PutUint64(d[p+8:], lo+zeros)
	return b[:n+p+16-tz]
}

// digits8 returns the eight decimal digits of v < 10^8, most significant
// first from the lowest byte, each as its value 0–9 (not yet ASCII). The
// digits are found in parallel lanes of one word: v splits into two
// halves of four digits in 32-bit lanes, each into two of two digits in
// 16-bit lanes, each into two digits in bytes. A lane's quotient by 100 is
// ⌊x·10486/2^20⌋ (exact for x < 10^4) and by 10 ⌊x·103/2^10⌋ (exact for
// x < 100); the masks drop what the shift brings down from the lane above.
func digits8(v uint32) uint64 {
	x := uint64(v/10000) | uint64(v%10000)<<32
	q := x * 10486 >> 20 & (0x7f<<32 | 0x7f)
	x = q | (x-100*q)<<16
	q = x * 103 >> 10 & 0x000f000f000f000f
	return q | (x-10*q)<<8
}

// pow10[k] is 10^k; negPow10[k] the float64 nearest 10^-k.
var (
	pow10 = func() (p [20]uint64) {
		p[0] = 1
		for k := 1; k < 20; k++ {
			p[k] = p[k-1] * 10
		}
		return
	}()
	negPow10 = [...]float64{1, 1e-1, 1e-2, 1e-3, 1e-4}
)

// Rows returns the number of rows written so far (for a partial file,
// counted from row 0 of the matrix).
func (w *Writer) Rows() int { return w.next }

// Close checks that every row was written; it does not close the
// underlying writer.
func (w *Writer) Close() error {
	if w.err != nil {
		return w.err
	}
	if w.next != w.end {
		return fmt.Errorf("distmat: %d of %d rows written", w.next, w.end)
	}
	return nil
}

// RowBytes is the memory a row of an n-column matrix takes while it is
// computed and written: 8 bytes a value and up to 24 for its TSV text.
func RowBytes(n int) int64 { return int64(n) * (8 + 24) }

// maxStripe bounds the values of a stripe, in bytes.
const maxStripe = 64 << 20

// StripeRows returns how many rows of an n-column matrix to compute and
// write at once, for a stripe of rows rows in all (a shard, or the whole
// matrix), when fixed bytes are taken already and at most limit may be
// used: a multiple of align, as many as fit (RowBytes each) but at most
// 64 MiB of values, and at most rows. It returns 0 if not even the least
// stripe (align rows, or rows if fewer) fits, and that least number of
// rows.
func StripeRows(n, rows, align int, fixed, limit int64) (stripe, least int) {
	least = min(align, max(rows, 1))
	per := max(RowBytes(n), 1)
	if fixed+int64(least)*per > limit {
		return 0, least
	}
	fit := min((limit-fixed)/per, maxStripe/max(int64(n)*8, 1))
	s := max(int(fit)/align*align, align)
	return max(1, min(s, rows)), least
}
