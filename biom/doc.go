// Package biom reads tables of counts (samples × observations) in the
// formats of the microbiome field, for UniFrac against a tree of package
// newick: BIOM 2.1 (HDF5), BIOM 1.0 (JSON), the classic tab-separated OTU
// table, and QIIME 2 FeatureTable artifacts (.qza).
//
// # Formats
//
// Read recognises the format by content, not by the file name:
//
//   - BIOM 2.1 (the HDF5 signature): observation/ids and sample/ids
//     (variable-length strings) and the counts in sample/matrix/{data,
//     indices, indptr}, the compressed sparse columns of the observations ×
//     samples matrix, which are the rows of the table; when sample/matrix is
//     absent, observation/matrix is read and transposed. The root
//     attribute shape, when present, must agree with the ids. Metadata
//     groups are not read. The HDF5 subset is package internal/hdf5; its
//     compressed chunks are inflated on all processors.
//   - BIOM 1.0 (text starting with '{'): rows and columns with their ids,
//     matrix_type "sparse" (data as [row, column, value] triples) or
//     "dense" (one array per row), shape when present.
//   - Classic OTU table (other text): comment lines starting with '#', the
//     last of which before the first data line is the header "#OTU ID<TAB>
//     sample<TAB>…" (so biom's "# Constructed from biom file" line is
//     skipped), then one line per observation: its id and one count per
//     sample, TAB-separated. A last column named taxonomy (also Taxon,
//     Consensus Lineage, in any case) is observation metadata and is
//     skipped.
//   - QIIME 2 artifacts (a zip archive): the BIOM 2.1 table in
//     UUID/data/feature-table.biom; errors name it ARTIFACT:UUID/data/….
//
// # The table
//
// A Table holds the ids and the counts as compressed sparse rows, one row
// per sample, observations in increasing order, zeros left out: the layout
// in which an all-pairs engine reads each sample's nonzeros. Counts are
// float64 (relative abundances are allowed).
//
// # Checks
//
// ssu (unifrac-tools 1.2) accepts negative and NaN counts and computes
// meaningless distances with them (checked with BIOM 2.1 tables written by
// biom-format 2.1.12); here a negative, NaN or infinite count is an error
// (ErrCount), and so is a count below 2.2e-308 (a subnormal float64, held
// to fewer digits than the file gives). Duplicate sample or observation ids (which biom-format
// refuses to write) and empty ids are errors (ErrDuplicateID), as is an
// observation counted twice in one sample. A sample without counts is
// valid, as in ssu (which gives it distances as to an empty community):
// Options.Warn hears of it. An observation without counts is valid and
// silent.
//
// # Memory
//
// A file up to 256 MiB is read whole; a .qza's table may inflate to 256
// MiB at most, counted as it inflates whatever the archive declares; the
// values read from a BIOM 2.1 file take at most 1100 times its size,
// counted as Go holds them, and the lengths its datasets declare are
// compared before any is read. Options.MaxBytes lowers all of these
// bounds to one limit on what reading takes; what would pass it is
// refused before it is allocated, with an error wrapping ErrTooLarge.
//
// Errors are *Error values wrapping ErrFormat, ErrCount, ErrDuplicateID
// or ErrTooLarge: "FILE:LINE: what is wrong: details" for the text
// formats, "FILE: invalid BIOM table: byte OFFSET: ..." for HDF5
// structures. No input makes the package panic.
package biom
