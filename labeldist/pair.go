package labeldist

import (
	"fmt"
	"strconv"
)

// UnpairedError reports two files of distributions paired line by line
// (FillPair) where one has more rows than the other. Long is the file with
// more rows, read to its end to count them; Line is its first line without
// a partner, and Row that row's 1-based number. Why, when set, ends the
// message in parentheses (what pairs the rows).
type UnpairedError struct {
	A, B      *Reader // the files as paired: row r of A with row r of B
	Long      *Reader // A or B, the file with more rows
	Line, Row int
	Why       string
}

func (e *UnpairedError) Error() string {
	msg := fmt.Sprintf("%s:%d: distribution %d has no partner: %s has %s, %s has %d",
		e.Long.File(), e.Line, e.Row, e.A.File(), plural(e.A.Rows(), "distribution"), e.B.File(), e.B.Rows())
	if e.Why != "" {
		msg += " (" + e.Why + ")"
	}
	return msg
}

// FillPair resets ra and rb and reads the next chunk of at most n pairs of
// rows: row r of A into ra and the same row of B into rb (see Rows.Fill).
// It returns the number of pairs read, fewer than n only at the end of A.
// When one file has more rows than the other, it reads the rest of the
// longer one, to count its rows, and returns an *UnpairedError with why as
// its Why; a read error is returned as is.
func FillPair(ra, rb *Rows, A, B *Reader, n int, why string) (int, error) {
	ra.Reset()
	rb.Reset()
	na, err := ra.Fill(A, n)
	if err != nil {
		return 0, err
	}
	nb, err := rb.Fill(B, na)
	if err != nil {
		return 0, err
	}
	switch {
	case nb < na:
		return 0, unpaired(A, B, A, ra.Line(nb), why)
	case na < n && B.Next():
		return 0, unpaired(A, B, B, B.Line(), why)
	}
	return na, B.Err()
}

// unpaired reads the rest of long and returns the *UnpairedError of its
// row at line.
func unpaired(A, B, long *Reader, line int, why string) error {
	short := A
	if long == A {
		short = B
	}
	row := short.Rows() + 1
	for long.Next() {
	}
	if err := long.Err(); err != nil {
		return err
	}
	return &UnpairedError{A: A, B: B, Long: long, Line: line, Row: row, Why: why}
}

// plural returns "1 distribution", "2 distributions".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
