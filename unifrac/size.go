package unifrac

// Bytes returns about how many bytes the engine holds: its per-sample
// sums, the dense matrix of branch values and the sparse indexes, not
// counting the workspaces of a computation (BytesPerWorker each).
func (e *Engine) Bytes() int64 { return e.side.bytes(len(e.wsp)) + e.vw.bytes() }

// bytes returns the memory of the side's sums, dense matrix and sparse
// indexes, with nwsp sparse branch lengths.
func (s *side) bytes(nwsp int) int64 {
	n := int64(len(s.total)+len(s.x)+nwsp) * 8
	for i := range s.blocks {
		b := &s.blocks[i]
		n += int64(len(b.br)+len(b.ptr))*4 + int64(len(b.loc)+groupBytes*len(b.bits)) + int64(len(b.val)+len(b.pw))*8
	}
	return n
}

// BytesPerWorker is the memory of one worker's workspace during a
// computation, in bytes.
func (e *Engine) BytesPerWorker() int64 { return workspaceBytes(e.kind) }

func workspaceBytes(m Method) int64 {
	n := int64(blockSize * blockSize * 8)
	switch m {
	case Generalized:
		n *= 2
	case kindVaw:
		// A tile's shared sums (three and a count) and one-sided sums
		// (two), beside the unused first sums.
		n = blockSize * blockSize * (8*6 + 4)
	}
	return n
}

// RowBlock is the number of rows the engine computes together: Rows is
// most efficient for row ranges whose bounds are multiples of it.
func RowBlock() int { return blockSize }
