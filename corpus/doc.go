// Package corpus reads labelled text for hierarchical multi-label
// classification: documents, each with a set of labels that are nodes of a
// label tree, in the formats such data sets are distributed in.
//
// # Formats
//
// Read detects the format from the first byte of the input that is not
// white space, or from the labels of its first line (Options.Format forces
// one):
//
//   - '<': BlurbGenreCollection records (Aly, Remus & Biemann 2019), as in
//     BlurbGenreCollection_EN_{train,dev,test}.txt:
//
//     <book date="…" xml:lang="en"><title>…</title><body>…</body><copyright>…</copyright>
//     <metadata><topics><d0>…</d0><d1>…</d1>…</topics><author>…</author>…</metadata></book>
//
//     The files look like XML but are not: there is no root element, and
//     text holds bare '&' (and could hold '<'). The reader is lenient
//     about that: an element's text runs to its closing tag whatever it
//     holds, and HTML and XML entities (&amp; &quot; &#39; &#8217; …) are
//     decoded; CRLF becomes LF, and white space around a text is trimmed.
//     The document's text is its <body> (Options.Title: the title, a
//     newline, the body); its labels are every genre <dN> under <topics>.
//     Other elements are read and ignored, in any order; an XML declaration
//     and comments are skipped. Strict where a mistake would lose data: a
//     record without a body or without genres, a tag not closed before the
//     next record or the end of the file (a file cut short), text outside
//     the elements, a genre not in the tree, a genre element outside
//     <topics> or another element inside it: each is an error at its line.
//     Character references are decoded when they end with a semicolon
//     (&amp; &#8217; &shy;); a bare '&', and legacy names without one
//     ("&not"), stay as they are.
//     The data set is not redistributable: users download it from
//     DownloadURL, and ReadFile says so when such a file is missing.
//
//   - '{': JSON Lines of documents, one object per line, in either of two
//     layouts: {"text": "…", "labels": ["…", …]} (plain) or {"token": "…"
//     or ["tok", …], "label": ["…", …]} (the hierarchical text
//     classification toolkits, HiAGM and its successors, whose taxonomy
//     files tree.ReadTaxonomy reads). A text given as an array of tokens is
//     joined with single spaces; a label set may be a single string. Other
//     keys ("id", "topic", …) are skipped whatever their value. Two text
//     keys or two label keys on a line, a missing key, an empty label set
//     and malformed JSON are errors, with their column.
//
//   - '[': JSON Lines of label sets alone, ["label", …] per line: the true
//     labels for 'twl eval --multilabel'. Format LabelSets; every Doc.Text
//     is empty, and callers that need text refuse it.
//
//   - any other byte, with a word starting with "__label__" on the first
//     line: fastText's supervised format, one document per line, as
//     fastText reads it (Dictionary::getLine in fastText 0.9.2):
//
//     __label__sports __label__sports.football The match ended 2 - 1 .
//
//     A line is split into words at white space (space, tab, vertical tab,
//     form feed, CR and NUL); every word that starts with the label prefix
//     (Options.LabelPrefix, "__label__" by default: fastText's -label) is a
//     label named by the rest of the word, wherever it is on the line; the
//     other words, joined by single spaces, are the text. Lines of white
//     space alone are skipped. Where fastText skips a line without labels
//     or words, or a label it does not know, the reader reports an error,
//     as for the other formats, and so for a word that is the prefix alone.
//     With Options.Unlabeled, input in none of the other formats is read as
//     fastText lines whose labels are optional: plain text, one document a
//     line, as 'fasttext predict' takes it.
//
// Text must be UTF-8 (other bytes are an error, in every format), and a
// document's text must not be empty unless Options.AllowEmpty. A UTF-8 byte
// order mark is skipped; blank lines are skipped in JSON Lines and fastText
// lines. Every problem is an *Error printing as "FILE:LINE: what is
// wrong", wrapping a sentinel error (ErrSyntax, ErrUnknownLabel, …);
// nothing is silently dropped. Reading stops at the first error.
//
// # Streaming
//
// Read holds every document in memory. A Scanner reads them one at a time,
// with the same checks and errors, in memory that does not grow with the
// input for JSON Lines and fastText lines (BlurbGenreCollection records are
// read from the whole file, held in memory), for prediction over inputs of
// any size.
//
// # Labels
//
// With a tree, labels are the tree's user indices, and every label must be
// a node of the tree (the virtual root of a forest is never a label). Label
// sets are closed under ancestors unless Options.AsGiven: BlurbGenreCollection
// and AAPD list every ancestor already, 20 Newsgroups lists the newsgroup
// alone. A label repeated in one set counts once. Without a tree (nil),
// labels are numbered by first appearance and kept as given.
//
// # Targets
//
// Label-distribution learning trains against a distribution. Target turns a
// label set Y into one: Uniform (the default) puts 1/|Y| on every label of
// the set, which with closed sets spreads the mass along the paths from the
// top-level genres down to the most specific ones; Specific puts it only on
// the most specific labels, those with no descendant in the set. The
// paper does not say which it used; Uniform keeps every label of the set a
// positive of the distribution, as the multi-label measures count them.
//
// # Splits
//
// Files that come split (BlurbGenreCollection's train, dev and test) are
// read one by one. Otherwise dataset.Partition draws the paper's random
// 64/16/20 split from a seed.
package corpus
