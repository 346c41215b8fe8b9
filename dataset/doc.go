// Package dataset holds label-distribution-learning data sets in memory:
// n samples, each a feature vector x ∈ ℝ^d and a label distribution
// y ∈ Δ^L, a probability vector over the L nodes of a label tree.
//
// # Layout
//
// A Dataset keeps the features and the distributions in two gonum matrices,
// X (n×d) and Y (n×L). Every Dataset made by this package owns freshly
// allocated, contiguous matrices (Stride equals the number of columns), so
// X.RawRowView(i) and Y.RawRowView(i) are the rows of sample i without a
// copy, and X.RawMatrix().Data is the whole row-major array. Column j of Y is
// the label of user index j of the tree (tree.Tree.Index), named Labels[j].
// Rows of Y sum to 1 within Options.Tol.
//
// Storage is dense: 8·n·(d+L) bytes. A data set with 10^5 labels is fine for
// a few thousand samples, not for millions. A Reader reads the same files
// one sample at a time, with the label distribution held sparsely (a Sparse
// of label indices and masses), in memory that does not grow with the
// number of samples: use it to stream through data, or to predict for rows
// that have no "y".
//
// # JSON Lines format
//
// ReadJSONL, ReadJSONLFile, Reader and WriteJSONL read and write one sample
// per line:
//
//	{"x": [0.5, -1.25, 3], "y": {"Fantasy": 0.7, "Fiction": 0.3}, "id": "b17"}
//
// "x" is an array of d numbers, the same d on every line. "y" maps label
// names (nodes of the tree, internal nodes included) to masses; absent
// labels have mass 0. Numbers must be finite: a JSON number that overflows
// float64, such as 1e999, is an error (one that underflows reads as 0).
// Masses must be non-negative and not all zero. Other keys, such as "id",
// are skipped whatever JSON value they hold; "y" may be absent where a
// Reader is told that targets are optional (ReaderOptions.Targets). A
// duplicate "x" or "y", a label named twice in "y", and anything that is not
// JSON are errors. Blank lines are skipped; a UTF-8 byte order mark and CRLF
// line endings are accepted; lines may be of any length. WriteJSONL writes
// "x" and "y" only.
//
// # Rows that do not sum to 1
//
// A label row whose masses sum to s with |s−1| > Options.Tol (default
// 1e-6) is rescaled by 1/s, and counted in the Report that the readers
// return, with the first such row, so that the caller can tell the user
// (522 of FG-Net's 1002 label rows, for instance, sum to between 0.57 and
// 1 − 10^-6). With Options.Strict such a row is an error instead
// (ErrSum). Rows within the tolerance are kept as written.
//
// # Errors
//
// Invalid data is reported as an *Error that prints as "FILE:LINE: what is
// wrong" and wraps one of the sentinel errors (ErrSyntax, ErrUnknownLabel,
// ...), which callers test for with errors.Is. Reading stops at the first
// error. Programmer mistakes (a nil tree, a fold count out of range, an index
// out of range, matrices of mismatched shapes) panic with a "dataset: "
// message.
//
// # Splits and scaling
//
// Split and KFold draw random partitions of 0..n-1 from an explicit
// math/rand/v2 Source, so that an experiment is reproducible from its seed;
// Subset gathers rows. A Standardizer, fitted on training rows only, centres
// and scales features without touching the test rows' statistics.
package dataset
