package corpus

import (
	"errors"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/vocab"
)

// small is a hand-made genre forest for the tests that do not need the
// real hierarchy.
const small = "Fiction\tFantasy\nFantasy\tEpic Fantasy\nFiction\tMystery & Suspense\nNonfiction\tCooking\nPoetry\n"

func smallTree(tb testing.TB) *tree.Tree {
	t, err := tree.Read(strings.NewReader(small), "small.tree", nil)
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

// names returns the label names of document d of c.
func names(c *Corpus, d int) []string {
	var s []string
	for _, i := range c.Docs[d].Labels {
		s = append(s, c.Labels[i])
	}
	return s
}

var sentinels = []error{ErrFormat, ErrSyntax, ErrNoText, ErrEmptyText, ErrNoLabels, ErrUnknownLabel, ErrEmpty}

// checkErr checks that err is an *Error wrapping want (and no other
// sentinel) at file:line.
func checkErr(t *testing.T, err, want error, file string, line int) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %v", want)
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %q (%T) is not an *Error", err, err)
	}
	if !errors.Is(err, want) {
		t.Errorf("error %q does not wrap %q", err, want)
	}
	for _, s := range sentinels {
		if s != want && errors.Is(err, s) {
			t.Errorf("error %q also wraps %q", err, s)
		}
	}
	if e.File != file || e.Line != line {
		t.Errorf("error %q at %s:%d, want %s:%d", err, e.File, e.Line, file, line)
	}
}

// TestBlurbSample reads testdata/sample.txt, three records written in the
// BlurbGenreCollection layout with the real hierarchy of ../shared (CRLF
// line endings in the first record, entities, a bare & and <, several
// genres per depth), and checks every text and label set against what the
// file says, decoded by hand.
func TestBlurbSample(t *testing.T) {
	const hier = "../../shared/data/blurb/hierarchy.txt"
	if _, err := os.Stat(hier); err != nil {
		t.Skip("BlurbGenreCollection hierarchy not available:", err)
	}
	tr, err := tree.ReadFile(hier, nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := ReadFile("testdata/sample.txt", tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Format != Blurb || c.Len() != 3 {
		t.Fatalf("format %v, %d documents", c.Format, c.Len())
	}
	want := []struct {
		text   string
		labels []string
		line   int
	}{
		{"A young cook & a dragon share a kitchen. \"Fire,\" she said – it's the dragon’s job. Salt & pepper < 5 minutes.",
			[]string{"Fiction", "Fantasy", "Epic Fantasy", "Nonfiction", "Cooking"}, 1},
		{"Short verses\non two lines.", []string{"Poetry"}, 14},
		{"Riddles & games for kids.", []string{"Children’s Books", "Children’s Activity & Novelty Books"}, 24},
	}
	for i, w := range want {
		d := c.Docs[i]
		if d.Text != w.text || d.Line != w.line {
			t.Errorf("document %d: text %q line %d, want %q line %d", i, d.Text, d.Line, w.text, w.line)
		}
		got := names(c, i)
		slices.Sort(got)
		slices.Sort(w.labels)
		if !slices.Equal(got, w.labels) {
			t.Errorf("document %d: labels %q, want %q", i, got, w.labels)
		}
	}
	c, err = ReadFile("testdata/sample.txt", tr, &Options{Title: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Docs[0].Text; !strings.HasPrefix(got, "The Dragon & the Cook\nA young cook") {
		t.Errorf("title + body: %q", got)
	}
}

// TestClosure checks that label sets are closed under ancestors by default
// and kept as given with AsGiven, on the small tree: Epic Fantasy has the
// ancestors Fantasy and Fiction (user indices 0 Fiction, 1 Fantasy, 2 Epic
// Fantasy, 3 Mystery & Suspense, 4 Nonfiction, 5 Cooking, 6 Poetry).
func TestClosure(t *testing.T) {
	tr := smallTree(t)
	in := `{"text": "x", "labels": ["Epic Fantasy", "Cooking", "Epic Fantasy"]}`
	for _, c := range []struct {
		opts *Options
		want []int
	}{
		{nil, []int{0, 1, 2, 4, 5}},
		{&Options{AsGiven: true}, []int{2, 5}},
	} {
		got, err := Read(strings.NewReader(in), "in", tr, c.opts)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Docs[0].Labels, c.want) {
			t.Errorf("%+v: labels %v, want %v", c.opts, got.Docs[0].Labels, c.want)
		}
	}
}

// TestJSONL reads both JSON Lines layouts, with the variants each allows.
func TestJSONL(t *testing.T) {
	tr := smallTree(t)
	in := "\ufeff" + `{"text": "one", "labels": ["Fantasy"]}` + "\r\n" +
		"\n" +
		`{"id": 7, "meta": {"a": [1, 2.5e3, "x", null, true, false, {}]}, "token": ["two", "words"], "label": ["Poetry"], "topic": [], "keyword": []}` + "\n" +
		`{"label": "Cooking", "token": "three"}` + "\n" +
		`{"labels": ["Mystery \u0026 Suspense"], "text": "four\u00e9"}` + "\n"
	c, err := Read(strings.NewReader(in), "in.jsonl", tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		text   string
		labels []string
		line   int
	}{
		{"one", []string{"Fiction", "Fantasy"}, 1},
		{"two words", []string{"Poetry"}, 3},
		{"three", []string{"Nonfiction", "Cooking"}, 4},
		{"fouré", []string{"Fiction", "Mystery & Suspense"}, 5},
	}
	if c.Format != JSONL || c.Len() != len(want) {
		t.Fatalf("format %v, %d documents", c.Format, c.Len())
	}
	for i, w := range want {
		if d := c.Docs[i]; d.Text != w.text || d.Line != w.line || !slices.Equal(names(c, i), w.labels) {
			t.Errorf("document %d: %q %q line %d, want %q %q line %d", i, d.Text, names(c, i), d.Line, w.text, w.labels, w.line)
		}
	}
	if !slices.Equal(c.Labels, tr.Names()) {
		t.Errorf("Labels %q", c.Labels)
	}

	// Without a tree: names in order of first appearance, sets as given.
	c, err = Read(strings.NewReader(in), "in.jsonl", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.Labels, []string{"Fantasy", "Poetry", "Cooking", "Mystery & Suspense"}) || !slices.Equal(c.Docs[3].Labels, []int{3}) {
		t.Errorf("without a tree: labels %q, last set %v", c.Labels, c.Docs[3].Labels)
	}

	// Unlabeled: labels optional and ignored, even unknown ones.
	c, err = Read(strings.NewReader(`{"text": "a"}`+"\n"+`{"text": "b", "labels": ["nowhere"]}`), "in", tr, &Options{Unlabeled: true})
	if err != nil || c.Len() != 2 || c.Docs[1].Labels != nil {
		t.Errorf("unlabeled: %v", err)
	}
}

// TestLabelSets reads a file of label sets.
func TestLabelSets(t *testing.T) {
	tr := smallTree(t)
	c, err := Read(strings.NewReader("[\"Epic Fantasy\"]\n\n[\"Poetry\", \"Cooking\"]\n"), "y.jsonl", tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Format != LabelSets || c.Len() != 2 || !slices.Equal(c.Docs[0].Labels, []int{0, 1, 2}) ||
		!slices.Equal(c.Docs[1].Labels, []int{4, 5, 6}) || c.Docs[1].Line != 3 || c.Docs[1].Text != "" {
		t.Errorf("format %v docs %+v", c.Format, c.Docs)
	}
}

func TestReadErrors(t *testing.T) {
	tr := smallTree(t)
	const rec = "<book><body>b</body><metadata><topics><d0>Poetry</d0></topics></metadata></book>\n"
	for _, c := range []struct {
		name, in string
		opts     *Options
		want     error
		line     int
	}{
		{"empty", "", nil, ErrEmpty, 0},
		{"blank", " \n\n", nil, ErrEmpty, 0},
		{"plain text", "hello\n", nil, ErrFormat, 1},
		{"plain text after blank lines", "\n\nhello\n", nil, ErrFormat, 3},
		// Blurb records.
		{"one record", rec + "  \n" + rec, nil, nil, 0},
		{"cut mid-record", rec + "<book><body>b</body><metadata><topics><d0>Poetry</d0>", nil, ErrSyntax, 2},
		{"cut in the body", rec + "<book>\n<body>text goes on", nil, ErrSyntax, 3},
		{"unclosed body before the next record", "<book><body>b\n" + rec, nil, ErrSyntax, 1},
		{"no body", "<book><title>t</title><metadata><topics><d0>Poetry</d0></topics></metadata></book>", nil, ErrNoText, 1},
		{"two bodies", "<book><body>a</body>\n<body>b</body></book>", nil, ErrSyntax, 2},
		{"no genres", rec + "<book><body>b</body><metadata><topics></topics></metadata></book>", nil, ErrNoLabels, 2},
		{"no genres, unlabeled", "<book><body>b</body></book>", &Options{Unlabeled: true}, nil, 0},
		{"unknown genre", "<book><body>b</body><metadata>\n<topics><d0>Poetry</d0>\n<d1>Haiku</d1></topics></metadata></book>", nil, ErrUnknownLabel, 3},
		{"empty genre", "<book><body>b</body><metadata><topics><d0> </d0></topics></metadata></book>", nil, ErrNoLabels, 1},
		{"text between records", rec + "stray words\n" + rec, nil, ErrSyntax, 2},
		{"text in a record", "<book>\nstray<body>b</body></book>", nil, ErrSyntax, 2},
		{"stray closing tag", "<book><body>b</body></topics></book>", nil, ErrSyntax, 1},
		{"record in a record", "<book><body>b</body>\n<metadata>\n" + rec, nil, ErrSyntax, 2},
		{"NUL", rec + "<book>\x00", nil, ErrFormat, 2},
		{"Latin-1", rec + "\n<book><body>caf\xe9</body></book>", nil, ErrFormat, 3},
		{"declaration and comment", "<?xml version=\"1.0\"?>\n<!-- x -->\n" + rec, nil, nil, 0},
		{"empty body", rec + "<book><body> \n </body><metadata><topics><d0>Poetry</d0></topics></metadata></book>", nil, ErrEmptyText, 2},
		{"empty body allowed", "<book><body/><metadata><topics><d0>Poetry</d0></topics></metadata></book>", &Options{AllowEmpty: true}, nil, 0},
		{"genre outside topics", "<book><body>b</body><metadata>\n<d0>Fiction</d0><topics><d0>Poetry</d0></topics></metadata></book>", nil, ErrSyntax, 2},
		{"other element in topics", "<book><body>b</body><metadata><topics><d0>Poetry</d0>\n<genre>Fiction</genre></topics></metadata></book>", nil, ErrSyntax, 2},
		{"upper-case genre tag", "<book><body>b</body><metadata><topics><d0>Poetry</d0><D1>Fiction</D1></topics></metadata></book>", nil, ErrSyntax, 1},
		{"cut inside a closing tag", rec + "<book><body>b</body><metadata><topics><d0>Poetry</d0></topics></metadata></boo", nil, ErrSyntax, 2},
		{"cut inside an opening tag", rec + "\n<book date=\"2016", nil, ErrSyntax, 3},
		// JSON Lines.
		{"no text", `{"labels": ["Poetry"]}`, nil, ErrNoText, 1},
		{"no labels", "{\"text\": \"a\", \"labels\": [\"Poetry\"]}\n{\"text\": \"a\"}", nil, ErrNoLabels, 2},
		{"empty labels", `{"text": "a", "labels": []}`, nil, ErrNoLabels, 1},
		{"unknown label", "\n{\"text\": \"a\", \"labels\": [\"Poetry\", \"Jazz\"]}", nil, ErrUnknownLabel, 2},
		{"text and token", `{"text": "a", "token": "b", "labels": ["Poetry"]}`, nil, ErrSyntax, 1},
		{"labels twice", `{"text": "a", "labels": ["Poetry"], "label": ["Poetry"]}`, nil, ErrSyntax, 1},
		{"text a number", `{"text": 5, "labels": ["Poetry"]}`, nil, ErrSyntax, 1},
		{"label a number", `{"text": "a", "labels": [5]}`, nil, ErrSyntax, 1},
		{"trailing comma", `{"text": "a", "labels": ["Poetry"],}`, nil, ErrSyntax, 1},
		{"trailing data", `{"text": "a", "labels": ["Poetry"]} x`, nil, ErrSyntax, 1},
		{"bad skipped value", `{"text": "a", "x": [1, tru], "labels": ["Poetry"]}`, nil, ErrSyntax, 1},
		{"bad escape", `{"text": "a\q", "labels": ["Poetry"]}`, nil, ErrSyntax, 1},
		{"array line in documents", "{\"text\": \"a\", \"labels\": [\"Poetry\"]}\n[\"Poetry\"]", nil, ErrSyntax, 2},
		{"object line in label sets", "[\"Poetry\"]\n{\"text\": \"a\"}", nil, ErrSyntax, 2},
		{"empty label set", "[\"Poetry\"]\n[]", nil, ErrNoLabels, 2},
		{"empty text", "{\"text\": \"a\", \"labels\": [\"Poetry\"]}\n{\"text\": \" \", \"labels\": [\"Poetry\"]}", nil, ErrEmptyText, 2},
		{"empty text allowed", "{\"text\": \"\", \"labels\": [\"Poetry\"]}", &Options{AllowEmpty: true}, nil, 0},
		{"invalid UTF-8 in JSON", "{\"text\": \"a\", \"labels\": [\"Poetry\"]}\n{\"text\": \"caf\xe9\", \"labels\": [\"Poetry\"]}", nil, ErrFormat, 2},
		{"first byte of a byte order mark alone", "\xef" + `{"text": "a", "labels": ["Poetry"]}`, nil, ErrFormat, 1},
		{"long white space first", strings.Repeat("\n", 70000) + "{\"text\": \"a\", \"labels\": [\"Jazz\"]}", nil, ErrUnknownLabel, 70001},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(c.in), "f", tr, c.opts)
			if c.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			checkErr(t, err, c.want, "f", c.line)
		})
	}
}

// TestCutShortMessages checks that a file ending inside a tag says so.
func TestCutShortMessages(t *testing.T) {
	tr := smallTree(t)
	for _, in := range []string{
		"<book><body>b</body><metadata><topics><d0>Poetry</d0></topics></metadata></boo",
		"<book><body>b</body><metad",
		"<book date=\"2016",
	} {
		_, err := Read(strings.NewReader(in), "f", tr, nil)
		if err == nil || !strings.Contains(err.Error(), "cut short") {
			t.Errorf("%q: error %v, want one saying the file is cut short", in, err)
		}
	}
}

// TestEntities checks the decoding of character references: named and
// numeric ones with a semicolon are decoded, a bare & and legacy names
// without a semicolon are kept, as is an unknown name.
func TestEntities(t *testing.T) {
	for in, want := range map[string]string{
		"a &amp; b &quot;c&quot; &#39;d&#8217; &#x2019;": "a & b \"c\" 'd’ ’",
		"Salt & pepper &not now &copy 2016":              "Salt & pepper &not now &copy 2016",
		"&notanentity; &; &#; &amp":                      "&notanentity; &; &#; &amp",
		"co&shy;operate":                                 "co\u00adoperate",
		"&semi;&amp;":                                    ";&",
	} {
		if got := unescape(in); got != want {
			t.Errorf("unescape(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestMissingBlurbFile checks the hint for a BlurbGenreCollection file that
// is not there: the data set's address.
func TestMissingBlurbFile(t *testing.T) {
	_, err := ReadFile(t.TempDir()+"/BlurbGenreCollection_EN_train.txt", nil, nil)
	if err == nil || !strings.Contains(err.Error(), DownloadURL) || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("error %v", err)
	}
	_, err = ReadFile(t.TempDir()+"/other.txt", nil, nil)
	if err == nil || strings.Contains(err.Error(), DownloadURL) {
		t.Errorf("error %v", err)
	}
}

// TestTargets checks both target rules on the small tree, by hand: the set
// {Fiction, Fantasy, Epic Fantasy, Nonfiction, Cooking} is uniform 1/5 on
// each, or 1/2 on Epic Fantasy and Cooking, its most specific labels.
func TestTargets(t *testing.T) {
	tr := smallTree(t)
	y := []int{0, 1, 2, 4, 5}
	got := Uniform.Fill(make([]float64, tr.Len()), tr, y)
	if want := []float64{.2, .2, .2, 0, .2, .2, 0}; !slices.Equal(got, want) {
		t.Errorf("uniform %v, want %v", got, want)
	}
	got = Specific.Fill([]float64{9, 9, 9, 9, 9, 9, 9}, tr, y)
	if want := []float64{0, 0, .5, 0, 0, .5, 0}; !slices.Equal(got, want) {
		t.Errorf("specific %v, want %v", got, want)
	}
	// A set as given, with a gap: Fiction and Epic Fantasy, whose most
	// specific label is Epic Fantasy alone.
	got = Specific.Fill(make([]float64, tr.Len()), tr, []int{0, 2})
	if want := []float64{0, 0, 1, 0, 0, 0, 0}; !slices.Equal(got, want) {
		t.Errorf("specific with a gap %v, want %v", got, want)
	}
	c, err := Read(strings.NewReader("[\"Epic Fantasy\"]\n[\"Poetry\"]\n"), "y", tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := c.Targets(Uniform)
	third := 1.0 / 3
	if want := []float64{third, third, third, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}; !slices.Equal(m, want) {
		t.Errorf("Targets %v, want %v", m, want)
	}
	for _, y := range [][]int{{1, 1}, {2, 1}, {-1}, {7}, {}} {
		if ok, _ := panics(func() { Uniform.Fill(make([]float64, tr.Len()), tr, y) }); !ok {
			t.Errorf("Fill with the label set %v did not panic", y)
		}
	}
	for _, s := range []string{"uniform", "specific"} {
		if m, err := ParseTarget(s); err != nil || m.String() != s {
			t.Errorf("ParseTarget(%q) = %v, %v", s, m, err)
		}
	}
	if _, err := ParseTarget("leaves"); err == nil {
		t.Error("ParseTarget(leaves): no error")
	}
}

// TestReal20NG reads the 20 Newsgroups files of ../shared (skipped when
// absent): 11,314 and 7,532 posts (the counts of data/SOURCES.md), each with
// one group and its ancestors, as many labels as the group name has dotted
// prefixes that are nodes of the tree.
func TestReal20NG(t *testing.T) {
	const dir = "../../shared/data/text/20ng/"
	if _, err := os.Stat(dir + "20ng.tree"); err != nil {
		t.Skip("20 Newsgroups not available:", err)
	}
	tr, err := tree.ReadFile(dir+"20ng.tree", nil)
	if err != nil {
		t.Fatal(err)
	}
	for file, n := range map[string]int{"train.jsonl": 11314, "test.jsonl": 7532} {
		c, err := ReadFile(dir+file, tr, nil)
		if err != nil {
			t.Fatal(err)
		}
		if c.Len() != n {
			t.Errorf("%s: %d posts, want %d", file, c.Len(), n)
		}
		for i, d := range c.Docs {
			leaf := ""
			for _, l := range d.Labels {
				if len(c.Labels[l]) > len(leaf) {
					leaf = c.Labels[l]
				}
			}
			want := 0
			parts := strings.Split(leaf, ".")
			for k := range parts {
				if _, ok := tr.Index(strings.Join(parts[:k+1], ".")); ok {
					want++
				}
			}
			if len(d.Labels) != want || !tr.IsLeaf(mustIndex(t, tr, leaf)) {
				t.Fatalf("%s: labels %q", c.At(i), names(c, i))
			}
		}
	}
}

// panics reports whether f panics.
func panics(f func()) (ok bool, v any) {
	defer func() {
		if v = recover(); v != nil {
			ok = true
		}
	}()
	f()
	return
}

func mustIndex(t *testing.T, tr *tree.Tree, name string) int {
	i, ok := tr.Index(name)
	if !ok {
		t.Fatalf("%q not in the tree", name)
	}
	return i
}

// TestRealAAPD reads AAPD's validation split with its taxonomy (skipped
// when absent): 1,000 abstracts whose label sets the file lists closed, so
// closing them changes nothing.
func TestRealAAPD(t *testing.T) {
	const dir = "../../shared/data/text/aapd/"
	if _, err := os.Stat(dir + "aapd.taxonomy"); err != nil {
		t.Skip("AAPD not available:", err)
	}
	tr, err := tree.ReadTaxonomyFile(dir+"aapd.taxonomy", nil)
	if err != nil {
		t.Fatal(err)
	}
	closed, err := ReadFile(dir+"val.jsonl", tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	given, err := ReadFile(dir+"val.jsonl", tr, &Options{AsGiven: true})
	if err != nil {
		t.Fatal(err)
	}
	if closed.Len() != 1000 {
		t.Errorf("%d abstracts", closed.Len())
	}
	for i := range closed.Docs {
		if !slices.Equal(closed.Docs[i].Labels, given.Docs[i].Labels) {
			t.Fatalf("%s: closed %q, given %q", closed.At(i), names(closed, i), names(given, i))
		}
	}
}

// TestDescribe checks the statistics of a three-document corpus on the
// small tree, counted by hand: token counts 4, 0 and 2; label sets
// {Fiction, Fantasy, Epic Fantasy}, {Poetry} and {Poetry}.
func TestDescribe(t *testing.T) {
	tr := smallTree(t)
	in := `{"text": "the cat, the dog", "labels": ["Epic Fantasy"]}
{"text": "--", "labels": ["Poetry"]}
{"text": "a cat", "labels": ["Poetry"]}`
	c, err := Read(strings.NewReader(in), "in", tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := Describe(c, &vocab.Tokenizer{MaxLen: 3}, nil)
	want := Stats{
		Docs: 3, Tokens: 6, Empty: 1, LenMean: 2, LenMedian: 2, LenP90: 4, LenMax: 4,
		MaxLen: 3, Truncated: 1, KeptTokens: 5, // "the cat the" and "a cat"
		Types: 3, VocabWords: 2, VocabCoverage: 4.0 / 5, // the, cat twice; a once
		LabelDocs:    []int{1, 1, 1, 0, 0, 0, 2},
		LabelsPerDoc: 5.0 / 3, MinLabels: 1, MaxLabels: 3, UsedLabels: 4, DistinctLabelSets: 2,
		Depth: []DepthStats{
			{Depth: 1, Labels: 3, Used: 2, Docs: 3, Occurrences: 3}, // Fiction, Nonfiction, Poetry
			{Depth: 2, Labels: 3, Used: 1, Docs: 1, Occurrences: 1}, // Fantasy, Mystery, Cooking
			{Depth: 3, Labels: 1, Used: 1, Docs: 1, Occurrences: 1}, // Epic Fantasy
		},
	}
	s.Vocab = nil
	if !reflect.DeepEqual(*s, want) {
		t.Errorf("got  %+v\nwant %+v", *s, want)
	}
}

// TestBlurbDepthConflicts: a genre's level <dN> should match its depth in
// the tree. In the small forest Fiction is at depth 1 and Fantasy at 2, so
// <d0>Fiction</d0><d1>Fantasy</d1> agrees; <d0>Fantasy</d0> on line 2 and
// <d2>Cooking</d2> on line 3 (Cooking is at depth 2, <d2> wants 3) do not:
// 2 conflicts, the first on line 2, counted by hand. (Before, such files
// were read without a word.)
func TestBlurbDepthConflicts(t *testing.T) {
	rec := func(genres string) string {
		return "<book><body>b</body><metadata><topics>" + genres + "</topics></metadata></book>\n"
	}
	in := rec("<d0>Fiction</d0><d1>Fantasy</d1>") + rec("<d0>Fantasy</d0>") + rec("<d0>Nonfiction</d0><d2>Cooking</d2>")
	c, err := Read(strings.NewReader(in), "b.txt", smallTree(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := `b.txt:2: genre "Fantasy" is <d0>, but at depth 2 of the tree, where <d0> genres are at depth 1`
	if c.DepthConflicts != 2 || c.FirstDepthConflict != want {
		t.Errorf("DepthConflicts %d, first %q; want 2, %q", c.DepthConflicts, c.FirstDepthConflict, want)
	}
	c, err = Read(strings.NewReader(rec("<d0>Fiction</d0><d1>Fantasy</d1><d2>Epic Fantasy</d2>")), "b.txt", smallTree(t), nil)
	if err != nil || c.DepthConflicts != 0 {
		t.Errorf("a consistent file: %d conflicts, %v", c.DepthConflicts, err)
	}
}
