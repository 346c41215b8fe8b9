package embedding

import (
	"slices"
	"testing"
)

// TestHash checks fastText's FNV-1a against values computed from the
// definition by a few lines of Python (offset 2166136261, prime 16777619,
// each byte sign-extended from int8 before the xor). The last column is the
// hash without the sign extension, which differs for every string with a
// byte ≥ 0x80: that is the mistake this test catches.
func TestHash(t *testing.T) {
	for _, tc := range []struct {
		s              string
		want, unsigned uint32
	}{
		{"", 2166136261, 2166136261},
		{"a", 3826002220, 3826002220},
		{"<c", 1727453512, 1727453512},
		{"the>", 2502060934, 2502060934},
		{"é", 1023043777, 513665217},
		{"<é", 672036627, 1990897939},
		{"afé>", 2747966012, 2308530748},
		{"東京", 1997330287, 1759422319},
		{"it’s", 4975542, 1337418934},
		{"😀", 604031496, 866293256},
	} {
		if got := hash(tc.s); got != tc.want {
			t.Errorf("hash(%q) = %d, want %d (%d without sign extension)", tc.s, got, tc.want, tc.unsigned)
		}
	}
}

// TestNgrams lists the n-grams of small words, worked out by hand from the
// rule: substrings of "<"+word+">" of minn to maxn characters, "<" and ">"
// alone left out, a byte 10xxxxxx kept with the byte before it.
func TestNgrams(t *testing.T) {
	for _, tc := range []struct {
		word       string
		minn, maxn int
		want       []string
	}{
		{"ab", 1, 2, []string{"<a", "a", "ab", "b", "b>"}},
		{"ab", 1, 1, []string{"a", "b"}},
		{"ab", 3, 6, []string{"<ab", "<ab>", "ab>"}},
		{"ab", 5, 6, nil},
		{"ab", 2, 0, nil}, // maxn 0: no n-grams
		{"ab", 3, 2, nil}, // minn > maxn
		{"", 1, 3, []string{"<>"}},
		{"é", 1, 3, []string{"<é", "<é>", "é", "é>"}},
		{"東京", 2, 2, []string{"<東", "東京", "京>"}},
		{"😀", 1, 1, []string{"😀"}},
		// Not UTF-8: a lone continuation byte sticks to "<", a lone lead
		// byte is a character of its own.
		{"\xa9x", 1, 2, []string{"<\xa9x", "x", "x>"}},
		{"\xe6x", 1, 1, []string{"\xe6", "x"}},
	} {
		var got []string
		pad := "<" + tc.word + ">"
		ngrams(tc.word, tc.minn, tc.maxn, func(h uint32, i, j int) {
			got = append(got, pad[i:j])
			if h != hash(pad[i:j]) {
				t.Errorf("%q: hash of %q is %d, want %d", tc.word, pad[i:j], h, hash(pad[i:j]))
			}
		})
		if !slices.Equal(got, tc.want) {
			t.Errorf("ngrams(%q, %d, %d) = %q, want %q", tc.word, tc.minn, tc.maxn, got, tc.want)
		}
	}
}
