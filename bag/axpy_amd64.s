//go:build amd64 && !purego

#include "textflag.h"

// func axpyAVX2(y, x []float32, a float32)
//
// y[i] += a·x[i] for i < len(y)&^7: VMULPS then VADDPS, so that each entry
// is rounded as the Go form rounds it (a product, then a sum; no FMA).
TEXT ·axpyAVX2(SB), NOSPLIT, $0-52
	MOVQ         y_base+0(FP), DI
	MOVQ         y_len+8(FP), CX
	MOVQ         x_base+24(FP), SI
	VBROADCASTSS a+48(FP), Y0
	MOVQ         CX, BX
	SHRQ         $5, BX
	JZ           blocks8

loop32:
	VMULPS  (SI), Y0, Y1
	VMULPS  32(SI), Y0, Y2
	VMULPS  64(SI), Y0, Y3
	VMULPS  96(SI), Y0, Y4
	VADDPS  (DI), Y1, Y1
	VADDPS  32(DI), Y2, Y2
	VADDPS  64(DI), Y3, Y3
	VADDPS  96(DI), Y4, Y4
	VMOVUPS Y1, (DI)
	VMOVUPS Y2, 32(DI)
	VMOVUPS Y3, 64(DI)
	VMOVUPS Y4, 96(DI)
	ADDQ    $128, SI
	ADDQ    $128, DI
	DECQ    BX
	JNZ     loop32

blocks8:
	MOVQ CX, BX
	ANDQ $31, BX
	SHRQ $3, BX
	JZ   done

loop8:
	VMULPS  (SI), Y0, Y1
	VADDPS  (DI), Y1, Y1
	VMOVUPS Y1, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	DECQ    BX
	JNZ     loop8

done:
	VZEROUPPER
	RET
