package qza

import (
	"archive/zip"
	"compress/flate"
	"crypto/md5"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"runtime"
	"strings"
	"time"
)

// Kind describes a type of artifact that Writer writes: its semantic type,
// directory format, payload file and the file format of the payload.
type Kind struct {
	Type       string // the semantic type, as metadata.yaml names it
	Format     string // the directory format
	File       string // the payload's name under data/
	FileFormat string // the payload's file format, as an import records it
}

// The kinds of artifact twl writes.
var (
	// DistanceMatrix is a distance matrix in the TSV layout of
	// scikit-bio's DistanceMatrix (QIIME 2's LSMat format).
	DistanceMatrix = Kind{"DistanceMatrix", "DistanceMatrixDirectoryFormat", "distance-matrix.tsv", "LSMatFormat"}
	// AlphaDiversity is one value per sample: a header line, then "ID<TAB>value"
	// lines.
	AlphaDiversity = Kind{"SampleData[AlphaDiversity]", "AlphaDiversityDirectoryFormat", "alpha-diversity.tsv", "AlphaDiversityFormat"}
)

// Archive format and framework version written in VERSION: the layout is
// that of archive version 5, as QIIME 2 2022.11 writes it.
const (
	ArchiveVersion   = "5"
	FrameworkVersion = "2022.11.1"
)

// Options are the settings of NewWriter. The zero value is the default.
type Options struct {
	// UUID and ExecUUID name the artifact and the execution that made it
	// (random version 4 UUIDs when empty).
	UUID, ExecUUID string
	// Start is the time the execution started (time.Now() when zero);
	// Close takes the end time.
	Start time.Time
	// Now, when not nil, replaces time.Now (for tests).
	Now func() time.Time
	// Tool names the program that made the artifact, recorded in the
	// provenance ("twl (devel)" when empty).
	Tool string
	// Citations is the BibTeX of provenance/citations.bib, what qiime
	// tools citations lists (when empty, an entry naming Tool: QIIME 2
	// refuses an empty file).
	Citations string
}

// Writer writes a QIIME 2 artifact (.qza) to an underlying writer: a zip
// archive holding one directory named by the artifact's UUID with
//
//	VERSION              "QIIME 2", the archive version, the framework version
//	metadata.yaml        uuid, type and format
//	data/FILE            the payload, written through Write
//	provenance/          VERSION, metadata.yaml, citations.bib and
//	                     action/action.yaml: an import of the payload
//	checksums.md5        the MD5 of every other file, as md5sum writes them
//
// the layout of archive version 5 that qiime tools import writes. The
// payload is compressed at deflate's fastest level; it is written as a
// stream and never held in memory.
type Writer struct {
	zw      *zip.Writer
	kind    Kind
	opts    Options
	root    string
	sums    []string // "path md5", in the order md5sum_directory lists them
	payload io.Writer
	md5     hash.Hash
	err     error
	closed  bool
}

// NewUUID returns a random version 4 UUID.
func NewUUID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:], nil
}

// isUUID4 reports whether s is a version 4 UUID in lower-case hex, the
// form QIIME 2 requires of an artifact's directory.
func isUUID4(s string) bool {
	if len(s) != 36 || s[14] != '4' || !strings.ContainsRune("89ab", rune(s[19])) {
		return false
	}
	for i := range len(s) {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
				return false
			}
		}
	}
	return true
}

// NewWriter starts an artifact of kind k on w and returns the Writer that
// takes its payload. The caller writes the payload and calls Close; w
// holds a complete archive only then.
func NewWriter(w io.Writer, k Kind, opts *Options) (*Writer, error) {
	qw := &Writer{kind: k}
	if opts != nil {
		qw.opts = *opts
	}
	o := &qw.opts
	for _, u := range []*string{&o.UUID, &o.ExecUUID} {
		if *u == "" {
			var err error
			if *u, err = NewUUID(); err != nil {
				return nil, err
			}
		} else if !isUUID4(*u) {
			return nil, fmt.Errorf("qza: %q is not a version 4 UUID", *u)
		}
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Start.IsZero() {
		o.Start = o.Now()
	}
	if o.Tool == "" {
		o.Tool = "twl (devel)"
	}
	qw.root = o.UUID + "/"
	qw.zw = zip.NewWriter(w)
	qw.zw.RegisterCompressor(zip.Deflate, func(out io.Writer) (io.WriteCloser, error) {
		return flate.NewWriter(out, flate.BestSpeed)
	})
	if err := qw.file("VERSION", qw.version()); err != nil {
		return nil, err
	}
	if err := qw.file("metadata.yaml", qw.metadata()); err != nil {
		return nil, err
	}
	f, err := qw.create("data/" + k.File)
	if err != nil {
		return nil, err
	}
	qw.md5 = md5.New()
	qw.payload = io.MultiWriter(f, qw.md5)
	return qw, nil
}

func (w *Writer) version() string {
	return "QIIME 2\narchive: " + ArchiveVersion + "\nframework: " + FrameworkVersion + "\n"
}

func (w *Writer) metadata() string {
	return "uuid: " + w.opts.UUID + "\ntype: " + w.kind.Type + "\nformat: " + w.kind.Format + "\n"
}

func (w *Writer) create(name string) (io.Writer, error) {
	return w.zw.CreateHeader(&zip.FileHeader{Name: w.root + name, Method: zip.Deflate, Modified: w.opts.Start})
}

// file writes the archive member name and records its checksum.
func (w *Writer) file(name, text string) error {
	f, err := w.create(name)
	if err != nil {
		return err
	}
	if _, err := io.WriteString(f, text); err != nil {
		return err
	}
	sum := md5.Sum([]byte(text))
	w.sums = append(w.sums, hex.EncodeToString(sum[:])+"  "+name)
	return nil
}

// Write writes payload bytes.
func (w *Writer) Write(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	if w.closed {
		return 0, errors.New("qza: write after Close")
	}
	n, err := w.payload.Write(p)
	w.err = err
	return n, err
}

// Close writes the provenance and the checksums and ends the archive. It
// does not close the underlying writer.
func (w *Writer) Close() error {
	if w.err != nil {
		return w.err
	}
	if w.closed {
		return nil
	}
	w.closed = true
	payload := hex.EncodeToString(w.md5.Sum(nil))
	w.sums = append(w.sums, payload+"  data/"+w.kind.File)
	for _, f := range []struct{ name, text string }{
		{"provenance/VERSION", w.version()},
		{"provenance/citations.bib", w.citations()},
		{"provenance/metadata.yaml", w.metadata()},
		{"provenance/action/action.yaml", w.action(payload)},
	} {
		if err := w.file(f.name, f.text); err != nil {
			w.err = err
			return err
		}
	}
	f, err := w.create("checksums.md5")
	if err == nil {
		_, err = io.WriteString(f, strings.Join(w.sums, "\n")+"\n")
	}
	if err == nil {
		err = w.zw.Close()
	}
	w.err = err
	return err
}

func (w *Writer) citations() string {
	if c := w.opts.Citations; c != "" {
		if !strings.HasSuffix(c, "\n") {
			c += "\n"
		}
		return c
	}
	return "@misc{writer,\n title = {" + strings.NewReplacer("{", "", "}", "").Replace(w.opts.Tool) + "}\n}\n"
}

// action returns the provenance of an import of the payload, whose MD5 is
// sum, made by the tool.
func (w *Writer) action(sum string) string {
	start, end := w.opts.Start, w.opts.Now()
	if end.Before(start) {
		end = start
	}
	stamp := func(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000000-07:00") }
	return fmt.Sprintf(`execution:
    uuid: %s
    runtime:
        start: %s
        end: %s
        duration: %d microseconds

action:
    type: import
    format: %s
    manifest:
    -   name: %s
        md5sum: %s

transformers:
    output:
    -   from: %s
        to: %s

environment:
    platform: %s-%s
    framework:
        version: %s
        website: https://qiime2.org
    writer: %q
`, w.opts.ExecUUID, stamp(start), stamp(end), end.Sub(start).Microseconds(),
		w.kind.FileFormat, w.kind.File, sum, w.kind.FileFormat, w.kind.Format,
		runtime.GOOS, runtime.GOARCH, FrameworkVersion, w.opts.Tool)
}
