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
