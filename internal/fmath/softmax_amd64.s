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

// EXP8(Z, T, A, B, C, K) computes Exp on the eight arguments x = z − m
// in Z as expShiftSumAVX2 does, lane by lane, leaving the results in A; Z,
// T, B and C are overwritten, K is the gather's mask. The constants are in
// Z16–Z26 (see expShiftSum2AVX512) and the table is at BX. In order: A =
// x·invLn2N + shift (kd, whose bits are ki); B = kd − shift; T = (x −
// B·ln2HiN) − B·ln2LoN (r); C = table[ki mod 64] + (ki >> 6) << 52
// (scale); Z = r²; A = ((((r·(1/120) + 1/24)·r + 1/6)·r + 1/2)·r² + r)
// (p); A = scale·p + scale. Where an operation takes its operands in the
// other order than expShiftSumAVX2's, it is a commutative product or sum:
// the bits are the same.
#define EXP8(Z, T, A, B, C, K) \
	VMULPD     Z16, Z, A       \
	VADDPD     Z17, A, A       \
	VSUBPD     Z17, A, B       \
	VMULPD     Z18, B, T       \
	VSUBPD     T, Z, T         \
	VMULPD     Z19, B, B       \
	VSUBPD     B, T, T         \
	VPANDQ     Z26, A, B       \
	KXNORW     K, K, K         \
	VPGATHERQQ (BX)(B*8), K, C \
	VPSRLQ     $6, A, A        \
	VPSLLQ     $52, A, A       \
	VPADDQ     A, C, C         \
	VMULPD     T, T, Z         \
	VMULPD     Z20, T, A       \
	VADDPD     Z21, A, A       \
	VMULPD     T, A, A         \
	VADDPD     Z22, A, A       \
	VMULPD     T, A, A         \
	VADDPD     Z23, A, A       \
	VMULPD     Z, A, A         \
	VADDPD     T, A, A         \
	VMULPD     C, A, A         \
	VADDPD     C, A, A

// SUM2x8(ZA, ZB) adds the eight lanes of ZA to the sum of row 0 and those
// of ZB to the sum of row 1, lane after lane, the two sums side by side in
// X14 (row 0 low, row 1 high): VUNPCKLPD pairs lanes 0, 2, 4, 6 of the
// rows, one pair to each 128-bit lane of Z10, VUNPCKHPD lanes 1, 3, 5, 7
// in Z11, and eight two-lane additions add the pairs in lane order. Each
// lane of an addition is the scalar addition of one row: the same bits.
// It uses Z10–Z13.
#define SUM2x8(ZA, ZB) \
	VUNPCKLPD     ZB, ZA, Z10   \
	VUNPCKHPD     ZB, ZA, Z11   \
	VADDPD        X10, X14, X14 \
	VADDPD        X11, X14, X14 \
	VEXTRACTF32X4 $1, Z10, X12  \
	VEXTRACTF32X4 $1, Z11, X13  \
	VADDPD        X12, X14, X14 \
	VADDPD        X13, X14, X14 \
	VEXTRACTF32X4 $2, Z10, X12  \
	VEXTRACTF32X4 $2, Z11, X13  \
	VADDPD        X12, X14, X14 \
	VADDPD        X13, X14, X14 \
	VEXTRACTF32X4 $3, Z10, X12  \
	VEXTRACTF32X4 $3, Z11, X13  \
	VADDPD        X12, X14, X14 \
	VADDPD        X13, X14, X14

// func expShiftSum2AVX512(d0, d1, z0, z1 []float64, m0, m1, s0, s1 float64, k *[11][4]uint64, tab *[64]uint64) (sum0, sum1 float64, done int)
//
// expShiftSumAVX2 on two rows at once, eight entries of each at a time:
// d0[i] = Exp(z0[i] − m0) added to s0 in index order, and the same for
// row 1, while len(d0) − i ≥ 8 and all sixteen arguments lie in [expMin,
// expMax]. The two sums advance side by side in one register (SUM2x8).
TEXT ·expShiftSum2AVX512(SB), NOSPLIT, $0-168
	MOVQ         d0_base+0(FP), DI
	MOVQ         d0_len+8(FP), CX
	MOVQ         d1_base+24(FP), R10
	MOVQ         z0_base+48(FP), SI
	MOVQ         z1_base+72(FP), R11
	VBROADCASTSD m0+96(FP), Z27
	VBROADCASTSD m1+104(FP), Z28
	VMOVSD       s0+112(FP), X14
	VMOVHPD      s1+120(FP), X14, X14
	MOVQ         k+128(FP), AX
	MOVQ         tab+136(FP), BX
	VBROADCASTSD 0(AX), Z16   // invLn2N
	VBROADCASTSD 32(AX), Z17  // shift
	VBROADCASTSD 64(AX), Z18  // ln2HiN
	VBROADCASTSD 96(AX), Z19  // ln2LoN
	VBROADCASTSD 128(AX), Z20 // 1/120
	VBROADCASTSD 160(AX), Z21 // 1/24
	VBROADCASTSD 192(AX), Z22 // 1/6
	VBROADCASTSD 224(AX), Z23 // 1/2
	VBROADCASTSD 256(AX), Z24 // expMin
	VBROADCASTSD 288(AX), Z25 // expMax
	VPBROADCASTQ 320(AX), Z26 // tableSize − 1
	XORQ         DX, DX

exp2loop:
	LEAQ    8(DX), R8
	CMPQ    R8, CX
	JGT     exp2done
	VMOVUPD (SI)(DX*8), Z0
	VSUBPD  Z27, Z0, Z0         // x = z0 − m0
	VMOVUPD (R11)(DX*8), Z5
	VSUBPD  Z28, Z5, Z5         // x = z1 − m1
	VCMPPD  $0x1d, Z24, Z0, K1  // x ≥ expMin (false for NaN)
	VCMPPD  $0x12, Z25, Z0, K2  // x ≤ expMax (false for NaN)
	VCMPPD  $0x1d, Z24, Z5, K3
	VCMPPD  $0x12, Z25, Z5, K4
	KANDW   K2, K1, K1
	KANDW   K4, K3, K3
	KANDW   K3, K1, K1
	KMOVW   K1, R9
	CMPQ    R9, $0xff
	JNE     exp2done

	EXP8(Z0, Z1, Z2, Z3, Z4, K5)
	EXP8(Z5, Z6, Z7, Z8, Z9, K6)
	VMOVUPD Z2, (DI)(DX*8)
	VMOVUPD Z7, (R10)(DX*8)
	SUM2x8(Z2, Z7)
	MOVQ    R8, DX
	JMP     exp2loop

exp2done:
	VZEROUPPER
	VMOVSD  X14, sum0+144(FP)
	VMOVHPD X14, sum1+152(FP)
	MOVQ  DX, done+160(FP)
	RET
