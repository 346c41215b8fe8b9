package hostile

import "encoding/binary"

// MAT data types and classes (MAT-File Format, tables 1-1 and 1-3).
const (
	miINT8       = 1
	miUINT8      = 2
	miINT32      = 5
	miUINT32     = 6
	miMATRIX     = 14
	miCOMPRESSED = 15
	mxUINT8      = 9
)

var le = binary.LittleEndian

// MATZeros returns a little-endian level 5 MAT-file holding the uint8
// matrices features (rows × cols) and labels (rows × labels), all zeros,
// each in a miCOMPRESSED element; rows·cols must be a multiple of 1 MiB.
// features inflates to rows·cols bytes, and to 8 times that as float64.
func MATZeros(rows, cols, labels int) []byte {
	b := make([]byte, 116, 128)
	copy(b, "MATLAB 5.0 MAT-file, hostile test input")
	for i := len("MATLAB 5.0 MAT-file, hostile test input"); i < 116; i++ {
		b[i] = ' '
	}
	b = append(b, make([]byte, 8)...)
	b = le.AppendUint16(b, 0x0100)
	b = append(b, 'I', 'M')
	b = compressed(b, "features", rows, cols, true)
	return compressed(b, "labels", rows, labels, false)
}

// compressed appends a miCOMPRESSED element holding the uint8 matrix name
// (rows × cols) of zeros; big makes its zeros Zeros' blocks (rows·cols a
// multiple of 1 MiB), else they are compressed as they are.
func compressed(b []byte, name string, rows, cols int, big bool) []byte {
	n := rows * cols
	elem := func(typ uint32, data []byte) []byte {
		e := le.AppendUint32(le.AppendUint32(nil, typ), uint32(len(data)))
		e = append(e, data...)
		return append(e, make([]byte, -len(data)&7)...)
	}
	var body []byte
	body = append(body, elem(miUINT32, le.AppendUint32(le.AppendUint32(nil, mxUINT8), 0))...)
	body = append(body, elem(miINT32, le.AppendUint32(le.AppendUint32(nil, uint32(rows)), uint32(cols)))...)
	body = append(body, elem(miINT8, []byte(name))...)
	body = le.AppendUint32(le.AppendUint32(body, miUINT8), uint32(n))
	pad := -n & 7
	head := le.AppendUint32(le.AppendUint32(nil, miMATRIX), uint32(len(body)+n+pad))
	head = append(head, body...)
	var z []byte
	if big && pad == 0 {
		z = ZlibPrefixZeros(head, int64(n))
	} else {
		z = Zlib(append(head, make([]byte, n+pad)...))
	}
	b = le.AppendUint32(le.AppendUint32(b, miCOMPRESSED), uint32(len(z)))
	return append(b, z...)
}
