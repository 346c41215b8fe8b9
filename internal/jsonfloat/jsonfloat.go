// Package jsonfloat writes and reads float64 values in JSON whatever their
// value. Finite values are JSON numbers in the shortest form that reads
// back to the same float64 (strconv's 'g' format, precision −1); NaN and
// the infinities, which JSON lacks, are the strings "NaN", "+Inf" and
// "-Inf", which Go's strconv.ParseFloat and Python's float() read back.
//
// Every JSON that twl writes with such values uses this one form.
package jsonfloat

import (
	"fmt"
	"math"
	"strconv"
)

// Append appends v to dst in the form described in the package
// documentation and returns the extended slice.
func Append(dst []byte, v float64) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		dst = append(dst, '"')
		dst = strconv.AppendFloat(dst, v, 'g', -1, 64)
		return append(dst, '"')
	}
	return AppendShortest(dst, v)
}

// Parse reads a JSON value that Append writes: a number, or one of the
// strings "NaN", "+Inf" and "-Inf". Other strings and values are errors.
func Parse(b []byte) (float64, error) {
	s := string(b)
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		s = s[1 : len(s)-1]
		switch s {
		case "NaN", "+Inf", "-Inf":
		default:
			return 0, fmt.Errorf("%q is not a number", s)
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("%s is not a number", b)
	}
	return v, nil
}
