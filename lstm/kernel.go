package lstm

// cellForward and cellBackward run the cell kernels: the AVX-512 forms on
// blocks of sixteen units and the AVX2 forms on a block of eight where the
// processor has them (cell_amd64.s), the Go references on the rest; all
// give the same bits.
func cellForward(rows, H int, g, bias, cp, c, tc, h []float32) {
	if rows == 0 {
		return
	}
	j0 := 0
	if useAVX2 && H >= 8 {
		checkCell(rows, H, g, cp, c, tc, h)
		_ = bias[H*4-1]
		if use512 && H >= 16 {
			j0 = H &^ 15
			cellForward512(rows, H, j0/16, &g[0], &bias[0], at(cp, 0), &c[0], &tc[0], &h[0])
		}
		if n := (H - j0) / 8; n > 0 {
			cellForwardAVX2(rows, H, n, &g[j0], &bias[j0], at(cp, j0), &c[j0], &tc[j0], &h[j0])
			j0 += 8 * n
		}
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
		if use512 && H >= 16 {
			j0 = H &^ 15
			cellBackward512(rows, H, j0/16, &g[0], at(cp, 0), &tc[0], &dh[0], &dc[0])
		}
		if n := (H - j0) / 8; n > 0 {
			cellBackwardAVX2(rows, H, n, &g[j0], at(cp, j0), &tc[j0], &dh[j0], &dc[j0])
			j0 += 8 * n
		}
	}
	if j0 < H {
		cellBackwardCols(rows, H, j0, g, cp, tc, dh, dc)
	}
}

// at returns &s[j], or nil for a nil s (no previous cell state).
func at(s []float32, j int) *float32 {
	if s == nil {
		return nil
	}
	return &s[j]
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
