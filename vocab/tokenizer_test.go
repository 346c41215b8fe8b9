package vocab

import (
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// TestTokenize checks the rules of the package documentation on cases
// worked out by hand from them.
func TestTokenize(t *testing.T) {
	for _, c := range []struct {
		name, in string
		tk       Tokenizer
		want     []string
	}{
		{"plain", "The Cat sat.", Tokenizer{}, []string{"the", "cat", "sat"}},
		{"apostrophes", "Don't stop; it’s O'Brien’s rock’n’roll", Tokenizer{}, []string{"don't", "stop", "it's", "o'brien's", "rock'n'roll"}},
		{"quotes around", "‘quoted’ 'single' \"double\"", Tokenizer{}, []string{"quoted", "single", "double"}},
		{"numbers", "pi is 3.14, or 1,000 in 2020s; mp3 b2b", Tokenizer{}, []string{"pi", "is", "3.14", "or", "1,000", "in", "2020s", "mp3", "b2b"}},
		{"points between letters", "U.S.A. x.5 5.x 1.2.3", Tokenizer{}, []string{"u", "s", "a", "x", "5", "5", "x", "1.2.3"}},
		{"hyphens and mail", "well-known e-mail: joe@x.com", Tokenizer{}, []string{"well", "known", "e", "mail", "joe", "x", "com"}},
		{"accents", "ÉCOLE Straße naïve CAFÉ", Tokenizer{}, []string{"école", "straße", "naïve", "café"}},
		{"combining accent", "cafe\u0301 cafés", Tokenizer{}, []string{"café", "cafés"}},
		{"other scripts", "東京タワー Москва ΑΘΗΝΑ", Tokenizer{}, []string{"東京タワー", "москва", "αθηνα"}},
		{"numbers and symbols", "x² ½cup 5€ 😀ok", Tokenizer{}, []string{"x²", "½cup", "5", "ok"}},
		{"white space and controls", "a\tb\nc\r\nd\u00a0e\u200bf\x00g", Tokenizer{}, []string{"a", "b", "c", "d", "e", "f", "g"}},
		{"invalid UTF-8", "ab\xffcd", Tokenizer{}, []string{"ab", "cd"}},
		{"format characters inside words", "co\u00adoperate می\u200cخواهم a\u2060b c\u200bd", Tokenizer{}, []string{"cooperate", "میخواهم", "ab", "c", "d"}},
		{"case kept", "The CAT", Tokenizer{Case: true}, []string{"The", "CAT"}},
		{"punctuation kept", "Hi, well-known 'x' U.S. a''b 3.", Tokenizer{Punct: true},
			[]string{"hi", ",", "well", "-", "known", "'", "x", "'", "u", ".", "s", ".", "a", "'", "'", "b", "3", "."}},
		{"curly apostrophe as punctuation", "’tis", Tokenizer{Punct: true}, []string{"'", "tis"}},
		{"first", "a b c d e", Tokenizer{MaxLen: 3}, []string{"a", "b", "c"}},
		{"last", "a b c d e", Tokenizer{MaxLen: 3, Keep: Last}, []string{"c", "d", "e"}},
		{"short", "a b", Tokenizer{MaxLen: 3, Keep: Last}, []string{"a", "b"}},
		{"empty", " \n\t-- ", Tokenizer{}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := c.tk.Append(nil, c.in)
			if !slices.Equal(got, c.want) {
				t.Errorf("%q: got %q, want %q", c.in, got, c.want)
			}
		})
	}
}

// TestAppendKeepsDst checks that Append and Encode add to what dst holds.
func TestAppendKeepsDst(t *testing.T) {
	tk := Tokenizer{MaxLen: 2, Keep: Last}
	got := tk.Append([]string{"x"}, "a b c")
	if !slices.Equal(got, []string{"x", "b", "c"}) {
		t.Errorf("got %q", got)
	}
	v, _ := New([]string{UnknownWord, "b", "c"})
	ids := v.Encode([]int32{7}, &tk, "a b c")
	if !slices.Equal(ids, []int32{7, 1, 2}) {
		t.Errorf("got %v", ids)
	}
}

// TestEachStops checks that Each stops when fn returns false.
func TestEachStops(t *testing.T) {
	var got []string
	(&Tokenizer{Punct: true}).Each("a, b c", func(tok []byte) bool {
		got = append(got, string(tok))
		return len(got) < 2
	})
	if !slices.Equal(got, []string{"a", ","}) {
		t.Errorf("got %q", got)
	}
}

// TestTokenizeAllocs checks that Each allocates a constant, not per token:
// its two small buffers, which escape through fn.
func TestTokenizeAllocs(t *testing.T) {
	text := strings.Repeat("Don't stop: it's 3.14, or 1,000 café words. ", 50)
	tk := Tokenizer{Punct: true}
	n := 0
	allocs := testing.AllocsPerRun(10, func() {
		tk.Each(text, func([]byte) bool { n++; return true })
	})
	if allocs > 2 {
		t.Errorf("%v allocations per Each of %d tokens", allocs, tk.Count(text))
	}
}

// checkTokens checks the invariants of every token: non-empty, UTF-8 in
// NFC, lower-case unless kept, and either one punctuation rune or word
// runes with joiners only between two runes of the same kind.
func checkTokens(t *testing.T, tk Tokenizer, in string, toks []string) {
	t.Helper()
	for _, w := range toks {
		if w == "" || !utf8.ValidString(w) || !norm.NFC.IsNormalString(w) {
			t.Fatalf("%q: token %q is empty, not UTF-8 or not NFC", in, w)
		}
		if utf8.RuneCountInString(w) == 1 {
			continue
		}
		for _, r := range w {
			if unicode.IsSpace(r) || r == utf8.RuneError {
				t.Fatalf("%q: token %q holds %q", in, w, r)
			}
		}
		if !tk.Case && w != strings.Map(unicode.ToLower, w) && norm.NFC.String(strings.Map(unicode.ToLower, w)) != w {
			t.Fatalf("%q: token %q is not lower-case", in, w)
		}
	}
}

func FuzzTokenize(f *testing.F) {
	for _, s := range []string{"Don't stop; it’s 3.14, 1,000", "a''b ‘x’ U.S.A.", "cafe\u0301 ÉCOLE 東京", "x² ½ 😀 \xff", ""} {
		f.Add(s, false, false, 0, false)
		f.Add(s, true, true, 2, true)
	}
	f.Fuzz(func(t *testing.T, in string, punct, keepCase bool, maxLen int, last bool) {
		maxLen = max(0, maxLen%8)
		tk := Tokenizer{Punct: punct, Case: keepCase, MaxLen: maxLen}
		if last {
			tk.Keep = Last
		}
		got := tk.Append(nil, in)
		if maxLen > 0 && len(got) > maxLen {
			t.Fatalf("%d tokens, MaxLen %d", len(got), maxLen)
		}
		checkTokens(t, tk, in, got)
		// Truncation keeps one end of the untruncated tokens.
		all := (&Tokenizer{Punct: punct, Case: keepCase}).Append(nil, in)
		want := all
		if maxLen > 0 && len(all) > maxLen {
			if last {
				want = all[len(all)-maxLen:]
			} else {
				want = all[:maxLen]
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%q: got %q, want %q", in, got, want)
		}
		if n := tk.Count(in); n != len(all) {
			t.Fatalf("Count %d, want %d", n, len(all))
		}
	})
}
