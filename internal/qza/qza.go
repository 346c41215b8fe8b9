// Package qza finds files inside QIIME 2 artifacts (.qza): zip archives
// that hold one top-level directory named by the artifact's UUID, with the
// payload under UUID/data/ (for example UUID/data/feature-table.biom for a
// FeatureTable, UUID/data/tree.nwk for a Phylogeny).
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
	var found *zip.File
	for _, f := range zr.File {
		parts := strings.Split(f.Name, "/")
		if len(parts) == 3 && parts[1] == "data" && parts[2] == name {
			if found != nil {
				return nil, "", fmt.Errorf("two files %s and %s in the archive", found.Name, f.Name)
			}
			found = f
		}
	}
	if found == nil {
		return nil, "", fmt.Errorf("no file */data/%s in the archive (not a QIIME 2 artifact of that type?)", name)
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

// sizeError is the error of a payload past the limit; it wraps
// fileerr.ErrTooLarge.
type sizeError struct{ msg string }

func (e *sizeError) Error() string { return e.msg }
func (e *sizeError) Unwrap() error { return fileerr.ErrTooLarge }
