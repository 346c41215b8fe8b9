package vocab

import (
	"bufio"
	"encoding/json"
	"os"
	"slices"
	"testing"
)

// TestVocab checks the IDs on counts worked out by hand: "a" 3 times, "b"
// and "c" twice, "d" once; MinCount 2 keeps a, b, c (b before c: equal
// counts in byte order) and <unk> counts the one "d".
func TestVocab(t *testing.T) {
	c := NewCounter()
	tk := &Tokenizer{}
	c.Add(tk, "c a b")
	c.Add(tk, "A d B")
	c.Add(tk, "a c")
	if c.Tokens() != 8 || c.Docs() != 3 || c.Types() != 4 || c.Count("a") != 3 {
		t.Fatalf("tokens %d docs %d types %d count(a) %d", c.Tokens(), c.Docs(), c.Types(), c.Count("a"))
	}
	for _, tc := range []struct {
		opts   *Options
		words  []string
		counts []int64
	}{
		{nil, []string{UnknownWord, "a", "b", "c"}, []int64{1, 3, 2, 2}},
		{&Options{MinCount: 1}, []string{UnknownWord, "a", "b", "c", "d"}, []int64{0, 3, 2, 2, 1}},
		{&Options{MinCount: 3}, []string{UnknownWord, "a"}, []int64{5, 3}},
		{&Options{MinCount: 1, MaxSize: 2}, []string{UnknownWord, "a", "b"}, []int64{3, 3, 2}},
		{&Options{MinCount: 9}, []string{UnknownWord}, []int64{8}},
	} {
		v := c.Vocab(tc.opts)
		if !slices.Equal(v.Words(), tc.words) {
			t.Errorf("%+v: words %q, want %q", tc.opts, v.Words(), tc.words)
			continue
		}
		for id := range v.Len() {
			if v.Count(id) != tc.counts[id] {
				t.Errorf("%+v: count of %q %d, want %d", tc.opts, v.Word(id), v.Count(id), tc.counts[id])
			}
			if v.ID(v.Word(id)) != int32(id) {
				t.Errorf("ID(%q) = %d, want %d", v.Word(id), v.ID(v.Word(id)), id)
			}
		}
	}
	v := c.Vocab(nil)
	if got := v.Encode(nil, tk, "A d, zebra c"); !slices.Equal(got, []int32{1, Unknown, Unknown, 3}) {
		t.Errorf("Encode: %v", got)
	}
}

// TestCounterTruncates checks that Add counts what truncation keeps, at
// either end.
func TestCounterTruncates(t *testing.T) {
	for _, keep := range []Keep{First, Last} {
		tk := &Tokenizer{MaxLen: 2, Keep: keep}
		c := NewCounter()
		c.Add(tk, "x y z")
		want := map[Keep][2]string{First: {"x", "y"}, Last: {"y", "z"}}[keep]
		if c.Tokens() != 2 || c.Count(want[0]) != 1 || c.Count(want[1]) != 1 || c.Types() != 2 {
			t.Errorf("keep %v: tokens %d types %d", keep, c.Tokens(), c.Types())
		}
	}
}

// TestAddTokensUnknown: "<unk>" given as a token counts as a token of the
// unknown word, not as a word of its own.
func TestAddTokensUnknown(t *testing.T) {
	c := NewCounter()
	c.AddTokens([]string{UnknownWord, "a", UnknownWord, "a"})
	v := c.Vocab(nil)
	if !slices.Equal(v.Words(), []string{UnknownWord, "a"}) || v.Count(Unknown) != 2 || c.Tokens() != 4 {
		t.Errorf("words %q, unknown count %d, tokens %d", v.Words(), v.Count(Unknown), c.Tokens())
	}
}

func TestNew(t *testing.T) {
	if _, err := New([]string{"a"}); err == nil {
		t.Error("no <unk> first: no error")
	}
	if _, err := New([]string{UnknownWord, "a", "a"}); err == nil {
		t.Error("a repeated word: no error")
	}
	v, err := New([]string{UnknownWord, "b", "a"})
	if err != nil || v.ID("a") != 2 || v.ID("zz") != Unknown {
		t.Errorf("New: %v, ID(a) %d", err, v.ID("a"))
	}
}

// read20NG reads the texts of all 18,846 posts of 20 Newsgroups in
// ../shared (train and test, 36 MB), or skips.
func read20NG(tb testing.TB) []string {
	var texts []string
	for _, name := range []string{"train", "test"} {
		f, err := os.Open("../../shared/data/text/20ng/" + name + ".jsonl")
		if err != nil {
			tb.Skip("20 Newsgroups not available:", err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			var post struct{ Text string }
			if err := json.Unmarshal(sc.Bytes(), &post); err != nil {
				tb.Fatal(err)
			}
			texts = append(texts, post.Text)
		}
		f.Close()
	}
	return texts
}

// BenchmarkCount20NG counts the tokens of all 18,846 posts of 20
// Newsgroups (36 MB of text): the tokenizer and the counting map together.
func BenchmarkCount20NG(b *testing.B) {
	c := read20NG(b)
	var size int64
	for _, text := range c {
		size += int64(len(text))
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		cnt := NewCounter()
		for _, text := range c {
			cnt.Add(&Tokenizer{}, text)
		}
	}
}

// BenchmarkEncode20NG encodes the same posts with their vocabulary.
func BenchmarkEncode20NG(b *testing.B) {
	c := read20NG(b)
	cnt := NewCounter()
	tk := &Tokenizer{}
	var size int64
	for _, text := range c {
		cnt.Add(tk, text)
		size += int64(len(text))
	}
	v := cnt.Vocab(nil)
	b.SetBytes(size)
	b.ReportAllocs()
	var ids []int32
	for b.Loop() {
		for _, text := range c {
			ids = v.Encode(ids[:0], tk, text)
		}
	}
}
