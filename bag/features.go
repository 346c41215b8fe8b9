package bag

import (
	"cmp"
	"slices"

	"github.com/twl-ldl/twl/embedding"
	"github.com/twl-ldl/twl/vocab"
)

// ngramMul combines the hashes of the words of an n-gram: h ← h·ngramMul +
// hash(word), in 64 bits (the odd constant is ⌊2⁶⁴/φ⌋, Knuth's
// multiplicative hashing).
const ngramMul = 0x9e3779b97f4a7c15

// encoder turns the tokens of a text into features, one token at a time.
type encoder struct {
	f     Features
	words int32
	v     *vocab.Vocab
	slot  []int32 // nil: raw features (Words + bucket); else the row of each bucket, −1 for none
	ring  [MaxWordNgrams]uint32
	seen  int // tokens seen
	skip  int // tokens still to skip (Keep Last)
	left  int // tokens still to take; −1: no limit
	dst   []int32
}

func (e *encoder) add(bucket uint32) {
	if e.slot == nil {
		e.dst = append(e.dst, e.words+int32(bucket))
	} else if r := e.slot[bucket]; r >= 0 {
		e.dst = append(e.dst, r)
	}
}

func (e *encoder) token(tok []byte) bool {
	if e.skip > 0 {
		e.skip--
		return true
	}
	if id := e.v.IDOf(tok); id != vocab.Unknown {
		e.dst = append(e.dst, id)
	}
	B := uint32(e.f.Buckets)
	if e.f.MaxN > 0 {
		embedding.Ngrams(tok, e.f.MinN, e.f.MaxN, func(h uint32) { e.add(h % B) })
	}
	if N := e.f.WordNgrams; N > 1 {
		const M = MaxWordNgrams
		t := e.seen
		e.ring[t%M] = embedding.Hash(tok)
		for n := 2; n <= N && n <= t+1; n++ {
			h := uint64(e.ring[(t-n+1)%M])
			for j := t - n + 2; j <= t; j++ {
				h = h*ngramMul + uint64(e.ring[j%M])
			}
			e.add(uint32(h % uint64(B)))
		}
	}
	e.seen++
	if e.left > 0 {
		e.left--
	}
	return e.left != 0
}

// run appends the features of text to e.dst.
func (e *encoder) run(tk *vocab.Tokenizer, text string) {
	if tk.MaxLen < 0 {
		panic("bag: negative Tokenizer.MaxLen")
	}
	e.seen, e.skip, e.left = 0, 0, -1
	if tk.MaxLen > 0 {
		e.left = tk.MaxLen
		if tk.Keep == vocab.Last {
			e.skip = max(0, tk.Count(text)-tk.MaxLen)
		}
	}
	tk.Each(text, e.token)
}

// AppendRaw appends the raw features of text, as tk splits and truncates
// it, to dst: for each token in order, its word ID in v when v has it, the
// features Words + bucket of its character n-grams (MaxN > 0), and those of
// the word n-grams it ends (of 2 to WordNgrams words, unknown words
// included). A word n-gram's bucket is its 64-bit hash modulo Buckets, the
// hash combining the words' hashes (embedding.Hash) as h·φ⁻¹2⁶⁴ + hash; a
// character n-gram's is its hash modulo Buckets, as in fastText. Training
// counts raw features to choose the buckets that get a row (KeepBuckets).
// It also returns the number of tokens taken.
func AppendRaw(dst []int32, f Features, v *vocab.Vocab, tk *vocab.Tokenizer, text string) ([]int32, int) {
	e := encoder{f: f, words: int32(v.Len()), v: v, dst: dst}
	e.run(tk, text)
	return e.dst, e.seen
}

// Encode appends the features of text to dst as rows of x: word IDs, and
// the rows of the n-gram buckets that have one (the others are left out).
// v and tk must be those the model was trained with. It allocates nothing
// beyond the growth of dst for ASCII text.
func (x *Index) Encode(dst []int32, v *vocab.Vocab, tk *vocab.Tokenizer, text string) []int32 {
	if v.Len() != x.Words {
		panic("bag: the vocabulary is not the index's")
	}
	e := encoder{f: x.Features, words: int32(x.Words), v: v, slot: x.slot, dst: dst}
	e.run(tk, text)
	return e.dst
}

// EncodeCounted appends to dst the number of text's features and then the
// features (Encode): a member's part of Ensemble.Encode.
func (x *Index) EncodeCounted(dst []int32, v *vocab.Vocab, tk *vocab.Tokenizer, text string) []int32 {
	at := len(dst)
	dst = x.Encode(append(dst, 0), v, tk, text)
	dst[at] = int32(len(dst) - at - 1)
	return dst
}

// Encode is m.Index.Encode.
func (m *Model) Encode(dst []int32, v *vocab.Vocab, tk *vocab.Tokenizer, text string) []int32 {
	return m.Index.Encode(dst, v, tk, text)
}

// MapRaw appends to dst the rows of the raw features raw (AppendRaw):
// word IDs as they are, buckets without a row left out.
func (x *Index) MapRaw(dst, raw []int32) []int32 {
	V := int32(x.Words)
	for _, f := range raw {
		if f < V {
			dst = append(dst, f)
		} else if r := x.slot[f-V]; r >= 0 {
			dst = append(dst, r)
		}
	}
	return dst
}

// KeepBuckets returns the buckets that occur at least minCount times in
// the raw features of docs (AppendRaw, with a vocabulary of V words), the
// most frequent first (ties by bucket): the n-gram rows of a model trained
// on docs. minCount < 1 counts as 1.
func KeepBuckets(docs [][]int32, V int, f Features, minCount int) []int32 {
	counts := make([]int32, f.Buckets)
	for _, d := range docs {
		for _, x := range d {
			if x >= int32(V) {
				if b := x - int32(V); counts[b] < 1<<30 {
					counts[b]++
				}
			}
		}
	}
	var keep []int32
	for b, c := range counts {
		if c > 0 && int(c) >= minCount {
			keep = append(keep, int32(b))
		}
	}
	slices.SortStableFunc(keep, func(a, b int32) int { return cmp.Compare(counts[b], counts[a]) })
	return keep
}
