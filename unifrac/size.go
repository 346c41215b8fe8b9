package unifrac

// Bytes returns about how many bytes the engine holds: its per-sample
// sums, the dense matrix of branch values and the sparse indexes, not
// counting the workspaces of a computation (BytesPerWorker each).
func (e *Engine) Bytes() int64 {
	n := int64(len(e.total)+len(e.x)+len(e.wsp)) * 8
	for i := range e.blocks {
		b := &e.blocks[i]
		n += int64(len(b.br)+len(b.ptr))*4 + int64(len(b.loc)) + int64(len(b.val)+len(b.pw))*8
	}
	return n
}

// BytesPerWorker is the memory of one worker's workspace during a
// computation, in bytes.
func (e *Engine) BytesPerWorker() int64 {
	n := int64(blockSize * blockSize * 8)
	if e.method == Generalized {
		n *= 2
	}
	return n
}

// RowBlock is the number of rows the engine computes together: Rows is
// most efficient for row ranges whose bounds are multiples of it.
func RowBlock() int { return blockSize }
