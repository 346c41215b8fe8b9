//go:build !amd64 || purego

package lstm

const useAVX2 = false

func cellForwardAVX2(rows, H, blocks int, gates, bias, cp, c, tc, h *float32) {
	panic("lstm: no assembly kernels")
}

func cellBackwardAVX2(rows, H, blocks int, gates, cp, tc, dh, dc *float32) {
	panic("lstm: no assembly kernels")
}

const use512 = false

func cellForward512(rows, H, blocks int, gates, bias, cp, c, tc, h *float32) {
	panic("lstm: no assembly kernels")
}

func cellBackward512(rows, H, blocks int, gates, cp, tc, dh, dc *float32) {
	panic("lstm: no assembly kernels")
}
