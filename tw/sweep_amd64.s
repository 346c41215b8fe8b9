//go:build amd64 && !purego

#include "textflag.h"

// Assembly forms of the sweeps in sweep.go, with the same floating-point
// operations in the same order, so their results equal the Go forms' bit for
// bit.
//
// The AVX2 forms work on blocks of four positions. A block whose last
// position's parent lies inside the block (rare: only where a level starts
// within it) is done one position at a time. Upward, a block loads four
// finished children sums at once, adds a−b, keeps four lane sums of the
// absolute values, and then pushes the four differences into their parents
// one by one, in decreasing position as the Go form does. Downward, a block
// gathers its four parents' path sums (VGATHERDPD) and adds the signed
// weights, computed as the sign bit of the difference ORed into the weight,
// ANDed with the mask difference ≠ 0 (an unordered compare: true for NaN).
//
// The SSE2 forms do one position at a time, keeping the same four lane sums
// in four registers. They serve processors without AVX2, and trees whose
// levels are so narrow that most blocks would be done one position at a
// time anyway (a mispredicted branch per block costs more than the vector
// saves).

DATA absmask<>+0(SB)/8, $0x7fffffffffffffff
GLOBL absmask<>(SB), RODATA|NOPTR, $8

DATA signmask<>+0(SB)/8, $0x8000000000000000
DATA signmask<>+8(SB)/8, $0x8000000000000000
GLOBL signmask<>(SB), RODATA|NOPTR, $16

// DOWNSETUP loads the arguments shared by the downward AVX2 sweeps; R9[k]
// is g[k−1]. (Macros that name arguments come before every TEXT, where vet
// does not check them against one function's frame.)
#define DOWNSETUP \
	MOVQ p_base+0(FP), DI            \
	MOVQ d_base+24(FP), SI           \
	MOVQ g_base+48(FP), R9           \
	SUBQ $8, R9                      \
	VBROADCASTSD signmask<>(SB), Y6  \
	VXORPD Y7, Y7, Y7

// UPSTEP(k) does position k of the upward sweep without the sum:
// x = d[k] + (a[k] − b[k]); d[k] = x; d[par[k]] += x. It leaves x in X1.
// Registers: DI = d, SI = a (offset), DX = b (offset), R8 = par.
#define UPSTEP(k) \
	VMOVSD  (SI)(k*8), X1        \
	VSUBSD  (DX)(k*8), X1, X1    \
	VADDSD  (DI)(k*8), X1, X1    \
	VMOVSD  X1, (DI)(k*8)        \
	MOVLQSX (R8)(k*4), AX        \
	VADDSD  (DI)(AX*8), X1, X2   \
	VMOVSD  X2, (DI)(AX*8)

// PUSH(off, x) adds the low lane of x into d[par[CX+off/4]].
#define PUSH(off, x) \
	MOVLQSX off(R8)(CX*4), AX    \
	VADDSD  (DI)(AX*8), x, X5    \
	VMOVSD  X5, (DI)(AX*8)

// UPBODY(WEIGHT) is the body of the upward AVX2 sweep; WEIGHT multiplies
// the absolute values in Y2 (at block CX) or the scalar in X2 (at CX) by
// the weights, or does nothing. Y0 holds the lane sums, X6 the tail sum.
#define UPBODY(WBLOCK, WONE) \
	MOVQ    d_base+0(FP), DI       \
	MOVQ    a_base+24(FP), SI      \
	MOVQ    b_base+48(FP), DX      \
	SHLQ    $3, R12                \
	SUBQ    R12, SI                \
	SUBQ    R12, DX                \
	VBROADCASTSD absmask<>(SB), Y7 \
	VXORPD  Y0, Y0, Y0             \
	VXORPD  X6, X6, X6             \
	LEAQ    4(BX), R10             \
block:                             \
	CMPQ    CX, R10                \
	JLT     tail                   \
	SUBQ    $4, CX                 \
	MOVLQSX 12(R8)(CX*4), AX       \
	CMPQ    AX, CX                 \
	JGE     slow                   \
	VMOVUPD (SI)(CX*8), Y1         \
	VSUBPD  (DX)(CX*8), Y1, Y1     \
	VADDPD  (DI)(CX*8), Y1, Y1     \
	VMOVUPD Y1, (DI)(CX*8)         \
	VANDPD  Y7, Y1, Y2             \
	WBLOCK                         \
	VADDPD  Y2, Y0, Y0             \
	VEXTRACTF128 $1, Y1, X3        \
	VPERMILPD $1, X3, X4           \
	VPERMILPD $1, X1, X2           \
	PUSH(12, X4)                   \
	PUSH(8, X3)                    \
	PUSH(4, X2)                    \
	PUSH(0, X1)                    \
	JMP     block                  \
slow:                              \
	LEAQ    3(CX), R11             \
slowloop:                          \
	UPSTEP(R11)                    \
	DECQ    R11                    \
	CMPQ    R11, CX                \
	JGE     slowloop               \
	VMOVUPD (DI)(CX*8), Y1         \
	VANDPD  Y7, Y1, Y2             \
	WBLOCK                         \
	VADDPD  Y2, Y0, Y0             \
	JMP     block                  \
tail:                              \
	CMPQ    CX, BX                 \
	JLE     done                   \
	DECQ    CX                     \
	UPSTEP(CX)                     \
	VANDPD  X7, X1, X2             \
	WONE                           \
	VADDSD  X2, X6, X6             \
	JMP     tail                   \
done:                              \
	VEXTRACTF128 $1, Y0, X1        \
	VADDPD  X1, X0, X0             \
	VPERMILPD $1, X0, X1           \
	VADDSD  X1, X0, X0             \
	VADDSD  X6, X0, X0             \
	VMOVSD  s+SOFF(FP), X1         \
	VADDSD  X0, X1, X0             \
	VZEROUPPER

// UPSTEP2(k) is UPSTEP in SSE2 encoding; it leaves x in X1.
#define UPSTEP2(k) \
	MOVSD   (SI)(k*8), X1        \
	SUBSD   (DX)(k*8), X1        \
	ADDSD   (DI)(k*8), X1        \
	MOVSD   X1, (DI)(k*8)        \
	MOVLQSX (R8)(k*4), AX        \
	MOVSD   (DI)(AX*8), X2       \
	ADDSD   X1, X2               \
	MOVSD   X2, (DI)(AX*8)

// UPLANE2(k, lane, W) does position k and adds its weighted |x| to lane.
#define UPLANE2(k, lane, W) \
	UPSTEP2(k)                   \
	ANDPD   X7, X1               \
	W                            \
	ADDSD   X1, lane

// UPBODY2(W0, W1, W2, W3, WT) is the upward SSE2 sweep over [BX, CX): Wj
// weights |x| of position CX+j of a block (in X1), WT of tail position CX.
#define UPBODY2(W0, W1, W2, W3, WT) \
	MOVQ    d_base+0(FP), DI       \
	MOVQ    a_base+24(FP), SI      \
	MOVQ    b_base+48(FP), DX      \
	SHLQ    $3, R12                \
	SUBQ    R12, SI                \
	SUBQ    R12, DX                \
	MOVSD   absmask<>(SB), X7      \
	XORPS   X8, X8                 \
	XORPS   X9, X9                 \
	XORPS   X10, X10               \
	XORPS   X11, X11               \
	XORPS   X12, X12               \
	LEAQ    4(BX), R10             \
block:                             \
	CMPQ    CX, R10                \
	JLT     tail                   \
	SUBQ    $4, CX                 \
	LEAQ    3(CX), R11             \
	UPLANE2(R11, X11, W3)          \
	DECQ    R11                    \
	UPLANE2(R11, X10, W2)          \
	DECQ    R11                    \
	UPLANE2(R11, X9, W1)           \
	UPLANE2(CX, X8, W0)            \
	JMP     block                  \
tail:                              \
	CMPQ    CX, BX                 \
	JLE     done                   \
	DECQ    CX                     \
	UPLANE2(CX, X12, WT)           \
	JMP     tail                   \
done:                              \
	ADDSD   X10, X8                \
	ADDSD   X11, X9                \
	ADDSD   X9, X8                 \
	ADDSD   X12, X8                \
	MOVSD   s+SOFF(FP), X0         \
	ADDSD   X8, X0

#define W2NONE
#define W2AT(off) MULSD off(R9)(CX*8), X1
#define W2AT0 W2AT(0)
#define W2AT8 W2AT(8)
#define W2AT16 W2AT(16)
#define W2AT24 W2AT(24)

#define NOWEIGHT

// func upUnitAVX2(d, a, b []float64, par []int32, off, lo, hi int, s float64) float64
// Requires 1 ≤ lo < hi.
#define SOFF 120
TEXT ·upUnitAVX2(SB), NOSPLIT, $0-136
	MOVQ par_base+72(FP), R8
	MOVQ off+96(FP), R12
	MOVQ lo+104(FP), BX
	MOVQ hi+112(FP), CX
	UPBODY(NOWEIGHT, NOWEIGHT)
	VMOVSD X0, ret+128(FP)
	RET
#undef SOFF

#define WBLOCK VMULPD (R9)(CX*8), Y2, Y2
#define WONE VMULSD (R9)(CX*8), X2, X2

// func upWeightedAVX2(d, a, b, wt []float64, par []int32, off, lo, hi int, s float64) float64
// Requires 1 ≤ lo < hi.
#define SOFF 144
TEXT ·upWeightedAVX2(SB), NOSPLIT, $0-160
	MOVQ wt_base+72(FP), R9
	MOVQ par_base+96(FP), R8
	MOVQ off+120(FP), R12
	MOVQ lo+128(FP), BX
	MOVQ hi+136(FP), CX
	UPBODY(WBLOCK, WONE)
	VMOVSD X0, ret+152(FP)
	RET
#undef SOFF

// SIGNED1(x, w, t) leaves w·sign(x) in the low lane of w (VEX scalar form),
// with X6 = sign mask and X7 = 0; x is clobbered, t is scratch.
#define SIGNED1(x, w, t) \
	VCMPSD $4, X7, x, t  \
	VANDPD X6, x, x      \
	VORPD  x, w, w       \
	VANDPD t, w, w

// DOWNONE(k, W) does position k of the downward sweep: p[k] = p[par[k]] +
// w·sign(d[k]), the weight loaded by W into X2; leaves the path sum in X2.
// Registers: DI = p, SI = d, R8 = par.
#define DOWNONE(k, W, Z) \
	VMOVSD  (SI)(k*8), X1     \
	Z                         \
	W                         \
	SIGNED1(X1, X2, X3)       \
	MOVLQSX (R8)(k*4), AX     \
	VADDSD  (DI)(AX*8), X2, X2 \
	VMOVSD  X2, (DI)(k*8)

// DOWNBODY(WB, W1, STOREB, STORE1, ZB, Z1) is the downward AVX2 sweep over
// [CX, BX); WB loads the block's weights into Y4, W1 one weight into X2;
// STOREB and STORE1 also store the block (Y3) or the one path sum (X2) into
// g; ZB and Z1 zero the differences of the block or the position once read.
#define DOWNBODY(WB, W1, STOREB, STORE1, ZB, Z1) \
	LEAQ    -4(BX), R10                \
block:                                 \
	CMPQ    CX, R10                    \
	JGT     tail                       \
	MOVLQSX 12(R8)(CX*4), AX           \
	CMPQ    AX, CX                     \
	JGE     slow                       \
	VMOVDQU (R8)(CX*4), X1             \
	VPCMPEQD Y2, Y2, Y2                \
	VGATHERDPD Y2, (DI)(X1*8), Y3      \
	VMOVUPD (SI)(CX*8), Y1             \
	ZB                                 \
	WB                                 \
	VCMPPD  $4, Y7, Y1, Y2             \
	VANDPD  Y6, Y1, Y1                 \
	VORPD   Y1, Y4, Y4                 \
	VANDPD  Y2, Y4, Y4                 \
	VADDPD  Y4, Y3, Y3                 \
	VMOVUPD Y3, (DI)(CX*8)             \
	STOREB                             \
	ADDQ    $4, CX                     \
	JMP     block                      \
slow:                                  \
	LEAQ    4(CX), R11                 \
slowloop:                              \
	DOWNONE(CX, W1, Z1)                \
	STORE1                             \
	INCQ    CX                         \
	CMPQ    CX, R11                    \
	JLT     slowloop                   \
	JMP     block                      \
tail:                                  \
	CMPQ    CX, BX                     \
	JGE     done                       \
	DOWNONE(CX, W1, Z1)                \
	STORE1                             \
	INCQ    CX                         \
	JMP     tail                       \
done:                                  \
	VZEROUPPER

#define UNITB VMOVAPD Y5, Y4
#define UNIT1 VMOVAPD X5, X2
#define WEIGHTB VMOVUPD (R12)(CX*8), Y4
#define WEIGHT1 VMOVSD (R12)(CX*8), X2
#define NOSTORE
#define ZEROB VMOVUPD Y7, (SI)(CX*8)
#define ZERO1 VMOVSD X7, (SI)(CX*8)
#define GSTOREB VMOVUPD Y3, (R9)(CX*8)
#define GSTORE1 VMOVSD X2, (R9)(CX*8)

// func downUnitAVX2(p, d, g []float64, par []int32, u float64, lo, hi int)
// Requires 1 ≤ lo < hi. Ignores g; zeroes d[lo:hi].
TEXT ·downUnitAVX2(SB), NOSPLIT, $0-120
	DOWNSETUP
	MOVQ par_base+72(FP), R8
	VBROADCASTSD u+96(FP), Y5
	MOVQ lo+104(FP), CX
	MOVQ hi+112(FP), BX
	DOWNBODY(UNITB, UNIT1, NOSTORE, NOSTORE, ZEROB, ZERO1)
	RET

// func downUnitGAVX2(p, d, g []float64, par []int32, u float64, lo, hi int)
// downUnitAVX2 that also stores each path sum p[k] in g[k−1].
TEXT ·downUnitGAVX2(SB), NOSPLIT, $0-120
	DOWNSETUP
	MOVQ par_base+72(FP), R8
	VBROADCASTSD u+96(FP), Y5
	MOVQ lo+104(FP), CX
	MOVQ hi+112(FP), BX
	DOWNBODY(UNITB, UNIT1, GSTOREB, GSTORE1, NOSTORE, NOSTORE)
	RET

// func downWeightedAVX2(p, d, g, wt []float64, par []int32, lo, hi int)
// Requires 1 ≤ lo < hi. Ignores g; zeroes d[lo:hi].
TEXT ·downWeightedAVX2(SB), NOSPLIT, $0-136
	DOWNSETUP
	MOVQ wt_base+72(FP), R12
	MOVQ par_base+96(FP), R8
	MOVQ lo+120(FP), CX
	MOVQ hi+128(FP), BX
	DOWNBODY(WEIGHTB, WEIGHT1, NOSTORE, NOSTORE, ZEROB, ZERO1)
	RET

// func downWeightedGAVX2(p, d, g, wt []float64, par []int32, lo, hi int)
// downWeightedAVX2 that also stores each path sum p[k] in g[k−1].
TEXT ·downWeightedGAVX2(SB), NOSPLIT, $0-136
	DOWNSETUP
	MOVQ wt_base+72(FP), R12
	MOVQ par_base+96(FP), R8
	MOVQ lo+120(FP), CX
	MOVQ hi+128(FP), BX
	DOWNBODY(WEIGHTB, WEIGHT1, GSTOREB, GSTORE1, NOSTORE, NOSTORE)
	RET

// SIGNED(x, w, t) leaves w·sign(x) in w (SSE2 scalar form), with X6 = sign
// mask and X7 = 0; x is clobbered, t is scratch.
#define SIGNED(x, w, t) \
	MOVAPD x, t        \
	ANDPD  X6, x       \
	ORPD   x, w        \
	CMPSD  X7, t, $4   \
	ANDPD  t, w

// DOWNSTEP2(W, Z, G) does position CX of the downward SSE2 sweep and
// advances CX, leaving the flags of CX against hi (BX): W loads the weight
// into X2, Z zeroes the difference once read, G stores the path sum into g.
#define DOWNSTEP2(W, Z, G) \
	MOVSD   (SI)(CX*8), X1     \
	Z                          \
	W                          \
	SIGNED(X1, X2, X3)         \
	MOVLQSX (R8)(CX*4), AX     \
	ADDSD   (DI)(AX*8), X2     \
	MOVSD   X2, (DI)(CX*8)     \
	G                          \
	INCQ    CX                 \
	CMPQ    CX, BX

#define UNIT2 MOVAPD X5, X2
#define WEIGHT2 MOVSD (R10)(CX*8), X2
#define ZERO2 MOVSD X7, (SI)(CX*8)
#define GSTORE2 MOVSD X2, (R9)(CX*8)

// func downUnitSSE2(p, d, g []float64, par []int32, u float64, lo, hi int)
// Requires 1 ≤ lo < hi. g may be nil; if it is, zeroes d[lo:hi].
TEXT ·downUnitSSE2(SB), NOSPLIT, $0-120
	MOVQ p_base+0(FP), DI
	MOVQ d_base+24(FP), SI
	MOVQ g_base+48(FP), R9
	MOVQ par_base+72(FP), R8
	MOVSD u+96(FP), X5
	MOVQ lo+104(FP), CX
	MOVQ hi+112(FP), BX
	MOVUPD signmask<>(SB), X6
	XORPD X7, X7
	TESTQ R9, R9
	JZ    du1loop
	SUBQ  $8, R9 // R9[k] = g[k-1]

du2loop:
	DOWNSTEP2(UNIT2, NOSTORE, GSTORE2)
	JLT     du2loop
	RET

du1loop:
	DOWNSTEP2(UNIT2, ZERO2, NOSTORE)
	JLT     du1loop
	RET

// func downWeightedSSE2(p, d, g, wt []float64, par []int32, lo, hi int)
// Requires 1 ≤ lo < hi. g may be nil; if it is, zeroes d[lo:hi].
TEXT ·downWeightedSSE2(SB), NOSPLIT, $0-136
	MOVQ p_base+0(FP), DI
	MOVQ d_base+24(FP), SI
	MOVQ g_base+48(FP), R9
	MOVQ wt_base+72(FP), R10
	MOVQ par_base+96(FP), R8
	MOVQ lo+120(FP), CX
	MOVQ hi+128(FP), BX
	MOVUPD signmask<>(SB), X6
	XORPD X7, X7
	TESTQ R9, R9
	JZ    dw1loop
	SUBQ  $8, R9

dw2loop:
	DOWNSTEP2(WEIGHT2, NOSTORE, GSTORE2)
	JLT     dw2loop
	RET

dw1loop:
	DOWNSTEP2(WEIGHT2, ZERO2, NOSTORE)
	JLT     dw1loop
	RET

// func upUnitSSE2(d, a, b []float64, par []int32, off, lo, hi int, s float64) float64
// Requires 1 ≤ lo < hi.
#define SOFF 120
TEXT ·upUnitSSE2(SB), NOSPLIT, $0-136
	MOVQ par_base+72(FP), R8
	MOVQ off+96(FP), R12
	MOVQ lo+104(FP), BX
	MOVQ hi+112(FP), CX
	UPBODY2(W2NONE, W2NONE, W2NONE, W2NONE, W2NONE)
	MOVSD X0, ret+128(FP)
	RET
#undef SOFF

// func upWeightedSSE2(d, a, b, wt []float64, par []int32, off, lo, hi int, s float64) float64
// Requires 1 ≤ lo < hi.
#define SOFF 144
TEXT ·upWeightedSSE2(SB), NOSPLIT, $0-160
	MOVQ wt_base+72(FP), R9
	MOVQ par_base+96(FP), R8
	MOVQ off+120(FP), R12
	MOVQ lo+128(FP), BX
	MOVQ hi+136(FP), CX
	UPBODY2(W2AT0, W2AT8, W2AT16, W2AT24, W2AT0)
	MOVSD X0, ret+152(FP)
	RET
#undef SOFF
