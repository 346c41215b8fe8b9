// Package labeldist reads and writes label distributions: probability
// vectors over the nodes of a label tree (package tree), one per line of a
// JSON Lines file.
//
// # Format
//
// Each line holds one distribution, in one of three forms:
//
//	{"Fantasy": 0.7, "Fiction": 0.3}     an object mapping label → mass
//	[0, 0.7, 0.3, 0, 0, 0]               an array of exactly t.Len() masses
//	__label__Fantasy 0.7 __label__Fiction 0.3
//	                                     the layout of fastText's predict-prob
//
// The third form, that of 'fasttext predict-prob' and of 'twl text predict
// --format fasttext', is pairs of a label prefixed by LabelPrefix and its
// mass, a JSON number, separated by JSON white space; like the object
// form, it leaves out the labels of mass 0. Its rows rarely sum to 1
// (fastText adds 10⁻⁵ to each probability; a --top K prediction holds K
// labels), so it is mostly read with Options.Normalize.
//
// In the object form a label that is absent has mass 0, and mass may sit on
// any node, internal nodes included. Keys are matched to node names exactly,
// after JSON unescaping (so a tree whose names are not valid UTF-8 can be
// addressed only by arrays); the virtual root of a forest is not a label.
// The array form lists the masses in the tree's user order (tree.Tree.Index). Masses are JSON numbers: finite (a
// number such as 1e999, which overflows float64, is an error; one that
// underflows, such as 1e-400, is read as 0) and non-negative.
//
// Blank lines (empty or holding only JSON white space) are skipped; line
// numbers in errors are always the physical, 1-based line numbers of the
// input. Lines may be of any length. A UTF-8 byte order mark at the start of
// the input and CRLF line endings are accepted. The last line need not end
// with a newline.
//
// A row's masses must sum to 1 within Options.Tol (default 1e-6), unless
// Options.Normalize asks to rescale every row to sum 1. Rows within the
// tolerance are kept as written, not rescaled. A row whose masses are all zero
// is an error either way. Options.Measures reads rows as measures of any
// total mass instead (for unbalanced transport): no check of the sum, no
// rescaling, and an all-zero row is the empty measure.
//
// # Errors
//
// Invalid input is reported as an *Error that carries the file name and the
// physical line, prints as "FILE:LINE: what is wrong", and wraps one of the
// sentinel errors (ErrSyntax, ErrUnknownLabel, ...), which callers test for
// with errors.Is. Syntax errors also give the 1-based byte column. A line
// with a syntax error is reported as such even when it also names an unknown
// label or holds a bad mass; otherwise the first problem from left to right
// is reported. I/O errors are wrapped with the "FILE:LINE: " prefix. Reading
// stops at the first error. Shape mistakes by the programmer, such as a row
// whose length is not t.Len() given to Write, panic.
//
// FillPair reads two Readers in step, a chunk of rows of each, for
// commands that pair row r of one file with row r of the other; files of
// different lengths are an *UnpairedError locating the first row without
// a partner.
//
// # Writing
//
// AppendFormat, Format and Write write a distribution in the object form:
// labels in user order, zero masses omitted, every mass in the shortest
// decimal form that reads back to the same float64, so that reading what was
// written gives back the same vector bit for bit.
//
// # Complexity
//
// Reading costs O(n) time for n bytes of input plus one lookup per label
// name: by the name of the label after the last one first, then, once a
// file has named a quarter of the labels, in a hash table of the names
// that reads one slot for most names (strindex.Packed), which Rows.FillAll
// builds at once. Read holds the result densely, Rows·L float64s (8·Rows·L bytes), as
// Reader.ReadAll does under a limit on those bytes; a Reader yields one row at a time as a Sparse row (its non-zero labels, in
// increasing order, and their masses), in memory that depends on the longest
// line and on L (one int per label, to catch duplicates) but not on the
// number of rows: the way to read files over trees of 10⁵–10⁶ labels. A
// line is at most 64 MiB long (Options.MaxLine lowers it); a longer one
// is an error (ErrTooLarge) found once that much is read, never held
// whole.
// Rows holds many sparse rows compressed by rows (CSR), 16 bytes per listed
// label and per row; Rows.Fill reads a block of them from a Reader, and
// Rows.FillAll all of a file, in parts at once where it is large (a few
// MiB a part, up to GOMAXPROCS parts, cut at line ends), with the rows,
// lines and errors of one reading.
// The parser is a hand-written scanner for the restricted grammar above: it
// catches duplicate labels, which encoding/json silently merges, and runs
// 1.2–4× faster than merely tokenizing the same input with encoding/json's
// Decoder.Token (BenchmarkRead, BenchmarkJSONTokens), allocating one string
// per label name instead of one value per token. encoding/json is used only to
// unquote label names that contain escape sequences. FuzzRead checks the
// scanner against encoding/json.
package labeldist
