// Package hostile makes the inputs that attack twl's readers, for the
// tests that check they are refused cleanly: archives and compressed
// elements that inflate to far more than their size, HDF5 files that
// declare sizes their bytes belie, texts that make a parser allocate per
// byte. They are generated when a test runs and never stored.
//
// Large inflated sizes cost little to make: Zeros writes a deflate stream
// of n zero bytes by repeating one block of back-references to the zeros
// before it, so a stream that inflates to 4 GiB is made in milliseconds.
// The files are written from the formats' specifications (APPNOTE.TXT for
// zip, RFC 1950/1951, the HDF5 File Format Specification 3.0, the
// MAT-File Format), not from twl's readers.
package hostile

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"hash/crc32"
	"io"
)

// block is the length of the zeros each repeated deflate block encodes.
const block = 1 << 20

// deflated holds the pieces of a raw deflate stream of zeros: first, the
// first block (a literal zero and back-references to it) ended at a byte
// boundary; rep, a block of back-references to earlier zeros, valid
// anywhere after at least 32 KiB of zeros; and end, the final empty block.
var deflated struct{ first, rep, end []byte }

func init() {
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.BestCompression)
	zero := make([]byte, block)
	w.Write(zero)
	w.Flush()
	deflated.first = bytes.Clone(buf.Bytes())
	buf.Reset()
	w.Write(zero)
	w.Flush()
	deflated.rep = bytes.Clone(buf.Bytes())
	buf.Reset()
	w.Close()
	deflated.end = bytes.Clone(buf.Bytes())
}

// Zeros returns a raw deflate stream (RFC 1951) that inflates to n zero
// bytes, n a positive multiple of 1 MiB. It is about a thousandth of n.
func Zeros(n int64) []byte {
	if n <= 0 || n%block != 0 {
		panic("hostile: Zeros of a size that is not a positive multiple of 1 MiB")
	}
	k := int(n / block)
	out := make([]byte, 0, len(deflated.first)+(k-1)*len(deflated.rep)+len(deflated.end))
	out = append(out, deflated.first...)
	for range k - 1 {
		out = append(out, deflated.rep...)
	}
	return append(out, deflated.end...)
}

// ZlibZeros is Zeros in a zlib stream (RFC 1950).
func ZlibZeros(n int64) []byte { return ZlibPrefixZeros(nil, n) }

// ZlibPrefixZeros returns a zlib stream (RFC 1950) that inflates to prefix
// followed by n zero bytes, n a positive multiple of 1 MiB: prefix in a
// block of its own, then Zeros' blocks, whose first refers only to itself.
// The Adler-32 after the zeros follows from the one after prefix: n zeros
// leave the sum A as it is and add n·A to the sum B.
func ZlibPrefixZeros(prefix []byte, n int64) []byte {
	out := []byte{0x78, 0xda}
	if len(prefix) > 0 {
		var buf bytes.Buffer
		w, _ := flate.NewWriter(&buf, flate.BestCompression)
		w.Write(prefix)
		w.Flush()
		out = append(out, buf.Bytes()...)
	}
	out = append(out, Zeros(n)...)
	a, b := adler(prefix)
	b = uint32((uint64(b) + uint64(n%65521)*uint64(a)) % 65521)
	return binary.BigEndian.AppendUint32(out, b<<16|a)
}

// adler returns the two sums of the Adler-32 of p (RFC 1950, 8.2).
func adler(p []byte) (a, b uint32) {
	a = 1
	for _, c := range p {
		a = (a + uint32(c)) % 65521
		b = (b + a) % 65521
	}
	return a, b
}

// Zlib compresses b into a zlib stream.
func Zlib(b []byte) []byte {
	var buf bytes.Buffer
	buf.Write([]byte{0x78, 0xda})
	w, _ := flate.NewWriter(&buf, flate.BestCompression)
	w.Write(b)
	w.Close()
	a, s := adler(b)
	return binary.BigEndian.AppendUint32(buf.Bytes(), s<<16|a)
}

// crcZeros returns the CRC-32 (IEEE) of n zero bytes.
func crcZeros(n int64) uint32 {
	zero := make([]byte, block)
	var c uint32
	for ; n >= block; n -= block {
		c = crc32.Update(c, crc32.IEEETable, zero)
	}
	return crc32.Update(c, crc32.IEEETable, zero[:n])
}

// Artifact returns a QIIME 2 artifact (.qza) whose UUID/data/name entry
// inflates to size zero bytes (a multiple of 1 MiB); the archive's
// headers declare declared bytes for it (size itself, or a lie), and its
// CRC-32 is that of the zeros. The archive also holds a metadata.yaml.
func Artifact(name string, size, declared int64) []byte {
	const uuid = "6f1c2a3e-0000-4000-8000-0000000000ff"
	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	m, _ := z.Create(uuid + "/metadata.yaml")
	io.WriteString(m, "uuid: "+uuid+"\ntype: FeatureTable[Frequency]\nformat: BIOMV210DirFmt\n")
	data := Zeros(size)
	w, _ := z.CreateRaw(&zip.FileHeader{
		Name:               uuid + "/data/" + name,
		Method:             zip.Deflate,
		CRC32:              crcZeros(size),
		CompressedSize64:   uint64(len(data)),
		UncompressedSize64: uint64(declared),
	})
	w.Write(data)
	z.Close()
	return buf.Bytes()
}

// ArtifactOf returns a QIIME 2 artifact whose UUID/data/name entry holds
// data, deflated.
func ArtifactOf(name string, data []byte) []byte {
	const uuid = "6f1c2a3e-0000-4000-8000-0000000000fe"
	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	w, _ := z.Create(uuid + "/data/" + name)
	w.Write(data)
	z.Close()
	return buf.Bytes()
}
