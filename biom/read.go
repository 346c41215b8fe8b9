package biom

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/twl-ldl/twl/internal/hdf5"
	"github.com/twl-ldl/twl/internal/human"
	"github.com/twl-ldl/twl/internal/qza"
	"github.com/twl-ldl/twl/internal/underflow"
)

// Options controls reading. The zero value is ready to use.
type Options struct {
	// Warn, when not nil, receives what is valid but probably not meant,
	// one message "FILE: ..." each: samples without counts.
	Warn func(msg string)
	// MaxBytes, when positive, bounds the memory that reading may take:
	// the file's bytes when it is read whole, what the table of a .qza
	// inflates to, and the values read from a BIOM 2.1 file (8 bytes a
	// count, 16 bytes and its length an id, the raw bytes of a dataset
	// when they are copied). What would pass it is refused, before it is
	// allocated, with an error wrapping ErrTooLarge. Whatever MaxBytes, a
	// .qza's table may inflate to 256 MiB at most, and the values of a
	// BIOM 2.1 file take at most 1100 times its size (deflate's largest
	// ratio is 1032).
	MaxBytes int64
}

// maxBytes returns opts.MaxBytes, or 0 for no limit.
func (opts *Options) maxBytes() int64 {
	if opts == nil || opts.MaxBytes <= 0 {
		return 0
	}
	return opts.MaxBytes
}

// tooLarge is the error of a file of size bytes, read whole, past limit.
func tooLarge(file string, size, limit int64) error {
	return &Error{File: file, Err: ErrTooLarge, Msg: fmt.Sprintf("the file's %s are more than the %s allowed", human.Bytes(float64(size)), human.Bytes(float64(limit)))}
}

// ReadFile reads the table in the named file; see Read.
func ReadFile(path string, opts *Options) (*Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("%s: %w, not a file", path, syscall.EISDIR)
	}
	if !fi.Mode().IsRegular() || fi.Size() > maxInMemory {
		return Read(f, fi.Size(), path, opts)
	}
	if limit := opts.maxBytes(); limit > 0 && fi.Size() > limit {
		return nil, tooLarge(path, fi.Size(), limit)
	}
	// A regular file is read in one piece and parsed from memory, where
	// the HDF5 reader takes its structures and chunks without copies.
	b := make([]byte, fi.Size())
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return Parse(b, path, opts)
}

// maxInMemory is the size up to which ReadFile reads a file whole; a
// larger one is read in pieces, so that its bytes are not all held at
// once while the table is built.
const maxInMemory = 256 << 20

// Read reads a table of the given size from r, recognising its format by
// content: BIOM 2.1 (HDF5), BIOM 1.0 (JSON, sparse or dense), a classic
// tab-separated OTU table, or a QIIME 2 FeatureTable artifact (.qza)
// holding a BIOM 2.1 table. file names the input in errors.
func Read(r io.ReaderAt, size int64, file string, opts *Options) (*Table, error) {
	head := make([]byte, min(size, 8))
	if _, err := r.ReadAt(head, 0); err != nil && err != io.EOF {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if string(head) == hdf5.Magic {
		f, err := hdf5.Open(r, size, file)
		return readHDF5(f, err, file, opts, opts.maxBytes())
	}
	// Any other format is read whole.
	if limit := opts.maxBytes(); limit > 0 && size > limit {
		return nil, tooLarge(file, size, limit)
	}
	b, err := io.ReadAll(io.NewSectionReader(r, 0, size))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return Parse(b, file, opts)
}

// Parse reads a table held in b; see Read. Options.MaxBytes counts b.
func Parse(b []byte, file string, opts *Options) (*Table, error) {
	// What reading may take beside b: 0 for no limit.
	left := opts.maxBytes()
	if left > 0 {
		if left -= int64(len(b)); left <= 0 {
			return nil, tooLarge(file, int64(len(b)), opts.maxBytes())
		}
	}
	switch {
	case bytes.HasPrefix(b, []byte(hdf5.Magic)):
		f, err := hdf5.OpenBytes(b, file)
		return readHDF5(f, err, file, opts, left)
	case qza.IsZip(b):
		data, inner, err := qza.Payload(b, "feature-table.biom", left)
		if errors.Is(err, ErrTooLarge) {
			return nil, &Error{File: file, Err: ErrTooLarge, Msg: err.Error()}
		}
		if err != nil {
			return nil, &Error{File: file, Err: ErrFormat, Msg: "QIIME 2 artifact: " + err.Error()}
		}
		if !bytes.HasPrefix(data, []byte(hdf5.Magic)) {
			return nil, &Error{File: file + ":" + inner, Err: ErrFormat, Msg: "not a BIOM 2.1 (HDF5) table"}
		}
		if left > 0 {
			left = max(left-int64(len(data)), 1)
		}
		f, err := hdf5.OpenBytes(data, file+":"+inner)
		return readHDF5(f, err, file+":"+inner, opts, left)
	}
	trimmed := bytes.TrimLeft(bytes.TrimPrefix(b, []byte("\ufeff")), " \t\r\n")
	if len(trimmed) > 0 && trimmed[0] == '{' {
		return readJSON(b, file, opts)
	}
	return readTSV(b, file, opts)
}

// hdf5Error turns an error of package hdf5 into an *Error.
func hdf5Error(file string, err error) error {
	var he *hdf5.Error
	if errors.As(err, &he) && he.Past() {
		return &cutError{file: file, where: he.Where()}
	}
	if errors.As(err, &he) && errors.Is(he.Err, ErrTooLarge) {
		msg := he.Msg
		if he.Offset >= 0 {
			msg = fmt.Sprintf("byte %d: %s", he.Offset, msg)
		}
		return &Error{File: file, Err: ErrTooLarge, Msg: msg}
	}
	if errors.As(err, &he) {
		msg := he.Err.Error()
		if he.Msg != "" {
			msg += ": " + he.Msg
		}
		if he.Offset >= 0 {
			msg = fmt.Sprintf("byte %d: %s", he.Offset, msg)
		}
		return &Error{File: file, Err: ErrFormat, Msg: msg}
	}
	return err
}

// cutError is an HDF5 table whose structure runs past the end of the
// file: "FILE: the file ends at byte N, inside the HDF5 object header at
// byte M: truncated or damaged BIOM table". It wraps ErrFormat.
type cutError struct{ file, where string }

func (e *cutError) Error() string {
	return e.file + ": " + e.where + ": truncated or damaged BIOM table"
}

func (e *cutError) Unwrap() error { return ErrFormat }

// readHDF5 reads a BIOM 2.1 table: the ids in observation/ids and
// sample/ids, the counts in sample/matrix (compressed sparse columns of
// the observations × samples matrix), or in observation/matrix when
// sample/matrix is absent. f and err are those of hdf5.Open; limit is the
// memory its values may take (0: the file's own bound).
func readHDF5(f *hdf5.File, err error, file string, opts *Options, limit int64) (*Table, error) {
	if err != nil {
		return nil, hdf5Error(file, err)
	}
	f.SetLimit(limit)
	strs := func(path string) ([]string, error) {
		v, err := f.Dataset(path)
		if err != nil {
			return nil, hdf5Error(file, err)
		}
		if !v.IsString() || len(v.Dims()) != 1 {
			return nil, &Error{File: file, Err: ErrFormat, Msg: fmt.Sprintf("%s is not a list of strings", path)}
		}
		s, err := v.Strings()
		return s, hdf5Error(file, err)
	}
	group, transpose := "sample/matrix", false
	if _, err := f.Members(group); err != nil {
		group, transpose = "observation/matrix", true
	}
	if err := checkDims(f, file, group, transpose, limit); err != nil {
		return nil, err
	}
	// The ids and the three arrays of the matrix are read at once; the
	// errors are then reported in the order of a reading one after the
	// other.
	b := &builder{file: file}
	var obsErr, samplesErr error
	var wg sync.WaitGroup
	wg.Go(func() {
		if b.obs, obsErr = strs("observation/ids"); obsErr == nil {
			if b.samples, samplesErr = strs("sample/ids"); samplesErr == nil {
				b.idsErr, b.idsChecked = b.checkIDs(), true
			}
		}
	})
	value := func(name string) (*hdf5.Value, error) {
		v, err := f.DatasetNumbers(group + "/" + name)
		if err != nil {
			return nil, hdf5Error(file, err)
		}
		if v.IsString() || len(v.Dims()) != 1 {
			return nil, &Error{File: file, Err: ErrFormat, Msg: fmt.Sprintf("%s/%s is not a list of numbers", group, name)}
		}
		return v, nil
	}
	num := func(name string) ([]float64, error) {
		v, err := value(name)
		if err != nil {
			return nil, err
		}
		x, err := v.Float64s()
		return x, hdf5Error(file, err)
	}
	var data, indices, indptr []float64
	var indices32 []int32 // the indices when they are int32, as usual
	var dataErr, indicesErr, indptrErr error
	wg.Go(func() { data, dataErr = num("data") })
	var v *hdf5.Value
	if v, indicesErr = value("indices"); indicesErr == nil {
		var ok bool
		if indices32, ok = v.Int32s(); !ok {
			indices, indicesErr = v.Float64s()
			indicesErr = hdf5Error(file, indicesErr)
		}
	}
	if indicesErr == nil {
		indptr, indptrErr = num("indptr")
	}
	wg.Wait()
	if obsErr != nil {
		return nil, obsErr
	}
	if samplesErr != nil {
		return nil, samplesErr
	}
	if v, err := f.Attr("/", "shape"); err == nil && v.IsInt() {
		shape, err := v.Int64s()
		if err == nil && (len(shape) != 2 || shape[0] != int64(len(b.obs)) || shape[1] != int64(len(b.samples))) {
			return nil, &Error{File: file, Err: ErrFormat, Msg: fmt.Sprintf("shape attribute %v, but %d observation ids and %d sample ids", shape, len(b.obs), len(b.samples))}
		}
	}
	major, minor := b.samples, b.obs
	if transpose {
		major, minor = b.obs, b.samples
	}
	for _, err := range []error{dataErr, indicesErr, indptrErr} {
		if err != nil {
			return nil, err
		}
	}
	bad := func(format string, args ...any) error {
		return &Error{File: file, Err: ErrFormat, Msg: group + ": " + fmt.Sprintf(format, args...)}
	}
	if len(indptr) != len(major)+1 {
		return nil, bad("indptr has %d entries for %d ids", len(indptr), len(major))
	}
	nidx := len(indices)
	if indices32 != nil {
		nidx = len(indices32)
	}
	if nidx != len(data) {
		return nil, bad("%d indices for %d values", nidx, len(data))
	}
	if indptr[0] != 0 || indptr[len(major)] != float64(len(data)) {
		return nil, bad("indptr runs from %v to %v, want 0 to %d", indptr[0], indptr[len(major)], len(data))
	}
	if indices32 != nil {
		err = matrix(b, indices32, indptr, data, len(minor), transpose, bad)
	} else {
		err = matrix(b, indices, indptr, data, len(minor), transpose, bad)
	}
	if err != nil {
		return nil, err
	}
	return b.build(opts)
}

// checkDims compares the lengths that the ids and the arrays of the matrix
// in group declare before any is read, so that a length the others belie
// cannot make the reader allocate for it: indptr has one entry more than
// the ids of the major axis (the samples, or with transpose the
// observations), indices as many as data. Datasets that are missing or
// not lists are left to the reading, which reports them. Under a limit
// (positive), what the datasets take at least once read (8 bytes a count
// and an entry of indptr, 4 an index, 16 an id) must fit in it.
func checkDims(f *hdf5.File, file, group string, transpose bool, limit int64) error {
	dims := func(path string) (uint64, bool) {
		d, err := f.Dims(path)
		if err != nil || len(d) != 1 {
			return 0, false
		}
		return d[0], true
	}
	bad := func(format string, args ...any) error {
		return &Error{File: file, Err: ErrFormat, Msg: group + ": " + fmt.Sprintf(format, args...)}
	}
	ids := "sample/ids"
	if transpose {
		ids = "observation/ids"
	}
	major, ok1 := dims(ids)
	indptr, ok2 := dims(group + "/indptr")
	if ok1 && ok2 && indptr != major+1 {
		return bad("indptr has %d entries for %d ids", indptr, major)
	}
	data, ok1 := dims(group + "/data")
	indices, ok2 := dims(group + "/indices")
	if ok1 && ok2 && indices != data {
		return bad("%d indices for %d values", indices, data)
	}
	if limit > 0 {
		obs, _ := dims("observation/ids")
		samples, _ := dims("sample/ids")
		need := 8*float64(data) + 4*float64(indices) + 8*float64(indptr) + 16*(float64(obs)+float64(samples))
		if need > float64(limit) {
			return &Error{File: file, Err: ErrTooLarge, Msg: fmt.Sprintf("%d counts, %d observation ids and %d sample ids take at least %s once read, more than the %s allowed",
				data, obs, samples, human.Bytes(need), human.Bytes(float64(limit)))}
		}
	}
	return nil
}

// matrix checks the compressed sparse rows (or columns, with transpose)
// indptr, indices and data of the observations × samples matrix, of minor
// columns (rows), and hands them to b: as rows of samples, or as entries.
func matrix[J float64 | int32](b *builder, indices []J, indptr, data []float64, minor int, transpose bool, bad func(string, ...any) error) error {
	major := len(indptr) - 1
	if !transpose {
		// The rows are the samples already: check the indices and hand the
		// rows to the builder as they are (int32 indices in place).
		b.rowPtr = make([]int, major+1)
		if idx, ok := any(indices).([]int32); ok {
			b.rowIdx = idx
		} else {
			b.rowIdx = make([]int32, len(data))
		}
		for i := range major {
			lo, hi := indptr[i], indptr[i+1]
			if hi < lo {
				return bad("indptr decreases at entry %d", i+1)
			}
			if hi > float64(len(data)) {
				return bad("indptr runs past the %d values at entry %d", len(data), i+2)
			}
			for k := int(lo); k < int(hi); k++ {
				j := float64(indices[k])
				if j < 0 || j >= float64(minor) || j != float64(int(j)) {
					return bad("index %v at %d is out of range [0, %d)", j, k, minor)
				}
				b.rowIdx[k] = int32(j)
			}
			b.rowPtr[i+1] = int(hi)
		}
		b.rowVal = data
		return nil
	}
	b.entries = make([]entry, 0, len(data))
	for i := range major {
		lo, hi := indptr[i], indptr[i+1]
		if hi < lo {
			return bad("indptr decreases at entry %d", i+1)
		}
		if hi > float64(len(data)) {
			return bad("indptr runs past the %d values at entry %d", len(data), i+2)
		}
		for k := int(lo); k < int(hi); k++ {
			j := float64(indices[k])
			if j < 0 || j >= float64(minor) || j != float64(int(j)) {
				return bad("index %v at %d is out of range [0, %d)", j, k, minor)
			}
			b.entries = append(b.entries, entry{s: int(j), o: i, v: data[k]})
		}
	}
	return nil
}

// jsonTable is the part of a BIOM 1.0 table that is read.
type jsonTable struct {
	Rows       []struct{ ID *string } `json:"rows"`
	Columns    []struct{ ID *string } `json:"columns"`
	MatrixType string                 `json:"matrix_type"`
	Shape      []int                  `json:"shape"`
	Data       [][]jsonNumber         `json:"data"`
}

// jsonNumber is a number of a BIOM 1.0 table's "data": one that is not
// zero but reads as 0 (1e-400) is refused, as a subnormal count is.
type jsonNumber float64

func (n *jsonNumber) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil // as for a float64
	}
	v, err := strconv.ParseFloat(string(b), 64)
	if err != nil || b[0] != '-' && (b[0] < '0' || b[0] > '9') {
		// Not a number (a string, true), or out of range: readJSON
		// decodes again as float64s, for encoding/json's error and its
		// place in the file.
		return errNotFloat
	}
	if v == 0 && underflow.Decimal(string(b), v) {
		return &countError{string(b)}
	}
	*n = jsonNumber(v)
	return nil
}

// jsonData is the "data" of a BIOM 1.0 table as float64s.
type jsonData struct {
	Data [][]float64 `json:"data"`
}

// errNotFloat is jsonNumber's error for a value that is no float64.
var errNotFloat = errors.New("not a float64")

// countError is the error of a number of "data" that reads as 0 but is
// not.
type countError struct{ num string }

func (e *countError) Error() string { return "number " + e.num + " " + belowNormal }

// readJSON reads a BIOM 1.0 table (JSON).
func readJSON(b []byte, file string, opts *Options) (*Table, error) {
	var jt jsonTable
	err := json.Unmarshal(b, &jt)
	if errors.Is(err, errNotFloat) {
		var plain jsonData
		if err = json.Unmarshal(b, &plain); err == nil {
			err = errNotFloat // cannot be: jsonNumber takes what float64 does
		}
	}
	if err != nil {
		line := 0
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		var ce *countError
		switch {
		case errors.As(err, &ce):
			return nil, &Error{File: file, Err: ErrCount, Msg: "BIOM 1.0 JSON: " + ce.Error()}
		case errors.As(err, &se):
			line = lineOf(b, se.Offset)
		case errors.As(err, &te):
			line = lineOf(b, te.Offset)
		}
		return nil, &Error{File: file, Line: line, Err: ErrFormat, Msg: "BIOM 1.0 JSON: " + err.Error()}
	}
	bad := func(format string, args ...any) error {
		return &Error{File: file, Err: ErrFormat, Msg: "BIOM 1.0 JSON: " + fmt.Sprintf(format, args...)}
	}
	if jt.Rows == nil || jt.Columns == nil || jt.Data == nil {
		return nil, bad("rows, columns or data missing")
	}
	bd := &builder{file: file}
	for _, r := range jt.Rows {
		if r.ID == nil {
			return nil, bad("a row has no id")
		}
		bd.obs = append(bd.obs, *r.ID)
	}
	for _, c := range jt.Columns {
		if c.ID == nil {
			return nil, bad("a column has no id")
		}
		bd.samples = append(bd.samples, *c.ID)
	}
	no, ns := len(bd.obs), len(bd.samples)
	if jt.Shape != nil && (len(jt.Shape) != 2 || jt.Shape[0] != no || jt.Shape[1] != ns) {
		return nil, bad("shape %v, but %d rows and %d columns", jt.Shape, no, ns)
	}
	switch jt.MatrixType {
	case "sparse":
		for k, d := range jt.Data {
			if len(d) != 3 {
				return nil, bad("data entry %d has %d values, want [row, column, value]", k+1, len(d))
			}
			r, c := float64(d[0]), float64(d[1])
			if r < 0 || r >= float64(no) || r != float64(int(r)) || c < 0 || c >= float64(ns) || c != float64(int(c)) {
				return nil, bad("data entry %d: [%v, %v] is outside the %d×%d matrix", k+1, r, c, no, ns)
			}
			bd.entries = append(bd.entries, entry{s: int(c), o: int(r), v: float64(d[2])})
		}
	case "dense":
		if len(jt.Data) != no {
			return nil, bad("%d data rows for %d rows", len(jt.Data), no)
		}
		for r, row := range jt.Data {
			if len(row) != ns {
				return nil, bad("data row %d has %d values for %d columns", r+1, len(row), ns)
			}
			for c, v := range row {
				bd.entries = append(bd.entries, entry{s: c, o: r, v: float64(v)})
			}
		}
	default:
		return nil, bad("matrix_type %q, want \"sparse\" or \"dense\"", jt.MatrixType)
	}
	return bd.build(opts)
}

func lineOf(b []byte, off int64) int {
	off = min(max(off, 0), int64(len(b)))
	return 1 + bytes.Count(b[:off], []byte("\n"))
}

// metadataColumns are header names of a last column that holds
// observation metadata, not a sample.
var metadataColumns = map[string]bool{"taxonomy": true, "taxon": true, "consensus lineage": true, "consensuslineage": true}

// readTSV reads a classic OTU table: comment lines starting with '#', the
// last of which, before the first data line, is the header "#OTU ID<TAB>
// sample<TAB>...", then one line per observation: its id and one count per
// sample; a last column named taxonomy (or Taxon, Consensus Lineage) is
// metadata and skipped.
func readTSV(b []byte, file string, opts *Options) (*Table, error) {
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<30)
	bd := &builder{file: file}
	var header []string
	headerLine, line, meta := 0, 0, false
	for sc.Scan() {
		line++
		text := strings.TrimSuffix(sc.Text(), "\r")
		if line == 1 {
			text = strings.TrimPrefix(text, "\ufeff")
		}
		if strings.TrimSpace(text) == "" {
			continue
		}
		if bd.samples == nil && strings.HasPrefix(text, "#") {
			header, headerLine = strings.Split(text, "\t"), line
			continue
		}
		if bd.samples == nil {
			if header == nil {
				return nil, &Error{File: file, Line: line, Err: ErrFormat, Msg: "no header line \"#OTU ID<TAB>sample…\" before the data (not a BIOM table?)"}
			}
			cols := header[1:]
			if n := len(cols); n > 0 && metadataColumns[strings.ToLower(strings.TrimSpace(cols[n-1]))] {
				cols, meta = cols[:n-1], true
			}
			for _, c := range cols {
				bd.samples = append(bd.samples, strings.TrimSpace(c))
			}
			for i, s := range bd.samples {
				if s == "" {
					return nil, &Error{File: file, Line: headerLine, Err: ErrDuplicateID, Msg: fmt.Sprintf("sample column %d has an empty id", i+2)}
				}
			}
		}
		fields := strings.Split(text, "\t")
		want := len(bd.samples) + 1
		if meta && len(fields) == want+1 {
			fields = fields[:want]
		}
		if len(fields) != want {
			return nil, &Error{File: file, Line: line, Err: ErrFormat, Msg: fmt.Sprintf("%d fields, the header (line %d) has %d", len(fields), headerLine, len(header))}
		}
		o := len(bd.obs)
		bd.obs = append(bd.obs, strings.TrimSpace(fields[0]))
		for s, f := range fields[1:] {
			f = strings.TrimSpace(f)
			v, err := strconv.ParseFloat(f, 64)
			if err != nil || strings.ContainsAny(f, "_xXpP") {
				return nil, &Error{File: file, Line: line, Err: ErrCount, Msg: fmt.Sprintf("count %q of sample %q is not a number", f, bd.samples[s])}
			}
			if v == 0 && underflow.Decimal(f, v) {
				return nil, &Error{File: file, Line: line, Err: ErrCount, Msg: fmt.Sprintf("count %s of sample %q %s", f, bd.samples[s], belowNormal)}
			}
			if v != 0 || math.IsNaN(v) {
				bd.entries = append(bd.entries, entry{s: s, o: o, v: v, line: line})
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, &Error{File: file, Line: line + 1, Err: ErrFormat, Msg: err.Error()}
	}
	if bd.samples == nil {
		if header == nil {
			return nil, &Error{File: file, Err: ErrFormat, Msg: "empty input: no table"}
		}
		for _, c := range header[1:] {
			bd.samples = append(bd.samples, strings.TrimSpace(c))
		}
	}
	return bd.build(opts)
}
