package labeldist

import (
	"bytes"
	"context"
	"errors"
	"io"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/twl-ldl/twl/internal/jsonscan"
	"github.com/twl-ldl/twl/internal/strindex"
	"github.com/twl-ldl/twl/tree"
)

// partBytes is the least size of each part FillAll reads on its own
// goroutine: smaller inputs are read in one part.
var partBytes int64 = 2 << 20

// ctxRows is how often, in rows, FillAll looks at its context.
const ctxRows = 4096

// MaxRowsBytes returns the most memory (Rows.Bytes) that the rows read
// from n bytes of input can take: a row takes at least 2 bytes of its
// line, and so does each label it lists.
func MaxRowsBytes(n int64) int64 { return 16 * n }

// FillAll reads the distributions over the labels of t in the size bytes
// of r, the input named file, and appends them to s with their lines: the
// rows, lines and error of Fill from a Reader of the same bytes to their
// end, read in parts at once (up to runtime.GOMAXPROCS(0), each of at
// least a few MiB, cut at line ends). When a part meets bad input, the
// input is read again from its start in one part, so that the error is
// the first in the input, worded as Reader words it. FillAll returns
// ctx.Err() once ctx is done (looked at every few thousand rows), leaving
// s with the rows of a part or none. A nil ctx is never done.
func (s *Rows) FillAll(ctx context.Context, r io.ReaderAt, size int64, file string, t *tree.Tree, opts *Options) error {
	if ctx == nil {
		ctx = context.Background()
	}
	parts := int(min(int64(runtime.GOMAXPROCS(0)), size/partBytes))
	var cuts []int64
	if parts > 1 {
		cuts = jsonscan.CutLines(r, size, parts)
	}
	if len(cuts) > 0 {
		err := s.fillParts(ctx, r, size, cuts, file, t, opts)
		if err == nil || ctx.Err() != nil {
			return err
		}
	}
	s.Grow(rowRoom(size), entryRoom(size))
	return s.fillPart(ctx, io.NewSectionReader(r, 0, size), file, t, opts, nil, nil)
}

// partEntryBytes is the guess of the bytes of a part's input per label
// listed that FillAll makes room for at once: that of a label of a few
// characters with a mass of about 17 digits. Rows of longer names take
// less of the room, which is not touched; rows of shorter entries grow it
// as they come.
const partEntryBytes = 24

// entryRoom and rowRoom return the labels and the rows FillAll makes room
// for in n bytes of input (rows of ten labels or more: more rows grow the
// room for rows, which is small, as they come).
func entryRoom(n int64) int { return int(min(n/partEntryBytes, 1<<40)) }
func rowRoom(n int64) int   { return int(min(n/partEntryBytes/10, 1<<40)) }

// errStopped ends a part that another part's error made useless.
var errStopped = errors.New("labeldist: reading stopped")

// fillParts reads the parts of r between the cuts at once, each into its
// own Rows, and appends them to s in order with their lines. Any error
// but ctx's is to be found again by one reading.
func (s *Rows) fillParts(ctx context.Context, r io.ReaderAt, size int64, cuts []int64, file string, t *tree.Tree, opts *Options) error {
	bounds := append(append([]int64{0}, cuts...), size)
	n := len(bounds) - 1
	rows := make([]Rows, n)
	lines := make([]int, n) // the line ends in each part
	errs := make([]error, n)
	var stop atomic.Bool
	// The parts share one index of the labels, built at once.
	names := packNames(t)
	var wg sync.WaitGroup
	for k := range n {
		wg.Go(func() {
			c := &lineCount{r: io.NewSectionReader(r, bounds[k], bounds[k+1]-bounds[k])}
			// The first part makes room for the whole input, whose
			// rows it then takes in where s holds none.
			room := bounds[k+1] - bounds[k]
			if k == 0 {
				room = size
			}
			rows[k].Grow(rowRoom(room), entryRoom(room))
			errs[k] = rows[k].fillPart(ctx, c, file, t, opts, names, &stop)
			lines[k] = c.lines
			if errs[k] != nil {
				stop.Store(true)
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return err
		}
	}
	k0 := 0
	if s.Rows() == 0 && len(s.Index) == 0 {
		*s, k0 = rows[0], 1
	}
	entries, nrows := 0, 0
	for k := k0; k < n; k++ {
		entries += len(rows[k].Index)
		nrows += rows[k].Rows()
	}
	s.Grow(nrows, entries)
	s.padLines()
	base := 0
	if k0 == 1 {
		base = lines[0]
	}
	for k := k0; k < n; k++ {
		p := &rows[k]
		e0 := len(s.Index)
		s.Index = append(s.Index, p.Index...)
		s.Mass = append(s.Mass, p.Mass...)
		for _, o := range p.Off[1:] {
			s.Off = append(s.Off, e0+o)
		}
		for _, l := range p.Lines {
			s.Lines = append(s.Lines, base+l)
		}
		base += lines[k]
	}
	return nil
}

// fillPart reads all the rows of in into s, as Fill does, looking at ctx
// every ctxRows rows and at stop (when not nil) as often; names, when
// not nil, is the index of t's labels by name.
func (s *Rows) fillPart(ctx context.Context, in io.Reader, file string, t *tree.Tree, opts *Options, names *strindex.Packed, stop *atomic.Bool) error {
	rd := NewReader(in, file, t, opts)
	rd.p.names = names
	s.padLines()
	for {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if stop != nil && stop.Load() {
			return errStopped
		}
		n, err := s.Fill(rd, ctxRows)
		if err != nil {
			return err
		}
		if n < ctxRows {
			return nil
		}
	}
}

// padLines gives every row of s a line, 0 for those that have none.
func (s *Rows) padLines() {
	if len(s.Off) == 0 {
		s.Off = append(s.Off, 0)
	}
	for len(s.Lines) < s.Rows() {
		s.Lines = append(s.Lines, 0)
	}
}

// lineCount counts the line ends read from r.
type lineCount struct {
	r     io.Reader
	lines int
}

func (c *lineCount) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.lines += bytes.Count(p[:n], []byte{'\n'})
	return n, err
}
