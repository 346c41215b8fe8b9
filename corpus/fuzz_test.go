package corpus

import (
	"bytes"
	"errors"
	"slices"
	"testing"
)

// FuzzRead checks that Read never panics on any input, in any format; that
// every error is an *Error for the file, at a line of the input, wrapping a
// sentinel; and that every document it accepts has a label set that is
// sorted, distinct, within the tree and closed under ancestors, and a line
// within the input.
func FuzzRead(f *testing.F) {
	for _, s := range []string{
		"<book><title>t</title><body>a & b &amp; c</body><metadata><topics><d0>Fiction</d0><d1>Fantasy</d1></topics></metadata></book>\n",
		"<book date=\"x\">\r\n<body>x</body>\r\n<metadata><topics><d2>Epic Fantasy</d2></topics></metadata>\r\n</book>",
		"<book><body>b</body><metadata><topics><d0>Poetry</d0>",
		"<?xml?><!-- c --><book/><book><body/></book>",
		`{"text": "a", "labels": ["Epic Fantasy"]}` + "\n" + `{"token": ["a", "b"], "label": "Cooking", "x": {"y": [1, null]}}`,
		`{"text": "a\u00e9\n", "labels": []}`,
		"[\"Poetry\", \"Cooking\"]\n[\"Fantasy\"]",
		"\ufeff\n\n{}",
		"",
	} {
		f.Add([]byte(s), false, false)
		f.Add([]byte(s), true, true)
	}
	tr := smallTree(f)
	f.Fuzz(func(t *testing.T, data []byte, asGiven, title bool) {
		c, err := Read(bytes.NewReader(data), "fuzz", tr, &Options{AsGiven: asGiven, Title: title})
		lines := bytes.Count(data, []byte("\n")) + 1
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.File != "fuzz" || e.Line < 0 || e.Line > lines {
				t.Fatalf("error %q (%T) is not an *Error within the file", err, err)
			}
			known := false
			for _, s := range sentinels {
				known = known || errors.Is(err, s)
			}
			if !known {
				t.Fatalf("error %q wraps no sentinel", err)
			}
			return
		}
		if c.Len() == 0 {
			t.Fatal("no documents and no error")
		}
		for i, d := range c.Docs {
			if d.Line < 1 || d.Line > lines {
				t.Fatalf("document %d at line %d of %d", i, d.Line, lines)
			}
			if len(d.Labels) == 0 || !slices.IsSorted(d.Labels) || len(slices.Compact(slices.Clone(d.Labels))) != len(d.Labels) {
				t.Fatalf("document %d: labels %v", i, d.Labels)
			}
			for _, l := range d.Labels {
				if l < 0 || l >= tr.Len() {
					t.Fatalf("label %d out of range", l)
				}
				if p := tr.Parent(l); !asGiven && p >= 0 && !slices.Contains(d.Labels, p) {
					t.Fatalf("document %d: labels %v not closed (parent %d of %d)", i, d.Labels, p, l)
				}
			}
		}
	})
}
