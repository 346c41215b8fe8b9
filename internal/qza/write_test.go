package qza

import (
	"archive/zip"
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"io"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestWriteArtifact writes a distance-matrix artifact and checks what
// QIIME 2 checks when it loads one (qiime2/core/archive, 2022.11): one
// root directory named by a version 4 UUID, a VERSION file of three lines,
// metadata.yaml with the type and format, and checksums.md5 listing the
// MD5 of every other file, each recomputed here from the archive.
func TestWriteArtifact(t *testing.T) {
	payload := []byte("\tS1\tS2\nS1\t0\t0.5\nS2\t0.5\t0\n")
	start := time.Date(2026, 1, 2, 3, 4, 5, 6000, time.UTC)
	var b bytes.Buffer
	w, err := NewWriter(&b, DistanceMatrix, &Options{
		UUID:     "12345678-9abc-4def-8123-456789abcdef",
		ExecUUID: "00000000-0000-4000-8000-000000000000",
		Start:    start,
		Now:      func() time.Time { return start.Add(1500 * time.Microsecond) },
		Tool:     "twl test",
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range [][]byte{payload[:5], payload[5:]} {
		if _, err := w.Write(part); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data, name, err := Payload(b.Bytes(), "distance-matrix.tsv", 0)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(data, payload) || name != "12345678-9abc-4def-8123-456789abcdef/data/distance-matrix.tsv" {
		t.Errorf("payload %q at %s", data, name)
	}
	zr, err := zip.NewReader(bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	var names []string
	for _, f := range zr.File {
		rel, ok := strings.CutPrefix(f.Name, "12345678-9abc-4def-8123-456789abcdef/")
		if !ok {
			t.Fatalf("%s outside the root directory", f.Name)
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		c, err := io.ReadAll(rc)
		if err != nil {
			t.Fatal(err)
		}
		files[rel] = string(c)
		names = append(names, rel)
	}
	slices.Sort(names)
	want := []string{"VERSION", "checksums.md5", "data/distance-matrix.tsv", "metadata.yaml",
		"provenance/VERSION", "provenance/action/action.yaml", "provenance/citations.bib", "provenance/metadata.yaml"}
	if !slices.Equal(names, want) {
		t.Fatalf("files %q, want %q", names, want)
	}
	if files["VERSION"] != "QIIME 2\narchive: 5\nframework: 2022.11.1\n" {
		t.Errorf("VERSION %q", files["VERSION"])
	}
	meta := "uuid: 12345678-9abc-4def-8123-456789abcdef\ntype: DistanceMatrix\nformat: DistanceMatrixDirectoryFormat\n"
	if files["metadata.yaml"] != meta || files["provenance/metadata.yaml"] != meta {
		t.Errorf("metadata.yaml %q", files["metadata.yaml"])
	}
	lines := strings.Split(strings.TrimSuffix(files["checksums.md5"], "\n"), "\n")
	var listed []string
	for _, l := range lines {
		sum, path, ok := strings.Cut(l, "  ")
		if !ok {
			t.Fatalf("checksum line %q", l)
		}
		h := md5.Sum([]byte(files[path]))
		if hex.EncodeToString(h[:]) != sum {
			t.Errorf("%s: checksum %s, its MD5 is %x", path, sum, h)
		}
		listed = append(listed, path)
	}
	// In the order of QIIME 2's md5sum_directory: a directory's files
	// (sorted) before its subdirectories (sorted).
	order := []string{"VERSION", "metadata.yaml", "data/distance-matrix.tsv", "provenance/VERSION",
		"provenance/citations.bib", "provenance/metadata.yaml", "provenance/action/action.yaml"}
	if !slices.Equal(listed, order) {
		t.Errorf("checksums of %q, want %q", listed, order)
	}
	h := md5.Sum(payload)
	act := files["provenance/action/action.yaml"]
	for _, s := range []string{
		"uuid: 00000000-0000-4000-8000-000000000000",
		"start: 2026-01-02T03:04:05.000006+00:00",
		"end: 2026-01-02T03:04:05.001506+00:00",
		"duration: 1500 microseconds",
		"type: import", "format: LSMatFormat", "name: distance-matrix.tsv",
		"md5sum: " + hex.EncodeToString(h[:]),
		"to: DistanceMatrixDirectoryFormat", `writer: "twl test"`,
	} {
		if !strings.Contains(act, s) {
			t.Errorf("action.yaml lacks %q:\n%s", s, act)
		}
	}
	if !strings.HasPrefix(files["provenance/citations.bib"], "@misc{") {
		t.Errorf("citations.bib %q", files["provenance/citations.bib"])
	}
}

func TestUUID(t *testing.T) {
	seen := map[string]bool{}
	for range 100 {
		u, err := NewUUID()
		if err != nil {
			t.Fatal(err)
		}
		if !isUUID4(u) || seen[u] {
			t.Fatalf("%q", u)
		}
		seen[u] = true
	}
	for _, bad := range []string{"", "12345678-9abc-3def-8123-456789abcdef", "12345678-9abc-4def-7123-456789abcdef",
		"12345678-9ABC-4def-8123-456789abcdef", "12345678x9abc-4def-8123-456789abcdef"} {
		if isUUID4(bad) {
			t.Errorf("%q taken for a version 4 UUID", bad)
		}
		if _, err := NewWriter(io.Discard, AlphaDiversity, &Options{UUID: bad}); bad != "" && err == nil {
			t.Errorf("NewWriter took UUID %q", bad)
		}
	}
}
