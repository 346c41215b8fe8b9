//go:build amd64 && !purego

#include "textflag.h"

// func dot4x2(w *float64, wStride int, x *float64, xStride int, pairs int, acc *[8]float64)
TEXT ·dot4x2(SB), NOSPLIT, $0-48
	MOVQ w+0(FP), SI
	MOVQ wStride+8(FP), BX
	SHLQ $3, BX
	MOVQ x+16(FP), DI
	MOVQ xStride+24(FP), DX
	SHLQ $3, DX
	MOVQ pairs+32(FP), CX
	MOVQ acc+40(FP), AX
	LEAQ (SI)(BX*1), R8  // w1
	LEAQ (R8)(BX*1), R9  // w2
	LEAQ (R9)(BX*1), R10 // w3
	LEAQ (DI)(DX*1), R11 // x1
	XORPD X0, X0
	XORPD X1, X1
	XORPD X2, X2
	XORPD X3, X3
	XORPD X4, X4
	XORPD X5, X5
	XORPD X6, X6
	XORPD X7, X7
	XORQ R12, R12
	TESTQ CX, CX
	JZ   dotend

dotloop:
	MOVUPD (DI)(R12*1), X8  // x0[k:k+2]
	MOVUPD (R11)(R12*1), X9 // x1[k:k+2]

	MOVUPD (SI)(R12*1), X10 // w0
	MOVAPD X10, X11
	MULPD  X8, X10
	ADDPD  X10, X0
	MULPD  X9, X11
	ADDPD  X11, X4

	MOVUPD (R8)(R12*1), X10 // w1
	MOVAPD X10, X11
	MULPD  X8, X10
	ADDPD  X10, X1
	MULPD  X9, X11
	ADDPD  X11, X5

	MOVUPD (R9)(R12*1), X10 // w2
	MOVAPD X10, X11
	MULPD  X8, X10
	ADDPD  X10, X2
	MULPD  X9, X11
	ADDPD  X11, X6

	MOVUPD (R10)(R12*1), X10 // w3
	MOVAPD X10, X11
	MULPD  X8, X10
	ADDPD  X10, X3
	MULPD  X9, X11
	ADDPD  X11, X7

	ADDQ $16, R12
	DECQ CX
	JNZ  dotloop

dotend:
	// acc[i] = lane0 + lane1 of each accumulator.
	MOVAPD X0, X8
	UNPCKHPD X8, X8
	ADDSD X8, X0
	MOVSD X0, 0(AX)
	MOVAPD X1, X8
	UNPCKHPD X8, X8
	ADDSD X8, X1
	MOVSD X1, 8(AX)
	MOVAPD X2, X8
	UNPCKHPD X8, X8
	ADDSD X8, X2
	MOVSD X2, 16(AX)
	MOVAPD X3, X8
	UNPCKHPD X8, X8
	ADDSD X8, X3
	MOVSD X3, 24(AX)
	MOVAPD X4, X8
	UNPCKHPD X8, X8
	ADDSD X8, X4
	MOVSD X4, 32(AX)
	MOVAPD X5, X8
	UNPCKHPD X8, X8
	ADDSD X8, X5
	MOVSD X5, 40(AX)
	MOVAPD X6, X8
	UNPCKHPD X8, X8
	ADDSD X8, X6
	MOVSD X6, 48(AX)
	MOVAPD X7, X8
	UNPCKHPD X8, X8
	ADDSD X8, X7
	MOVSD X7, 56(AX)
	RET

// func axpy2(g0, g1, x *float64, xStride int, c0, c1 *float64, rows, pairs int)
TEXT ·axpy2(SB), NOSPLIT, $0-64
	MOVQ g0+0(FP), DI
	MOVQ g1+8(FP), R13
	MOVQ x+16(FP), SI
	MOVQ xStride+24(FP), DX
	SHLQ $3, DX
	MOVQ c0+32(FP), R8
	MOVQ c1+40(FP), R9
	MOVQ rows+48(FP), BX
	MOVQ pairs+56(FP), CX

	// Four pairs of k (eight columns) at a time: eight independent
	// accumulators, so that the sums over r do not wait on each other.
	CMPQ CX, $4
	JLT  axtail

ax4loop:
	XORPD X0, X0
	XORPD X1, X1
	XORPD X2, X2
	XORPD X3, X3
	XORPD X4, X4
	XORPD X5, X5
	XORPD X6, X6
	XORPD X7, X7
	MOVQ SI, R10
	XORQ R11, R11
	MOVQ BX, R12

ax4rows:
	MOVUPD (R8)(R11*1), X8 // c0_r, c0_r
	MOVUPD (R9)(R11*1), X9 // c1_r, c1_r

	MOVUPD 0(R10), X10
	MOVAPD X10, X11
	MULPD  X8, X10
	ADDPD  X10, X0
	MULPD  X9, X11
	ADDPD  X11, X4

	MOVUPD 16(R10), X10
	MOVAPD X10, X11
	MULPD  X8, X10
	ADDPD  X10, X1
	MULPD  X9, X11
	ADDPD  X11, X5

	MOVUPD 32(R10), X10
	MOVAPD X10, X11
	MULPD  X8, X10
	ADDPD  X10, X2
	MULPD  X9, X11
	ADDPD  X11, X6

	MOVUPD 48(R10), X10
	MOVAPD X10, X11
	MULPD  X8, X10
	ADDPD  X10, X3
	MULPD  X9, X11
	ADDPD  X11, X7

	ADDQ DX, R10
	ADDQ $16, R11
	DECQ R12
	JNZ  ax4rows

	MOVUPD X0, 0(DI)
	MOVUPD X1, 16(DI)
	MOVUPD X2, 32(DI)
	MOVUPD X3, 48(DI)
	MOVUPD X4, 0(R13)
	MOVUPD X5, 16(R13)
	MOVUPD X6, 32(R13)
	MOVUPD X7, 48(R13)
	ADDQ $64, DI
	ADDQ $64, R13
	ADDQ $64, SI
	SUBQ $4, CX
	CMPQ CX, $4
	JGE  ax4loop

axtail:
	TESTQ CX, CX
	JZ   axend

axloop:
	XORPD X0, X0 // label 0
	XORPD X1, X1 // label 1
	MOVQ SI, R10 // &x_r[k]
	XORQ R11, R11 // coefficient offset
	MOVQ BX, R12

axrows:
	MOVUPD (R10), X2        // x_r[k:k+2]
	MOVUPD (R8)(R11*1), X3  // c0_r, c0_r
	MOVUPD (R9)(R11*1), X4  // c1_r, c1_r
	MULPD  X2, X3
	ADDPD  X3, X0
	MULPD  X2, X4
	ADDPD  X4, X1
	ADDQ DX, R10
	ADDQ $16, R11
	DECQ R12
	JNZ  axrows

	MOVUPD X0, (DI)
	MOVUPD X1, (R13)
	ADDQ $16, DI
	ADDQ $16, R13
	ADDQ $16, SI
	DECQ CX
	JNZ  axloop

axend:
	RET

// The AVX2/FMA forms (used where the processor has both): four lanes, each
// product fused into its sum (VFMADD231PD), matching dotFMARef and
// rowSumFMARef in kernel.go bit for bit.

// HSUM(y, x) leaves (l0 + l2) + (l1 + l3) of the lanes of y in the low lane
// of x (x is y's low half; X15 is scratch).
#define HSUM(y, x) \
	VEXTRACTF128 $1, y, X15 \
	VADDPD    X15, x, x     \
	VPERMILPD $1, x, X15    \
	VADDSD    X15, x, x

// func dot4x2FMA(w *float64, wStride int, x *float64, xStride int, quads int, acc *[8]float64)
TEXT ·dot4x2FMA(SB), NOSPLIT, $0-48
	MOVQ w+0(FP), SI
	MOVQ wStride+8(FP), BX
	SHLQ $3, BX
	MOVQ x+16(FP), DI
	MOVQ xStride+24(FP), DX
	SHLQ $3, DX
	MOVQ quads+32(FP), CX
	MOVQ acc+40(FP), AX
	LEAQ (SI)(BX*1), R8  // w1
	LEAQ (R8)(BX*1), R9  // w2
	LEAQ (R9)(BX*1), R10 // w3
	LEAQ (DI)(DX*1), R11 // x1
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	XORQ R12, R12
	TESTQ CX, CX
	JZ   fdotend

fdotloop:
	VMOVUPD (DI)(R12*1), Y8  // x0[k:k+4]
	VMOVUPD (R11)(R12*1), Y9 // x1[k:k+4]
	VMOVUPD (SI)(R12*1), Y10 // w0
	VFMADD231PD Y10, Y8, Y0
	VFMADD231PD Y10, Y9, Y4
	VMOVUPD (R8)(R12*1), Y10 // w1
	VFMADD231PD Y10, Y8, Y1
	VFMADD231PD Y10, Y9, Y5
	VMOVUPD (R9)(R12*1), Y10 // w2
	VFMADD231PD Y10, Y8, Y2
	VFMADD231PD Y10, Y9, Y6
	VMOVUPD (R10)(R12*1), Y10 // w3
	VFMADD231PD Y10, Y8, Y3
	VFMADD231PD Y10, Y9, Y7
	ADDQ $32, R12
	DECQ CX
	JNZ  fdotloop

fdotend:
	HSUM(Y0, X0)
	VMOVSD X0, 0(AX)
	HSUM(Y1, X1)
	VMOVSD X1, 8(AX)
	HSUM(Y2, X2)
	VMOVSD X2, 16(AX)
	HSUM(Y3, X3)
	VMOVSD X3, 24(AX)
	HSUM(Y4, X4)
	VMOVSD X4, 32(AX)
	HSUM(Y5, X5)
	VMOVSD X5, 40(AX)
	HSUM(Y6, X6)
	VMOVSD X6, 48(AX)
	HSUM(Y7, X7)
	VMOVSD X7, 56(AX)
	VZEROUPPER
	RET

// func axpy2FMA(g0, g1, x *float64, xStride int, c *float64, cStride int, rows, quads int)
// g0[k] = Σ_r c[r·cStride]·x_r[k] and g1[k] = Σ_r c[r·cStride+1]·x_r[k] for
// k < 4·quads, each sum fused in row order from 0.
TEXT ·axpy2FMA(SB), NOSPLIT, $0-64
	MOVQ g0+0(FP), DI
	MOVQ g1+8(FP), R13
	MOVQ x+16(FP), SI
	MOVQ xStride+24(FP), DX
	SHLQ $3, DX
	MOVQ c+32(FP), R8
	MOVQ cStride+40(FP), R9
	SHLQ $3, R9
	MOVQ rows+48(FP), BX
	MOVQ quads+56(FP), CX

	// Four quads (sixteen columns) at a time: eight accumulators.
	CMPQ CX, $4
	JLT  fxtail

fx4loop:
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	MOVQ SI, R10 // &x_r[k]
	MOVQ R8, R11 // &c[r·cStride]
	MOVQ BX, R12

fx4rows:
	VBROADCASTSD 0(R11), Y8 // c0_r
	VBROADCASTSD 8(R11), Y9 // c1_r
	VMOVUPD 0(R10), Y10
	VFMADD231PD Y10, Y8, Y0
	VFMADD231PD Y10, Y9, Y4
	VMOVUPD 32(R10), Y10
	VFMADD231PD Y10, Y8, Y1
	VFMADD231PD Y10, Y9, Y5
	VMOVUPD 64(R10), Y10
	VFMADD231PD Y10, Y8, Y2
	VFMADD231PD Y10, Y9, Y6
	VMOVUPD 96(R10), Y10
	VFMADD231PD Y10, Y8, Y3
	VFMADD231PD Y10, Y9, Y7
	ADDQ DX, R10
	ADDQ R9, R11
	DECQ R12
	JNZ  fx4rows

	VMOVUPD Y0, 0(DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	VMOVUPD Y4, 0(R13)
	VMOVUPD Y5, 32(R13)
	VMOVUPD Y6, 64(R13)
	VMOVUPD Y7, 96(R13)
	ADDQ $128, DI
	ADDQ $128, R13
	ADDQ $128, SI
	SUBQ $4, CX
	CMPQ CX, $4
	JGE  fx4loop

fxtail:
	TESTQ CX, CX
	JZ   fxend

fxloop:
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	MOVQ SI, R10
	MOVQ R8, R11
	MOVQ BX, R12

fxrows:
	VBROADCASTSD 0(R11), Y8
	VBROADCASTSD 8(R11), Y9
	VMOVUPD (R10), Y10
	VFMADD231PD Y10, Y8, Y0
	VFMADD231PD Y10, Y9, Y1
	ADDQ DX, R10
	ADDQ R9, R11
	DECQ R12
	JNZ  fxrows

	VMOVUPD Y0, (DI)
	VMOVUPD Y1, (R13)
	ADDQ $32, DI
	ADDQ $32, R13
	ADDQ $32, SI
	DECQ CX
	JNZ  fxloop

fxend:
	VZEROUPPER
	RET

// func logits4FMA(w *float64, in int, x *float64, pairs, quads int, b, dst *float64, out int)
// For the four labels whose weight rows start at w (stride in) and the
// 2·pairs rows of x (stride in), in = 4·quads: dst[r·out + i] =
// b[i] + dot(x_r, w_i) in the fused form, the lanes of each dot product
// added as (l0 + l2) + (l1 + l3) as HSUM does, four logits at a time.
TEXT ·logits4FMA(SB), NOSPLIT, $0-64
	MOVQ w+0(FP), SI
	MOVQ in+8(FP), BX
	SHLQ $3, BX
	MOVQ x+16(FP), DI
	MOVQ pairs+24(FP), R13
	MOVQ b+40(FP), AX
	VMOVUPD (AX), Y12        // b[0:4]
	MOVQ dst+48(FP), AX
	MOVQ out+56(FP), DX
	SHLQ $3, DX
	LEAQ (SI)(BX*1), R8  // w1
	LEAQ (R8)(BX*1), R9  // w2
	LEAQ (R9)(BX*1), R10 // w3
	TESTQ R13, R13
	JZ   l4done

l4pair:
	LEAQ (DI)(BX*1), R11 // x1
	MOVQ quads+32(FP), CX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	XORQ R12, R12
	TESTQ CX, CX
	JZ   l4reduce

l4loop:
	VMOVUPD (DI)(R12*1), Y8  // x0[k:k+4]
	VMOVUPD (R11)(R12*1), Y9 // x1[k:k+4]
	VMOVUPD (SI)(R12*1), Y10 // w0
	VFMADD231PD Y10, Y8, Y0
	VFMADD231PD Y10, Y9, Y4
	VMOVUPD (R8)(R12*1), Y10 // w1
	VFMADD231PD Y10, Y8, Y1
	VFMADD231PD Y10, Y9, Y5
	VMOVUPD (R9)(R12*1), Y10 // w2
	VFMADD231PD Y10, Y8, Y2
	VFMADD231PD Y10, Y9, Y6
	VMOVUPD (R10)(R12*1), Y10 // w3
	VFMADD231PD Y10, Y8, Y3
	VFMADD231PD Y10, Y9, Y7
	ADDQ $32, R12
	DECQ CX
	JNZ  l4loop

l4reduce:
	// Row 0: the lanes [l0 l1 l2 l3] of labels A..D in Y0..Y3. Low
	// halves plus high halves, [A0+A2 A1+A3 C0+C2 C1+C3] and the same of
	// B and D; then the pairwise sums give [A B C D].
	VPERM2F128 $0x20, Y2, Y0, Y8
	VPERM2F128 $0x31, Y2, Y0, Y9
	VADDPD     Y9, Y8, Y8
	VPERM2F128 $0x20, Y3, Y1, Y10
	VPERM2F128 $0x31, Y3, Y1, Y11
	VADDPD     Y11, Y10, Y10
	VHADDPD    Y10, Y8, Y8
	VADDPD     Y8, Y12, Y8 // b + dot
	VMOVUPD    Y8, (AX)
	// Row 1, from Y4..Y7.
	VPERM2F128 $0x20, Y6, Y4, Y8
	VPERM2F128 $0x31, Y6, Y4, Y9
	VADDPD     Y9, Y8, Y8
	VPERM2F128 $0x20, Y7, Y5, Y10
	VPERM2F128 $0x31, Y7, Y5, Y11
	VADDPD     Y11, Y10, Y10
	VHADDPD    Y10, Y8, Y8
	VADDPD     Y8, Y12, Y8
	VMOVUPD    Y8, (AX)(DX*1)

	LEAQ (DI)(BX*2), DI
	LEAQ (AX)(DX*2), AX
	DECQ R13
	JNZ  l4pair

l4done:
	VZEROUPPER
	RET
