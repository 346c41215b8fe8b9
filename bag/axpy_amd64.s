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

// func sumRowsAVX2(h, emb []float32, feats []int32, D int)
//
// h[j] += emb[f·D + j] for each f of feats in order and each j < 96
// (len(h) ≥ 96, D ≥ 96), twelve blocks of eight lanes held in Y0–Y11,
// each lane's sum made in the order of feats as the Go form makes it. Row
// feats[i+8] is prefetched while row feats[i] is added: the rows of a
// document are scattered over a table far larger than the caches.
TEXT ·sumRowsAVX2(SB), NOSPLIT, $0-80
	MOVQ    h_base+0(FP), DI
	MOVQ    emb_base+24(FP), SI
	MOVQ    feats_base+48(FP), R8
	MOVQ    feats_len+56(FP), R9
	MOVQ    D+72(FP), R10
	SHLQ    $2, R10              // the row stride in bytes
	VMOVUPS (DI), Y0
	VMOVUPS 32(DI), Y1
	VMOVUPS 64(DI), Y2
	VMOVUPS 96(DI), Y3
	VMOVUPS 128(DI), Y4
	VMOVUPS 160(DI), Y5
	VMOVUPS 192(DI), Y6
	VMOVUPS 224(DI), Y7
	VMOVUPS 256(DI), Y8
	VMOVUPS 288(DI), Y9
	VMOVUPS 320(DI), Y10
	VMOVUPS 352(DI), Y11
	XORQ    BX, BX               // i

loop:
	CMPQ    BX, R9
	JGE     done
	LEAQ    8(BX), DX
	CMPQ    DX, R9
	JGE     noprefetch
	MOVLQSX (R8)(DX*4), AX
	IMULQ   R10, AX
	LEAQ    (SI)(AX*1), AX
	PREFETCHT0 (AX)
	PREFETCHT0 64(AX)
	PREFETCHT0 128(AX)
	PREFETCHT0 192(AX)
	PREFETCHT0 256(AX)
	PREFETCHT0 320(AX)
	PREFETCHT0 383(AX)

noprefetch:
	MOVLQSX (R8)(BX*4), AX
	IMULQ   R10, AX
	LEAQ    (SI)(AX*1), AX
	VADDPS  (AX), Y0, Y0
	VADDPS  32(AX), Y1, Y1
	VADDPS  64(AX), Y2, Y2
	VADDPS  96(AX), Y3, Y3
	VADDPS  128(AX), Y4, Y4
	VADDPS  160(AX), Y5, Y5
	VADDPS  192(AX), Y6, Y6
	VADDPS  224(AX), Y7, Y7
	VADDPS  256(AX), Y8, Y8
	VADDPS  288(AX), Y9, Y9
	VADDPS  320(AX), Y10, Y10
	VADDPS  352(AX), Y11, Y11
	INCQ    BX
	JMP     loop

done:
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	VMOVUPS Y4, 128(DI)
	VMOVUPS Y5, 160(DI)
	VMOVUPS Y6, 192(DI)
	VMOVUPS Y7, 224(DI)
	VMOVUPS Y8, 256(DI)
	VMOVUPS Y9, 288(DI)
	VMOVUPS Y10, 320(DI)
	VMOVUPS Y11, 352(DI)
	VZEROUPPER
	RET
