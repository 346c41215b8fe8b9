package vocab

import (
	"fmt"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Keep says which end of a document survives truncation to
// Tokenizer.MaxLen tokens.
type Keep int

const (
	// First keeps the first MaxLen tokens (the default): the opening of a
	// blurb, or a post's headers and first lines.
	First Keep = iota
	// Last keeps the last MaxLen tokens.
	Last
)

func (k Keep) String() string {
	switch k {
	case First:
		return "first"
	case Last:
		return "last"
	}
	return fmt.Sprintf("Keep(%d)", int(k))
}

// ParseKeep returns the Keep named s, "first" or "last".
func ParseKeep(s string) (Keep, error) {
	switch s {
	case "first":
		return First, nil
	case "last":
		return Last, nil
	}
	return 0, fmt.Errorf("unknown end %q: want first or last", s)
}

// Tokenizer splits text into word tokens by the rules of the package
// documentation. The zero value lower-cases, drops punctuation and keeps
// every token. A Tokenizer is a plain value: safe for concurrent use, and
// its fields are what a model file records.
type Tokenizer struct {
	// MaxLen truncates a document to at most MaxLen tokens; 0 means no
	// limit. Negative is a programmer error.
	MaxLen int `json:"max_len"`
	// Keep says which end survives truncation. Default First.
	Keep Keep `json:"keep"`
	// Punct keeps every punctuation mark or symbol as a token of its own
	// ("," "!" "$"). Default: they separate words and are dropped.
	Punct bool `json:"punct"`
	// Case keeps letter case. Default: tokens are lower-cased.
	Case bool `json:"case"`
}

// Character classes of ASCII bytes.
const (
	cSpace  = iota // separates, and is dropped
	cLetter        // part of a word
	cDigit         // part of a word
	cQuote         // ' : joins two letters
	cPoint         // . and , : join two digits
	cPunct         // a token of its own with Punct, else a separator
	cIgnore        // dropped, without separating words
)

var asciiClass = func() (t [utf8.RuneSelf]uint8) {
	for c := range t {
		switch {
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
			t[c] = cLetter
		case '0' <= c && c <= '9':
			t[c] = cDigit
		case c == '\'':
			t[c] = cQuote
		case c == '.' || c == ',':
			t[c] = cPoint
		case c <= ' ' || c == 0x7f:
			t[c] = cSpace
		default:
			t[c] = cPunct
		}
	}
	return t
}()

// class returns the class of rune r.
func class(r rune) uint8 {
	if r < utf8.RuneSelf {
		return asciiClass[r]
	}
	switch {
	case r == '\u2019' || r == '\u02bc' || r == '\u2018': // ’ ʼ ‘ used as apostrophes
		return cQuote
	case unicode.IsLetter(r) || unicode.IsMark(r):
		return cLetter
	case unicode.IsDigit(r):
		return cDigit
	case unicode.IsNumber(r): // ² ½ Ⅻ: part of a word, joined like letters
		return cLetter
	case unicode.IsPunct(r) || unicode.IsSymbol(r):
		return cPunct
	case r != '\u200b' && unicode.Is(unicode.Cf, r):
		// Format characters inside words: the soft hyphen (from &shy;),
		// the zero-width joiner and non-joiner, the word joiner.
		return cIgnore
	}
	return cSpace // spaces, controls, the zero-width space, U+FFFD for bad bytes
}

// Each calls fn with every token of text in order, until fn returns false,
// before truncation to MaxLen (which Append, Encode and Counter.Add apply).
// The token's bytes are valid only during the call. Each allocates two
// small buffers per call and nothing per token for text in NFC (all ASCII
// text is).
func (tk *Tokenizer) Each(text string, fn func(tok []byte) bool) {
	var buf, one [64]byte
	tok := buf[:0]
	stop := false
	var (
		last   uint8 // class of the last rune of tok
		mark   bool  // tok holds a non-ASCII rune, so it may need NFC
		joiner rune  // a ' . or , after tok, that joins it to what follows if a rune of the right class does
	)
	punct := func(r rune) {
		if tk.Punct && !stop {
			p := utf8.AppendRune(one[:0], r)
			if r >= utf8.RuneSelf && !norm.NFC.IsNormal(p) {
				// A singleton such as U+0387 GREEK ANO TELEIA, whose NFC
				// form is U+00B7 MIDDLE DOT.
				p = norm.NFC.Append(nil, p...)
			}
			stop = !fn(p)
		}
	}
	flush := func() {
		if len(tok) > 0 {
			if mark && !norm.NFC.IsNormal(tok) {
				tok = norm.NFC.Append(nil, tok...)
			}
			stop = !fn(tok)
		}
		tok, mark = buf[:0], false
		if joiner != 0 {
			punct(joiner)
			joiner = 0
		}
	}
	for i := 0; i < len(text) && !stop; {
		r, size := rune(text[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(text[i:])
		}
		i += size
		switch c := class(r); c {
		case cLetter, cDigit:
			if joiner != 0 {
				// An apostrophe joins two letters; a point or comma, two digits.
				if c == last && (c == cLetter) == (joiner == '\'') {
					tok = append(tok, byte(joiner))
					joiner = 0
				} else {
					flush()
				}
			}
			if r < utf8.RuneSelf {
				if !tk.Case && 'A' <= r && r <= 'Z' {
					r += 'a' - 'A'
				}
				tok = append(tok, byte(r))
			} else {
				if !tk.Case {
					r = unicode.ToLower(r)
				}
				tok = utf8.AppendRune(tok, r)
				mark = true
			}
			last = c
		case cQuote, cPoint:
			r = punctRune(r)
			if len(tok) == 0 || joiner != 0 {
				flush()
				punct(r)
			} else {
				joiner = r
			}
		case cPunct:
			flush()
			punct(r)
		case cIgnore:
		default:
			flush()
		}
	}
	flush()
}

// punctRune maps the apostrophes ’ ʼ ‘ to ' and leaves other runes as they
// are.
func punctRune(r rune) rune {
	if r == '\u2019' || r == '\u02bc' || r == '\u2018' {
		return '\''
	}
	return r
}

// Append appends the tokens of text to dst, truncated to MaxLen, and
// returns the extended slice.
func (tk *Tokenizer) Append(dst []string, text string) []string {
	if tk.MaxLen < 0 {
		panic("vocab: negative Tokenizer.MaxLen")
	}
	start := len(dst)
	tk.Each(text, func(tok []byte) bool {
		dst = append(dst, string(tok))
		return !tk.full(len(dst) - start)
	})
	return truncate(dst, start, tk.MaxLen, tk.Keep)
}

// full reports whether n tokens fill the document: MaxLen of them, when
// the first are kept.
func (tk *Tokenizer) full(n int) bool { return tk.MaxLen > 0 && tk.Keep == First && n >= tk.MaxLen }

// Count returns the number of tokens of text, before truncation.
func (tk *Tokenizer) Count(text string) int {
	n := 0
	tk.Each(text, func([]byte) bool { n++; return true })
	return n
}

// truncate keeps MaxLen elements of dst[start:] at the end k says.
func truncate[T any](dst []T, start, maxLen int, k Keep) []T {
	if n := len(dst) - start; maxLen > 0 && n > maxLen {
		if k == Last {
			copy(dst[start:], dst[len(dst)-maxLen:])
		}
		clear(dst[start+maxLen:])
		dst = dst[:start+maxLen]
	}
	return dst
}

// MarshalText writes k as "first" or "last".
func (k Keep) MarshalText() ([]byte, error) {
	if k != First && k != Last {
		return nil, fmt.Errorf("vocab: unknown Keep %d", int(k))
	}
	return []byte(k.String()), nil
}

// UnmarshalText reads "first" or "last".
func (k *Keep) UnmarshalText(b []byte) error {
	v, err := ParseKeep(string(b))
	if err != nil {
		return err
	}
	*k = v
	return nil
}
