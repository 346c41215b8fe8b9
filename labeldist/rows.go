package labeldist

// Rows holds distributions by their non-zero masses, compressed by rows
// (CSR): row r lists the labels Index[Off[r]:Off[r+1]] (user indices, each
// at most once, increasing for rows read by a Reader) with the masses
// Mass[Off[r]:Off[r+1]]; the other labels have mass 0. Off has one more
// entry than there are rows, and Off[0] = 0; the zero value holds no rows.
//
// Lines, when not empty, holds the 1-based line of the input each row was
// read from, for messages: Fill records it, Append records none.
//
// A Rows is the one sparse matrix of label masses of the module: the
// targets of package train, and the rows of package distance.
type Rows struct {
	Off   []int
	Index []int
	Mass  []float64
	Lines []int
}

// Rows returns the number of rows.
func (s *Rows) Rows() int { return max(len(s.Off)-1, 0) }

// Append adds a row with the labels idx and masses mass, copied. It panics
// if idx and mass differ in length.
func (s *Rows) Append(idx []int, mass []float64) {
	if len(idx) != len(mass) {
		panic("labeldist: Rows.Append with len(idx) != len(mass)")
	}
	if len(s.Off) == 0 {
		s.Off = append(s.Off, 0)
	}
	s.Index = append(s.Index, idx...)
	s.Mass = append(s.Mass, mass...)
	s.Off = append(s.Off, len(s.Index))
}

// Grow makes room for at least rows more rows holding entries more label
// entries in all, so that appending them allocates nothing: reading a file
// whose size gives an estimate of its rows calls it once instead of letting
// every slice grow step by step. It panics if rows or entries is negative.
func (s *Rows) Grow(rows, entries int) {
	if rows < 0 || entries < 0 {
		panic("labeldist: Rows.Grow with a negative count")
	}
	if len(s.Off) == 0 {
		s.Off = append(s.Off, 0)
	}
	s.Off = grow(s.Off, rows)
	s.Index = grow(s.Index, entries)
	s.Mass = grow(s.Mass, entries)
}

// grow returns x with room for at least n more elements, its contents
// copied once into an allocation of exactly that size when it has less.
func grow[T any](x []T, n int) []T {
	if cap(x)-len(x) >= n {
		return x
	}
	y := make([]T, len(x), len(x)+n)
	copy(y, x)
	return y
}

// Row returns the labels and masses of row r, sharing s's memory.
func (s *Rows) Row(r int) ([]int, []float64) {
	return s.Index[s.Off[r]:s.Off[r+1]], s.Mass[s.Off[r]:s.Off[r+1]]
}

// Sparse returns row r as a Sparse, sharing s's memory.
func (s *Rows) Sparse(r int) Sparse {
	idx, mass := s.Row(r)
	return Sparse{Index: idx, Mass: mass}
}

// Line returns the line row r was read from, or 0 if none was recorded.
func (s *Rows) Line(r int) int {
	if r < len(s.Lines) {
		return s.Lines[r]
	}
	return 0
}

// Dense stores row r in dst, a vector over all the labels, zeroed first.
func (s *Rows) Dense(dst []float64, r int) {
	clear(dst)
	idx, mass := s.Row(r)
	for k, i := range idx {
		dst[i] = mass[k]
	}
}

// Subset returns the rows rows of s, in that order, as new Rows (with
// their lines, if s has them).
func (s *Rows) Subset(rows []int) *Rows {
	out := &Rows{Off: make([]int, 1, len(rows)+1)}
	for _, r := range rows {
		out.Append(s.Row(r))
	}
	if len(s.Lines) > 0 {
		out.Lines = make([]int, len(rows))
		for k, r := range rows {
			out.Lines[k] = s.Line(r)
		}
	}
	return out
}

// Reset empties s, keeping its memory for the next rows.
func (s *Rows) Reset() {
	s.Off, s.Index, s.Mass, s.Lines = append(s.Off[:0], 0), s.Index[:0], s.Mass[:0], s.Lines[:0]
}

// Fill reads up to n more rows from rd into s, with their lines, and
// returns how many it read and rd's error, if any.
func (s *Rows) Fill(rd *Reader, n int) (int, error) {
	if len(s.Off) == 0 {
		s.Off = append(s.Off, 0)
	}
	for len(s.Lines) < s.Rows() {
		s.Lines = append(s.Lines, 0)
	}
	k := 0
	for k < n && rd.Next() {
		v := rd.Row()
		s.Append(v.Index, v.Mass)
		s.Lines = append(s.Lines, rd.Line())
		k++
	}
	return k, rd.Err()
}

// Bytes returns the memory the rows take, as held: 16 bytes for each listed
// label (its index and mass) and for each row (its offset and line).
func (s *Rows) Bytes() int64 { return int64(16*len(s.Index) + 16*s.Rows()) }
