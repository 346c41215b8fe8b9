// Package hdf5 reads the subset of HDF5 that BIOM 2.1 tables use, as
// h5py and the HDF5 library write them: groups, attributes and
// one-dimensional or small n-dimensional datasets of integers, floats and
// strings. It is written from "HDF5 File Format Specification Version 3.0"
// (The HDF Group, https://docs.hdfgroup.org/hdf5/develop/_f_m_t3.html);
// section numbers below refer to it.
//
// # What is read
//
//   - Superblock versions 0 and 1 (h5py's default, libver "earliest") and 2
//     and 3 (libver "latest"), at byte 0 or a power of two from 512 (II.A).
//   - Object headers version 1 and 2 with continuation blocks (IV.A.1,
//     IV.A.2.q).
//   - Groups stored as symbol tables: a version 1 B-tree of symbol table
//     nodes with names in a local heap (III.A.1, III.B, III.C, III.D); and
//     compact groups of link messages (IV.A.2.g). Groups in dense storage
//     (fractal heap) are not read (ErrUnsupported).
//   - Dataspaces versions 1 and 2 (IV.A.2.b), datatypes of class
//     fixed-point, floating-point, fixed-length string and variable-length
//     string (IV.A.2.d); variable-length strings live in global heap
//     collections (III.E).
//   - Data layouts versions 1 to 3: compact, contiguous, and chunked with a
//     version 1 B-tree of chunks (IV.A.2.i); layout version 4 is read for
//     compact and contiguous storage, and for chunked storage indexed as a
//     single chunk, not by the newer indexes (ErrUnsupported).
//   - Filter pipelines versions 1 and 2 (IV.A.2.l) with the deflate,
//     shuffle and Fletcher-32 filters (the checksum is not verified).
//   - Attribute messages versions 1 to 3 (IV.A.2.m), stored in the object
//     header; dense attribute storage is not read.
//   - Fill values: chunks that were never written read as zeros.
//
// The chunks of a dataset are inflated on all processors, each into its
// place in the result (by package internal/inflate, or compress/zlib for
// the streams it refuses); an error is the one a reading in B-tree order
// meets first. A File may be read from several goroutines at once. A file
// held in memory (OpenBytes) is read in place: its structures and chunks
// are not copied. DatasetNumbers converts the floats and integers of a
// chunked one-dimensional dataset to their Go types as each chunk is
// inflated, with no copy of the dataset's bytes.
//
// # Errors and limits
//
// Problems are *Error values naming the file and the byte offset of the
// structure at fault, wrapping ErrNotHDF5, ErrTruncated, ErrCorrupt,
// ErrUnsupported, ErrNotFound or ErrTooLarge. A structure whose bytes or
// address lie past the end of the file (a truncated file, or a damaged
// size or address) wraps ErrTruncated and says where the file ends
// relative to it (Error.Past, Error.Where). No input makes the package
// panic. Every size is checked against the file before anything is
// allocated for it, and an inflated chunk may not exceed its declared
// size. What the values read take in memory, counted as Go holds them (a
// float64 8 bytes, a string 16 bytes and its length, the raw bytes of a
// dataset when they are copied, a variable-length string's bytes once per
// string even when many point to one heap object), is added up over all
// the values read from a File and bounded by 1100 times the file's size
// (deflate's largest ratio is 1032), or by the lower limit of SetLimit;
// what would pass it is refused before it is allocated (ErrCorrupt, or
// ErrTooLarge past SetLimit's limit).
package hdf5
