// Package embedding reads pretrained word embeddings — the word2vec/fastText
// text format (.vec, also GloVe's with a header) and fastText's binary
// models (.bin) — and builds the embedding table of a vocabulary from them,
// with seeded random rows for the words they lack.
//
//	src, err := embedding.ReadFile("cc.en.300.bin")        // or a .vec; chosen by content
//	tab := embedding.NewTable(vocab, src, rand.NewPCG(1, 2), nil)
//	fmt.Println(tab.Coverage)                               // 1000 words: 950 in vocabulary, …
//
// # The text format
//
// ReadVec reads the format that word2vec, fastText (.vec) and gensim write:
// an optional header line "count dims", then one line per word:
//
//	42421 100
//	the 0.34792 0.039466 … 0.0092993
//	of -0.11034 0.16723 … -0.14268
//
// The header is the first line if it is two fields of ASCII digits (so a
// file without a header whose first row is a one-dimensional vector with an
// integer word and an integer value, such as "7 3", is read as a header).
// A row is a word, then its values, separated by single spaces; the word is
// everything up to the first space (so it cannot contain one) and is kept
// byte for byte. Values are decimal numbers ("0.25", "-1e-3"; the syntax
// of strconv.ParseFloat without Go's digit separators and hexadecimal
// floats, as for tree weights), rounded to float32; they must be finite (NaN, Inf and numbers beyond the
// float32 range are errors; numbers below it become 0). Without a header
// the dimension d is the number of values of the first row. Trailing spaces
// (fastText writes one), CRLF line endings, a UTF-8 byte order mark and a
// last line without a newline are accepted; blank lines are skipped. Line
// numbers in errors are the physical, 1-based lines of the file.
//
// It is an error (an *Error, "FILE:LINE: what is wrong", wrapping the
// sentinel in parentheses): a row with the wrong number of values, saying
// how many and how many were expected (ErrDimension); dimension 0, from
// the header or a row with no values (ErrDimension); a value that is not a
// number or an empty field (ErrSyntax); a value that is not finite
// (ErrNonFinite); a word seen twice, naming the line of the first
// (ErrDuplicate); a header whose count is not the number of rows, reported
// on the header's line once the whole file is read (ErrCount); a file with
// no rows, header or not (ErrEmpty); a NUL byte or bytes that are not UTF-8,
// most likely a binary file given by mistake (ErrNotText; a file that starts
// with fastText's magic number is named as a .bin model). Reading stops at
// the first error.
//
// The values are stored as float32 in one contiguous row-major slice
// (Vectors.Data), with a map from word to row.
//
// # fastText models
//
// ReadBin reads the models that fastText 0.9.x writes with -output (and
// save_model): version 12, all fields little-endian, in this order
// (fastText's FastText::saveModel, Args::save, Dictionary::save,
// DenseMatrix::save):
//
//	int32   magic 793712314, version 12
//	args    int32 dim, ws, epoch, minCount, neg, wordNgrams, loss, model,
//	        bucket, minn, maxn, lrUpdateRate; float64 t
//	dict    int32 size, nwords, nlabels; int64 ntokens, pruneidx_size;
//	        size entries: the word's bytes and a NUL, int64 count,
//	        int8 type (0 word, 1 label), the words first;
//	        pruneidx_size pairs int32 bucket, int32 row (none when it is −1)
//	uint8   quant_input (1: a quantized model, .ftz)
//	matrix  int64 m, int64 n, m·n float32 row-major: the input matrix,
//	        m = nwords + bucket rows (nwords + pruneidx_size if pruned), n = dim
//	uint8   qout; the output matrix in the same form
//
// The input matrix is kept; the output matrix, which only training uses, is
// checked to be complete and skipped. It is an error (an *Error with Line 0,
// giving the byte offset or the dictionary entry): a file that does not
// start with the magic number (ErrNotFastText); another version
// (ErrVersion; fastText before 0.9 wrote version 11); a quantized model
// (ErrQuantized); a file that ends early, saying at which byte and in which
// field, or whose sizes ask for more bytes than the rest of the file holds
// (ErrTruncated); sizes that are negative or inconsistent: size ≠ nwords +
// nlabels, a label before a word, an entry type other than 0 and 1, matrix
// rows ≠ nwords + bucket, a pruning table that points outside the matrix
// (ErrCorrupt); a matrix with other than dim columns, or dim < 1
// (ErrDimension); a NaN or infinite value in the input matrix
// (ErrNonFinite); a word twice (ErrDuplicate); no words and no buckets
// (ErrEmpty). The sizes are checked before anything is allocated for them,
// so that a corrupt header cannot make ReadBin allocate gigabytes: against
// the size of the input when it is known (ReadFile, or a bytes.Reader), and
// otherwise by growing what is read as the bytes arrive.
//
// # Vectors from subwords
//
// (*FastText).Lookup computes a word's vector as fastText's
// print-word-vectors does (FastText::getWordVector, Bojanowski et al.
// 2017): the mean of the input rows of its subwords,
//
//	v(w) = (1/|S(w)|) Σ_{s ∈ S(w)} input[s]
//
// where S(w) holds the word's own row (its index in the dictionary) if w is
// a word of the vocabulary, and the rows of its character n-grams: the
// substrings of "<" + w + ">" of minn to maxn characters, except "<" and
// ">" alone. Characters are UTF-8 sequences: a byte 10xxxxxx never starts
// an n-gram and stays with the byte before it. An n-gram g has the row
// nwords + (FNV-1a(g) mod bucket), where FNV-1a is the 32-bit
// Fowler–Noll–Vo hash, offset 2166136261, prime 16777619, over the bytes of
// g with each byte sign-extended from int8 before the xor, as fastText does
// (this changes the hash of every n-gram with a byte ≥ 0x80). In a pruned
// model (pruneidx_size > 0) the bucket is mapped through the pruning table,
// and an n-gram whose bucket is not there is left out; pruneidx_size 0
// leaves out every n-gram. A model with maxn 0 (or bucket 0) has no
// n-grams, and "</s>", fastText's end of sentence, never has any. The sum
// is taken in float32 in fastText's order and multiplied by
// float32(1/|S(w)|), as fastText computes it: the tests find the vectors
// of fastText's own library bit for bit.
//
// A word out of the vocabulary with at least one n-gram gets the mean of
// its n-grams' rows (Subword); one with none gets nothing (Missing), where
// fastText prints a zero vector. Labels of supervised models are not words:
// a label is looked up as a word out of the vocabulary (fastText's
// print-word-vectors aborts on one).
//
// # Embedding tables
//
// NewTable gives each word of a vocabulary its vector from a Source, and
// to each word without one a random row drawn from N(0, σ²) in every
// component, with σ the standard deviation (divisor N) of all components
// of the vectors found, or 1/√d when none was found, or TableOptions.Scale
// when set. Random rows are drawn in word order from the rand.Source given,
// d normal variates each (rand.Rand.NormFloat64), so a table is a function
// of the words, the source and the seed. Table.Coverage counts the words
// found in the vocabulary, from subwords and at random.
//
// # Panics
//
// Shape mistakes by the programmer panic with an "embedding: " message: a
// dst whose length is not Dim(), a row index out of range, NewTable without
// a rand.Source or without a dimension. Nothing that depends on the input
// data panics; fuzz tests (FuzzReadVec, FuzzReadBin) check it.
//
// # Complexity
//
// ReadVec takes O(n) time for n bytes of input, one string and one map
// entry per word, and 4·N·d bytes for N words of dimension d; it allocates
// nothing per value (strconv.ParseFloat on a converted byte slice does not
// allocate). It reads the 37 MB, 42,421 × 100 .vec of the test data in
// about 0.2 s on one core (BenchmarkReadVec). ReadBin takes O(file size)
// time and keeps 4·(nwords + bucket)·dim bytes (a 2-million-bucket,
// 300-dimensional model holds 2.4 GB). (*Vectors).Lookup is a map lookup
// and a copy; (*FastText).Lookup costs O(ℓ·maxn) hashing for a word of ℓ
// bytes and O(d) per subword, and allocates nothing. Lookups may run
// concurrently. NewTable takes one lookup per word and O(N·d) more.
//
// # References
//
// P. Bojanowski, E. Grave, A. Joulin, T. Mikolov. Enriching Word Vectors
// with Subword Information. TACL 5, 2017 (the n-gram model).
// T. Mikolov, K. Chen, G. Corrado, J. Dean. Efficient Estimation of Word
// Representations in Vector Space. 2013 (word2vec and its text format).
// J. Pennington, R. Socher, C. Manning. GloVe: Global Vectors for Word
// Representation. EMNLP 2014.
// fastText 0.9.2, src/fasttext.cc, dictionary.cc, args.cc, densematrix.cc
// (https://github.com/facebookresearch/fastText): the file layout, the
// n-grams and the hash, described here from the source and checked against
// the tool's own output in the tests.
package embedding
