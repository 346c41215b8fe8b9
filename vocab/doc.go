// Package vocab turns text into token IDs: a deterministic Unicode-aware
// tokenizer, and vocabularies counted on a training split.
//
// # Tokens
//
// Tokenizer splits text into words, by these rules, applied to the text's
// runes (bytes that are not UTF-8 read as U+FFFD, a separator):
//
//   - Word runes are letters and combining marks (Unicode L and M), digits
//     (Nd) and other numbers (², ½). A token is a maximal run of word runes,
//     so letters and digits mix ("mp3", "2020s", "東京").
//   - An apostrophe between two letters belongs to the word, written as the
//     ASCII ' whichever of ' ’ ʼ ‘ the text uses: "don't", "rock’n’roll" →
//     "rock'n'roll", "o'brien". A point or comma between two digits belongs
//     to the number: "3.14", "1,000". Anywhere else they are punctuation.
//   - Everything else separates words: white space, hyphens ("well-known"
//     is "well", "known"), slashes, punctuation and symbols. Punctuation
//     and symbols (Unicode P and S, and the ' . , above when they join
//     nothing) are dropped, or with Tokenizer.Punct each becomes a token of
//     its own. Controls, the zero-width space and U+FFFD separate words;
//     other format characters (the soft hyphen, zero-width joiners, the
//     word joiner) are dropped without separating them: "co\u00adoperate"
//     is "cooperate".
//   - Tokens are lower-cased rune by rune (unicode.ToLower: "ÉCOLE" →
//     "école"; ß stays ß), unless Tokenizer.Case, and put in Unicode
//     normalization form C (golang.org/x/text/unicode/norm), so that "café"
//     written with a combining accent and written precomposed are one word.
//   - With Tokenizer.MaxLen > 0 a document keeps its first MaxLen tokens
//     (Keep First, the default) or its last (Keep Last).
//
// The rules are fixed: a model file records the Tokenizer's fields and gets
// the same tokens back. They match the way word-vector sets such as
// fastText's and GloVe's are mostly written (lower-case words, "don't" as
// one word), so that vocabulary words find their vectors.
//
// # Vocabularies
//
// A Counter counts the tokens of the training documents; Counter.Vocab keeps
// the words seen at least Options.MinCount times (default 2), at most
// Options.MaxSize of them (default no limit), and numbers them: ID 0
// (Unknown) is UnknownWord "<unk>", which stands for every other word, then
// the words by decreasing count, ties in byte order, so the same counts give
// the same IDs. Build the vocabulary from the training split only, so that
// validation and test words the model never saw map to Unknown.
//
// # Cost
//
// Tokenizing is one pass over the text, with a table lookup per ASCII byte;
// it allocates nothing per token for text in NFC, and Counter.Add and Vocab.Encode
// allocate only for words they have not seen (a map key) and the growth of
// their output. All of 20 Newsgroups (36 MB, 18,846 posts) is tokenized and
// counted in about half a second on a 2-core machine (BenchmarkCount20NG).
package vocab
