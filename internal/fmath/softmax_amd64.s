//go:build amd64 && !purego

#include "textflag.h"

// func maxAVX2(z []float64) float64
//
// Four running maxima, each started at z[0], updated as maxGo does
// (m = v if v > m: VMAXPD with v first returns m when either is NaN), then
// combined lane 0, 1, 2, 3 in that order the same way. len(z) ≥ 4.
TEXT ·maxAVX2(SB), NOSPLIT, $0-32
	MOVQ z_base+0(FP), SI
	MOVQ z_len+8(FP), CX
	ANDQ $-4, CX
	VBROADCASTSD (SI), Y0
	XORQ DX, DX

maxloop:
	CMPQ DX, CX
	JGE  maxdone
	VMOVUPD (SI)(DX*8), Y1
	VMAXPD  Y0, Y1, Y0 // Y0 = Y1 > Y0 ? Y1 : Y0
	ADDQ    $4, DX
	JMP     maxloop

maxdone:
	VEXTRACTF128 $1, Y0, X2
	VUNPCKHPD    X0, X0, X1
	VMAXSD       X0, X1, X0 // lane 1
	VMAXSD       X0, X2, X0 // lane 2
	VUNPCKHPD    X2, X2, X3
	VMAXSD       X0, X3, X0 // lane 3
	VZEROUPPER
	MOVSD        X0, ret+24(FP)
	RET

// func expShiftSumAVX2(dst, z []float64, m, s float64, k *[11][4]uint64, tab *[64]uint64) (sum float64, done int)
//
// Exp's operations in Exp's order on four arguments x = z[i] − m at a
// time; k's rows: invLn2N, shift, ln2HiN, ln2LoN, 1/120, 1/24, 1/6, 1/2,
// expMin, expMax, tableSize − 1.
TEXT ·expShiftSumAVX2(SB), NOSPLIT, $0-96
	MOVQ         dst_base+0(FP), DI
	MOVQ         dst_len+8(FP), CX
	MOVQ         z_base+24(FP), SI
	VBROADCASTSD m+48(FP), Y15
	MOVSD        s+56(FP), X14
	MOVQ         k+64(FP), AX
	MOVQ         tab+72(FP), BX
	VMOVUPD      256(AX), Y13  // expMin
	VMOVUPD      288(AX), Y12  // expMax
	XORQ         DX, DX

exploop:
	LEAQ 4(DX), R8
	CMPQ R8, CX
	JGT  expdone
	VMOVUPD   (SI)(DX*8), Y0
	VSUBPD    Y15, Y0, Y0         // x = z − m
	VCMPPD    $0x1d, Y13, Y0, Y1  // x ≥ expMin (false for NaN)
	VCMPPD    $0x12, Y12, Y0, Y2  // x ≤ expMax (false for NaN)
	VANDPD    Y2, Y1, Y1
	VMOVMSKPD Y1, R9
	CMPQ      R9, $15
	JNE       expdone

	VMULPD 0(AX), Y0, Y1   // x·invLn2N
	VADDPD 32(AX), Y1, Y1  // kd = … + shift; its bits are ki
	VSUBPD 32(AX), Y1, Y2  // kd − shift
	VMULPD 64(AX), Y2, Y3  // kd·ln2HiN
	VSUBPD Y3, Y0, Y3      // x − kd·ln2HiN
	VMULPD 96(AX), Y2, Y4  // kd·ln2LoN
	VSUBPD Y4, Y3, Y3      // r

	VPAND      320(AX), Y1, Y5 // ki mod 64
	VPCMPEQQ   Y6, Y6, Y6
	VPGATHERQQ Y6, (BX)(Y5*8), Y7
	VPSRLQ     $6, Y1, Y8
	VPSLLQ     $52, Y8, Y8
	VPADDQ     Y8, Y7, Y7      // scale

	VMULPD Y3, Y3, Y9       // r²
	VMULPD 128(AX), Y3, Y10 // r/120
	VADDPD 160(AX), Y10, Y10
	VMULPD Y10, Y3, Y10
	VADDPD 192(AX), Y10, Y10
	VMULPD Y10, Y3, Y10
	VADDPD 224(AX), Y10, Y10
	VMULPD Y10, Y9, Y10
	VADDPD Y10, Y3, Y10     // p
	VMULPD Y10, Y7, Y10     // scale·p
	VADDPD Y10, Y7, Y10     // scale + scale·p
	VMOVUPD Y10, (DI)(DX*8)

	// s += e, entry after entry.
	VADDSD       X10, X14, X14
	VUNPCKHPD    X10, X10, X11
	VADDSD       X11, X14, X14
	VEXTRACTF128 $1, Y10, X10
	VADDSD       X10, X14, X14
	VUNPCKHPD    X10, X10, X11
	VADDSD       X11, X14, X14
	MOVQ         R8, DX
	JMP          exploop

expdone:
	VZEROUPPER
	MOVSD X14, sum+80(FP)
	MOVQ  DX, done+88(FP)
	RET

// func scaleAVX2(dst []float64, c float64)
TEXT ·scaleAVX2(SB), NOSPLIT, $0-32
	MOVQ         dst_base+0(FP), DI
	MOVQ         dst_len+8(FP), CX
	ANDQ         $-4, CX
	VBROADCASTSD c+24(FP), Y1
	XORQ         DX, DX

scaleloop:
	CMPQ    DX, CX
	JGE     scaledone
	VMOVUPD (DI)(DX*8), Y0
	VMULPD  Y1, Y0, Y0 // dst·c
	VMOVUPD Y0, (DI)(DX*8)
	ADDQ    $4, DX
	JMP     scaleloop

scaledone:
	VZEROUPPER
	RET

// func mixedGradAVX2(g, p, y, gp []float64, inv, lam, dot float64)
TEXT ·mixedGradAVX2(SB), NOSPLIT, $0-120
	MOVQ         g_base+0(FP), DI
	MOVQ         g_len+8(FP), CX
	MOVQ         p_base+24(FP), SI
	MOVQ         y_base+48(FP), R8
	MOVQ         gp_base+72(FP), R9
	VBROADCASTSD inv+96(FP), Y10
	VBROADCASTSD lam+104(FP), Y11
	VBROADCASTSD dot+112(FP), Y12
	ANDQ         $-4, CX
	XORQ         DX, DX

mgloop:
	CMPQ    DX, CX
	JGE     mgdone
	VMOVUPD (SI)(DX*8), Y0     // p
	VMOVUPD (R8)(DX*8), Y1     // y
	VSUBPD  Y1, Y0, Y1         // p − y
	VMULPD  Y0, Y11, Y2        // lam·p
	VMOVUPD (R9)(DX*8), Y3     // gp
	VSUBPD  Y12, Y3, Y3        // gp − dot
	VMULPD  Y3, Y2, Y2         // (lam·p)·(gp − dot)
	VADDPD  Y2, Y1, Y1         // (p − y) + …
	VMULPD  Y1, Y10, Y1        // inv·(…)
	VMOVUPD Y1, (DI)(DX*8)
	ADDQ    $4, DX
	JMP     mgloop

mgdone:
	VZEROUPPER
	RET
