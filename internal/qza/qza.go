// Package qza finds files inside QIIME 2 artifacts (.qza): zip archives
// that hold one top-level directory named by the artifact's UUID, with the
// payload under UUID/data/ (for example UUID/data/feature-table.biom for a
// FeatureTable, UUID/data/tree.nwk for a Phylogeny); and writes
// DistanceMatrix and SampleData[AlphaDiversity] artifacts (Writer), which
// QIIME 2 loads, validates and exports as it does the ones it imports.
//
// The payload is inflated in memory, never written to disk: the names of
// an archive's entries are only compared with the one wanted, never used
// as paths. Its size is counted as it is inflated and refused past a
// limit, whatever size the archive's headers declare, so that a small
// archive that inflates to gigabytes (a zip bomb) takes no more memory
// than the limit.
package qza

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/twl-ldl/twl/internal/fileerr"
	"github.com/twl-ldl/twl/internal/human"
)

// Magic is the first four bytes of a zip archive (a local file header).
const Magic = "PK\x03\x04"

// IsZip reports whether b starts like a zip archive.
func IsZip(b []byte) bool { return bytes.HasPrefix(b, []byte(Magic)) }

// MaxPayload is the most a payload may inflate to when the caller sets no
// smaller limit: 256 MiB, the size up to which a BIOM file is read into
// memory whole.
const MaxPayload = 256 << 20

// Payload returns the contents of the one file UUID/data/name in the zip
// archive b, and its path inside the archive. It is an error if there is
// no such file or more than one, and an error wrapping
// fileerr.ErrTooLarge if the file declares, or inflates to, more than
// limit bytes (MaxPayload when limit is 0 or larger).
func Payload(b []byte, name string, limit int64) ([]byte, string, error) {
	if limit <= 0 || limit > MaxPayload {
		limit = MaxPayload
	}
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return nil, "", fmt.Errorf("not a readable zip archive: %v", err)
	}
	found, err := find(zr, name)
	if err != nil {
		return nil, "", err
	}
	tooLarge := func() error {
		return &sizeError{fmt.Sprintf("%s inflates to more than %s, the most read from an archive", found.Name, human.Bytes(float64(limit)))}
	}
	if found.UncompressedSize64 > uint64(limit) {
		return nil, "", tooLarge()
	}
	rc, err := found.Open()
	if err != nil {
		return nil, "", fmt.Errorf("%s: %v", found.Name, err)
	}
	defer rc.Close()
	// The declared size sizes the buffer, but only the bytes inflated are
	// counted: a header may lie.
	data := make([]byte, 0, found.UncompressedSize64+1)
	for {
		if len(data) == cap(data) {
			if int64(len(data)) > limit {
				return nil, "", tooLarge()
			}
			// Grow by half, but never past one byte over the limit.
			grown := make([]byte, len(data), len(data)+min(max(len(data)/2, 4096), int(limit)+1-len(data)))
			copy(grown, data)
			data = grown
		}
		n, err := rc.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if int64(len(data)) > limit {
			return nil, "", tooLarge()
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, "", fmt.Errorf("%s: %v", found.Name, err)
		}
	}
	return data, found.Name, nil
}

// find returns the one file UUID/data/name of the archive.
func find(zr *zip.Reader, name string) (*zip.File, error) {
	var found *zip.File
	for _, f := range zr.File {
		parts := strings.Split(f.Name, "/")
		if len(parts) == 3 && parts[1] == "data" && parts[2] == name {
			if found != nil {
				return nil, fmt.Errorf("two files %s and %s in the archive", found.Name, f.Name)
			}
			found = f
		}
	}
	if found == nil {
		return nil, fmt.Errorf("no file */data/%s in the archive (not a QIIME 2 artifact of that type?)", name)
	}
	return found, nil
}

// maxRatio is deflate's largest ratio of inflated to compressed bytes
// (1032), with a little room for the blocks' headers.
const maxRatio = 1100

// Stream is the payload of an artifact read as it inflates (Open): an
// io.Reader whose Len is the size declared for what is left, so that a
// reader can size what it allocates by it. More bytes than declared, or
// fewer, are an error of Read.
type Stream struct {
	rc   io.ReadCloser
	left int64
	// Name is the payload's path inside the archive.
	Name string
}

// Open opens the one file UUID/data/name of the zip archive r of size
// bytes, to be read as it inflates, for payloads too large to hold twice
// (a distance matrix). Its declared size must be one deflate can reach
// from the compressed size (at most 1100 times it) and at most limit
// (when positive), or the error wraps fileerr.ErrTooLarge; the bytes
// inflated are counted against it as they are read.
func Open(r io.ReaderAt, size int64, name string, limit int64) (*Stream, error) {
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return nil, fmt.Errorf("not a readable zip archive: %v", err)
	}
	found, err := find(zr, name)
	if err != nil {
		return nil, err
	}
	declared := found.UncompressedSize64
	if declared > maxRatio*max(found.CompressedSize64, 1) {
		return nil, &sizeError{fmt.Sprintf("%s declares %s inflated from %s compressed, more than deflate can make of it", found.Name,
			human.Bytes(float64(declared)), human.Bytes(float64(found.CompressedSize64)))}
	}
	if limit > 0 && declared > uint64(limit) {
		return nil, &sizeError{fmt.Sprintf("%s inflates to %s, more than the %s allowed", found.Name, human.Bytes(float64(declared)), human.Bytes(float64(limit)))}
	}
	rc, err := found.Open()
	if err != nil {
		return nil, fmt.Errorf("%s: %v", found.Name, err)
	}
	return &Stream{rc: rc, left: int64(declared), Name: found.Name}, nil
}

// Len returns the bytes declared and not read yet.
func (s *Stream) Len() int { return int(max(s.left, 0)) }

// Read reads the payload as it inflates; past the declared size, or short
// of it, it returns an error (archive/zip checks both, and the checksum).
func (s *Stream) Read(p []byte) (int, error) {
	n, err := s.rc.Read(p)
	s.left -= int64(n)
	if s.left < 0 {
		return n, &sizeError{fmt.Sprintf("%s inflates to more than it declares", s.Name)}
	}
	return n, err
}

// Close closes the payload.
func (s *Stream) Close() error { return s.rc.Close() }

// sizeError is the error of a payload past the limit; it wraps
// fileerr.ErrTooLarge.
type sizeError struct{ msg string }

func (e *sizeError) Error() string { return e.msg }
func (e *sizeError) Unwrap() error { return fileerr.ErrTooLarge }
