// Package distmat writes square distance matrices between named samples to
// files, row stripe by row stripe, so that an N×N matrix never needs to be
// held whole: a writer takes the rows in order, a few at a time, and its
// memory grows with the stripe, not with N². It also writes and merges the
// partial files of a matrix computed in shards, on one machine or many.
//
// # Formats
//
// TSV is the ASCII layout of Striped UniFrac (ssu, unifrac-tools 1.2) and of
// scikit-bio's DistanceMatrix: a first line holding a tab and then the N
// sample ids, tab-separated; then one line per sample, its id followed by
// its N distances, each after a tab; every line ends with '\n', the last
// included. A distance is written as C's printf("%.16g") writes it, as ssu
// does: 16 significant digits, correctly rounded, trailing zeros removed,
// exponent form below 1e-4 (1e-05, 2.5e-07); zero is "0", the diagonal
// included. Formatting is parallel (Options.Workers) and the lines are
// written in order, so the bytes never depend on the number of workers.
//
// NPY is NumPy's .npy format 1.0: the magic "\x93NUMPY", version 1.0, a
// header dict {'descr': '<f8', 'fortran_order': False, 'shape': (N, N), }
// padded with spaces to a multiple of 64 bytes and ended by '\n', then the
// N² little-endian float64 values row after row (numpy.load reads it
// as-is). The values are the distances bit for bit. The sample ids are not
// in the file: WriteIDs writes them, one per line, to a sidecar file whose
// name IDsPath gives (D.npy → D.ids.txt).
//
// Sample ids must not hold a tab, a line feed or a carriage return (no
// table format of the field allows them in an id).
//
// # Partial files
//
// A shard computes a stripe of rows [Lo, Hi) of the matrix and writes it
// with NewPartWriter to a partial file: a text header, the sample ids, and
// the rows as little-endian float64 values, exactly as computed. The
// header is a sequence of "key value" lines in this order:
//
//	twl-distmat-part 1
//	tree <sha256 hex of the tree, tree.(*Tree).Hash>
//	table <sha256 hex of the table, unifrac.TableHash>
//	method <the distance, a word such as weighted_normalized>
//	alpha <a parameter of the method, or ->
//	samples <N> <sha256 hex of the ids, HashIDs>
//	rows <Lo> <Hi>
//	shard <I>/<S>
//
// followed by an empty line, the N ids each on a line, then (Hi−Lo)·N·8
// bytes of values. The first line names the format and its version; a
// reader refuses other versions.
//
// Merge takes the partial files of one matrix, in any order, and writes the
// matrix in either format. It refuses parts that do not describe the same
// matrix (tree, table, method, alpha, ids, N), parts that overlap, rows
// that no part holds, and truncated parts, naming the files. The values
// go through the same writer as a one-shot run, so the merged file is byte
// for byte the one a single process writes.
//
// # Stripes
//
// Stripe(I, S, N, align) is the row range of shard I (1-based) of S: the
// rows are cut into S ranges of equal size within one row, or, when every
// shard gets at least align rows, of equal numbers of align-row blocks
// (the last block may be short). With package unifrac's RowBlock as align,
// every shard but the last computes whole blocks of rows, and since each
// row costs the same N pair evaluations, shards do equal work.
//
// # Reading
//
// Read reads the TSV layout as scikit-bio's DistanceMatrix.read (its
// "lsmat" format) and QIIME 2 read it, which covers ssu's output and
// scikit-bio's and QIIME 2's own (a DistanceMatrix artifact holds it as
// distance-matrix.tsv): blank lines and lines starting with '#' before the
// header are skipped, blank lines among the rows too, spaces around cells
// and at the ends of lines are ignored; the rows must follow the header's
// ids, each with N values, and every value must be a finite number.
// ReadNPY reads .npy files of float64 or float32, in C or Fortran order,
// with the ids of the sidecar file (ReadIDs), ReadFile either by the file
// name. Errors name the file and the 1-based line.
//
// The text is read in blocks of whole lines that workers parse into the
// rows, so a matrix costs its 8·N² bytes and a few blocks, and the
// matrix, and the error reported for a bad file (the earliest line's),
// never depend on the number of workers. Numbers of up to 19 digits and a
// power of ten within ±27 (what ssu's %.16g and Python's shortest form
// write for every value from 10⁻¹² to 10²⁷) are read without strconv:
// eight digits of a fraction at a
// time in one 64-bit word, then one correctly rounded operation (Clinger
// 1990) or, for significands above 2⁵³, division or multiplication by 5^k
// in 128-bit integers and rounding of the exact bits; other forms go to
// strconv.ParseFloat. Either way the value is the correctly rounded one,
// strconv's bit for bit (TestFastFloat, FuzzRead).
package distmat
