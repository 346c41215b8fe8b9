package model

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/twl-ldl/twl/internal/parallel"
	"github.com/twl-ldl/twl/tree"
)

// The model file format: a JSON object, written by Save one field per line
// (and one row of W per line) so that the file reads well and a syntax error
// has a useful line number:
//
//	{
//	  "format": "twl-model",
//	  "version": 2,
//	  "model": "softmax-linear",
//	  "sha256": "…",
//	  "in": 243,
//	  "labels": ["0", "1", "2", "3", "4", "5"],
//	  "tree": {"source": "star:6", "sha256": "…"},
//	  "standardize": {"mean": [...], "scale": [...]},
//	  "loss": "kl",
//	  "train": {"data": "SJAFFE.mat", "rows": 213, ...},
//	  "W": [
//	    [w_00, …, w_0(in−1)],
//	    …
//	  ],
//	  "b": [b_0, …]
//	}
//
// "labels" are the L outputs in the model's order (the label tree's user
// order when it was trained); "W" has L rows of "in" numbers and "b" L
// numbers. "standardize" is null when the features are used as they are;
// otherwise a feature x_k enters the model as (x_k − mean[k]) / scale[k].
// "tree" names the label tree the model was trained on ("chain:N",
// "star:N" or a file name, as given) and the SHA-256 of its canonical edge
// list (tree.Tree.Format), so that a tree given at prediction time can be
// checked. "loss" and "train" record how the model was made; they do not
// affect predictions. Numbers are written in the shortest decimal form that
// reads back to the same float64, so a model survives Save and Load bit for
// bit. A reader rejects unknown fields.
//
// "sha256" is the SHA-256 of what predictions depend on, in a binary form
// that no formatting changes (ParamsSHA256): "in", "labels", "tree",
// "standardize", "W" and "b". Load recomputes it and refuses a file whose
// sum differs, so a damaged file (a flipped bit in a weight or a label
// name) is an error, never a model that predicts something else. Version 2
// added it; a version 1 file, written by earlier twl, has none and is read
// as before, unchecked; Save writes version 2.
const (
	FileFormat  = "twl-model"
	FileVersion = 2
	// SoftmaxLinear is the "model" of a Linear.
	SoftmaxLinear = "softmax-linear"
)

// Sentinel errors wrapped by a *FileError; test for them with errors.Is.
var (
	// ErrNotModel: the input is not JSON, or not a twl model file.
	ErrNotModel = errors.New("not a twl model file")
	// ErrVersion: a model file of a version (or model kind) this twl does
	// not read.
	ErrVersion = errors.New("unsupported model file")
	// ErrInvalid: a model file with missing, malformed or inconsistent
	// fields (wrong lengths, a non-finite number, a bad label name, ...).
	ErrInvalid = errors.New("invalid model file")
)

// FileError describes a model file that cannot be read. It prints as
// "FILE:LINE: what is wrong", or "FILE: what is wrong" when no line applies.
type FileError struct {
	File string
	Line int   // 1-based; 0 when unknown
	Err  error // ErrNotModel, ErrVersion or ErrInvalid
	Msg  string
}

func (e *FileError) Error() string {
	prefix := ""
	switch {
	case e.File != "" && e.Line > 0:
		prefix = fmt.Sprintf("%s:%d: ", e.File, e.Line)
	case e.File != "":
		prefix = e.File + ": "
	}
	return prefix + e.Err.Error() + ": " + e.Msg
}

func (e *FileError) Unwrap() error { return e.Err }

// Standardization maps feature k to (x_k − Mean[k]) / Scale[k].
type Standardization struct {
	Mean  []float64 `json:"mean"`
	Scale []float64 `json:"scale"`
}

// TrainInfo records how a model was trained. It is informational: Load
// checks only that its counts are not negative and its numbers finite.
type TrainInfo struct {
	Data        string   `json:"data"`                     // the training data file
	Rows        int      `json:"rows"`                     // rows trained on
	ValRows     int      `json:"val_rows"`                 // rows held out for validation
	Epochs      int      `json:"epochs"`                   // epochs asked for
	EpochsRun   int      `json:"epochs_run"`               // epochs run (fewer after early stopping)
	BestEpoch   int      `json:"best_epoch"`               // the epoch whose parameters were kept
	Stopped     bool     `json:"stopped_early"`            // early stopping ended training
	Resumed     int      `json:"resumed_from"`             // epoch resumed after, 0 if fresh
	Batch       int      `json:"batch"`                    // mini-batch size
	LR          float64  `json:"lr"`                       // Adam's step size
	WeightDecay float64  `json:"weight_decay"`             // L2 coefficient
	Patience    int      `json:"patience"`                 // early-stopping patience, 0 for none
	Seed        uint64   `json:"seed"`                     // initialization, split and shuffling seed
	TrainLoss   float64  `json:"train_loss"`               // training loss of the last epoch run
	ValLoss     *float64 `json:"val_loss,omitempty"`       // best validation loss, if any
	Seconds     float64  `json:"seconds"`                  // wall-clock training time
	SinkhornReg float64  `json:"sinkhorn_reg,omitempty"`   // kl+sinkhorn: the kernel parameter λ
	Iters       int      `json:"sinkhorn_iters,omitempty"` // kl+sinkhorn: iterations
}

// File is a trained model with what is needed to use it: the model file of
// the command line. Save writes it and Load reads it; see FileFormat for the
// layout.
type File struct {
	Format      string           `json:"format"`  // FileFormat
	Version     int              `json:"version"` // FileVersion
	Model       string           `json:"model"`   // SoftmaxLinear
	SHA256      string           `json:"sha256"`  // ParamsSHA256, hex; "" in version 1
	In          int              `json:"in"`      // the feature dimension d
	Labels      []string         `json:"labels"`  // the L output labels, in order
	Tree        tree.Ref         `json:"tree"`
	Standardize *Standardization `json:"standardize"` // nil: features used as they are
	Loss        string           `json:"loss"`        // the training loss, as loss.Loss.Name
	Train       *TrainInfo       `json:"train"`       // nil when unknown
	W           [][]float64      `json:"W"`           // L rows of In weights
	B           []float64        `json:"b"`           // L biases
}

// NewFile returns a File holding a copy of m's parameters, with the format,
// version and model kind set. It panics if m is nil or len(labels) !=
// m.Out. The caller fills Tree (see tree.RefOf), Loss and the optional
// fields.
func NewFile(m *Linear, labels []string) *File {
	if m == nil {
		panic("model: NewFile with a nil model")
	}
	if len(labels) != m.Out {
		panic("model: NewFile needs one label per output")
	}
	f := &File{
		Format: FileFormat, Version: FileVersion, Model: SoftmaxLinear,
		In: m.In, Labels: append([]string(nil), labels...),
		W: make([][]float64, m.Out), B: append([]float64(nil), m.B()...),
	}
	w := m.W()
	for i := range f.W {
		f.W[i] = append([]float64(nil), w[i*m.In:(i+1)*m.In]...)
	}
	return f
}

// Linear returns a new model holding a copy of the file's parameters. The
// file must be valid (see Validate); otherwise Linear may panic.
func (f *File) Linear() *Linear {
	L := len(f.Labels)
	m := &Linear{In: f.In, Out: L, Params: make([]float64, L*f.In+L)}
	for i, row := range f.W {
		copy(m.Params[i*f.In:(i+1)*f.In], row)
	}
	copy(m.B(), f.B)
	return m
}

// Predict stores in dst (rows×L) the model's distributions for the rows of
// X (rows×In, row-major, raw features): the standardization is applied to a
// copy, X is not changed. It panics if the lengths do not fit. The file must
// be valid.
func (f *File) Predict(dst, X []float64) {
	if len(X)%f.In != 0 || len(dst) != len(X)/f.In*len(f.Labels) {
		panic("model: File.Predict: X is not rows×In or dst not rows×L")
	}
	if s := f.Standardize; s != nil {
		Z := make([]float64, len(X))
		for i, v := range X {
			k := i % f.In
			Z[i] = (v - s.Mean[k]) / s.Scale[k]
		}
		X = Z
	}
	f.Linear().Predict(dst, X)
}

// LabelTree returns a flat tree (a star when there are several labels)
// whose nodes are the file's labels in order: the label names for readers
// and writers of distributions (package labeldist, dataset). The file must
// be valid.
func (f *File) LabelTree() *tree.Tree {
	t, err := flatTree(f.Labels)
	if err != nil {
		panic("model: LabelTree of an invalid file: " + err.Error())
	}
	return t
}

func flatTree(labels []string) (*tree.Tree, error) {
	parent := make([]int, len(labels))
	for i := range parent {
		parent[i] = -1
	}
	return tree.FromParents(parent, nil, labels, nil)
}

// Validate checks that f is a complete, consistent model file of this
// version: the returned *FileError (without File) says what is wrong.
func (f *File) Validate() error {
	bad := func(format string, args ...any) error {
		return &FileError{Err: ErrInvalid, Msg: fmt.Sprintf(format, args...)}
	}
	switch {
	case f.Format != FileFormat:
		return &FileError{Err: ErrNotModel, Msg: fmt.Sprintf("format %q, want %q", f.Format, FileFormat)}
	case f.Version < 1 || f.Version > FileVersion:
		return &FileError{Err: ErrVersion, Msg: fmt.Sprintf("version %d; this twl reads versions 1 to %d", f.Version, FileVersion)}
	case f.Model != SoftmaxLinear:
		return &FileError{Err: ErrVersion, Msg: fmt.Sprintf("model %q; this twl knows %q", f.Model, SoftmaxLinear)}
	case f.In <= 0:
		return bad(`"in" is %d, want a positive feature dimension`, f.In)
	case len(f.Labels) == 0:
		return bad(`"labels" is empty`)
	}
	if _, err := flatTree(f.Labels); err != nil {
		var te *tree.Error
		if errors.As(err, &te) && te.Line > 0 {
			return bad("label %d: %s", te.Line, te.Msg)
		}
		return bad("labels: %v", err)
	}
	if f.Tree.Source == "" {
		return bad(`"tree": "source" is empty`)
	}
	if b, err := hex.DecodeString(f.Tree.SHA256); err != nil || len(b) != 32 || strings.ToLower(f.Tree.SHA256) != f.Tree.SHA256 {
		return bad(`"tree": "sha256" is %q, want 64 lower-case hexadecimal digits`, f.Tree.SHA256)
	}
	if f.Loss == "" {
		return bad(`"loss" is empty`)
	}
	L := len(f.Labels)
	if len(f.W) != L {
		return bad(`"W" has %d rows, want one per label (%d)`, len(f.W), L)
	}
	for i, row := range f.W {
		if len(row) != f.In {
			return bad(`row %d of "W" has %d numbers, want "in" = %d`, i+1, len(row), f.In)
		}
		if k := nonFinite(row); k >= 0 {
			return bad(`row %d of "W": number %d is %v`, i+1, k+1, row[k])
		}
	}
	if len(f.B) != L {
		return bad(`"b" has %d numbers, want one per label (%d)`, len(f.B), L)
	}
	if k := nonFinite(f.B); k >= 0 {
		return bad(`"b": number %d is %v`, k+1, f.B[k])
	}
	if s := f.Standardize; s != nil {
		if len(s.Mean) != f.In || len(s.Scale) != f.In {
			return bad(`"standardize" has %d means and %d scales, want "in" = %d of each`, len(s.Mean), len(s.Scale), f.In)
		}
		if k := nonFinite(s.Mean); k >= 0 {
			return bad(`"standardize": mean %d is %v`, k+1, s.Mean[k])
		}
		for k, v := range s.Scale {
			if !(v > 0) || math.IsInf(v, 1) {
				return bad(`"standardize": scale %d is %v, want a positive finite number`, k+1, v)
			}
		}
	}
	if t := f.Train; t != nil {
		for _, c := range []struct {
			name string
			v    int
		}{{"rows", t.Rows}, {"val_rows", t.ValRows}, {"epochs", t.Epochs}, {"epochs_run", t.EpochsRun},
			{"best_epoch", t.BestEpoch}, {"batch", t.Batch}, {"patience", t.Patience}, {"resumed_from", t.Resumed},
			{"sinkhorn_iters", t.Iters}} {
			if c.v < 0 {
				return bad(`"train": %q is %d, want ≥ 0`, c.name, c.v)
			}
		}
		nums := []float64{t.LR, t.WeightDecay, t.TrainLoss, t.Seconds, t.SinkhornReg}
		if t.ValLoss != nil {
			nums = append(nums, *t.ValLoss)
		}
		if nonFinite(nums) >= 0 {
			return bad(`"train" holds a non-finite number`)
		}
	}
	return nil
}

// nonFinite returns the index of the first NaN or infinite value of x, or −1.
func nonFinite(x []float64) int {
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return i
		}
	}
	return -1
}

// ParamsSHA256 returns the lower-case hex SHA-256 of what f's predictions
// depend on, the file's "sha256": "in", the labels, the tree's source and
// sum, the standardization and the parameters, each number as its 8 bytes
// (little-endian integers and float64 bits), each string and list after
// its length, in the order of the file. The file must be valid.
func (f *File) ParamsSHA256() string {
	h := sha256.New()
	var buf []byte
	num := func(v uint64) { buf = binary.LittleEndian.AppendUint64(buf, v) }
	str := func(s string) { num(uint64(len(s))); buf = append(buf, s...) }
	floats := func(x []float64) {
		num(uint64(len(x)))
		for _, v := range x {
			num(math.Float64bits(v))
		}
	}
	flush := func() { h.Write(buf); buf = buf[:0] }
	str("twl-model-params")
	num(uint64(f.In))
	num(uint64(len(f.Labels)))
	for _, l := range f.Labels {
		str(l)
	}
	str(f.Tree.Source)
	str(f.Tree.SHA256)
	if s := f.Standardize; s != nil {
		num(1)
		floats(s.Mean)
		floats(s.Scale)
	} else {
		num(0)
	}
	flush()
	num(uint64(len(f.W)))
	for _, row := range f.W {
		floats(row)
		flush()
	}
	floats(f.B)
	flush()
	return hex.EncodeToString(h.Sum(nil))
}

// Save writes f to w in the model file format, as version FileVersion with
// its "sha256" computed (f.Version and f.SHA256 are not used, so that a
// model read from a version 1 file is saved with its checksum). It
// validates f first and writes nothing if it is invalid (a *FileError
// without File). Write errors of w are returned as they are; to write a
// file all or nothing, Save to a buffer and write that atomically.
func Save(w io.Writer, f *File) error {
	if err := f.Validate(); err != nil {
		return err
	}
	// The weights take nearly all the room: about 24 bytes a number.
	b := make([]byte, 0, 4096+24*(len(f.B)+len(f.B)*f.In))
	b = append(b, "{\n"...)
	field := func(key string, v any, last bool) {
		b = append(b, "  "...)
		b = append(b, marshal(key)...)
		b = append(b, ": "...)
		b = append(b, marshal(v)...)
		if !last {
			b = append(b, ',')
		}
		b = append(b, '\n')
	}
	field("format", f.Format, false)
	field("version", FileVersion, false)
	field("model", f.Model, false)
	field("sha256", f.ParamsSHA256(), false)
	field("in", f.In, false)
	field("labels", f.Labels, false)
	field("tree", f.Tree, false)
	if f.Standardize == nil {
		field("standardize", nil, false)
	} else {
		b = append(b, "  \"standardize\": {\n    \"mean\": "...)
		b = appendFloats(b, f.Standardize.Mean)
		b = append(b, ",\n    \"scale\": "...)
		b = appendFloats(b, f.Standardize.Scale)
		b = append(b, "\n  },\n"...)
	}
	field("loss", f.Loss, false)
	field("train", f.Train, false)
	b = append(b, "  \"W\": [\n"...)
	// The rows of W are formatted in parts, in parallel, each into a
	// buffer of its own, then joined in order.
	parts := parallel.Parts(len(f.W), 0, saveRows)
	bufs := make([][]byte, parts)
	parallel.ForParts(len(f.W), 0, saveRows, func(p, lo, hi int) {
		var pb []byte
		if p == 0 {
			pb = b
		} else {
			pb = make([]byte, 0, 24*(hi-lo)*(f.In+1))
		}
		for i := lo; i < hi; i++ {
			pb = append(pb, "    "...)
			pb = appendFloats(pb, f.W[i])
			if i < len(f.W)-1 {
				pb = append(pb, ',')
			}
			pb = append(pb, '\n')
		}
		bufs[p] = pb
	})
	if len(f.W) > 0 {
		b = bufs[0]
		for _, pb := range bufs[1:] {
			b = append(b, pb...)
		}
	}
	b = append(b, "  ],\n  \"b\": "...)
	b = appendFloats(b, f.B)
	b = append(b, "\n}\n"...)
	_, err := w.Write(b)
	return err
}

// saveRows is the fewest rows of W that Save formats on a goroutine of its
// own (about 10⁴ numbers of 100 features: half a millisecond).
const saveRows = 96

// marshal encodes v as JSON without HTML escaping. The values of a valid
// File always encode.
func marshal(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic("model: " + err.Error()) // not reached for a validated File
	}
	return bytes.TrimSuffix(b.Bytes(), []byte{'\n'})
}

// appendFloats appends x as encoding/json writes a []float64: null for a
// nil slice, otherwise [a,b,...] with each number as appendFloat writes it.
func appendFloats(b []byte, x []float64) []byte {
	if x == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, v := range x {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendFloat(b, v)
	}
	return append(b, ']')
}

// appendFloat appends the finite v as encoding/json writes a float64: the
// shortest decimal that reads back as v, in the form of ECMAScript's
// Number.prototype.toString, that is, as strconv's 'f' format, or its 'e'
// format for magnitudes below 1e-6 or from 1e21 on, with no leading zero in
// the exponent ("1e-7", not "1e-07").
func appendFloat(b []byte, v float64) []byte {
	format := byte('f')
	if a := math.Abs(v); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, v, format, -1, 64)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// Load reads a model file from r. name names it in error messages. Invalid
// input is a *FileError ("NAME:LINE: ..." for JSON syntax and type errors
// and for a null where a value belongs, "NAME: ..." otherwise) wrapping
// ErrNotModel, ErrVersion or ErrInvalid; read errors of r are returned
// prefixed by name. Every field is strict: a null is an error (ErrInvalid)
// except as the whole value of "standardize" or "train", where it means
// none. Load never panics.
func Load(r io.Reader, name string) (*File, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	fail := func(e *FileError) (*File, error) {
		e.File = name
		return nil, e
	}
	// A UTF-8 byte-order mark, as some editors write, is not JSON: skip it.
	// (Offsets, and so line numbers, are unaffected: it is on line 1.)
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if len(bytes.TrimSpace(data)) == 0 {
		return fail(&FileError{Err: ErrNotModel, Msg: "the file is empty"})
	}
	// First the envelope, for a clear message about files of another kind
	// or version before any detail of their fields.
	var head map[string]json.RawMessage
	if err := json.Unmarshal(data, &head); err != nil {
		return fail(jsonError(data, err, ErrNotModel))
	}
	// encoding/json keeps the last of repeated keys (matched ignoring
	// case) without a word: a file edited by hand could then mean one
	// thing and be read as another.
	if key, prev, off, ok := duplicateKey(data); ok {
		msg := fmt.Sprintf("key %q appears twice in one object", key)
		if key != prev {
			msg = fmt.Sprintf("keys %q and %q in one object (keys are matched ignoring case)", prev, key)
		}
		return fail(&FileError{Line: lineOf(data, off+1), Err: ErrInvalid, Msg: msg})
	}
	var format string
	if raw, ok := head["format"]; !ok || json.Unmarshal(raw, &format) != nil || format != FileFormat {
		msg := fmt.Sprintf(`no "format": %q`, FileFormat)
		if ok {
			msg = fmt.Sprintf(`"format" is %s, want %q`, clip(raw), FileFormat)
		}
		return fail(&FileError{Err: ErrNotModel, Msg: msg})
	}
	var version int
	if raw, ok := head["version"]; !ok || json.Unmarshal(raw, &version) != nil || version < 1 || version > FileVersion {
		msg := `no "version"`
		if ok {
			msg = fmt.Sprintf("version %s; this twl reads versions 1 to %d", clip(raw), FileVersion)
		}
		return fail(&FileError{Err: ErrVersion, Msg: msg})
	}
	keys := []string{"model", "sha256", "in", "labels", "tree", "standardize", "loss", "train", "W", "b"}
	if version == 1 {
		// Version 1 has no checksum; one found there is not of the format.
		if _, ok := head["sha256"]; ok {
			return fail(&FileError{Err: ErrInvalid, Msg: `"sha256" in a version 1 file, which has none`})
		}
		keys = slices.DeleteFunc(keys, func(k string) bool { return k == "sha256" })
	}
	for _, key := range keys {
		if _, ok := head[key]; !ok {
			return fail(&FileError{Err: ErrInvalid, Msg: fmt.Sprintf("no %q", key)})
		}
	}

	// encoding/json reads null into a number, a string or a list as if the
	// field were absent (0, "", nil) without a word: a file damaged or
	// edited by hand would then predict with zeros. Only "standardize" and
	// "train" may be null.
	if where, want, off, ok := strayNull(data); ok {
		return fail(&FileError{Line: lineOf(data, off), Err: ErrInvalid, Msg: fmt.Sprintf("%s is null, want %s", where, want)})
	}

	var f File
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return fail(jsonError(data, err, ErrInvalid))
	}
	if err := f.Validate(); err != nil {
		var fe *FileError
		if errors.As(err, &fe) {
			return fail(fe)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if version >= 2 && f.SHA256 != f.ParamsSHA256() {
		return fail(&FileError{Err: ErrInvalid, Msg: `the checksum "sha256" does not match the parameters (a damaged file)`})
	}
	return &f, nil
}

// duplicateKey reports the first key of valid JSON data that repeats an
// earlier key of the same object, ignoring case as encoding/json does when
// it fills a struct: the key, the earlier one and the key's byte offset.
func duplicateKey(data []byte) (key, prev string, off int64, ok bool) {
	type frame struct {
		obj     bool
		wantKey bool
		keys    []string
	}
	var stack []frame
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '{':
			stack = append(stack, frame{obj: true, wantKey: true})
		case '[':
			stack = append(stack, frame{})
		case '}', ']':
			stack = stack[:len(stack)-1]
		case ',':
			if top := &stack[len(stack)-1]; top.obj {
				top.wantKey = true
			}
		case '"':
			j := i + 1
			escaped := false
			for ; data[j] != '"'; j++ {
				if data[j] == '\\' {
					escaped = true
					j++
				}
			}
			if top := &stack[len(stack)-1]; top.obj && top.wantKey {
				k := string(data[i+1 : j])
				if escaped {
					_ = json.Unmarshal(data[i:j+1], &k) // valid: data parsed before
				}
				for _, p := range top.keys {
					if strings.EqualFold(p, k) {
						return k, p, int64(i), true
					}
				}
				top.keys = append(top.keys, k)
				top.wantKey = false
			}
			i = j
		}
	}
	return "", "", 0, false
}

// wantAt says what the format puts at each key, for the message about a
// null (lists say what their elements are).
var wantAt = map[string]string{
	"format": "a string", "model": "a string", "labels": "a string", "tree": "an object",
	"source": "a string", "sha256": "a string", "loss": "a string", "data": "a string",
	"stopped_early": "true or false", "version": "a number", "in": "a number", "W": "a number", "b": "a number",
	"mean": "a number", "scale": "a number", "rows": "a number", "val_rows": "a number",
	"epochs": "a number", "epochs_run": "a number", "best_epoch": "a number",
	"resumed_from": "a number", "batch": "a number", "lr": "a number",
	"weight_decay": "a number", "patience": "a number", "seed": "a number",
	"train_loss": "a number", "val_loss": "a number", "seconds": "a number",
	"sinkhorn_reg": "a number", "sinkhorn_iters": "a number",
}

// strayNull reports the first null of valid JSON data other than the value
// of the top-level keys "standardize" and "train": where it is (`"W", row
// 3, number 2`), what belongs there ("a number", ...) and the byte offset
// just after it.
func strayNull(data []byte) (where, want string, off int64, ok bool) {
	type frame struct {
		obj     bool
		wantKey bool
		key     string
		index   int // 0-based, in an array
	}
	var stack []frame
	// done records that a value of the innermost container is complete.
	done := func() {
		if len(stack) == 0 {
			return
		}
		if top := &stack[len(stack)-1]; top.obj {
			top.wantKey = true
		} else {
			top.index++
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := dec.Token()
		if err != nil {
			return "", "", 0, false // io.EOF: no stray null (data is valid JSON)
		}
		if d, isDelim := tok.(json.Delim); isDelim && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			done()
			continue
		}
		if len(stack) > 0 {
			if top := &stack[len(stack)-1]; top.obj && top.wantKey {
				top.key, _ = tok.(string)
				top.wantKey = false
				continue
			}
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, frame{obj: true, wantKey: true})
			continue
		case json.Delim('['):
			stack = append(stack, frame{})
			continue
		case nil:
			if len(stack) == 1 && (stack[0].key == "standardize" || stack[0].key == "train") {
				break
			}
			if len(stack) == 0 {
				return "", "", 0, false // the whole file: not a model, reported before
			}
			var parts []string
			for i, fr := range stack {
				switch {
				case fr.obj:
					parts = append(parts, fmt.Sprintf("%q", fr.key))
					want = cmp.Or(wantAt[fr.key], "a value")
				case i+1 < len(stack) && !stack[i+1].obj:
					parts = append(parts, fmt.Sprintf("row %d", fr.index+1))
				case i == 1 && stack[0].key == "W": // a whole row of W
					parts = append(parts, fmt.Sprintf("row %d", fr.index+1))
					want = "a list of numbers"
				case want == "a number":
					parts = append(parts, fmt.Sprintf("number %d", fr.index+1))
				default:
					parts = append(parts, fmt.Sprintf("item %d", fr.index+1))
				}
			}
			return strings.Join(parts, ", "), want, dec.InputOffset(), true
		}
		done()
	}
}

// jsonError turns an error of encoding/json on data into a *FileError with
// the 1-based line of its offset when it has one.
func jsonError(data []byte, err error, kind error) *FileError {
	var (
		se *json.SyntaxError
		te *json.UnmarshalTypeError
	)
	switch {
	case errors.As(err, &se):
		return &FileError{Line: lineOf(data, se.Offset), Err: ErrNotModel, Msg: "JSON syntax error: " + se.Error()}
	case errors.As(err, &te):
		what := "the value"
		if te.Field != "" {
			what = fmt.Sprintf("%q", te.Field)
		}
		if te.Field == "" && kind == ErrNotModel {
			return &FileError{Line: lineOf(data, te.Offset), Err: ErrNotModel, Msg: fmt.Sprintf("found a JSON %s, want an object", te.Value)}
		}
		return &FileError{Line: lineOf(data, te.Offset), Err: ErrInvalid, Msg: fmt.Sprintf("%s: cannot read %s as %s", what, te.Value, te.Type)}
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return &FileError{Line: lineOf(data, int64(len(data))), Err: ErrNotModel, Msg: "unexpected end of the file"}
	}
	return &FileError{Err: kind, Msg: strings.TrimPrefix(err.Error(), "json: ")}
}

// lineOf returns the 1-based line of byte offset off of data: the line of
// the byte before off, where encoding/json stopped.
func lineOf(data []byte, off int64) int {
	off = min(max(off-1, 0), int64(len(data)))
	return 1 + bytes.Count(data[:off], []byte{'\n'})
}

// clip returns raw JSON for a message, shortened to about 40 bytes.
func clip(raw json.RawMessage) string {
	s := []rune(string(raw))
	if len(s) > 40 {
		return string(s[:40]) + "…"
	}
	return string(s)
}
