package report

import (
	"bytes"
	"encoding/json"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/twl-ldl/twl/internal/atomicfile"
	"github.com/twl-ldl/twl/internal/plotutil"
)

// WriteJSON writes v as JSON indented by one space per level, with a final
// newline: the form of every report's JSON file.
func WriteJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// File is a file of a report: its name and its contents.
type File struct {
	Name string
	Data []byte
}

// Figure is a figure of a report and its file name without extension.
type Figure struct {
	Name string
	*plotutil.Figure
}

// WriteFiles writes files and then figures, each figure as PNG and SVG,
// to dir, creating it if needed, one after the other in the order given,
// every file atomically. It returns the names of the files written,
// relative to dir, those written before an error included.
func WriteFiles(dir string, files []File, figs []Figure) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var written []string
	for _, f := range files {
		if err := atomicfile.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
			return written, err
		}
		written = append(written, f.Name)
	}
	for _, f := range figs {
		if err := f.Save(filepath.Join(dir, f.Name)); err != nil {
			return written, err
		}
		written = append(written, f.Name+".png", f.Name+".svg")
	}
	return written, nil
}

// WriteReport writes a report to dir with WriteFiles: the JSON that
// writeJSON writes to jsonName, the Markdown md to mdName, and the figures
// in the order of their names.
func WriteReport(dir, jsonName string, writeJSON func(io.Writer) error, mdName, md string, figs map[string]*plotutil.Figure) ([]string, error) {
	var js bytes.Buffer
	if err := writeJSON(&js); err != nil {
		return nil, err
	}
	sorted := make([]Figure, 0, len(figs))
	for _, name := range slices.Sorted(maps.Keys(figs)) {
		sorted = append(sorted, Figure{name, figs[name]})
	}
	return WriteFiles(dir, []File{{jsonName, js.Bytes()}, {mdName, []byte(md)}}, sorted)
}
