package corpus

import (
	"bytes"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
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
		"__label__Poetry x\ny __label__Cooking\n",
		"x __label__Fantasy\n",
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

// FuzzReadFastText reads any input as fastText lines, forced, and compares
// the result with a reference reading written independently of the reader,
// line by line with the standard library: split the input at '\n', drop a
// byte order mark at its start, split each line into fields at fastText's
// white space, and take the fields that start with the prefix as labels.
// Where the reference finds a document the reader must give the same text,
// label set and line; where the reference finds a problem (bytes that are
// not UTF-8, a label not in the tree or without a name, a line with no
// label or no text) the reader must fail at that line, with an *Error
// wrapping a sentinel.
func FuzzReadFastText(f *testing.F) {
	for _, s := range []string{
		"__label__Fantasy __label__Fiction A dragon, a king.\n\n__label__Poetry\tRoses are red\r\n",
		"  Soup\vfor\fone __label__Cooking  \nThe tea __label__Mystery_&_Suspense was cold __label__Fiction\n",
		"__label__Epic_Fantasy   Swords\x00and  sorcery",
		"\ufeff__label__Poetry x\n__label__ y\n",
		"__label__Poetry\n__label__Jazz x\n",
		"x\n\t\n\v\n",
		"__label__Poetry caf\xe9\n",
	} {
		f.Add([]byte(s), false, false, false)
		f.Add([]byte(s), true, true, true)
	}
	tr := underscoredTree(f)
	f.Fuzz(func(t *testing.T, data []byte, asGiven, unlabeled, allowEmpty bool) {
		opts := &Options{Format: FastText, AsGiven: asGiven, Unlabeled: unlabeled, AllowEmpty: allowEmpty}
		c, err := Read(bytes.NewReader(data), "fuzz", tr, opts)

		// The reference reading, up to its first problem (line bad).
		type doc struct {
			text   string
			labels []int
			line   int
		}
		var want []doc
		bad := 0
		in := strings.TrimPrefix(string(data), "\ufeff")
		for n, line := range strings.Split(in, "\n") {
			if !utf8.ValidString(line) {
				bad = n + 1
				break
			}
			fields := strings.FieldsFunc(line, func(r rune) bool { return r < utf8.RuneSelf && isSpace(byte(r)) })
			if len(fields) == 0 {
				continue
			}
			var text []string
			set := map[int]bool{}
			ok := true
			for _, w := range fields {
				name, isLabel := strings.CutPrefix(w, DefaultLabelPrefix)
				if !isLabel {
					text = append(text, w)
					continue
				}
				if unlabeled {
					continue
				}
				l, found := tr.Index(name)
				if !found {
					ok = false
					break
				}
				for ; l >= 0; l = tr.Parent(l) {
					set[l] = true
					if asGiven {
						break
					}
				}
			}
			if !ok || len(text) == 0 && !allowEmpty || !unlabeled && len(set) == 0 {
				bad = n + 1
				break
			}
			d := doc{text: strings.Join(text, " "), line: n + 1}
			if !unlabeled {
				d.labels = slices.Sorted(maps.Keys(set))
			}
			want = append(want, d)
		}

		if bad > 0 || len(want) == 0 {
			if err == nil {
				t.Fatalf("no error; the reference finds a problem at line %d (or no document)", bad)
			}
			var e *Error
			if !errors.As(err, &e) || e.File != "fuzz" || e.Line != bad {
				t.Fatalf("error %q (%T), want an *Error at line %d", err, err, bad)
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
		if err != nil {
			t.Fatalf("error %v; the reference reads %d documents", err, len(want))
		}
		if c.Len() != len(want) {
			t.Fatalf("%d documents, the reference %d", c.Len(), len(want))
		}
		for i, w := range want {
			d := c.Docs[i]
			if d.Text != w.text || d.Line != w.line || !slices.Equal(d.Labels, w.labels) {
				t.Fatalf("document %d: %q %v line %d, the reference %q %v line %d", i, d.Text, d.Labels, d.Line, w.text, w.labels, w.line)
			}
		}
	})
}
