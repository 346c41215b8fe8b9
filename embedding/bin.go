package embedding

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
)

const (
	binMagic   = 793712314 // fastText's FASTTEXT_FILEFORMAT_MAGIC_INT32
	binVersion = 12        // FASTTEXT_VERSION of fastText 0.9.x
	eos        = "</s>"    // fastText's end-of-sentence word, which has no n-grams
)

// Args are the training settings stored in a fastText model, in the order
// of the file (fastText's Args::save), named as fastText's options.
type Args struct {
	Dim          int     // dimension of the vectors
	WS           int     // size of the context window
	Epoch        int     // number of epochs
	MinCount     int     // minimal number of occurrences of a word
	Neg          int     // number of negatives sampled
	WordNgrams   int     // maximal length of word n-grams
	Loss         int     // 1 hierarchical softmax, 2 negative sampling, 3 softmax, 4 one-vs-all
	Model        int     // 1 cbow, 2 skip-gram, 3 supervised
	Bucket       int     // number of n-gram buckets
	Minn, Maxn   int     // lengths of the character n-grams, in characters
	LRUpdateRate int     // rate of updates of the learning rate
	T            float64 // sampling threshold
}

// FastText is a fastText model as read by ReadBin: its dictionary and its
// input matrix, which give the vector of any word, in the vocabulary or not
// (see the package documentation). Its methods may be called concurrently.
type FastText struct {
	args   Args
	words  []string // the nwords words, then the labels
	nwords int
	index  map[string]int32 // words only, not labels
	input  []float32        // rows×dim, row-major
	rows   int
	// pruneSize is the dictionary's pruneidx_size: −1 when the n-gram
	// buckets are used as they are, 0 when every n-gram was pruned away,
	// and otherwise the number of entries of prune, which maps a bucket to
	// its row after the words.
	pruneSize int64
	prune     map[int32]int32
	trailing  int64 // bytes after the output matrix
}

// TrailingBytes returns the number of bytes the input held after the
// output matrix, where a fastText model ends. ReadBin does not read them;
// more than none most likely means a file that is not what it seems (two
// files joined, or a format fastText did not write).
func (m *FastText) TrailingBytes() int64 { return m.trailing }

var _ Source = (*FastText)(nil)

// Dim returns the dimension of the vectors.
func (m *FastText) Dim() int { return m.args.Dim }

// Len returns the number of words in the vocabulary (labels excluded).
func (m *FastText) Len() int { return m.nwords }

// Words returns the words of the vocabulary, most frequent first, sharing
// m's slice: the caller must not change it.
func (m *FastText) Words() []string { return m.words[:m.nwords:m.nwords] }

// Labels returns the labels of a supervised model (none for an unsupervised
// one), sharing m's slice: the caller must not change it.
func (m *FastText) Labels() []string { return m.words[m.nwords:len(m.words):len(m.words)] }

// Args returns the training settings stored in the model.
func (m *FastText) Args() Args { return m.args }

// Index returns the row of word in the vocabulary, and whether it is
// there. Labels are not words.
func (m *FastText) Index(word string) (int, bool) {
	i, ok := m.index[word]
	return int(i), ok
}

// Lookup sets dst to the vector of word as fastText's print-word-vectors
// computes it: the mean of the input rows of the word and of its character
// n-grams. It returns InVocab for a word of the vocabulary, Subword for
// another word with at least one n-gram, and Missing, with dst set to
// zero, for another word with no n-gram (the model has none, the word is
// too short for minn, or it is "</s>"). It allocates nothing. It panics if
// len(dst) != m.Dim().
func (m *FastText) Lookup(dst []float32, word string) Found {
	dim := m.args.Dim
	if len(dst) != dim {
		panic("embedding: Lookup: len(dst) != Dim()")
	}
	clear(dst)
	n := 0
	add := func(row int) {
		r := m.input[row*dim : (row+1)*dim]
		for j := range dst {
			dst[j] += r[j]
		}
		n++
	}
	id, inVocab := m.index[word]
	if inVocab {
		add(int(id))
	}
	m.subwords(word, add)
	if n == 0 {
		return Missing
	}
	// fastText's Vector::mul(1.0 / n): the factor is rounded to a float
	// first, then each component is multiplied by it.
	s := float32(1 / float64(n))
	for j := range dst {
		dst[j] *= s
	}
	if inVocab {
		return InVocab
	}
	return Subword
}

// subwords calls add with the input row of each n-gram of word, in
// fastText's order (Dictionary::computeSubwords).
func (m *FastText) subwords(word string, add func(row int)) {
	if word == eos || m.args.Bucket <= 0 || m.pruneSize == 0 {
		return
	}
	bucket := uint32(m.args.Bucket)
	ngrams(word, m.args.Minn, m.args.Maxn, func(h uint32, _, _ int) {
		id := int32(h % bucket)
		if m.pruneSize > 0 {
			var ok bool
			if id, ok = m.prune[id]; !ok {
				return
			}
		}
		add(m.nwords + int(id))
	})
}

// ReadBin reads a fastText model (.bin, fastText 0.9.x, version 12) from r
// (see the package documentation for the layout and what is checked). It
// reads the input matrix and checks that the output matrix is complete, but
// does not keep it. file names the input in error messages. Invalid input
// is an *Error wrapping one of the sentinel errors, with Line 0 and the
// byte offset or dictionary entry in the message; an I/O error is returned
// wrapped with the "FILE: " prefix.
func ReadBin(r io.Reader, file string) (*FastText, error) {
	return readBin(bufio.NewReaderSize(r, bufSize), file, remaining(r))
}

// binReader reads the little-endian fields of a .bin model and keeps the
// offset for messages.
type binReader struct {
	r    *bufio.Reader
	file string
	off  int64 // bytes read so far
	size int64 // the size of the input, or -1 if not known
	buf  [8]byte
}

func (b *binReader) fail(err error, format string, args ...any) *Error {
	return &Error{File: b.file, Err: err, Msg: fmt.Sprintf(format, args...)}
}

// left returns the number of bytes left in the input, or MaxInt64 if its
// size is not known.
func (b *binReader) left() int64 {
	if b.size < 0 {
		return math.MaxInt64
	}
	return b.size - b.off
}

// full reads len(p) bytes, the field what.
func (b *binReader) full(p []byte, what string) error {
	n, err := io.ReadFull(b.r, p)
	b.off += int64(n)
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return b.fail(ErrTruncated, "the file ends at byte %d, in %s", b.off, what)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", b.file, err)
	}
	return nil
}

func (b *binReader) int32(what string) (int32, error) {
	err := b.full(b.buf[:4], what)
	return int32(binary.LittleEndian.Uint32(b.buf[:4])), err
}

func (b *binReader) int64(what string) (int64, error) {
	err := b.full(b.buf[:8], what)
	return int64(binary.LittleEndian.Uint64(b.buf[:8])), err
}

func (b *binReader) byte(what string) (byte, error) {
	err := b.full(b.buf[:1], what)
	return b.buf[0], err
}

// cstring reads a NUL-terminated string.
func (b *binReader) cstring(what string) (string, error) {
	s, err := b.r.ReadSlice(0)
	if err == nil {
		b.off += int64(len(s))
		return string(s[:len(s)-1]), nil
	}
	long := append([]byte(nil), s...)
	for err == bufio.ErrBufferFull {
		s, err = b.r.ReadSlice(0)
		long = append(long, s...)
	}
	b.off += int64(len(long))
	if err == io.EOF {
		return "", b.fail(ErrTruncated, "the file ends at byte %d, in %s", b.off, what)
	}
	if err != nil {
		return "", fmt.Errorf("%s: %w", b.file, err)
	}
	return string(long[:len(long)-1]), nil
}

// readBin reads a .bin model from br; size is the number of bytes left in
// the input, or -1 if not known.
func readBin(br *bufio.Reader, file string, size int64) (*FastText, error) {
	b := &binReader{r: br, file: file, size: size}
	var head [4]byte
	n, err := io.ReadFull(br, head[:])
	b.off += int64(n)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if n < 4 {
		return nil, b.fail(ErrNotFastText, "the file has %d bytes, too short for a fastText model", n)
	}
	if magic := binary.LittleEndian.Uint32(head[:]); magic != binMagic {
		msg := fmt.Sprintf("the file starts with %#08x, not fastText's magic number %#08x", magic, uint32(binMagic))
		if isText(head[:]) {
			msg += " (a text file of word vectors, .vec?)"
		}
		return nil, b.fail(ErrNotFastText, "%s", msg)
	}
	version, err := b.int32("the version")
	if err != nil {
		return nil, err
	}
	if version != binVersion {
		return nil, b.fail(ErrVersion, "version %d; fastText 0.9.x models are version %d", version, binVersion)
	}

	m := &FastText{}
	a := &m.args
	for _, f := range []struct {
		p    *int
		name string
	}{
		{&a.Dim, "dim"}, {&a.WS, "ws"}, {&a.Epoch, "epoch"}, {&a.MinCount, "minCount"},
		{&a.Neg, "neg"}, {&a.WordNgrams, "wordNgrams"}, {&a.Loss, "loss"}, {&a.Model, "model"},
		{&a.Bucket, "bucket"}, {&a.Minn, "minn"}, {&a.Maxn, "maxn"}, {&a.LRUpdateRate, "lrUpdateRate"},
	} {
		v, err := b.int32("the argument " + f.name)
		if err != nil {
			return nil, err
		}
		*f.p = int(v)
	}
	t, err := b.int64("the argument t")
	if err != nil {
		return nil, err
	}
	a.T = math.Float64frombits(uint64(t))
	if a.Dim < 1 {
		return nil, b.fail(ErrDimension, "dim is %d", a.Dim)
	}
	if a.Bucket < 0 {
		return nil, b.fail(ErrCorrupt, "bucket is %d", a.Bucket)
	}

	if err := m.readDict(b); err != nil {
		return nil, err
	}

	quant, err := b.byte("the quant_input flag")
	if err != nil {
		return nil, err
	}
	switch quant {
	case 0:
	case 1:
		return nil, b.fail(ErrQuantized, "the input matrix is quantized (byte %d)", b.off-1)
	default:
		return nil, b.fail(ErrCorrupt, "byte %d: quant_input is %d, want 0 or 1", b.off-1, quant)
	}

	rows := int64(m.nwords) + int64(a.Bucket)
	if m.pruneSize >= 0 {
		rows = int64(m.nwords) + m.pruneSize
	}
	if rows == 0 {
		return nil, b.fail(ErrEmpty, "the model has no words and no n-gram buckets")
	}
	m.input, err = b.matrix("the input matrix", rows, a.Dim, true)
	if err != nil {
		return nil, err
	}
	m.rows = int(rows)

	qout, err := b.byte("the qout flag")
	if err != nil {
		return nil, err
	}
	if qout != 0 {
		return m, nil // a quantized output matrix, not checked
	}
	if _, err := b.matrix("the output matrix", -1, a.Dim, false); err != nil {
		return nil, err
	}
	if b.size >= 0 {
		m.trailing = b.left()
	} else if m.trailing, err = io.Copy(io.Discard, b.r); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return m, nil
}

// readDict reads the dictionary and the pruning table.
func (m *FastText) readDict(b *binReader) error {
	size, err := b.int32("the dictionary size")
	if err != nil {
		return err
	}
	nwords, err := b.int32("the dictionary's nwords")
	if err != nil {
		return err
	}
	nlabels, err := b.int32("the dictionary's nlabels")
	if err != nil {
		return err
	}
	if _, err := b.int64("the dictionary's ntokens"); err != nil {
		return err
	}
	pruneSize, err := b.int64("the dictionary's pruneidx_size")
	if err != nil {
		return err
	}
	if size < 0 || nwords < 0 || nlabels < 0 || int64(nwords)+int64(nlabels) != int64(size) {
		return b.fail(ErrCorrupt, "the dictionary has size %d, nwords %d, nlabels %d", size, nwords, nlabels)
	}
	// An entry takes at least 10 bytes: a NUL, a count and a type.
	if int64(size) > b.left()/10 {
		return b.fail(ErrTruncated, "the dictionary has %d entries, more than the %d bytes left can hold", size, b.left())
	}
	if pruneSize < -1 {
		return b.fail(ErrCorrupt, "pruneidx_size is %d", pruneSize)
	}
	m.nwords = int(nwords)
	// Without the size of the input, size is not to be trusted for more
	// than a start.
	m.words = make([]string, 0, min(size, 1<<16))
	m.index = make(map[string]int32, min(nwords, 1<<16))
	seen := make(map[string]int32, min(nlabels, 1<<16))
	for i := range size {
		what := fmt.Sprintf("dictionary entry %d", i)
		w, err := b.cstring(what)
		if err != nil {
			return err
		}
		if _, err := b.int64(what); err != nil { // the count
			return err
		}
		typ, err := b.byte(what)
		if err != nil {
			return err
		}
		if typ > 1 {
			return b.fail(ErrCorrupt, "dictionary entry %d (%q) has type %d, want 0 (word) or 1 (label)", i, w, typ)
		}
		if label := i >= nwords; label != (typ == 1) {
			return b.fail(ErrCorrupt, "dictionary entry %d (%q) has type %d, but the %d words come first, then the %d labels", i, w, typ, nwords, nlabels)
		}
		in := m.index
		if typ == 1 {
			in = seen
		}
		if j, dup := in[w]; dup {
			return b.fail(ErrDuplicate, "dictionary entry %d (%q) is the same as entry %d", i, w, j)
		}
		in[w] = i
		m.words = append(m.words, w)
	}

	m.pruneSize = pruneSize
	if pruneSize <= 0 {
		return nil
	}
	if pruneSize > b.left()/8 {
		return b.fail(ErrTruncated, "pruneidx_size %d is more than the %d bytes left can hold", pruneSize, b.left())
	}
	m.prune = make(map[int32]int32, min(pruneSize, 1<<16))
	for range pruneSize {
		from, err := b.int32("the pruning table")
		if err != nil {
			return err
		}
		to, err := b.int32("the pruning table")
		if err != nil {
			return err
		}
		if to < 0 || int64(to) >= pruneSize {
			return b.fail(ErrCorrupt, "byte %d: the pruning table maps bucket %d to %d, outside [0, %d)", b.off-4, from, to, pruneSize)
		}
		m.prune[from] = to
	}
	return nil
}

// matrix reads a dense matrix: int64 rows, int64 cols, then rows×cols
// float32s. rows < 0 accepts any number of rows. keep says whether to
// return the values or only to check that they are there.
func (b *binReader) matrix(what string, rows int64, cols int, keep bool) ([]float32, error) {
	m, err := b.int64(what + "'s number of rows")
	if err != nil {
		return nil, err
	}
	n, err := b.int64(what + "'s number of columns")
	if err != nil {
		return nil, err
	}
	if n != int64(cols) {
		return nil, b.fail(ErrDimension, "%s has %d columns, dim is %d", what, n, cols)
	}
	if m < 0 || (rows >= 0 && m != rows) {
		return nil, b.fail(ErrCorrupt, "%s has %d rows, want %d (one per word and n-gram bucket)", what, m, rows)
	}
	if m > b.left()/4/n {
		return nil, b.fail(ErrTruncated, "%s has %d×%d values, more than the %d bytes left can hold", what, m, n, b.left())
	}
	total := m * n
	if total > math.MaxInt/4 {
		return nil, b.fail(ErrCorrupt, "%s has %d×%d values, too many for this platform", what, m, n)
	}
	if !keep {
		if b.size >= 0 {
			b.off += total * 4 // not read: the size check above is enough
			return nil, nil
		}
		k, err := b.r.Discard(int(total * 4))
		b.off += int64(k)
		if err == io.EOF {
			return nil, b.fail(ErrTruncated, "the file ends at byte %d, in %s", b.off, what)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", b.file, err)
		}
		return nil, nil
	}
	// With the size known the values are allocated at once; otherwise
	// they grow as they arrive, so that a corrupt header cannot make us
	// allocate more than about twice what the input holds.
	c := total
	if b.size < 0 {
		c = min(total, 1<<16)
	}
	data := make([]float32, 0, c)
	var chunk [bufSize]byte
	for left := total * 4; left > 0; {
		p := chunk[:min(left, int64(len(chunk)))]
		if err := b.full(p, what); err != nil {
			return nil, err
		}
		for i := 0; i < len(p); i += 4 {
			x := math.Float32frombits(binary.LittleEndian.Uint32(p[i:]))
			if x-x != 0 { // NaN or ±Inf
				k := int64(len(data))
				return nil, b.fail(ErrNonFinite, "%s: row %d, column %d is %v (byte %d)", what, k/n, k%n, x, b.off-int64(len(p)-i))
			}
			data = append(data, x)
		}
		left -= int64(len(p))
	}
	return data, nil
}

// isText reports whether b looks like the start of a text file.
func isText(b []byte) bool {
	for _, c := range b {
		if c < ' ' && c != '\n' && c != '\r' && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}
