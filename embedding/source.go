package embedding

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"io"
	"os"
	"strconv"
	"strings"
)

// Source gives the vector of a word. *Vectors and *FastText implement it.
type Source interface {
	// Dim returns the dimension of the vectors.
	Dim() int
	// Lookup sets dst, of length Dim(), to the vector of word and tells
	// where it came from; it sets dst to zero and returns Missing if there
	// is none.
	Lookup(dst []float32, word string) Found
}

// Found tells where a word's vector came from.
type Found uint8

const (
	// Missing: no vector for the word.
	Missing Found = iota
	// InVocab: the word's own vector (for a fastText model, the mean of its
	// row and its n-grams' rows).
	InVocab
	// Subword: a word out of the vocabulary of a fastText model, whose
	// vector is the mean of its n-grams' rows.
	Subword
)

func (f Found) String() string {
	switch f {
	case Missing:
		return "missing"
	case InVocab:
		return "in vocabulary"
	case Subword:
		return "subword"
	}
	return "Found(" + strconv.Itoa(int(f)) + ")"
}

// ReadFile reads word vectors from the named file: a fastText model
// (*FastText, see ReadBin) if the file starts with fastText's magic number,
// whatever its name, and otherwise a text file (*Vectors, see ReadVec). If
// the file cannot be opened, the error is the *os.PathError with the path.
func ReadFile(path string) (Source, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := remaining(f)
	br := bufio.NewReaderSize(f, bufSize)
	if head, _ := br.Peek(4); len(head) == 4 && binary.LittleEndian.Uint32(head) == binMagic {
		m, err := readBin(br, path, size)
		if err != nil {
			return nil, err
		}
		return m, nil
	}
	v, err := readVec(br, path, size)
	if err != nil {
		return nil, err
	}
	return v, nil
}

// remaining returns the number of bytes left to read from r, or -1 if that
// is not known (r is not a regular file, a bytes.Reader, a strings.Reader
// or a bytes.Buffer). The readers use it to refuse sizes in a header that
// the input cannot hold before they allocate them.
func remaining(r io.Reader) int64 {
	switch r := r.(type) {
	case *bytes.Reader:
		return int64(r.Len())
	case *strings.Reader:
		return int64(r.Len())
	case *bytes.Buffer:
		return int64(r.Len())
	case *os.File:
		fi, err := r.Stat()
		if err != nil || !fi.Mode().IsRegular() {
			return -1
		}
		off, err := r.Seek(0, io.SeekCurrent)
		if err != nil || off > fi.Size() {
			return -1
		}
		return fi.Size() - off
	}
	return -1
}
