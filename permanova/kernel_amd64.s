//go:build amd64 && !purego

#include "textflag.h"

// The assembly forms of maskSumGo and maskSum4Go (kernel.go): a chunk t of
// 8 values is added, under the mask byte t (KMOVB into a mask register,
// then a merge-masked VADDPD), into bank t mod 2 of the sum, lane k taking
// value 8t+k; then v = bank0 + bank1 and the lanes are reduced as
// ((v0+v4) + (v2+v6)) + ((v1+v5) + (v3+v7)).

// REDUCE leaves in the low lane of X(a) the reduction of Z(a) + Z(b),
// using Z(b) as scratch.
#define REDUCE(za, zb, ya, yb, xa, xb) \
	VADDPD        zb, za, za \
	VEXTRACTF64X4 $1, za, yb \
	VADDPD        yb, ya, ya \
	VEXTRACTF128  $1, ya, xb \
	VADDPD        xb, xa, xa \
	VPERMILPD     $1, xa, xb \
	VADDSD        xb, xa, xa

// func maskSumAVX512(row *float64, mask *byte, chunks int) float64
TEXT ·maskSumAVX512(SB), NOSPLIT, $0-32
	MOVQ   row+0(FP), SI
	MOVQ   mask+8(FP), DX
	MOVQ   chunks+16(FP), CX
	VXORPD Z0, Z0, Z0
	VXORPD Z1, Z1, Z1
	XORQ   AX, AX
	MOVQ   CX, BX
	ANDQ   $-2, BX
	JZ     tail1

loop1:
	MOVQ   AX, R8
	SHLQ   $6, R8
	KMOVB  (DX)(AX*1), K1
	KMOVB  1(DX)(AX*1), K2
	VADDPD (SI)(R8*1), Z0, K1, Z0
	VADDPD 64(SI)(R8*1), Z1, K2, Z1
	ADDQ   $2, AX
	CMPQ   AX, BX
	JLT    loop1

tail1:
	CMPQ   AX, CX
	JGE    done1
	MOVQ   AX, R8
	SHLQ   $6, R8
	KMOVB  (DX)(AX*1), K1
	VADDPD (SI)(R8*1), Z0, K1, Z0

done1:
	REDUCE(Z0, Z1, Y0, Y1, X0, X1)
	VZEROUPPER
	MOVSD  X0, ret+24(FP)
	RET

// func maskSum4AVX512(s *[4]float64, row *float64, m0, m1, m2, m3 *byte, chunks int)
//
// Banks: Z0/Z1 for m0, Z2/Z3 for m1, Z4/Z5 for m2, Z6/Z7 for m3; each
// load of a chunk of the row (Z8, Z9) serves the four.
TEXT ·maskSum4AVX512(SB), NOSPLIT, $0-56
	MOVQ   s+0(FP), DI
	MOVQ   row+8(FP), SI
	MOVQ   m0+16(FP), DX
	MOVQ   m1+24(FP), R9
	MOVQ   m2+32(FP), R10
	MOVQ   m3+40(FP), R11
	MOVQ   chunks+48(FP), CX
	VXORPD Z0, Z0, Z0
	VXORPD Z1, Z1, Z1
	VXORPD Z2, Z2, Z2
	VXORPD Z3, Z3, Z3
	VXORPD Z4, Z4, Z4
	VXORPD Z5, Z5, Z5
	VXORPD Z6, Z6, Z6
	VXORPD Z7, Z7, Z7
	XORQ   AX, AX
	MOVQ   CX, BX
	ANDQ   $-2, BX
	JZ     tail4

loop4:
	MOVQ    AX, R8
	SHLQ    $6, R8
	VMOVUPD (SI)(R8*1), Z8
	VMOVUPD 64(SI)(R8*1), Z9
	KMOVB   (DX)(AX*1), K1
	KMOVB   1(DX)(AX*1), K2
	KMOVB   (R9)(AX*1), K3
	KMOVB   1(R9)(AX*1), K4
	VADDPD  Z8, Z0, K1, Z0
	VADDPD  Z9, Z1, K2, Z1
	VADDPD  Z8, Z2, K3, Z2
	VADDPD  Z9, Z3, K4, Z3
	KMOVB   (R10)(AX*1), K5
	KMOVB   1(R10)(AX*1), K6
	KMOVB   (R11)(AX*1), K1
	KMOVB   1(R11)(AX*1), K2
	VADDPD  Z8, Z4, K5, Z4
	VADDPD  Z9, Z5, K6, Z5
	VADDPD  Z8, Z6, K1, Z6
	VADDPD  Z9, Z7, K2, Z7
	ADDQ    $2, AX
	CMPQ    AX, BX
	JLT     loop4

tail4:
	CMPQ    AX, CX
	JGE     done4
	MOVQ    AX, R8
	SHLQ    $6, R8
	VMOVUPD (SI)(R8*1), Z8
	KMOVB   (DX)(AX*1), K1
	KMOVB   (R9)(AX*1), K3
	KMOVB   (R10)(AX*1), K5
	KMOVB   (R11)(AX*1), K6
	VADDPD  Z8, Z0, K1, Z0
	VADDPD  Z8, Z2, K3, Z2
	VADDPD  Z8, Z4, K5, Z4
	VADDPD  Z8, Z6, K6, Z6

done4:
	REDUCE(Z0, Z1, Y0, Y1, X0, X1)
	MOVSD  X0, (DI)
	REDUCE(Z2, Z3, Y2, Y3, X2, X3)
	MOVSD  X2, 8(DI)
	REDUCE(Z4, Z5, Y4, Y5, X4, X5)
	MOVSD  X4, 16(DI)
	REDUCE(Z6, Z7, Y6, Y7, X6, X7)
	MOVSD  X6, 24(DI)
	VZEROUPPER
	RET

// The AVX2 form, two permutations at a time: a mask byte is broadcast to
// the 4 lanes of two registers, tested against the lanes' bits (1, 2, 4, 8
// and 16, 32, 64, 128) into all-ones or zero lanes, and the row's values
// ANDed with them before the addition; a lane left out adds +0, which
// leaves its sum's bits as they are. Bank b of permutation q is Y(4q+2b)
// for lanes 0–3 and Y(4q+2b+1) for lanes 4–7.

DATA bitsLo<>+0(SB)/8, $1
DATA bitsLo<>+8(SB)/8, $2
DATA bitsLo<>+16(SB)/8, $4
DATA bitsLo<>+24(SB)/8, $8
GLOBL bitsLo<>(SB), RODATA|NOPTR, $32
DATA bitsHi<>+0(SB)/8, $16
DATA bitsHi<>+8(SB)/8, $32
DATA bitsHi<>+16(SB)/8, $64
DATA bitsHi<>+24(SB)/8, $128
GLOBL bitsHi<>(SB), RODATA|NOPTR, $32

// MASKADD adds the values of Y10 (lanes 0–3) and Y11 (lanes 4–7) selected
// by the mask byte at m into Y(lo) and Y(hi); Y12–Y15 are scratch, Y8 and
// Y9 hold bitsLo and bitsHi.
#define MASKADD(m, lo, hi) \
	VPBROADCASTB m, Y12 \
	VPAND        Y8, Y12, Y13 \
	VPAND        Y9, Y12, Y14 \
	VPCMPEQQ     Y8, Y13, Y13 \
	VPCMPEQQ     Y9, Y14, Y14 \
	VANDPD       Y10, Y13, Y13 \
	VANDPD       Y11, Y14, Y14 \
	VADDPD       Y13, lo, lo \
	VADDPD       Y14, hi, hi

// REDUCE2 leaves in the low lane of X(a) ((v0+v4)+(v2+v6))+((v1+v5)+(v3+v7))
// for v = bank 0 + bank 1, the banks' halves in Y(a), Y(b) (bank 0) and
// Y(c), Y(d) (bank 1).
#define REDUCE2(ya, yb, yc, yd, xa, xb) \
	VADDPD       yc, ya, ya \
	VADDPD       yd, yb, yb \
	VADDPD       yb, ya, ya \
	VEXTRACTF128 $1, ya, xb \
	VADDPD       xb, xa, xa \
	VPERMILPD    $1, xa, xb \
	VADDSD       xb, xa, xa

// func maskSum2AVX2(s *[2]float64, row *float64, m0, m1 *byte, chunks int)
TEXT ·maskSum2AVX2(SB), NOSPLIT, $0-40
	MOVQ    s+0(FP), DI
	MOVQ    row+8(FP), SI
	MOVQ    m0+16(FP), DX
	MOVQ    m1+24(FP), R9
	MOVQ    chunks+32(FP), CX
	VMOVDQU bitsLo<>(SB), Y8
	VMOVDQU bitsHi<>(SB), Y9
	VXORPD  Y0, Y0, Y0
	VXORPD  Y1, Y1, Y1
	VXORPD  Y2, Y2, Y2
	VXORPD  Y3, Y3, Y3
	VXORPD  Y4, Y4, Y4
	VXORPD  Y5, Y5, Y5
	VXORPD  Y6, Y6, Y6
	VXORPD  Y7, Y7, Y7
	XORQ    AX, AX
	MOVQ    CX, BX
	ANDQ    $-2, BX
	JZ      tail2

loop2:
	MOVQ    AX, R8
	SHLQ    $6, R8
	VMOVUPD (SI)(R8*1), Y10
	VMOVUPD 32(SI)(R8*1), Y11
	MASKADD((DX)(AX*1), Y0, Y1)
	MASKADD((R9)(AX*1), Y4, Y5)
	VMOVUPD 64(SI)(R8*1), Y10
	VMOVUPD 96(SI)(R8*1), Y11
	MASKADD(1(DX)(AX*1), Y2, Y3)
	MASKADD(1(R9)(AX*1), Y6, Y7)
	ADDQ    $2, AX
	CMPQ    AX, BX
	JLT     loop2

tail2:
	CMPQ    AX, CX
	JGE     done2
	MOVQ    AX, R8
	SHLQ    $6, R8
	VMOVUPD (SI)(R8*1), Y10
	VMOVUPD 32(SI)(R8*1), Y11
	MASKADD((DX)(AX*1), Y0, Y1)
	MASKADD((R9)(AX*1), Y4, Y5)

done2:
	REDUCE2(Y0, Y1, Y2, Y3, X0, X1)
	MOVSD   X0, (DI)
	REDUCE2(Y4, Y5, Y6, Y7, X4, X5)
	MOVSD   X4, 8(DI)
	VZEROUPPER
	RET
