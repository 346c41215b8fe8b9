// Package matfile reads MATLAB version 5 MAT-files: the format of MATLAB's
// save -v6 and -v7 (the default before 7.3), and of the LDL benchmark data
// sets (SJAFFE, Yeast, Movie, FG-Net, ...).
//
// # Format
//
// A MAT-file is a 128-byte header followed by data elements. The header holds
// descriptive text, the version 0x0100 and an endian indicator: the bytes
// "IM" for a little-endian file, "MI" for a big-endian one; both are read.
// Each data element is an 8-byte tag (data type, byte count) followed by its
// data, padded to a multiple of 8 bytes, or, for at most 4 bytes of data, a
// 4-byte tag and the data in one 8-byte block (the small element format).
// Every top-level element is an miMATRIX holding one variable, or an
// miCOMPRESSED element holding a zlib stream that inflates to one miMATRIX.
// An miMATRIX holds array flags (class, complex and logical bits), the
// dimensions, the name, and for numeric classes the real part (and imaginary
// part) in column-major order, stored in any numeric data type (MATLAB
// stores a double array of small integers as miUINT8, for instance).
// Reference: MathWorks, "MAT-File Format", version 7 (2019), chapter 1.
//
// # What is read
//
// Read parses the structure of every variable and checks it (sizes against
// the bytes present, dimensions against the number of elements), so a file
// that Read accepts holds only well-formed variables. Matrix then converts a
// real numeric or logical variable of class double, single, int8 … uint64 to
// a *mat.Dense of float64 (int64 and uint64 values beyond 2^53 are rounded).
// Variables of other classes (cell, struct, object, char, sparse, function
// handles, opaque objects such as string or table) and complex variables are
// listed by Names and Vars but not decoded: Matrix reports ErrUnsupported
// for them, as it does for arrays with more than two dimensions or with no
// elements (a mat.Dense cannot be empty). Files of version 7.3 (HDF5) and
// version 4 are not read (ErrNotMAT).
//
// # Errors and limits
//
// Problems with the data are returned as *Error values that name the file,
// the variable when known and the byte offset of its element, and wrap one
// of the sentinel errors (ErrNotMAT, ErrTruncated, ErrCorrupt,
// ErrUnsupported, ErrNoVariable, ErrTooLarge): "FILE: variable "labels" (element at byte
// 9569): corrupt MAT data: ...". Offsets inside a compressed element are
// counted in its inflated data. No input makes the package panic.
//
// Memory is bounded by the input: every declared size is checked against
// the bytes present before anything is allocated for it, and the declared
// inflated size of a compressed element against the most that its
// compressed bytes can inflate to (deflate's ratio is at most 1032:1).
// What the values of a file take together, inflated and converted to
// float64 by Matrix, is bounded by 1100 times the file's size and checked
// before it is allocated (ErrTooLarge): 64 KiB of compressed uint8 zeros
// inflate to 64 MiB, but their 512 MiB as float64 are refused. So a
// corrupt or hostile file cannot make Read and Matrix allocate more than
// about 1100 times its size, and a corrupt dimension nothing at all.
//
// # Complexity
//
// Read costs O(n) time in the size of the inflated data and keeps it in
// memory (Read reads r to its end first); Matrix costs O(rows·cols) time and
// allocates 8·rows·cols bytes, and a column's worth of scratch.
package matfile
