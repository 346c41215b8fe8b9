package corpus

import (
	"slices"

	"github.com/twl-ldl/twl/vocab"
)

// Stats describes a corpus: what a user looks at first on a new data set.
type Stats struct {
	Docs int `json:"documents"`

	// Tokens, as the tokenizer splits them, before truncation.
	Tokens     int64   `json:"tokens"`
	Empty      int     `json:"empty_documents"` // documents without a token
	LenMean    float64 `json:"tokens_mean"`
	LenMedian  float64 `json:"tokens_median"`
	LenP90     int     `json:"tokens_p90"` // 90th percentile (nearest rank)
	LenMax     int     `json:"tokens_max"`
	MaxLen     int     `json:"max_len"`   // the tokenizer's MaxLen (0: none)
	Truncated  int     `json:"truncated"` // documents longer than MaxLen
	KeptTokens int64   `json:"kept_tokens"`

	// The vocabulary of the kept tokens.
	Types      int          `json:"types"`       // distinct tokens
	Vocab      *vocab.Vocab `json:"-"`           // under the vocabulary options
	VocabWords int          `json:"vocab_words"` // words of Vocab, <unk> excluded
	// VocabCoverage is the share of kept tokens that are words of Vocab
	// (the rest become <unk>).
	VocabCoverage float64 `json:"vocab_token_coverage"`

	// Labels: Label[i] is the number of documents with label i of the
	// corpus's Labels; Depth the same per depth of the tree (nil without a
	// tree).
	LabelDocs         []int        `json:"label_documents"`
	LabelsPerDoc      float64      `json:"labels_per_document"`
	MinLabels         int          `json:"labels_min"`
	MaxLabels         int          `json:"labels_max"`
	UsedLabels        int          `json:"labels_used"`
	Depth             []DepthStats `json:"depths,omitempty"`
	DistinctLabelSets int          `json:"distinct_label_sets"`
}

// DepthStats counts the labels of one depth of the tree (1 for the roots of
// a forest, whose virtual root has depth 0).
type DepthStats struct {
	Depth       int `json:"depth"`
	Labels      int `json:"labels"`      // nodes of the tree at this depth
	Used        int `json:"used"`        // of which some document has
	Docs        int `json:"documents"`   // documents with a label at this depth
	Occurrences int `json:"occurrences"` // (document, label) pairs at this depth
}

// Describe computes the statistics of c: tokens as tk splits them, the
// vocabulary of the tokens tk keeps under opts, and the labels.
func Describe(c *Corpus, tk *vocab.Tokenizer, opts *vocab.Options) *Stats {
	s := &Stats{Docs: len(c.Docs), MaxLen: tk.MaxLen}
	lens := make([]int, len(c.Docs))
	cnt := vocab.NewCounter()
	for i, d := range c.Docs {
		n := tk.Count(d.Text)
		lens[i] = n
		s.Tokens += int64(n)
		if n == 0 {
			s.Empty++
		}
		if tk.MaxLen > 0 && n > tk.MaxLen {
			s.Truncated++
		}
		cnt.Add(tk, d.Text)
	}
	s.KeptTokens = cnt.Tokens()
	if len(lens) > 0 {
		sorted := slices.Clone(lens)
		slices.Sort(sorted)
		s.LenMean = float64(s.Tokens) / float64(len(lens))
		m := len(sorted)
		s.LenMedian = float64(sorted[(m-1)/2]+sorted[m/2]) / 2
		s.LenP90 = sorted[(9*m+9)/10-1] // nearest rank: ⌈0.9 m⌉
		s.LenMax = sorted[m-1]
	}
	s.Types = cnt.Types()
	s.Vocab = cnt.Vocab(opts)
	s.VocabWords = s.Vocab.Len() - 1
	if s.KeptTokens > 0 {
		s.VocabCoverage = 1 - float64(s.Vocab.Count(vocab.Unknown))/float64(s.KeptTokens)
	}

	s.LabelDocs = make([]int, len(c.Labels))
	sets := make(map[string]bool)
	var key []byte
	var total int
	s.MinLabels = -1
	for _, d := range c.Docs {
		key = key[:0]
		for _, l := range d.Labels {
			s.LabelDocs[l]++
			key = append(key, byte(l), byte(l>>8), byte(l>>16), byte(l>>24))
		}
		sets[string(key)] = true
		total += len(d.Labels)
		if s.MinLabels < 0 || len(d.Labels) < s.MinLabels {
			s.MinLabels = len(d.Labels)
		}
		s.MaxLabels = max(s.MaxLabels, len(d.Labels))
	}
	s.MinLabels = max(s.MinLabels, 0)
	if total > 0 {
		s.DistinctLabelSets = len(sets) // else unlabeled: no sets at all
	}
	if len(c.Docs) > 0 {
		s.LabelsPerDoc = float64(total) / float64(len(c.Docs))
	}
	for _, n := range s.LabelDocs {
		if n > 0 {
			s.UsedLabels++
		}
	}
	if t := c.Tree; t != nil {
		for i := range t.Len() {
			dep := t.Depth(i)
			for len(s.Depth) <= dep {
				s.Depth = append(s.Depth, DepthStats{Depth: len(s.Depth)})
			}
			s.Depth[dep].Labels++
			s.Depth[dep].Occurrences += s.LabelDocs[i]
			if s.LabelDocs[i] > 0 {
				s.Depth[dep].Used++
			}
		}
		seen := make([]int, len(s.Depth))
		for k, d := range c.Docs {
			for _, l := range d.Labels {
				if dep := t.Depth(l); seen[dep] != k+1 {
					seen[dep] = k + 1
					s.Depth[dep].Docs++
				}
			}
		}
		if len(s.Depth) > 0 && s.Depth[0].Labels == 0 {
			s.Depth = s.Depth[1:] // a forest: depth 0 is the virtual root
		}
	}
	return s
}
