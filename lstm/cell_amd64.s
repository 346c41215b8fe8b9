//go:build amd64 && !purego

#include "textflag.h"

// The LSTM cell on blocks of eight units, AVX2 (no FMA): the operations of
// cellForwardCols and cellBackwardCols (cell.go), in the same order, so
// that the results are the same bits. Each macro works on Y0 with the
// temporaries it names. Operand order is Go's: VOP src2, src1, dst.

// EXP: Y0 = expf(Y0); temporaries Y1, Y2, Y3. The clamp keeps a NaN (the
// second source operand of VMAXPS and VMINPS is returned when either is
// NaN), as Go's min and max do.
#define EXP \
	VMOVUPS    expmin<>(SB), Y1 \
	VMAXPS     Y0, Y1, Y0 \
	VMOVUPS    expmax<>(SB), Y1 \
	VMINPS     Y0, Y1, Y0 \
	VMULPS     log2e<>(SB), Y0, Y1 \
	VADDPS     shifter<>(SB), Y1, Y1 \
	VSUBPS     shifter<>(SB), Y1, Y1 \
	VMULPS     ln2hi<>(SB), Y1, Y2 \
	VSUBPS     Y2, Y0, Y0 \
	VMULPS     ln2lo<>(SB), Y1, Y2 \
	VSUBPS     Y2, Y0, Y0 \
	VMULPS     p0<>(SB), Y0, Y2 \
	VADDPS     p1<>(SB), Y2, Y2 \
	VMULPS     Y0, Y2, Y2 \
	VADDPS     p2<>(SB), Y2, Y2 \
	VMULPS     Y0, Y2, Y2 \
	VADDPS     p3<>(SB), Y2, Y2 \
	VMULPS     Y0, Y2, Y2 \
	VADDPS     p4<>(SB), Y2, Y2 \
	VMULPS     Y0, Y2, Y2 \
	VADDPS     p5<>(SB), Y2, Y2 \
	VMULPS     Y0, Y0, Y3 \
	VMULPS     Y3, Y2, Y2 \
	VADDPS     Y0, Y2, Y2 \
	VADDPS     one<>(SB), Y2, Y2 \
	VCVTTPS2DQ Y1, Y1 \
	VPSLLD     $23, Y1, Y1 \
	VPADDD     Y1, Y2, Y0

// SIGMOID: Y0 = 1/(1 + expf(−Y0)); temporaries Y1, Y2, Y3.
#define SIGMOID \
	VXORPS  signmask<>(SB), Y0, Y0 \
	EXP \
	VADDPS  one<>(SB), Y0, Y0 \
	VMOVUPS one<>(SB), Y1 \
	VDIVPS  Y0, Y1, Y0

// TANH: Y0 = 2·sigmoid(2·Y0) − 1; temporaries Y1, Y2, Y3.
#define TANH \
	VADDPS Y0, Y0, Y0 \
	SIGMOID \
	VADDPS Y0, Y0, Y0 \
	VSUBPS one<>(SB), Y0, Y0

// FLUSH(R, T): R = 0 where |R| < tiny (a NaN stays); temporary T.
#define FLUSH(R, T) \
	VANDPS  absmask<>(SB), R, T \
	VCMPPS  $1, tiny<>(SB), T, T \
	VANDNPS R, T, R

// func cellForwardAVX2(rows, H, blocks int, gates, bias, cp, c, tc, h *float32)
//
// Registers: R8 rows left; R9 the row's gates; R10 bias; R11 c₋ of the row
// (0: none); R12, R13, R14 the row's c, tc, h; BX 4H, the offset in bytes
// of gate f (ĝ at 2·BX), DI 12H, that of o; CX blocks left in the row; SI
// the byte offset of the block; AX and DX the block's gates and biases.
// Y4 i, Y5 f, Y6 ĝ, Y7 o; Y8 f·c₋, Y9 i·ĝ.
TEXT ·cellForwardAVX2(SB), NOSPLIT, $0-72
	MOVQ rows+0(FP), R8
	MOVQ H+8(FP), BX
	SHLQ $2, BX
	MOVQ gates+24(FP), R9
	MOVQ bias+32(FP), R10
	MOVQ cp+40(FP), R11
	MOVQ c+48(FP), R12
	MOVQ tc+56(FP), R13
	MOVQ h+64(FP), R14
	LEAQ (BX)(BX*2), DI // 12H bytes: o

frow:
	TESTQ R8, R8
	JZ    fdone
	XORQ  SI, SI
	MOVQ  blocks+16(FP), CX

fblock:
	LEAQ (R9)(SI*1), AX  // the block's gates
	LEAQ (R10)(SI*1), DX // the block's biases

	// i = σ(g_i + b_i)
	VMOVUPS (AX), Y0
	VADDPS  (DX), Y0, Y0
	SIGMOID
	VMOVAPS Y0, Y4
	VMOVUPS Y0, (AX)

	// f = σ(g_f + b_f)
	VMOVUPS (AX)(BX*1), Y0
	VADDPS  (DX)(BX*1), Y0, Y0
	SIGMOID
	VMOVAPS Y0, Y5
	VMOVUPS Y0, (AX)(BX*1)

	// ĝ = tanh(g_g + b_g)
	VMOVUPS (AX)(BX*2), Y0
	VADDPS  (DX)(BX*2), Y0, Y0
	TANH
	VMOVAPS Y0, Y6
	VMOVUPS Y0, (AX)(BX*2)

	// o = σ(g_o + b_o)
	VMOVUPS (AX)(DI*1), Y0
	VADDPS  (DX)(DI*1), Y0, Y0
	SIGMOID
	VMOVAPS Y0, Y7
	VMOVUPS Y0, (AX)(DI*1)

	// c = flush(f·c₋ + i·ĝ)
	VXORPS Y8, Y8, Y8
	TESTQ  R11, R11
	JZ     fnoprev
	VMULPS (R11)(SI*1), Y5, Y8

fnoprev:
	VMULPS  Y6, Y4, Y9
	VADDPS  Y9, Y8, Y0
	FLUSH(Y0, Y1)
	VMOVUPS Y0, (R12)(SI*1)

	// tc = tanh(c), h = flush(o·tc)
	TANH
	VMOVUPS Y0, (R13)(SI*1)
	VMULPS  Y0, Y7, Y0
	FLUSH(Y0, Y1)
	VMOVUPS Y0, (R14)(SI*1)

	ADDQ $32, SI
	DECQ CX
	JNZ  fblock

	// The next row.
	LEAQ  (R9)(BX*4), R9
	ADDQ  BX, R12
	ADDQ  BX, R13
	ADDQ  BX, R14
	TESTQ R11, R11
	JZ    fnext
	ADDQ  BX, R11

fnext:
	DECQ R8
	JMP  frow

fdone:
	VZEROUPPER
	RET

// func cellBackwardAVX2(rows, H, blocks int, gates, cp, tc, dh, dc *float32)
//
// Registers as in cellForwardAVX2; R11 c₋, R12 tc, R13 dh, R14 dc.
// Y4 i, Y5 f, Y6 ĝ, Y7 o, Y8 tanh c, Y9 dh, Y10 ∂c, Y11 ∂o, Y12 c₋,
// Y13 and Y14 temporaries, Y15 one.
TEXT ·cellBackwardAVX2(SB), NOSPLIT, $0-64
	MOVQ    rows+0(FP), R8
	MOVQ    H+8(FP), BX
	SHLQ    $2, BX
	MOVQ    gates+24(FP), R9
	MOVQ    cp+32(FP), R11
	MOVQ    tc+40(FP), R12
	MOVQ    dh+48(FP), R13
	MOVQ    dc+56(FP), R14
	LEAQ    (BX)(BX*2), DI
	VMOVUPS one<>(SB), Y15

brow:
	TESTQ R8, R8
	JZ    bdone
	XORQ  SI, SI
	MOVQ  blocks+16(FP), CX

bblock:
	LEAQ    (R9)(SI*1), AX
	VMOVUPS (AX), Y4
	VMOVUPS (AX)(BX*1), Y5
	VMOVUPS (AX)(BX*2), Y6
	VMOVUPS (AX)(DI*1), Y7
	VMOVUPS (R12)(SI*1), Y8
	VMOVUPS (R13)(SI*1), Y9

	// ∂c = dc + (dh·o)·(1 − tc·tc)
	VMULPS  Y8, Y8, Y13
	VSUBPS  Y13, Y15, Y13
	VMULPS  Y7, Y9, Y14
	VMULPS  Y13, Y14, Y14
	VMOVUPS (R14)(SI*1), Y10
	VADDPS  Y14, Y10, Y10

	// ∂o = dh·tc
	VMULPS Y8, Y9, Y11

	// c₋, zero at the first step
	VXORPS Y12, Y12, Y12
	TESTQ  R11, R11
	JZ     bnoprev
	VMOVUPS (R11)(SI*1), Y12

bnoprev:
	// gradient of i: flush((∂c·ĝ)·i·(1 − i))
	VMULPS  Y6, Y10, Y0
	VMULPS  Y4, Y0, Y0
	VSUBPS  Y4, Y15, Y13
	VMULPS  Y13, Y0, Y0
	FLUSH(Y0, Y1)
	VMOVUPS Y0, (AX)

	// gradient of f: flush((∂c·c₋)·f·(1 − f))
	VMULPS  Y12, Y10, Y0
	VMULPS  Y5, Y0, Y0
	VSUBPS  Y5, Y15, Y13
	VMULPS  Y13, Y0, Y0
	FLUSH(Y0, Y1)
	VMOVUPS Y0, (AX)(BX*1)

	// gradient of ĝ: flush((∂c·i)·(1 − ĝ·ĝ))
	VMULPS  Y4, Y10, Y0
	VMULPS  Y6, Y6, Y13
	VSUBPS  Y13, Y15, Y13
	VMULPS  Y13, Y0, Y0
	FLUSH(Y0, Y1)
	VMOVUPS Y0, (AX)(BX*2)

	// gradient of o: flush((∂o·o)·(1 − o))
	VMULPS  Y7, Y11, Y0
	VSUBPS  Y7, Y15, Y13
	VMULPS  Y13, Y0, Y0
	FLUSH(Y0, Y1)
	VMOVUPS Y0, (AX)(DI*1)

	// ∂c₋ = flush(∂c·f)
	VMULPS  Y5, Y10, Y0
	FLUSH(Y0, Y1)
	VMOVUPS Y0, (R14)(SI*1)

	ADDQ $32, SI
	DECQ CX
	JNZ  bblock

	LEAQ  (R9)(BX*4), R9
	ADDQ  BX, R12
	ADDQ  BX, R13
	ADDQ  BX, R14
	TESTQ R11, R11
	JZ    bnext
	ADDQ  BX, R11

bnext:
	DECQ R8
	JMP  brow

bdone:
	VZEROUPPER
	RET

// expmin = -80.0
DATA expmin<>+0(SB)/4, $0xc2a00000
DATA expmin<>+4(SB)/4, $0xc2a00000
DATA expmin<>+8(SB)/4, $0xc2a00000
DATA expmin<>+12(SB)/4, $0xc2a00000
DATA expmin<>+16(SB)/4, $0xc2a00000
DATA expmin<>+20(SB)/4, $0xc2a00000
DATA expmin<>+24(SB)/4, $0xc2a00000
DATA expmin<>+28(SB)/4, $0xc2a00000
GLOBL expmin<>(SB), RODATA|NOPTR, $32
// expmax = 80.0
DATA expmax<>+0(SB)/4, $0x42a00000
DATA expmax<>+4(SB)/4, $0x42a00000
DATA expmax<>+8(SB)/4, $0x42a00000
DATA expmax<>+12(SB)/4, $0x42a00000
DATA expmax<>+16(SB)/4, $0x42a00000
DATA expmax<>+20(SB)/4, $0x42a00000
DATA expmax<>+24(SB)/4, $0x42a00000
DATA expmax<>+28(SB)/4, $0x42a00000
GLOBL expmax<>(SB), RODATA|NOPTR, $32
// log2e = 1.4426950408889634
DATA log2e<>+0(SB)/4, $0x3fb8aa3b
DATA log2e<>+4(SB)/4, $0x3fb8aa3b
DATA log2e<>+8(SB)/4, $0x3fb8aa3b
DATA log2e<>+12(SB)/4, $0x3fb8aa3b
DATA log2e<>+16(SB)/4, $0x3fb8aa3b
DATA log2e<>+20(SB)/4, $0x3fb8aa3b
DATA log2e<>+24(SB)/4, $0x3fb8aa3b
DATA log2e<>+28(SB)/4, $0x3fb8aa3b
GLOBL log2e<>(SB), RODATA|NOPTR, $32
// shifter = 12582912.0
DATA shifter<>+0(SB)/4, $0x4b400000
DATA shifter<>+4(SB)/4, $0x4b400000
DATA shifter<>+8(SB)/4, $0x4b400000
DATA shifter<>+12(SB)/4, $0x4b400000
DATA shifter<>+16(SB)/4, $0x4b400000
DATA shifter<>+20(SB)/4, $0x4b400000
DATA shifter<>+24(SB)/4, $0x4b400000
DATA shifter<>+28(SB)/4, $0x4b400000
GLOBL shifter<>(SB), RODATA|NOPTR, $32
// ln2hi = 0.693359375
DATA ln2hi<>+0(SB)/4, $0x3f318000
DATA ln2hi<>+4(SB)/4, $0x3f318000
DATA ln2hi<>+8(SB)/4, $0x3f318000
DATA ln2hi<>+12(SB)/4, $0x3f318000
DATA ln2hi<>+16(SB)/4, $0x3f318000
DATA ln2hi<>+20(SB)/4, $0x3f318000
DATA ln2hi<>+24(SB)/4, $0x3f318000
DATA ln2hi<>+28(SB)/4, $0x3f318000
GLOBL ln2hi<>(SB), RODATA|NOPTR, $32
// ln2lo = -0.00021219444
DATA ln2lo<>+0(SB)/4, $0xb95e8083
DATA ln2lo<>+4(SB)/4, $0xb95e8083
DATA ln2lo<>+8(SB)/4, $0xb95e8083
DATA ln2lo<>+12(SB)/4, $0xb95e8083
DATA ln2lo<>+16(SB)/4, $0xb95e8083
DATA ln2lo<>+20(SB)/4, $0xb95e8083
DATA ln2lo<>+24(SB)/4, $0xb95e8083
DATA ln2lo<>+28(SB)/4, $0xb95e8083
GLOBL ln2lo<>(SB), RODATA|NOPTR, $32
// p0 = 0.000198756915
DATA p0<>+0(SB)/4, $0x39506967
DATA p0<>+4(SB)/4, $0x39506967
DATA p0<>+8(SB)/4, $0x39506967
DATA p0<>+12(SB)/4, $0x39506967
DATA p0<>+16(SB)/4, $0x39506967
DATA p0<>+20(SB)/4, $0x39506967
DATA p0<>+24(SB)/4, $0x39506967
DATA p0<>+28(SB)/4, $0x39506967
GLOBL p0<>(SB), RODATA|NOPTR, $32
// p1 = 0.0013981999507
DATA p1<>+0(SB)/4, $0x3ab743ce
DATA p1<>+4(SB)/4, $0x3ab743ce
DATA p1<>+8(SB)/4, $0x3ab743ce
DATA p1<>+12(SB)/4, $0x3ab743ce
DATA p1<>+16(SB)/4, $0x3ab743ce
DATA p1<>+20(SB)/4, $0x3ab743ce
DATA p1<>+24(SB)/4, $0x3ab743ce
DATA p1<>+28(SB)/4, $0x3ab743ce
GLOBL p1<>(SB), RODATA|NOPTR, $32
// p2 = 0.0083334519073
DATA p2<>+0(SB)/4, $0x3c088908
DATA p2<>+4(SB)/4, $0x3c088908
DATA p2<>+8(SB)/4, $0x3c088908
DATA p2<>+12(SB)/4, $0x3c088908
DATA p2<>+16(SB)/4, $0x3c088908
DATA p2<>+20(SB)/4, $0x3c088908
DATA p2<>+24(SB)/4, $0x3c088908
DATA p2<>+28(SB)/4, $0x3c088908
GLOBL p2<>(SB), RODATA|NOPTR, $32
// p3 = 0.041665795894
DATA p3<>+0(SB)/4, $0x3d2aa9c1
DATA p3<>+4(SB)/4, $0x3d2aa9c1
DATA p3<>+8(SB)/4, $0x3d2aa9c1
DATA p3<>+12(SB)/4, $0x3d2aa9c1
DATA p3<>+16(SB)/4, $0x3d2aa9c1
DATA p3<>+20(SB)/4, $0x3d2aa9c1
DATA p3<>+24(SB)/4, $0x3d2aa9c1
DATA p3<>+28(SB)/4, $0x3d2aa9c1
GLOBL p3<>(SB), RODATA|NOPTR, $32
// p4 = 0.16666665459
DATA p4<>+0(SB)/4, $0x3e2aaaaa
DATA p4<>+4(SB)/4, $0x3e2aaaaa
DATA p4<>+8(SB)/4, $0x3e2aaaaa
DATA p4<>+12(SB)/4, $0x3e2aaaaa
DATA p4<>+16(SB)/4, $0x3e2aaaaa
DATA p4<>+20(SB)/4, $0x3e2aaaaa
DATA p4<>+24(SB)/4, $0x3e2aaaaa
DATA p4<>+28(SB)/4, $0x3e2aaaaa
GLOBL p4<>(SB), RODATA|NOPTR, $32
// p5 = 0.50000001201
DATA p5<>+0(SB)/4, $0x3f000000
DATA p5<>+4(SB)/4, $0x3f000000
DATA p5<>+8(SB)/4, $0x3f000000
DATA p5<>+12(SB)/4, $0x3f000000
DATA p5<>+16(SB)/4, $0x3f000000
DATA p5<>+20(SB)/4, $0x3f000000
DATA p5<>+24(SB)/4, $0x3f000000
DATA p5<>+28(SB)/4, $0x3f000000
GLOBL p5<>(SB), RODATA|NOPTR, $32
// one = 1.0
DATA one<>+0(SB)/4, $0x3f800000
DATA one<>+4(SB)/4, $0x3f800000
DATA one<>+8(SB)/4, $0x3f800000
DATA one<>+12(SB)/4, $0x3f800000
DATA one<>+16(SB)/4, $0x3f800000
DATA one<>+20(SB)/4, $0x3f800000
DATA one<>+24(SB)/4, $0x3f800000
DATA one<>+28(SB)/4, $0x3f800000
GLOBL one<>(SB), RODATA|NOPTR, $32
// tiny = 8.673617379884035e-19
DATA tiny<>+0(SB)/4, $0x21800000
DATA tiny<>+4(SB)/4, $0x21800000
DATA tiny<>+8(SB)/4, $0x21800000
DATA tiny<>+12(SB)/4, $0x21800000
DATA tiny<>+16(SB)/4, $0x21800000
DATA tiny<>+20(SB)/4, $0x21800000
DATA tiny<>+24(SB)/4, $0x21800000
DATA tiny<>+28(SB)/4, $0x21800000
GLOBL tiny<>(SB), RODATA|NOPTR, $32
DATA signmask<>+0(SB)/4, $0x80000000
DATA signmask<>+4(SB)/4, $0x80000000
DATA signmask<>+8(SB)/4, $0x80000000
DATA signmask<>+12(SB)/4, $0x80000000
DATA signmask<>+16(SB)/4, $0x80000000
DATA signmask<>+20(SB)/4, $0x80000000
DATA signmask<>+24(SB)/4, $0x80000000
DATA signmask<>+28(SB)/4, $0x80000000
GLOBL signmask<>(SB), RODATA|NOPTR, $32
DATA absmask<>+0(SB)/4, $0x7fffffff
DATA absmask<>+4(SB)/4, $0x7fffffff
DATA absmask<>+8(SB)/4, $0x7fffffff
DATA absmask<>+12(SB)/4, $0x7fffffff
DATA absmask<>+16(SB)/4, $0x7fffffff
DATA absmask<>+20(SB)/4, $0x7fffffff
DATA absmask<>+24(SB)/4, $0x7fffffff
DATA absmask<>+28(SB)/4, $0x7fffffff
GLOBL absmask<>(SB), RODATA|NOPTR, $32

// The same kernels on blocks of sixteen units, AVX-512 (no FMA): each
// operation of the AVX2 ones on zmm registers, the constants broadcast
// from the same tables, with the same operands in the same roles (MIN,
// MAX, SUB and DIV keep their first and second sources), so that every
// lane computes the same bits. The mask forms: XORPS and ANDPS become
// VPXORD and VPANDD (the same bits), and FLUSH zeroes, under a mask, the
// lanes whose magnitude compares below tiny.

// EXP16: Z0 = expf(Z0); temporaries Z1, Z2, Z3.
#define EXP16 \
	VBROADCASTSS    expmin<>(SB), Z1 \
	VMAXPS          Z0, Z1, Z0 \
	VBROADCASTSS    expmax<>(SB), Z1 \
	VMINPS          Z0, Z1, Z0 \
	VMULPS.BCST     log2e<>(SB), Z0, Z1 \
	VADDPS.BCST     shifter<>(SB), Z1, Z1 \
	VSUBPS.BCST     shifter<>(SB), Z1, Z1 \
	VMULPS.BCST     ln2hi<>(SB), Z1, Z2 \
	VSUBPS          Z2, Z0, Z0 \
	VMULPS.BCST     ln2lo<>(SB), Z1, Z2 \
	VSUBPS          Z2, Z0, Z0 \
	VMULPS.BCST     p0<>(SB), Z0, Z2 \
	VADDPS.BCST     p1<>(SB), Z2, Z2 \
	VMULPS          Z0, Z2, Z2 \
	VADDPS.BCST     p2<>(SB), Z2, Z2 \
	VMULPS          Z0, Z2, Z2 \
	VADDPS.BCST     p3<>(SB), Z2, Z2 \
	VMULPS          Z0, Z2, Z2 \
	VADDPS.BCST     p4<>(SB), Z2, Z2 \
	VMULPS          Z0, Z2, Z2 \
	VADDPS.BCST     p5<>(SB), Z2, Z2 \
	VMULPS          Z0, Z0, Z3 \
	VMULPS          Z3, Z2, Z2 \
	VADDPS          Z0, Z2, Z2 \
	VADDPS.BCST     one<>(SB), Z2, Z2 \
	VCVTTPS2DQ      Z1, Z1 \
	VPSLLD          $23, Z1, Z1 \
	VPADDD          Z1, Z2, Z0

// SIGMOID16: Z0 = 1/(1 + expf(−Z0)); temporaries Z1, Z2, Z3.
#define SIGMOID16 \
	VPXORD.BCST  signmask<>(SB), Z0, Z0 \
	EXP16 \
	VADDPS.BCST  one<>(SB), Z0, Z0 \
	VBROADCASTSS one<>(SB), Z1 \
	VDIVPS       Z0, Z1, Z0

// TANH16: Z0 = 2·sigmoid(2·Z0) − 1; temporaries Z1, Z2, Z3.
#define TANH16 \
	VADDPS Z0, Z0, Z0 \
	SIGMOID16 \
	VADDPS Z0, Z0, Z0 \
	VSUBPS.BCST one<>(SB), Z0, Z0

// FLUSH16(R, T): R = 0 where |R| < tiny (a NaN stays); temporary T, K2.
#define FLUSH16(R, T) \
	VPANDD.BCST absmask<>(SB), R, T \
	VCMPPS.BCST $1, tiny<>(SB), T, K2 \
	VPXORD R, R, K2, R

// func cellForward512(rows, H, blocks int, gates, bias, cp, c, tc, h *float32)
//
// cellForwardAVX2 on blocks of sixteen units: registers as there, Z for Y.
TEXT ·cellForward512(SB), NOSPLIT, $0-72
	MOVQ rows+0(FP), R8
	MOVQ H+8(FP), BX
	SHLQ $2, BX
	MOVQ gates+24(FP), R9
	MOVQ bias+32(FP), R10
	MOVQ cp+40(FP), R11
	MOVQ c+48(FP), R12
	MOVQ tc+56(FP), R13
	MOVQ h+64(FP), R14
	LEAQ (BX)(BX*2), DI

grow16:
	TESTQ R8, R8
	JZ    gdone16
	XORQ  SI, SI
	MOVQ  blocks+16(FP), CX

gblock16:
	LEAQ (R9)(SI*1), AX
	LEAQ (R10)(SI*1), DX

	VMOVUPS (AX), Z0
	VADDPS  (DX), Z0, Z0
	SIGMOID16
	VMOVAPS Z0, Z4
	VMOVUPS Z0, (AX)

	VMOVUPS (AX)(BX*1), Z0
	VADDPS  (DX)(BX*1), Z0, Z0
	SIGMOID16
	VMOVAPS Z0, Z5
	VMOVUPS Z0, (AX)(BX*1)

	VMOVUPS (AX)(BX*2), Z0
	VADDPS  (DX)(BX*2), Z0, Z0
	TANH16
	VMOVAPS Z0, Z6
	VMOVUPS Z0, (AX)(BX*2)

	VMOVUPS (AX)(DI*1), Z0
	VADDPS  (DX)(DI*1), Z0, Z0
	SIGMOID16
	VMOVAPS Z0, Z7
	VMOVUPS Z0, (AX)(DI*1)

	VPXORD Z8, Z8, Z8
	TESTQ  R11, R11
	JZ     gnoprev16
	VMULPS (R11)(SI*1), Z5, Z8

gnoprev16:
	VMULPS  Z6, Z4, Z9
	VADDPS  Z9, Z8, Z0
	FLUSH16(Z0, Z1)
	VMOVUPS Z0, (R12)(SI*1)

	TANH16
	VMOVUPS Z0, (R13)(SI*1)
	VMULPS  Z0, Z7, Z0
	FLUSH16(Z0, Z1)
	VMOVUPS Z0, (R14)(SI*1)

	ADDQ $64, SI
	DECQ CX
	JNZ  gblock16

	LEAQ  (R9)(BX*4), R9
	ADDQ  BX, R12
	ADDQ  BX, R13
	ADDQ  BX, R14
	TESTQ R11, R11
	JZ    gnext16
	ADDQ  BX, R11

gnext16:
	DECQ R8
	JMP  grow16

gdone16:
	VZEROUPPER
	RET

// func cellBackward512(rows, H, blocks int, gates, cp, tc, dh, dc *float32)
//
// cellBackwardAVX2 on blocks of sixteen units: registers as there, Z for Y.
TEXT ·cellBackward512(SB), NOSPLIT, $0-64
	MOVQ    rows+0(FP), R8
	MOVQ    H+8(FP), BX
	SHLQ    $2, BX
	MOVQ    gates+24(FP), R9
	MOVQ    cp+32(FP), R11
	MOVQ    tc+40(FP), R12
	MOVQ    dh+48(FP), R13
	MOVQ    dc+56(FP), R14
	LEAQ    (BX)(BX*2), DI
	VBROADCASTSS one<>(SB), Z15

hrow16:
	TESTQ R8, R8
	JZ    hdone16
	XORQ  SI, SI
	MOVQ  blocks+16(FP), CX

hblock16:
	LEAQ    (R9)(SI*1), AX
	VMOVUPS (AX), Z4
	VMOVUPS (AX)(BX*1), Z5
	VMOVUPS (AX)(BX*2), Z6
	VMOVUPS (AX)(DI*1), Z7
	VMOVUPS (R12)(SI*1), Z8
	VMOVUPS (R13)(SI*1), Z9

	VMULPS  Z8, Z8, Z13
	VSUBPS  Z13, Z15, Z13
	VMULPS  Z7, Z9, Z14
	VMULPS  Z13, Z14, Z14
	VMOVUPS (R14)(SI*1), Z10
	VADDPS  Z14, Z10, Z10

	VMULPS Z8, Z9, Z11

	VPXORD Z12, Z12, Z12
	TESTQ  R11, R11
	JZ     hnoprev16
	VMOVUPS (R11)(SI*1), Z12

hnoprev16:
	VMULPS  Z6, Z10, Z0
	VMULPS  Z4, Z0, Z0
	VSUBPS  Z4, Z15, Z13
	VMULPS  Z13, Z0, Z0
	FLUSH16(Z0, Z1)
	VMOVUPS Z0, (AX)

	VMULPS  Z12, Z10, Z0
	VMULPS  Z5, Z0, Z0
	VSUBPS  Z5, Z15, Z13
	VMULPS  Z13, Z0, Z0
	FLUSH16(Z0, Z1)
	VMOVUPS Z0, (AX)(BX*1)

	VMULPS  Z4, Z10, Z0
	VMULPS  Z6, Z6, Z13
	VSUBPS  Z13, Z15, Z13
	VMULPS  Z13, Z0, Z0
	FLUSH16(Z0, Z1)
	VMOVUPS Z0, (AX)(BX*2)

	VMULPS  Z7, Z11, Z0
	VSUBPS  Z7, Z15, Z13
	VMULPS  Z13, Z0, Z0
	FLUSH16(Z0, Z1)
	VMOVUPS Z0, (AX)(DI*1)

	VMULPS  Z5, Z10, Z0
	FLUSH16(Z0, Z1)
	VMOVUPS Z0, (R14)(SI*1)

	ADDQ $64, SI
	DECQ CX
	JNZ  hblock16

	LEAQ  (R9)(BX*4), R9
	ADDQ  BX, R12
	ADDQ  BX, R13
	ADDQ  BX, R14
	TESTQ R11, R11
	JZ    hnext16
	ADDQ  BX, R11

hnext16:
	DECQ R8
	JMP  hrow16

hdone16:
	VZEROUPPER
	RET
