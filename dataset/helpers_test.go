package dataset

import (
	"bytes"
	"encoding/binary"
	"math"
	"testing"

	"github.com/twl-ldl/twl/tree"
)

// animals is the tree
//
//	animal ─ mammal ─ dog
//	       └ reptile
//
// with user indices animal 0, mammal 1, reptile 2, dog 3.
func animals(t testing.TB) *tree.Tree {
	t.Helper()
	tr, err := tree.FromParents([]int{-1, 0, 0, 1}, nil, []string{"animal", "mammal", "reptile", "dog"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// matFile builds a little-endian, uncompressed MAT-file holding the given
// real double matrices (row-major here, written column-major as the format
// requires), following the MAT-File Format document.
func matFile(vars ...matVar) []byte {
	o := binary.LittleEndian
	elem := func(typ uint32, data []byte) []byte {
		b := o.AppendUint32(o.AppendUint32(nil, typ), uint32(len(data)))
		b = append(b, data...)
		return append(b, make([]byte, -len(data)&7)...)
	}
	b := bytes.Repeat([]byte{' '}, 116)
	copy(b, "MATLAB 5.0 MAT-file, dataset tests")
	b = append(b, make([]byte, 8)...)
	b = o.AppendUint16(b, 0x0100)
	b = append(b, 'I', 'M')
	for _, v := range vars {
		var data []byte
		for j := range v.cols {
			for i := range v.rows {
				data = o.AppendUint64(data, math.Float64bits(v.data[i*v.cols+j]))
			}
		}
		body := elem(6, o.AppendUint32(o.AppendUint32(nil, 6), 0)) // miUINT32 flags: class double
		body = append(body, elem(5, o.AppendUint32(o.AppendUint32(nil, uint32(v.rows)), uint32(v.cols)))...)
		body = append(body, elem(1, []byte(v.name))...)
		body = append(body, elem(9, data)...)
		b = append(b, elem(14, body)...)
	}
	return b
}

type matVar struct {
	name       string
	rows, cols int
	data       []float64
}
