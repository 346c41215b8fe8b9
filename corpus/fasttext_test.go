package corpus

import (
	"errors"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/tree"
)

// underscored is the small genre forest with names fastText lines can hold
// (no spaces).
const underscored = "Fiction\tFantasy\nFantasy\tEpic_Fantasy\nFiction\tMystery_&_Suspense\nNonfiction\tCooking\nPoetry\n"

func underscoredTree(tb testing.TB) *tree.Tree {
	t, err := tree.Read(strings.NewReader(underscored), "u.tree", nil)
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

// TestFastTextDictionary reads testdata/fasttext.txt (labels first, in the
// middle and last on a line; tabs, vertical tab, form feed, CR and NUL
// between words; blank lines) and counts its words and labels as fastText
// does: each occurrence of a word of the text, and each label on a line.
// The counts must be those of fastText's own dictionary of the file,
// recorded with fastText 0.9.2 (Debian 0.9.2+ds-1+b1):
//
//	fasttext supervised -input testdata/fasttext.txt -output fx -minCount 1 -epoch 1
//	fasttext dump fx.bin dict
//
// (its "</s>" entry, the line ends, left out).
func TestFastTextDictionary(t *testing.T) {
	wantWords := map[string]int{"for": 1, "sorcery": 1, "and": 1, "Swords": 1, "cold": 1, "was": 1, "tea": 1,
		"The": 1, "one": 1, "Soup": 1, "red": 1, "are": 1, "Roses": 1, "king.": 1, "a": 1, "dragon,": 1, "A": 1}
	wantLabels := map[string]int{"Fiction": 2, "Fantasy": 1, "Cooking": 1, "Poetry": 1, "Mystery_&_Suspense": 1, "Epic_Fantasy": 1}

	c, err := ReadFile("testdata/fasttext.txt", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Format != FastText || c.Len() != 5 {
		t.Fatalf("format %v, %d documents", c.Format, c.Len())
	}
	words, labels := map[string]int{}, map[string]int{}
	for i, d := range c.Docs {
		for _, w := range strings.Split(d.Text, " ") {
			words[w]++
		}
		for _, l := range d.Labels {
			labels[c.Labels[l]]++
		}
		if len(d.Labels) == 0 {
			t.Errorf("document %d has no labels", i)
		}
	}
	if !maps.Equal(words, wantWords) {
		t.Errorf("words %v\nwant %v", words, wantWords)
	}
	if !maps.Equal(labels, wantLabels) {
		t.Errorf("labels %v\nwant %v", labels, wantLabels)
	}
}

// TestFastText checks texts, label sets (closed under ancestors in the
// tree, worked out by hand from underscored) and lines.
func TestFastText(t *testing.T) {
	tr := underscoredTree(t)
	c, err := ReadFile("testdata/fasttext.txt", tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		text   string
		labels []string
		line   int
	}{
		{"A dragon, a king.", []string{"Fiction", "Fantasy"}, 1},
		{"Roses are red", []string{"Poetry"}, 3},
		{"Soup for one", []string{"Nonfiction", "Cooking"}, 4},
		{"The tea was cold", []string{"Fiction", "Mystery_&_Suspense"}, 5},
		{"Swords and sorcery", []string{"Fiction", "Fantasy", "Epic_Fantasy"}, 7},
	}
	if c.Len() != len(want) || !slices.Equal(c.Labels, tr.Names()) {
		t.Fatalf("%d documents, labels %q", c.Len(), c.Labels)
	}
	for i, w := range want {
		if d := c.Docs[i]; d.Text != w.text || d.Line != w.line || !slices.Equal(names(c, i), w.labels) {
			t.Errorf("document %d: %q %q line %d, want %q %q line %d", i, d.Text, names(c, i), d.Line, w.text, w.labels, w.line)
		}
	}

	// As given: the labels of the line alone, a repeated one once.
	c, err = Read(strings.NewReader("__label__Epic_Fantasy x __label__Epic_Fantasy\n"), "f", tr, &Options{AsGiven: true})
	if err != nil || !slices.Equal(names(c, 0), []string{"Epic_Fantasy"}) {
		t.Errorf("as given: %v %q", err, names(c, 0))
	}

	// Another prefix (fastText's -label), detected too.
	c, err = Read(strings.NewReader("x #Poetry\n#Cooking y __label__z\n"), "f", tr, &Options{LabelPrefix: "#"})
	if err != nil || c.Format != FastText || c.Docs[1].Text != "y __label__z" || !slices.Equal(names(c, 1), []string{"Nonfiction", "Cooking"}) {
		t.Errorf("prefix #: %v %+v", err, c)
	}

	// Unlabeled: labels optional and skipped, even unknown ones; plain
	// text is read as fastText lines.
	for _, in := range []string{"a __label__nowhere b\n\nc\n", "a b\n__label__Poetry c\n"} {
		c, err = Read(strings.NewReader(in), "f", tr, &Options{Unlabeled: true})
		if err != nil || c.Format != FastText || c.Len() != 2 || c.Docs[0].Text != "a b" || c.Docs[1].Text != "c" || c.Docs[1].Labels != nil {
			t.Errorf("unlabeled %q: %v %+v", in, err, c)
		}
	}

	// The format forced: a line starting with '{' is text.
	c, err = Read(strings.NewReader("{a} __label__Poetry\n"), "f", tr, &Options{Format: FastText})
	if err != nil || c.Docs[0].Text != "{a}" {
		t.Errorf("forced: %v %+v", err, c)
	}
}

func TestFastTextErrors(t *testing.T) {
	tr := underscoredTree(t)
	for _, c := range []struct {
		name, in string
		opts     *Options
		want     error
		line     int
		msg      string
	}{
		{"label later on the first line", "some text __label__Poetry\n", nil, nil, 0, ""},
		{"no label on the first line", "some text\n__label__Poetry x\n", nil, ErrFormat, 1, "fastText lines (__label__NAME … text)"},
		{"no label", "__label__Poetry a\n\nb c\n", nil, ErrNoLabels, 3, "no label (a word __label__NAME) on the line"},
		{"unknown label", "__label__Poetry a\n__label__Poetry b __label__Jazz\n", nil, ErrUnknownLabel, 2, `column 19: "Jazz" is not a node of the tree`},
		{"label without a name", "__label__Poetry a __label__\n", nil, ErrSyntax, 1, `column 19: "__label__" names no label`},
		{"labels alone", "__label__Poetry a\n__label__Poetry \n", nil, ErrEmptyText, 2, "the line has labels but no text"},
		{"labels alone allowed", "__label__Poetry\n", &Options{AllowEmpty: true}, nil, 0, ""},
		{"not UTF-8", "__label__Poetry a\n__label__Poetry caf\xe9\n", nil, ErrFormat, 2, "column 20: byte 0xe9 is not UTF-8"},
		{"column after a byte order mark", "\ufeff__label__Jazz a\n", nil, ErrUnknownLabel, 1, "column 4:"},
		{"blank lines only, forced", "\n \t\n", &Options{Format: FastText}, ErrEmpty, 0, ""},
		{"white space lines only", "\v\n\f\n", &Options{Format: FastText}, ErrEmpty, 0, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(c.in), "f.txt", tr, c.opts)
			if c.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			checkErr(t, err, c.want, "f.txt", c.line)
			if !strings.Contains(err.Error(), c.msg) {
				t.Errorf("error %q does not say %q", err, c.msg)
			}
		})
	}
}

// failAfter gives its data, then fails.
type failAfter struct {
	data string
	done bool
}

var errBroken = errors.New("broken pipe")

func (f *failAfter) Read(p []byte) (int, error) {
	if f.done {
		return 0, errBroken
	}
	f.done = true
	return copy(p, f.data), nil
}

// TestScanner checks that a Scanner gives the documents of Read, one by
// one, in every format, and that it gives the documents before a read
// error rather than only the error: it does not read the whole input first.
func TestScanner(t *testing.T) {
	tr := smallTree(t)
	sample, err := os.ReadFile("testdata/sample.txt")
	if err != nil {
		t.Fatal(err)
	}
	blurbTree, err := tree.ReadFile("../../shared/data/blurb/hierarchy.txt", nil)
	if err != nil {
		blurbTree = nil // read the sample by label name
	}
	for _, c := range []struct {
		name, in string
		t        *tree.Tree
	}{
		{"jsonl", `{"text": "one", "labels": ["Fantasy"]}` + "\n\n" + `{"token": "two", "label": "Poetry"}`, tr},
		{"label sets", "[\"Epic Fantasy\"]\n[\"Poetry\", \"Cooking\"]\n", tr},
		{"fasttext", "__label__Poetry a\n\nb __label__Cooking\n", nil},
		{"blurb", string(sample), blurbTree},
	} {
		t.Run(c.name, func(t *testing.T) {
			want, err := Read(strings.NewReader(c.in), "f", c.t, nil)
			if err != nil {
				t.Fatal(err)
			}
			s, err := NewScanner(strings.NewReader(c.in), "f", c.t, nil)
			if err != nil {
				t.Fatal(err)
			}
			var got []Doc
			for s.Scan() {
				got = append(got, s.Doc())
			}
			if err := s.Err(); err != nil {
				t.Fatal(err)
			}
			if s.Format() != want.Format || !slices.EqualFunc(got, want.Docs, func(a, b Doc) bool {
				return a.Text == b.Text && a.Line == b.Line && slices.Equal(a.Labels, b.Labels)
			}) || !slices.Equal(s.Labels(), want.Labels) {
				t.Errorf("scanned %v %+v %q\nread %v %+v %q", s.Format(), got, s.Labels(), want.Format, want.Docs, want.Labels)
			}
		})
	}

	for _, in := range []string{
		`{"text": "one", "labels": ["Fantasy"]}` + "\n" + `{"text": "two", "labels": ["Poetry"]}` + "\n",
		"__label__Poetry a\n__label__Cooking b\n",
	} {
		s, err := NewScanner(&failAfter{data: in}, "f", tr, &Options{AsGiven: true, Unlabeled: true})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for s.Scan() {
			n++
		}
		if n != 2 || !errors.Is(s.Err(), errBroken) || !strings.HasPrefix(s.Err().Error(), "f:3: ") {
			t.Errorf("%q: %d documents, then %v; want 2, then f:3: %v", in, n, s.Err(), errBroken)
		}
	}
	// Nothing but an error.
	if _, err := NewScanner(&failAfter{done: true}, "f", tr, nil); !errors.Is(err, errBroken) {
		t.Errorf("read error at the start: %v", err)
	}
	var _ io.Reader = (*failAfter)(nil)
}
