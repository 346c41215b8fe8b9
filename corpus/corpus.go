package corpus

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/twl-ldl/twl/tree"
)

// Doc is one document: its text and its label set.
type Doc struct {
	Text string
	// Labels are indices into the Labels of the Corpus (the tree's user
	// order when the corpus was read with a tree), sorted ascending and
	// distinct, closed under ancestors unless Options.AsGiven. Nil for a
	// corpus read with Options.Unlabeled.
	Labels []int
	Line   int // 1-based line where the document's record starts
}

// Corpus is a collection of labelled documents read from one file.
type Corpus struct {
	File   string
	Format Format
	Docs   []Doc
	// Labels names the labels Doc.Labels index: the tree's node names in
	// user order (tree.Tree.Names) when the corpus was read with a tree;
	// without one, the label names in the order they first appear.
	Labels []string
	Tree   *tree.Tree // the tree the corpus was read with, or nil

	// DepthConflicts counts the BlurbGenreCollection genres whose level
	// <dN> disagrees with their depth in the tree: the first genre read
	// fixes which depth <d0> is, and every genre <dN> should then be N
	// levels below it. More than none most likely means a tree that is not
	// the data set's hierarchy. FirstDepthConflict describes the first, as
	// "FILE:LINE: …". Both are zero for other formats and without a tree.
	DepthConflicts     int
	FirstDepthConflict string
}

// Len returns the number of documents.
func (c *Corpus) Len() int { return len(c.Docs) }

// At returns "FILE:LINE" of document i, for messages.
func (c *Corpus) At(i int) string { return fmt.Sprintf("%s:%d", c.File, c.Docs[i].Line) }

// Subset returns a corpus of documents idx[0], idx[1], … of c, sharing
// their texts and label slices with c (which are never modified). It panics
// if an index is out of range.
func (c *Corpus) Subset(idx []int) *Corpus {
	s := *c
	s.Docs = make([]Doc, len(idx))
	for k, i := range idx {
		s.Docs[k] = c.Docs[i]
	}
	return &s
}

// Format is a corpus file format.
type Format int

// The formats. Auto, the zero value, detects the format from the content.
const (
	Auto      Format = iota
	Blurb            // BlurbGenreCollection records: <book>…<body>…</body>…<topics><d0>…</d0>…</topics>…</book>
	JSONL            // JSON Lines: {"text"|"token": …, "labels"|"label": […]}
	LabelSets        // JSON Lines of label sets only: ["label", …]; every Doc.Text is empty
	FastText         // fastText's supervised format: __label__A __label__B text… per line
)

func (f Format) String() string {
	switch f {
	case Auto:
		return "auto"
	case Blurb:
		return "blurb"
	case JSONL:
		return "jsonl"
	case LabelSets:
		return "label sets"
	case FastText:
		return "fasttext"
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// Options controls how a corpus is read. The zero value (or a nil *Options)
// gives the defaults.
type Options struct {
	// Format of the input. Default Auto: detected from the first byte that
	// is not white space, '<' for Blurb records, '{' for JSON Lines of
	// documents and '[' for JSON Lines of label sets; FastText for a first
	// line with a word that starts with LabelPrefix, and, with Unlabeled,
	// for any other text (lines of plain text are fastText lines without
	// labels).
	Format Format
	// LabelPrefix marks the labels of FastText lines: a word that starts
	// with it is a label, named by the rest of the word. Default
	// DefaultLabelPrefix, "__label__" (fastText's -label option).
	LabelPrefix string
	// AsGiven keeps label sets as the file gives them. Default: each set is
	// closed under ancestors (every ancestor of a label is added), as
	// BlurbGenreCollection lists them and as the tree-Wasserstein target of
	// the paper assumes. Without a tree, sets are always as given.
	AsGiven bool
	// Title makes the text of a Blurb record its title, a newline and its
	// body. Default: the body alone. JSON Lines ignore it.
	Title bool
	// Unlabeled reads documents without labels: label keys and elements
	// are optional and ignored, and Doc.Labels is nil. For prediction.
	Unlabeled bool
	// AllowEmpty keeps documents whose text is empty (after trimming white
	// space); a model gives them its initial state. Default: an error,
	// since an empty blurb or post is more likely a mistake in the file.
	AllowEmpty bool
}

// DefaultLabelPrefix is fastText's default label prefix.
const DefaultLabelPrefix = "__label__"

func (o *Options) get() Options {
	var g Options
	if o != nil {
		g = *o
	}
	if g.LabelPrefix == "" {
		g.LabelPrefix = DefaultLabelPrefix
	}
	return g
}

// DownloadURL is where the BlurbGenreCollection data set is published; its
// files are not redistributable, so users download them there.
const DownloadURL = "https://www.inf.uni-hamburg.de/en/inst/ab/lt/resources/data/blurb-genre-collection.html"

// ReadFile reads a corpus from the named file; see Read. If the file does
// not exist and its name is one of the BlurbGenreCollection files, the
// error says where to download the data set.
func ReadFile(path string, t *tree.Tree, opts *Options) (*Corpus, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, MissingFile(err, path)
	}
	defer f.Close()
	return Read(f, path, t, opts)
}

// MissingFile returns err, the error of opening the corpus file path, with
// where to download the BlurbGenreCollection data set when the file does
// not exist and is one of its files.
func MissingFile(err error, path string) error {
	if errors.Is(err, fs.ErrNotExist) && strings.HasPrefix(filepath.Base(path), "BlurbGenreCollection") {
		return fmt.Errorf("%w\n  The BlurbGenreCollection data set is not redistributable: download it from\n  %s\n  (BlurbGenreCollection_EN_{train,dev,test}.txt and hierarchy.txt)", err, DownloadURL)
	}
	return err
}

// Read reads a corpus from r; file names the input in error messages. With
// a tree t, every label must name a node of t, Labels is t.Names() and the
// label sets are closed under ancestors unless opts.AsGiven. t may be nil
// to read labels by name only. Read keeps every document in memory; a
// Scanner reads them one at a time.
func Read(r io.Reader, file string, t *tree.Tree, opts *Options) (*Corpus, error) {
	s, err := NewScanner(r, file, t, opts)
	if err != nil {
		return nil, err
	}
	var docs []Doc
	for s.Scan() {
		docs = append(docs, s.Doc())
	}
	if err := s.Err(); err != nil {
		return nil, err
	}
	c := s.meta
	c.Docs = docs
	c.Labels = s.Labels()
	return &c, nil
}

// Scanner reads the documents of a corpus one at a time, in the order of
// the input, as Read reads them: the same formats, options, checks and
// errors, with memory that does not grow with the number of documents
// (JSON Lines and FastText are read line by line; BlurbGenreCollection
// records are read from the whole file, held in memory). Its use is that of
// bufio.Scanner:
//
//	s, err := corpus.NewScanner(r, file, t, opts)
//	if err != nil { … }
//	for s.Scan() {
//		d := s.Doc()
//		…
//	}
//	if err := s.Err(); err != nil { … }
type Scanner struct {
	src  source
	lb   *labeler
	meta Corpus // File, Format, Tree and the depth conflicts
	doc  Doc
	n    int
	err  error
}

// source reads documents one by one.
type source interface {
	// read returns the next document, or io.EOF after the last.
	read() (Doc, error)
}

// NewScanner returns a Scanner of the documents of r, with the arguments of
// Read. It reads the start of r to detect the format (opts.Format Auto), and
// returns an error if the format cannot be told or the input is empty. A
// BlurbGenreCollection file is read whole here.
func NewScanner(r io.Reader, file string, t *tree.Tree, opts *Options) (*Scanner, error) {
	o := opts.get()
	br := bufio.NewReaderSize(r, 64<<10)
	lead, first, err := leading(br, file)
	if err != nil {
		return nil, err
	}
	format := o.Format
	if format == Auto {
		if format, err = detect(br, first, lead, file, o); err != nil {
			return nil, err
		}
	}
	// The readers see the input from its start: the white space leading
	// has been read already, and is given back in front.
	in := io.MultiReader(bytes.NewReader(lead), br)
	s := &Scanner{lb: newLabeler(t, o.AsGiven || t == nil, o.Unlabeled)}
	s.meta = Corpus{File: file, Format: format, Tree: t}
	switch format {
	case Blurb:
		if s.src, err = newBlurb(in, file, s.lb, o, &s.meta); err != nil {
			return nil, err
		}
	case JSONL, LabelSets:
		s.src = newJSONL(in, file, s.lb, o, format == LabelSets)
	case FastText:
		s.src = newFastText(in, file, s.lb, o)
	default:
		panic(fmt.Sprintf("corpus: unknown format %v", format))
	}
	return s, nil
}

// Scan advances to the next document, which Doc returns, and reports
// whether there is one. It returns false at the end of the input or at the
// first error, which Err returns.
func (s *Scanner) Scan() bool {
	if s.src == nil {
		return false
	}
	d, err := s.src.read()
	if err != nil {
		s.src = nil
		if err != io.EOF {
			s.err = err
		} else if s.n == 0 {
			s.err = &Error{File: s.meta.File, Err: ErrEmpty}
		}
		return false
	}
	s.doc = d
	s.n++
	return true
}

// Doc returns the document Scan read last. Its text and label slice are its
// own: they stay valid after the next Scan.
func (s *Scanner) Doc() Doc { return s.doc }

// Err returns the error that stopped Scan, nil at the end of the input: an
// *Error as Read returns (ErrEmpty when the input held no document), or
// the reader's error.
func (s *Scanner) Err() error { return s.err }

// Format returns the format of the input.
func (s *Scanner) Format() Format { return s.meta.Format }

// File returns the name of the input, as NewScanner was given it.
func (s *Scanner) File() string { return s.meta.File }

// Labels returns the names of the labels that Doc.Labels index, as
// Corpus.Labels: the tree's node names, or without a tree the names read so
// far.
func (s *Scanner) Labels() []string { return s.lb.names() }

// DepthConflicts returns Corpus.DepthConflicts and
// Corpus.FirstDepthConflict for the records read so far.
func (s *Scanner) DepthConflicts() (n int, first string) {
	return s.meta.DepthConflicts, s.meta.FirstDepthConflict
}

// leading reads br up to its first byte that is not white space (after a
// byte order mark) and returns what it read, lead, and that byte, first
// (0 at the end of the input), which stays unread.
func leading(br *bufio.Reader, file string) (lead []byte, first byte, err error) {
	for {
		b, err := br.Peek(1)
		if err == io.EOF {
			return lead, 0, nil
		}
		if err != nil {
			return nil, 0, fmt.Errorf("%s: %w", file, err)
		}
		switch c := b[0]; {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			br.Discard(1)
			lead = append(lead, c)
			continue
		case len(lead) == 0 && c == bom[0]:
			if b, _ := br.Peek(len(bom)); string(b) == bom {
				br.Discard(len(bom))
				lead = append(lead, bom...) // given back, for the readers' columns
				continue
			}
		}
		return lead, b[0], nil
	}
}

// detect tells the format from the start of the input: first is its first
// byte that is not white space, which br holds unread, and lead what came
// before it.
func detect(br *bufio.Reader, first byte, lead []byte, file string, o Options) (Format, error) {
	head, _ := br.Peek(12)
	if len(head) == 0 {
		return Auto, &Error{File: file, Err: ErrEmpty}
	}
	switch first {
	case '<':
		return Blurb, nil
	case '{':
		return JSONL, nil
	case '[':
		return LabelSets, nil
	}
	if o.Unlabeled || hasLabel(br, o.LabelPrefix) {
		return FastText, nil
	}
	return Auto, &Error{File: file, Line: 1 + bytes.Count(lead, []byte("\n")), Err: ErrFormat,
		Msg: fmt.Sprintf("starts with %q: want BlurbGenreCollection records (<book …>), JSON Lines of documents ({\"text\": …, \"labels\": […]}) or of label sets ([\"label\", …]), or fastText lines (%sNAME … text)", head, o.LabelPrefix)}
}

// hasLabel reports whether the line that br starts with, as far as br's
// buffer holds it, has a word that starts with prefix (fastText's label
// prefix).
func hasLabel(br *bufio.Reader, prefix string) bool {
	if b, _ := br.Peek(len(prefix)); string(b) == prefix {
		return true // the usual case, which needs no more of the input
	}
	b, _ := br.Peek(br.Size())
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[:i]
	}
	for w := range words(b) {
		if bytes.HasPrefix(b[w[0]:w[1]], []byte(prefix)) {
			return true
		}
	}
	return false
}

const bom = "\xef\xbb\xbf"

// labeler turns label names into indices, checks them against the tree,
// and closes the sets.
type labeler struct {
	t         *tree.Tree
	asGiven   bool
	unlabeled bool
	index     map[string]int // without a tree
	order     []string       // without a tree: names in order of first appearance
	seen      []int          // seen[i] == gen when label i is in the current set
	gen       int
	set       []int
}

func newLabeler(t *tree.Tree, asGiven, unlabeled bool) *labeler {
	lb := &labeler{t: t, asGiven: asGiven, unlabeled: unlabeled}
	if t == nil {
		lb.index = make(map[string]int)
	} else {
		lb.seen = make([]int, t.Len())
	}
	return lb
}

func (lb *labeler) names() []string {
	if lb.t != nil {
		return lb.t.Names()
	}
	return slices.Clone(lb.order)
}

// start begins a new label set.
func (lb *labeler) start() {
	lb.gen++
	lb.set = lb.set[:0]
}

// add adds the label name to the current set; it returns an error message
// for a label not in the tree. A repeated label is added once.
func (lb *labeler) add(name string) (msg string) {
	var i int
	if lb.t == nil {
		j, ok := lb.index[name]
		if !ok {
			j = len(lb.order)
			lb.index[name] = j
			lb.order = append(lb.order, name)
			lb.seen = append(lb.seen, 0)
		}
		i = j
	} else {
		j, ok := lb.t.Index(name)
		if !ok {
			return fmt.Sprintf("%q is not a node of the tree", name)
		}
		i = j
	}
	for !lb.asGiven && i >= 0 && lb.seen[i] != lb.gen {
		lb.seen[i] = lb.gen
		lb.set = append(lb.set, i)
		i = lb.t.Parent(i)
	}
	if lb.asGiven && lb.seen[i] != lb.gen {
		lb.seen[i] = lb.gen
		lb.set = append(lb.set, i)
	}
	return ""
}

// done returns the current set, sorted, in a new slice.
func (lb *labeler) done() []int {
	s := slices.Clone(lb.set)
	slices.Sort(s)
	return s
}
