// Package newick reads phylogenies in the Newick format into twl trees,
// for UniFrac: tips are matched by name against the feature (observation)
// ids of a table (package biom), and branch lengths become edge weights.
//
// # Dialect
//
// A tree is a node followed by ';'. A node is a tip, or '(' nodes separated
// by ',' ')' (any number of children: multifurcations and an unrooted
// trifurcating root are read as they are written); either may be followed
// by a label and by ':' and a branch length. Blanks and line breaks between
// tokens are ignored, as is a UTF-8 byte-order mark. [Comments] are skipped
// wherever blanks may stand (they may nest, and a '[' inside a quoted label
// is part of the label). Only one tree is read: text after its ';' is an
// error.
//
// Labels are quoted ('...', a doubled quote standing for one quote; the
// quotes are not part of the label) or unquoted (everything up to the next one of
// ( ) , : ; [ ] ', with blanks at both ends trimmed and blanks inside kept).
// By default an underscore stays an underscore (see Matching below);
// Options.Underscores turns '_' in unquoted labels into spaces, as the
// Newick standard says.
//
// A branch length is a decimal number in any of the usual float syntaxes
// (1, 0.5, .5, 1e-3, 1E+2). A missing length is 0, as in ssu. Negative,
// NaN and infinite lengths, and hexadecimal or digit-separated numbers, are
// errors (ErrBadLength): ssu accepts negative lengths and computes with
// them, but a twl tree has non-negative weights. A length on the root is
// ignored (the root has no edge above it). Zero-length branches are kept.
//
// # Node names
//
// A twl tree needs a unique, valid name (tree.ValidName) for every node.
// Tips are named by their labels: a tip label that is not a valid name
// (a label starting with '#', holding a tab, line break or other control
// character, or invalid UTF-8) and two tips with the same label are errors
// (ErrBadName; ssu accepts duplicate tips and silently uses one of them).
// An internal node is named by its label when the label is unquoted and
// not a number, or quoted; occurs once among the tree's names (tip labels
// and the internal labels that are not support values: '0' can name a node
// whose tree also holds the support value 0); and is a valid name.
// Otherwise (no label, a support value, a duplicated or invalid label) the
// internal node gets the generated name "<node K>", K being its
// 1-based position in preorder, followed by "#2", "#3", ... in the unlikely
// case that a label of the tree already has that name. An unnamed tip gets
// a generated name too; it matches no table id.
//
// An unquoted internal label that parses as a number (100, 0.95) is a
// support value, as most tree builders write it; support values are not
// kept. A numeric tip label, such as a Greengenes OTU id, is a name.
//
// # Matching tips to table ids (ssu compatibility)
//
// ssu (Striped UniFrac, Debian unifrac-tools 1.2, whose Newick parser is
// BPTree in unifrac-binaries) matches a table's observation ids to tip
// names byte for byte, and fails unless every observation id is a tip.
// Found by running ssu on BIOM tables written by biom-format 2.1.12:
//
//   - '_' is not a space: tip A_b matches id "A_b", and tip C_D does not
//     match id "C D" (which needs the tip 'C D'). This package does the same
//     by default.
//   - Quotes are removed: tip 'A_b' matches id "A_b", as here.
//   - ssu keeps blanks next to a label: in "(A:1, B:2);" the second tip is
//     " B" and matches no id. This package trims them, so such trees, which
//     ssu rejects, are read with the names meant.
//   - ssu drops every single quote, so the quoted label of it's (with
//     its quote doubled) is "its" there and "it's" here, as the Newick
//     standard has it; ssu's error message calls labels with a quote
//     unlikely.
//   - ssu takes " as an ordinary character, as here.
//   - ssu does not know comments; a comment after a branch length happens
//     to work there (its number parser stops at '['), elsewhere it becomes
//     part of a label.
//   - Only tips are matched: an id that names an internal node is an error
//     in ssu. Callers match ids with Tree.Index and Tree.IsLeaf.
//
// # Input
//
// Read and ReadFile take plain Newick text, or a QIIME 2 Phylogeny artifact
// (.qza, a zip archive), recognised by its content, whose UUID/data/tree.nwk
// is read; errors then name the file as ARTIFACT:UUID/data/tree.nwk.
//
// # Errors and limits
//
// Problems are reported as *Error values wrapping ErrSyntax, ErrBadLength,
// ErrBadName, ErrEmpty or ErrTooLarge: "FILE:LINE: newick syntax error: at
// byte 17: '(' is never closed by ')'", with the 1-based line and the
// 0-based byte offset of the problem. No input makes the package panic.
//
// The parser is iterative: a caterpillar tree a million levels deep takes
// no stack. Reading costs O(n) time and keeps the input and about 40 bytes
// per node in memory until the tree is built; with the tree, reading takes
// at most the text and NodeBytes (200) bytes per node, nodes being
// counted, before anything is parsed, as one more than the text's '(' and
// ','. Under Options.MaxBytes, a file larger than the limit is not read,
// and a text whose bytes and nodes would pass it is not parsed (300 MB of
// '(' would otherwise reserve 12 GB); both are ErrTooLarge. A .qza's tree
// may inflate to 256 MiB at most, counted as it inflates.
package newick
