package textmodel

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"strings"

	"github.com/twl-ldl/twl/internal/atomicfile"
	"github.com/twl-ldl/twl/internal/f32le"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/vocab"
)

// The file format (versions 2 and 3): a first line "twl-text-model"; a
// second line "# " and a summary for people (Model.Summary); a third line
// holding the header, one JSON object (Header) without the vocabulary,
// whose "model" names the kind of network and "config" its sizes; a fourth
// line holding the vocabulary, a JSON array of the words by ID; and then
// the parameters as the network writes them (Network.AppendPayload):
// exactly header.payload_bytes bytes, whose SHA-256 is
// header.payload_sha256. An LSTM's are float32 little-endian, the tensors
// in the order of lstm.TensorNames, each row-major; a bag's are
// bag.Model.AppendPayload's. `head -2 model` shows what a model is,
// `head -3` its settings.
//
// An LSTM model is written as version 2, which every release since
// version 2 reads; a model of another kind as version 3, so that a release
// that knows only the LSTM says it cannot read the file rather than
// stumbling on its sizes. Version 1, which Read still reads, had no
// summary line and the vocabulary in the header.
const (
	Magic   = "twl-text-model"
	Version = 3 // the latest version; LSTM models are written as version 2
)

// Sentinel errors wrapped by *Error.
var (
	ErrNotModel = errors.New("not a twl text model")
	ErrVersion  = errors.New("unsupported text model version")
	ErrInvalid  = errors.New("invalid text model")
)

// Error describes an unreadable model file.
type Error struct {
	File string
	Err  error
	Msg  string
}

func (e *Error) Error() string {
	s := e.Err.Error()
	if e.File != "" {
		s = e.File + ": " + s
	}
	if e.Msg != "" {
		s += ": " + e.Msg
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// EmbeddingRef records where the initial word vectors came from.
type EmbeddingRef struct {
	Source  string `json:"source,omitempty"` // the file, "" for random vectors
	SHA256  string `json:"sha256,omitempty"` // of the file
	InVocab int    `json:"in_vocabulary"`    // vocabulary words found in it
	Subword int    `json:"from_subwords"`    // built from character n-grams (fastText .bin)
	Random  int    `json:"random"`           // drawn at random
	Trained bool   `json:"trained"`          // the vectors were trained with the model
}

// Header is the JSON header of a model file.
type Header struct {
	Format        string          `json:"format"`  // Magic
	Version       int             `json:"version"` // Version
	Model         string          `json:"model"`   // the kind of network: KindLSTM, KindBag or KindBags
	Config        json.RawMessage `json:"config"`  // its sizes (Network.Sizes): an lstm.Config, a bag.Config or a bag.EnsembleConfig
	Tokenizer     vocab.Tokenizer `json:"tokenizer"`
	Vocab         []string        `json:"vocab,omitempty"` // word of each ID, "<unk>" first; version 1 only (version 2: its own line)
	Labels        []string        `json:"labels"`
	Tree          tree.Ref        `json:"tree"`
	Target        string          `json:"target"`   // how label sets became targets: "uniform" or "specific"
	AsGiven       bool            `json:"as_given"` // label sets were not closed under ancestors
	Embeddings    EmbeddingRef    `json:"embeddings"`
	Loss          string          `json:"loss"`
	Train         *TrainInfo      `json:"train,omitempty"`
	PayloadBytes  int64           `json:"payload_bytes"`
	PayloadSHA256 string          `json:"payload_sha256"`
}

// TrainInfo records how a model was trained; informational.
type TrainInfo struct {
	Data      string   `json:"data"`
	Docs      int      `json:"documents"`
	ValDocs   int      `json:"val_documents"`
	Epochs    int      `json:"epochs"`
	EpochsRun int      `json:"epochs_run"`
	BestEpoch int      `json:"best_epoch"`
	Stopped   bool     `json:"stopped_early"`
	Batch     int      `json:"batch"`
	LR        float64  `json:"lr"`
	Schedule  string   `json:"lr_schedule,omitempty"` // "linear": decayed linearly to 0 over the epochs (the bag); "": constant
	Seed      uint64   `json:"seed"`
	TrainLoss float64  `json:"train_loss"` // of the last epoch; of bags averaged (KindBags), the sum of their losses
	ValLoss   *float64 `json:"val_loss,omitempty"`
	Seconds   float64  `json:"seconds"`
}

// Model is a trained text classifier: how text becomes the network's
// inputs (a tokenizer and a vocabulary), the labels, and the network.
type Model struct {
	Header // the header, payload fields excepted, which Write sets
	Vocab  *vocab.Vocab
	Net    Network
}

// Write writes m to w in the file format.
// The parameters are streamed twice, for their checksum and then to w,
// and never held as bytes in memory.
func Write(w io.Writer, m *Model) error {
	cw := &countWriter{w: sha256.New()}
	if err := m.Net.WritePayload(cw); err != nil {
		return err
	}
	sum := cw.w.(hash.Hash).Sum(nil)
	h := m.Header
	h.Format, h.Version, h.Model = Magic, Version, m.Net.Kind()
	if h.Model == KindLSTM {
		h.Version = 2
	}
	sizes, err := json.Marshal(m.Net.Sizes())
	if err != nil {
		return fmt.Errorf("textmodel: %w", err)
	}
	h.Config = sizes
	h.Vocab = nil
	h.PayloadBytes = cw.n
	h.PayloadSHA256 = hex.EncodeToString(sum)
	head, err := json.Marshal(h)
	if err != nil {
		return fmt.Errorf("textmodel: %w", err)
	}
	words, err := json.Marshal(m.Vocab.Words())
	if err != nil {
		return fmt.Errorf("textmodel: %w", err)
	}
	bw := bufio.NewWriter(w)
	bw.WriteString(Magic + "\n# " + strings.ReplaceAll(m.Summary(), "\n", " ") + "\n")
	bw.Write(head)
	bw.WriteByte('\n')
	bw.Write(words)
	bw.WriteByte('\n')
	if err := m.Net.WritePayload(bw); err != nil {
		return err
	}
	return bw.Flush()
}

// countWriter counts the bytes written through it.
type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// maxHeader bounds the header line: 256 MiB holds the vocabulary of
// millions of words.
const maxHeader = 256 << 20

// readLine reads br up to and without its next '\n', refusing a line longer
// than limit bytes or cut short by the end of the input.
func readLine(br *bufio.Reader, limit int) ([]byte, error) {
	var line []byte
	for {
		frag, err := br.ReadSlice('\n')
		line = append(line, frag...)
		switch {
		case len(line) > limit:
			return nil, fmt.Errorf("longer than %d bytes", limit)
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF:
			return nil, errors.New("cut short")
		case err != nil:
			return nil, err
		}
		return line[:len(line)-1], nil
	}
}

// Read reads a model written by Write; file names the input in errors. It
// checks everything: the magic line, the version, the header's fields
// (unknown ones are errors), the sizes, the payload's length and checksum,
// and that every parameter is finite.
func Read(r io.Reader, file string) (*Model, error) {
	bad := func(err error, format string, args ...any) error {
		return &Error{File: file, Err: err, Msg: fmt.Sprintf(format, args...)}
	}
	br := bufio.NewReaderSize(r, 1<<16)
	magic := make([]byte, len(Magic)+1)
	if _, err := io.ReadFull(br, magic); err != nil || string(magic) != Magic+"\n" {
		return nil, bad(ErrNotModel, "the first line is not %q", Magic)
	}
	summary := false
	if b, _ := br.Peek(1); len(b) == 1 && b[0] == '#' {
		if _, err := readLine(br, maxHeader); err != nil {
			return nil, bad(ErrInvalid, "the summary line: %v", err)
		}
		summary = true
	}
	line, err := readLine(br, maxHeader)
	if err != nil {
		return nil, bad(ErrInvalid, "the header line: %v", err)
	}
	var h Header
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&h); err != nil {
		return nil, bad(ErrInvalid, "header: %v", err)
	}
	switch {
	case h.Format != Magic:
		return nil, bad(ErrNotModel, "header format %q", h.Format)
	case h.Version < 1 || h.Version > Version:
		return nil, bad(ErrVersion, "version %d; this twl reads versions 1 to %d", h.Version, Version)
	case h.Model != KindLSTM && h.Model != KindBag && h.Model != KindBags:
		return nil, bad(ErrVersion, "model %q; this twl knows %q, %q and %q", h.Model, KindLSTM, KindBag, KindBags)
	case h.Model != KindLSTM && h.Version < 3:
		return nil, bad(ErrInvalid, "a version %d header for a %q model (version 3 or later)", h.Version, h.Model)
	case summary != (h.Version >= 2):
		return nil, bad(ErrInvalid, "a version %d header %s a summary line", h.Version, map[bool]string{true: "after", false: "without"}[summary])
	}
	if h.Version >= 2 {
		if h.Vocab != nil {
			return nil, bad(ErrInvalid, "a version %d header with the vocabulary in it", h.Version)
		}
		line, err := readLine(br, maxHeader)
		if err != nil {
			return nil, bad(ErrInvalid, "the vocabulary line: %v", err)
		}
		if err := json.Unmarshal(line, &h.Vocab); err != nil {
			return nil, bad(ErrInvalid, "the vocabulary line: %v", err)
		}
	}
	want, err := payloadSize(h.Model, h.Config)
	if err != nil {
		return nil, bad(ErrInvalid, "%v", err)
	}
	if n := vocabOf(h.Model, h.Config); len(h.Vocab) != n {
		return nil, bad(ErrInvalid, "%d vocabulary words for a vocabulary of %d", len(h.Vocab), n)
	}
	if n := labelsOf(h.Model, h.Config); len(h.Labels) != n {
		return nil, bad(ErrInvalid, "%d labels for %d outputs", len(h.Labels), n)
	}
	if h.Tokenizer.MaxLen < 0 || (h.Tokenizer.Keep != vocab.First && h.Tokenizer.Keep != vocab.Last) {
		return nil, bad(ErrInvalid, "tokenizer: max_len %d, keep %q", h.Tokenizer.MaxLen, h.Tokenizer.Keep)
	}
	v, err := vocab.New(h.Vocab)
	if err != nil {
		return nil, bad(ErrInvalid, "%v", err)
	}
	if h.PayloadBytes != want {
		return nil, bad(ErrInvalid, "payload of %d bytes; the sizes need %d", h.PayloadBytes, want)
	}
	// The parameters are decoded as they arrive, through the checksum. A
	// header that lies about the sizes must not make Read allocate more
	// than the file holds: a file of known size too small for them is cut
	// short at once; input of unknown size is read first (up to one byte
	// more than the header promises, growing as the bytes arrive).
	var src io.Reader = br
	if size, ok := sizeOf(r); ok {
		if size < want {
			return nil, bad(ErrInvalid, "the parameters are cut short: the file has %d bytes, the parameters alone %d", size, want)
		}
	} else {
		payload, err := io.ReadAll(io.LimitReader(br, want+1))
		if err != nil {
			return nil, bad(ErrInvalid, "reading the parameters: %v", err)
		}
		if int64(len(payload)) < want {
			return nil, bad(ErrInvalid, "the parameters are cut short: %d bytes of %d", len(payload), want)
		}
		src = bytes.NewReader(payload)
	}
	sum := sha256.New()
	cr := &countReader{r: io.TeeReader(io.LimitReader(src, want), sum)}
	net, err := readPayload(h.Model, h.Config, cr)
	if err != nil && !errors.Is(err, f32le.ErrShort) {
		io.Copy(io.Discard, cr) // the rest, for the checksum
	}
	switch {
	case errors.Is(err, f32le.ErrShort) || cr.n < want:
		return nil, bad(ErrInvalid, "the parameters are cut short: %d bytes of %d", cr.n, want)
	case hex.EncodeToString(sum.Sum(nil)) != h.PayloadSHA256:
		return nil, bad(ErrInvalid, "the parameters' checksum does not match (a damaged file)")
	case err != nil:
		return nil, bad(ErrInvalid, "%v", err)
	}
	if n, _ := io.CopyN(io.Discard, src, 1); n > 0 {
		return nil, bad(ErrInvalid, "data after the parameters")
	}
	h.PayloadBytes, h.PayloadSHA256 = 0, ""
	return &Model{Header: h, Vocab: v, Net: net}, nil
}

// sizeOf returns the size of r when r is a file that knows it.
func sizeOf(r io.Reader) (int64, bool) {
	f, ok := r.(interface{ Stat() (os.FileInfo, error) })
	if !ok {
		return 0, false
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return 0, false
	}
	return fi.Size(), true
}

// Summary describes m in one line: the network's sizes, the vocabulary
// and labels, the loss, and how it was trained, if known.
func (m *Model) Summary() string {
	s := m.Shape()
	if t := m.Train; t != nil {
		s += fmt.Sprintf("; trained %s on %s", plural(t.EpochsRun, "epoch"), plural(t.Docs, "document"))
		if t.Data != "" {
			s += " of " + t.Data
		}
	}
	return s
}

// Shape describes the network of m: "LSTM D→H, V words, L labels, loss
// NAME" (Network.Shape, the labels and the loss).
func (m *Model) Shape() string {
	return fmt.Sprintf("%s, %s, loss %s", m.Net.Shape(), plural(m.Net.Outputs(), "label"), m.Loss)
}

// WriteFile writes m to the file at path, all or nothing: to a temporary
// file renamed to path once complete.
func WriteFile(path string, m *Model) error {
	f, err := atomicfile.Create(path, 0o644)
	if err != nil {
		return err
	}
	if err := Write(f, m); err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}

// countReader counts the bytes read through it.
type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// CheckTree returns an error when m was trained on another tree than t
// (by the SHA-256 of its edge list); name names t in the message.
func (m *Model) CheckTree(t *tree.Tree, name string) error {
	if t.Hash() != m.Tree.SHA256 {
		return fmt.Errorf("was trained on another tree than %s (%s); its labels may not mean the same", name, m.Tree.Source)
	}
	return nil
}

// ReadFile reads the model file at path.
func ReadFile(path string) (*Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path)
}

// IsModel reports whether head, the first bytes of a file, is the start of
// a text model file: the magic line.
func IsModel(head []byte) bool {
	return bytes.HasPrefix(head, []byte(Magic+"\n"))
}
