package report

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Part is a report gathered by Gather: its section title and its Markdown
// file.
type Part struct{ Title, File string }

// Gather returns a Markdown document of the reports in dir: head, a list
// of links to the sections, then each part's file under its title as a
// section, its own title dropped and its headings one level down.
func Gather(dir, head string, parts ...Part) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(head)
	for _, part := range parts {
		fmt.Fprintf(&b, "- [%s](#%s)\n", part.Title, anchor(part.Title))
	}
	b.WriteByte('\n')
	for _, part := range parts {
		text, err := os.ReadFile(filepath.Join(dir, part.File))
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "## %s\n\n", part.Title)
		for _, line := range strings.Split(strings.TrimRight(string(text), "\n"), "\n") {
			if strings.HasPrefix(line, "# ") {
				continue // the part's own title: the section heading replaces it
			}
			if strings.HasPrefix(line, "#") {
				line = "#" + line
			}
			b.WriteString(line)
			b.WriteByte('\n')
		}
		b.WriteByte('\n')
	}
	return b.Bytes(), nil
}

// anchor is the link target GitHub gives a heading: lower case, spaces as
// hyphens, punctuation dropped.
func anchor(title string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(title) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		}
	}
	return b.String()
}
