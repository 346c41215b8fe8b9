package vocab

import (
	"cmp"
	"fmt"
	"slices"
)

// Unknown is the ID of UnknownWord, the token that stands for every word not
// in a Vocab.
const Unknown = 0

// UnknownWord is the word of ID Unknown. The Tokenizer never produces it:
// '<' and '>' are punctuation.
const UnknownWord = "<unk>"

// Counter counts tokens, to build a Vocab from a training corpus.
type Counter struct {
	index  map[string]int32 // word → its position in words and counts
	words  []string
	counts []int64
	tokens int64
	docs   int
}

// NewCounter returns an empty Counter.
func NewCounter() *Counter { return &Counter{index: make(map[string]int32)} }

// add counts one token. The lookup converts tok without allocating; only a
// new word is copied into a string.
func (c *Counter) add(tok []byte) {
	if i, ok := c.index[string(tok)]; ok {
		c.counts[i]++
		return
	}
	w := string(tok)
	c.index[w] = int32(len(c.words))
	c.words = append(c.words, w)
	c.counts = append(c.counts, 1)
}

// Add counts the tokens of text, as tk splits and truncates them.
func (c *Counter) Add(tk *Tokenizer, text string) {
	skip := 0 // tokens truncation removes at the start
	if tk.MaxLen > 0 && tk.Keep == Last {
		skip = max(0, tk.Count(text)-tk.MaxLen)
	}
	n := 0
	tk.Each(text, func(tok []byte) bool {
		if n++; n > skip {
			c.add(tok)
		}
		return !tk.full(n)
	})
	c.tokens += int64(n - skip)
	c.docs++
}

// AddTokens counts the given tokens as one document. A token equal to
// UnknownWord counts as a token but not as a word: it stays unknown.
func (c *Counter) AddTokens(toks []string) {
	for _, w := range toks {
		if w != UnknownWord {
			c.add([]byte(w))
		}
	}
	c.tokens += int64(len(toks))
	c.docs++
}

// Tokens returns the number of tokens counted; Docs the number of documents;
// Types the number of distinct tokens.
func (c *Counter) Tokens() int64 { return c.tokens }
func (c *Counter) Docs() int     { return c.docs }
func (c *Counter) Types() int    { return len(c.words) }

// Count returns how often word was counted.
func (c *Counter) Count(word string) int64 {
	if i, ok := c.index[word]; ok {
		return c.counts[i]
	}
	return 0
}

// Options bound the size of a Vocab. The zero value (or nil) gives the
// defaults.
type Options struct {
	// MinCount is the least count a word needs to enter. Default (0): 2,
	// so words seen once in training stand for UnknownWord, which then has
	// training examples of its own. Use 1 to keep every word.
	MinCount int64 `json:"min_count"`
	// MaxSize is the most words kept, UnknownWord excluded: the MaxSize
	// most frequent. Default (0): no limit.
	MaxSize int `json:"max_size"`
}

// Vocab maps words to IDs 0 … Len()−1: ID Unknown is UnknownWord, then the
// words by decreasing count, words of equal count in byte order. It is
// immutable and safe for concurrent use.
type Vocab struct {
	words  []string
	counts []int64
	index  map[string]int32
}

// Vocab returns the vocabulary of the counted words under opts.
func (c *Counter) Vocab(opts *Options) *Vocab {
	minCount, maxSize := int64(2), 0
	if opts != nil {
		if opts.MinCount < 0 || opts.MaxSize < 0 {
			panic("vocab: negative Options.MinCount or MaxSize")
		}
		if opts.MinCount > 0 {
			minCount = opts.MinCount
		}
		maxSize = opts.MaxSize
	}
	type wc struct {
		w string
		n int64
	}
	var all []wc
	for i, n := range c.counts {
		if n >= minCount {
			all = append(all, wc{c.words[i], n})
		}
	}
	slices.SortFunc(all, func(a, b wc) int {
		if a.n != b.n {
			return cmp.Compare(b.n, a.n)
		}
		return cmp.Compare(a.w, b.w)
	})
	if maxSize > 0 && len(all) > maxSize {
		all = all[:maxSize]
	}
	words := make([]string, 1, len(all)+1)
	counts := make([]int64, 1, len(all)+1)
	words[0] = UnknownWord
	for _, e := range all {
		words = append(words, e.w)
		counts = append(counts, e.n)
	}
	// The unknown word counts every token of a word left out.
	counts[0] = c.tokens
	for _, n := range counts[1:] {
		counts[0] -= n
	}
	v, err := New(words)
	if err != nil {
		panic(err) // not reached: the words are distinct
	}
	v.counts = counts
	return v
}

// New returns the Vocab of the given words, in that order: words[0] must be
// UnknownWord and no word may appear twice (a model file's vocabulary is
// read back this way). Counts are unknown (0).
func New(words []string) (*Vocab, error) {
	if len(words) == 0 || words[0] != UnknownWord {
		return nil, fmt.Errorf("vocab: the first word must be %q", UnknownWord)
	}
	if len(words) > 1<<31-1 {
		return nil, fmt.Errorf("vocab: %d words, more than an int32 can number", len(words))
	}
	v := &Vocab{words: slices.Clone(words), counts: make([]int64, len(words)), index: make(map[string]int32, len(words))}
	for i, w := range words {
		if j, ok := v.index[w]; ok {
			return nil, fmt.Errorf("vocab: word %q at %d and %d", w, j, i)
		}
		v.index[w] = int32(i)
	}
	return v, nil
}

// Len returns the number of IDs, UnknownWord included.
func (v *Vocab) Len() int { return len(v.words) }

// Word returns the word of ID id.
func (v *Vocab) Word(id int) string { return v.words[id] }

// Words returns the words in ID order, in a new slice.
func (v *Vocab) Words() []string { return slices.Clone(v.words) }

// Count returns the training count of ID id: for Unknown, the tokens of the
// words left out; 0 for a Vocab made by New.
func (v *Vocab) Count(id int) int64 { return v.counts[id] }

// ID returns the ID of word, or Unknown.
func (v *Vocab) ID(word string) int32 {
	if id, ok := v.index[word]; ok {
		return id
	}
	return Unknown
}

// IDOf is ID for a token's bytes; it allocates nothing.
func (v *Vocab) IDOf(tok []byte) int32 {
	if id, ok := v.index[string(tok)]; ok {
		return id
	}
	return Unknown
}

// Encode appends the IDs of the tokens of text, as tk splits and truncates
// them, to dst and returns the extended slice. It allocates nothing beyond
// the growth of dst for ASCII text.
func (v *Vocab) Encode(dst []int32, tk *Tokenizer, text string) []int32 {
	if tk.MaxLen < 0 {
		panic("vocab: negative Tokenizer.MaxLen")
	}
	start := len(dst)
	tk.Each(text, func(tok []byte) bool {
		id, ok := v.index[string(tok)]
		if !ok {
			id = Unknown
		}
		dst = append(dst, id)
		return !tk.full(len(dst) - start)
	})
	return truncate(dst, start, tk.MaxLen, tk.Keep)
}
