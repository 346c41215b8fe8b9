package lstm

// cellForward and cellBackward run the cell kernels: the AVX2 forms on
// blocks of eight units where the processor has them (cell_amd64.s), the
// Go references on the rest; both give the same bits.
func cellForward(rows, H int, g, bias, cp, c, tc, h []float32) {
	if rows == 0 {
		return
	}
	j0 := 0
	if useAVX2 && H >= 8 {
		checkCell(rows, H, g, cp, c, tc, h)
		_ = bias[H*4-1]
		var cpp *float32
		if cp != nil {
			cpp = &cp[0]
		}
		j0 = H &^ 7
		cellForwardAVX2(rows, H, j0/8, &g[0], &bias[0], cpp, &c[0], &tc[0], &h[0])
	}
	if j0 < H {
		cellForwardCols(rows, H, j0, g, bias, cp, c, tc, h)
	}
}

func cellBackward(rows, H int, g, cp, tc, dh, dc []float32) {
	if rows == 0 {
		return
	}
	j0 := 0
	if useAVX2 && H >= 8 {
		checkCell(rows, H, g, cp, dh, dc, tc)
		var cpp *float32
		if cp != nil {
			cpp = &cp[0]
		}
		j0 = H &^ 7
		cellBackwardAVX2(rows, H, j0/8, &g[0], cpp, &tc[0], &dh[0], &dc[0])
	}
	if j0 < H {
		cellBackwardCols(rows, H, j0, g, cp, tc, dh, dc)
	}
}

// checkCell panics unless g has rows×4H values and the others rows×H (cp
// may be nil), as the assembly kernels assume.
func checkCell(rows, H int, g, cp []float32, rest ...[]float32) {
	if len(g) < rows*4*H || (cp != nil && len(cp) < rows*H) {
		panic("lstm: cell kernel: a slice is too short")
	}
	for _, s := range rest {
		if len(s) < rows*H {
			panic("lstm: cell kernel: a slice is too short")
		}
	}
}
