// Package qza finds files inside QIIME 2 artifacts (.qza): zip archives
// that hold one top-level directory named by the artifact's UUID, with the
// payload under UUID/data/ (for example UUID/data/feature-table.biom for a
// FeatureTable, UUID/data/tree.nwk for a Phylogeny); and writes
// DistanceMatrix and SampleData[AlphaDiversity] artifacts (Writer), which
// QIIME 2 loads, validates and exports as it does the ones it imports.
package qza

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"strings"
)

// Magic is the first four bytes of a zip archive (a local file header).
const Magic = "PK\x03\x04"

// IsZip reports whether b starts like a zip archive.
func IsZip(b []byte) bool { return bytes.HasPrefix(b, []byte(Magic)) }

// maxPayload bounds the inflated size of the payload read from an
// artifact, to keep a corrupt or hostile archive from exhausting memory.
const maxPayload = 1 << 34

// Payload returns the contents of the one file UUID/data/name in the zip
// archive b, and its path inside the archive. It is an error if there is
// no such file or more than one.
func Payload(b []byte, name string) ([]byte, string, error) {
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
	rc, err := found.Open()
	if err != nil {
		return nil, "", fmt.Errorf("%s: %v", found.Name, err)
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, maxPayload+1))
	if err != nil {
		return nil, "", fmt.Errorf("%s: %v", found.Name, err)
	}
	if len(data) > maxPayload {
		return nil, "", fmt.Errorf("%s: larger than %d bytes", found.Name, int64(maxPayload))
	}
	return data, found.Name, nil
}
