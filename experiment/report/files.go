package report

import (
	"bytes"
	"encoding/json"
	"io"
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

// WriteReport writes a report to dir, creating it if needed: the JSON that
// writeJSON writes to jsonName, the Markdown md to mdName, and each figure
// as PNG and SVG, every file atomically. It returns the names of the files
// written, relative to dir.
func WriteReport(dir, jsonName string, writeJSON func(io.Writer) error, mdName, md string, figs map[string]*plotutil.Figure) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var written []string
	var js bytes.Buffer
	if err := writeJSON(&js); err != nil {
		return nil, err
	}
	for _, f := range []struct {
		name string
		data []byte
	}{{jsonName, js.Bytes()}, {mdName, []byte(md)}} {
		if err := atomicfile.WriteFile(filepath.Join(dir, f.name), f.data, 0o644); err != nil {
			return written, err
		}
		written = append(written, f.name)
	}
	names := make([]string, 0, len(figs))
	for base := range figs {
		names = append(names, base)
	}
	slices.Sort(names)
	for _, base := range names {
		if err := figs[base].Save(filepath.Join(dir, base)); err != nil {
			return written, err
		}
		written = append(written, base+".png", base+".svg")
	}
	return written, nil
}
