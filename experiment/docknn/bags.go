package docknn

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/embedding"
	"github.com/twl-ldl/twl/vocab"
)

// StopWords are the words dropped from every document: English function
// words (articles, pronouns and their forms, auxiliary and modal verbs,
// prepositions, conjunctions, common adverbs of degree and place) and their
// usual contractions, lower-case, as vocab.Tokenizer writes them ("don't"
// is one token). A short list written for twl, in the spirit of the SMART
// list Kusner et al. (2015) remove (571 words): content words such as
// "system", "know" or "thanks", which the longer list drops, stay. Sorted;
// the tests check that it holds no duplicate.
var StopWords = []string{
	"a", "about", "above", "after", "again", "against", "all", "also", "am", "an", "and", "any", "are", "aren't", "as", "at",
	"be", "because", "been", "before", "being", "below", "between", "both", "but", "by",
	"can", "can't", "cannot", "could", "couldn't",
	"did", "didn't", "do", "does", "doesn't", "doing", "don't", "down", "during",
	"each", "either", "else", "etc", "ever", "every",
	"few", "for", "from", "further",
	"had", "hadn't", "has", "hasn't", "have", "haven't", "having", "he", "he'd", "he'll", "he's", "her", "here", "here's",
	"hers", "herself", "him", "himself", "his", "how", "how's", "however",
	"i", "i'd", "i'll", "i'm", "i've", "if", "in", "into", "is", "isn't", "it", "it's", "its", "itself",
	"just", "let's",
	"may", "me", "might", "more", "most", "must", "mustn't", "my", "myself",
	"neither", "no", "nor", "not", "now",
	"of", "off", "on", "once", "only", "or", "other", "ought", "our", "ours", "ourselves", "out", "over", "own",
	"same", "shall", "shan't", "she", "she'd", "she'll", "she's", "should", "shouldn't", "so", "some", "such",
	"than", "that", "that's", "the", "their", "theirs", "them", "themselves", "then", "there", "there's", "these", "they",
	"they'd", "they'll", "they're", "they've", "this", "those", "though", "through", "thus", "to", "too",
	"under", "until", "up", "upon", "us",
	"very",
	"was", "wasn't", "we", "we'd", "we'll", "we're", "we've", "were", "weren't", "what", "what's", "when", "when's",
	"where", "where's", "whether", "which", "while", "who", "who's", "whom", "whose", "why", "why's", "will", "with",
	"won't", "would", "wouldn't",
	"yet", "you", "you'd", "you'll", "you're", "you've", "your", "yours", "yourself", "yourselves",
}

var stopSet = func() map[string]bool {
	m := make(map[string]bool, len(StopWords))
	for _, w := range StopWords {
		m[w] = true
	}
	return m
}()

// Bag is a normalized bag of words: the indices of its words among the
// points (the union vocabulary) and their masses, which sum to 1, the most
// frequent word first.
type Bag struct {
	Words []int
	Mass  []float64
}

// Len returns the number of distinct words of the bag.
func (b Bag) Len() int { return len(b.Words) }

// TokenCounts counts the tokens of the drawn documents by their fate.
type TokenCounts struct {
	Tokens    int64 `json:"tokens"`              // all tokens of the documents
	Stop      int64 `json:"stop"`                // dropped as stop words
	NoVector  int64 `json:"no_vector"`           // dropped for want of a vector
	Truncated int64 `json:"truncated"`           // dropped with the words past the Words most frequent
	Kept      int64 `json:"kept"`                // counted in the bags
	Distinct  int64 `json:"bag_words"`           // words of the bags, summed over the documents
	Documents int   `json:"documents"`           // documents drawn
	Skipped   int   `json:"skipped"`             // passed over: no word left
	Available int   `json:"available"`           // documents in the file
	Examined  int   `json:"examined"`            // documents of the permutation looked at
	Classes   int   `json:"classes"`             // distinct classes among the drawn documents
	MaxWords  int   `json:"max_words"`           // the largest bag
	MinWords  int   `json:"min_words"`           // the smallest bag
	Truncs    int   `json:"truncated_documents"` // documents with more than Words distinct words
}

// lexicon holds every word met in the documents examined, with its vector
// (or none), before the union vocabulary of the bags is taken from it.
type lexicon struct {
	src   embedding.Source
	d     int
	index map[string]int32 // word → row of vecs; −1: no vector
	words []string
	vecs  []float64
	buf   []float32
}

func newLexicon(src embedding.Source) *lexicon {
	return &lexicon{src: src, d: src.Dim(), index: map[string]int32{}, buf: make([]float32, src.Dim())}
}

// row returns the row of the word tok, looking it up the first time, and
// −1 if it has no vector.
func (l *lexicon) row(tok []byte) int32 {
	if r, ok := l.index[string(tok)]; ok {
		return r
	}
	w := string(tok)
	if l.src.Lookup(l.buf, w) == embedding.Missing {
		l.index[w] = -1
		return -1
	}
	r := int32(len(l.words))
	l.index[w] = r
	l.words = append(l.words, w)
	for _, v := range l.buf {
		l.vecs = append(l.vecs, float64(v))
	}
	return r
}

// rawBag is a bag over the rows of a lexicon, with its word counts.
type rawBag struct {
	rows   []int32
	counts []int
}

// makeBag splits text into tokens and returns its bag of at most maxWords
// words, counting the tokens in tc. pos is scratch: a row's position in the
// bag while the text is read, reset before return.
func makeBag(text string, tk *vocab.Tokenizer, lex *lexicon, maxWords int, pos map[int32]int, tc *TokenCounts) rawBag {
	var b rawBag
	tk.Each(text, func(tok []byte) bool {
		tc.Tokens++
		if stopSet[string(tok)] {
			tc.Stop++
			return true
		}
		r := lex.row(tok)
		if r < 0 {
			tc.NoVector++
			return true
		}
		if p, ok := pos[r]; ok {
			b.counts[p]++
		} else {
			pos[r] = len(b.rows)
			b.rows = append(b.rows, r)
			b.counts = append(b.counts, 1)
		}
		return true
	})
	clear(pos)
	// Most frequent first; the first in the text on ties (a stable sort of
	// the words, which are in order of appearance). Keep maxWords.
	idx := make([]int, len(b.rows))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(i, j int) int { return b.counts[j] - b.counts[i] })
	keep := min(len(idx), maxWords)
	out := rawBag{make([]int32, keep), make([]int, keep)}
	for k, i := range idx[:keep] {
		out.rows[k], out.counts[k] = b.rows[i], b.counts[i]
	}
	if len(idx) > keep {
		tc.Truncs++
		for _, i := range idx[keep:] {
			tc.Truncated += int64(b.counts[i])
		}
	}
	b = out
	for _, c := range b.counts {
		tc.Kept += int64(c)
	}
	tc.Distinct += int64(len(b.rows))
	return b
}

// classOf returns the class of document d of c: its one label, or with a
// label tree its most specific one.
func classOf(c *corpus.Corpus, d corpus.Doc) (string, error) {
	switch {
	case len(d.Labels) == 1:
		return c.Labels[d.Labels[0]], nil
	case len(d.Labels) == 0:
		return "", fmt.Errorf("%w: %s:%d: the document has no label", ErrData, c.File, d.Line)
	case c.Tree == nil:
		return "", fmt.Errorf("%w: %s:%d: the document has %d labels; a class is one label (or, with a label tree, the most specific)",
			ErrData, c.File, d.Line, len(d.Labels))
	}
	var spec []int
	for _, l := range d.Labels {
		leaf := true
		for _, o := range d.Labels {
			if o != l && c.Tree.InSubtree(o, l) {
				leaf = false
				break
			}
		}
		if leaf {
			spec = append(spec, l)
		}
	}
	if len(spec) != 1 {
		names := make([]string, len(spec))
		for i, l := range spec {
			names[i] = c.Labels[l]
		}
		return "", fmt.Errorf("%w: %s:%d: the document has %d most specific labels %q; a class is one label", ErrData, c.File, d.Line, len(spec), names)
	}
	return c.Labels[spec[0]], nil
}

// draw draws n documents of c with a non-empty bag, in the order of a
// permutation from src, and returns their bags and classes. Unless
// keepHeaders, the texts lose their header blocks first.
func draw(c *corpus.Corpus, n, maxWords int, keepHeaders bool, src rand.Source, lex *lexicon) ([]rawBag, []string, TokenCounts, error) {
	tc := TokenCounts{Available: c.Len(), MinWords: maxWords}
	tk := &vocab.Tokenizer{}
	pos := map[int32]int{}
	var bags []rawBag
	var classes []string
	for _, i := range rand.New(src).Perm(c.Len()) {
		if len(bags) == n {
			break
		}
		tc.Examined++
		d := c.Docs[i]
		class, err := classOf(c, d)
		if err != nil {
			return nil, nil, tc, err
		}
		text := d.Text
		if !keepHeaders {
			text = StripHeaders(text)
		}
		b := makeBag(text, tk, lex, maxWords, pos, &tc)
		if len(b.rows) == 0 {
			tc.Skipped++
			continue
		}
		bags = append(bags, b)
		classes = append(classes, class)
		tc.MaxWords = max(tc.MaxWords, len(b.rows))
		tc.MinWords = min(tc.MinWords, len(b.rows))
	}
	tc.Documents = len(bags)
	if len(bags) < n {
		return nil, nil, tc, fmt.Errorf("%w: %s has %d documents with a word left of the %d asked for (of %d documents, %d without one)",
			ErrData, c.File, len(bags), n, c.Len(), tc.Skipped)
	}
	seen := map[string]bool{}
	for _, cl := range classes {
		seen[cl] = true
	}
	tc.Classes = len(seen)
	return bags, classes, tc, nil
}

// points is the union vocabulary of a set of bags: the words, their
// vectors row-major, and the bags over them.
type points struct {
	names []string
	x     []float64
	d     int
}

// row returns the vector of point i.
func (p *points) row(i int) []float64 { return p.x[i*p.d : (i+1)*p.d : (i+1)*p.d] }

// union returns the points of every word of the raw bags, in order of first
// appearance (the training bags first), and the bags over them, with their
// masses normalized.
func union(lex *lexicon, sets ...[]rawBag) (*points, [][]Bag) {
	p := &points{d: lex.d}
	index := map[int32]int{}
	out := make([][]Bag, len(sets))
	for s, raws := range sets {
		out[s] = make([]Bag, len(raws))
		for k, rb := range raws {
			total := 0
			for _, c := range rb.counts {
				total += c
			}
			b := Bag{Words: make([]int, len(rb.rows)), Mass: make([]float64, len(rb.rows))}
			for j, r := range rb.rows {
				i, ok := index[r]
				if !ok {
					i = len(p.names)
					index[r] = i
					p.names = append(p.names, lex.words[r])
					p.x = append(p.x, lex.vecs[int(r)*lex.d:(int(r)+1)*lex.d]...)
				}
				b.Words[j] = i
				b.Mass[j] = float64(rb.counts[j]) / float64(total)
			}
			out[s][k] = b
		}
	}
	return p, out
}
