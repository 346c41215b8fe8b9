// Package inflate decodes zlib streams (RFC 1950, holding DEFLATE data,
// RFC 1951) that sit whole in memory and inflate to a known size, as the
// deflate-compressed chunks of an HDF5 file do.
//
// Zlib is strict: it reports success only for a stream that
// compress/zlib reads without error to exactly the expected bytes, and
// fails (without saying why) for anything unusual, such as a preset
// dictionary, trailing bytes, an incomplete Huffman code or a stream
// shorter or longer than expected. A caller that needs the reason, or
// wants the unusual but valid streams read, then reads the stream with
// compress/zlib, which gives the same bytes for every stream Zlib accepts.
//
// It reads bits 64 at a time from the slice and decodes symbols through
// two-level lookup tables, about twice the speed of compress/flate, whose
// reader takes input a byte at a time through an interface.
package inflate
