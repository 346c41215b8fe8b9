//go:build amd64 && !purego

#include "textflag.h"

// func minSum2x4AVX2(acc *float64, ld int, x0, x1, y *float64, ys, n int)
//
// The assembly form of minSum2x4Go: eight lane sums, one per pair of a row
// x_r and a column y_q, each taking min(x_r[k], y_q[k]) for k ≡ lane mod 4
// in increasing k (VMINPD returns its second source unless the first is
// less, as fmin does), then (lane0 + lane2) + (lane1 + lane3) added to
// acc[r*ld+q].
TEXT ·minSum2x4AVX2(SB), NOSPLIT, $0-56
	MOVQ acc+0(FP), DI
	MOVQ ld+8(FP), R8
	MOVQ x0+16(FP), SI
	MOVQ x1+24(FP), DX
	MOVQ y+32(FP), BX
	MOVQ ys+40(FP), R9
	MOVQ n+48(FP), CX
	SHLQ $3, R8
	SHLQ $3, R9
	SHLQ $3, CX
	LEAQ (BX)(R9*1), R10
	LEAQ (R10)(R9*1), R11
	LEAQ (R11)(R9*1), R12
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	XORQ AX, AX

loop:
	VMOVUPD (SI)(AX*1), Y8
	VMOVUPD (DX)(AX*1), Y9
	VMOVUPD (BX)(AX*1), Y10
	VMOVUPD (R10)(AX*1), Y11
	VMINPD  Y10, Y8, Y12
	VMINPD  Y10, Y9, Y13
	VMINPD  Y11, Y8, Y14
	VMINPD  Y11, Y9, Y15
	VADDPD  Y12, Y0, Y0
	VADDPD  Y13, Y4, Y4
	VADDPD  Y14, Y1, Y1
	VADDPD  Y15, Y5, Y5
	VMOVUPD (R11)(AX*1), Y10
	VMOVUPD (R12)(AX*1), Y11
	VMINPD  Y10, Y8, Y12
	VMINPD  Y10, Y9, Y13
	VMINPD  Y11, Y8, Y14
	VMINPD  Y11, Y9, Y15
	VADDPD  Y12, Y2, Y2
	VADDPD  Y13, Y6, Y6
	VADDPD  Y14, Y3, Y3
	VADDPD  Y15, Y7, Y7
	ADDQ    $32, AX
	CMPQ    AX, CX
	JLT     loop

	// Row 0: Y0..Y3 into acc[0..3].
	MOVQ DI, R13
	VEXTRACTF128 $1, Y0, X8
	VADDPD  X8, X0, X0
	VHADDPD X0, X0, X0
	VADDSD  (R13), X0, X0
	VMOVSD  X0, (R13)
	VEXTRACTF128 $1, Y1, X8
	VADDPD  X8, X1, X1
	VHADDPD X1, X1, X1
	VADDSD  8(R13), X1, X1
	VMOVSD  X1, 8(R13)
	VEXTRACTF128 $1, Y2, X8
	VADDPD  X8, X2, X2
	VHADDPD X2, X2, X2
	VADDSD  16(R13), X2, X2
	VMOVSD  X2, 16(R13)
	VEXTRACTF128 $1, Y3, X8
	VADDPD  X8, X3, X3
	VHADDPD X3, X3, X3
	VADDSD  24(R13), X3, X3
	VMOVSD  X3, 24(R13)

	// Row 1: Y4..Y7 into acc[ld..ld+3].
	ADDQ R8, R13
	VEXTRACTF128 $1, Y4, X8
	VADDPD  X8, X4, X4
	VHADDPD X4, X4, X4
	VADDSD  (R13), X4, X4
	VMOVSD  X4, (R13)
	VEXTRACTF128 $1, Y5, X8
	VADDPD  X8, X5, X5
	VHADDPD X5, X5, X5
	VADDSD  8(R13), X5, X5
	VMOVSD  X5, 8(R13)
	VEXTRACTF128 $1, Y6, X8
	VADDPD  X8, X6, X6
	VHADDPD X6, X6, X6
	VADDSD  16(R13), X6, X6
	VMOVSD  X6, 16(R13)
	VEXTRACTF128 $1, Y7, X8
	VADDPD  X8, X7, X7
	VHADDPD X7, X7, X7
	VADDSD  24(R13), X7, X7
	VMOVSD  X7, 24(R13)
	VZEROUPPER
	RET

// func minWinAVX512(acc *float64, rl *uint8, rv *float64, nr int, win *uint64, nw int, cv *float64, tri int)
//
// The assembly form of minWinGo. A window's values are loaded into the
// low lanes, spread into the lanes of their entries (the others zero),
// VMINPD takes the lower of each and the row's value (zero in the empty
// lanes), and the eight lanes are added to the row's eight sums: an empty
// lane adds +0, which leaves a sum (never −0) as it is, so each sum sees
// exactly the additions of minWinGo.
TEXT ·minWinAVX512(SB), NOSPLIT, $0-64
	MOVQ acc+0(FP), DI
	MOVQ rl+8(FP), SI
	MOVQ rv+16(FP), DX
	MOVQ nr+24(FP), R11
	MOVQ win+32(FP), R8
	MOVQ nw+40(FP), R9
	MOVQ cv+48(FP), R10
	MOVQ tri+56(FP), AX
	XORQ BX, BX   // row entry r
	XORQ R12, R12 // tri: the window holding entry r
	TESTQ AX, AX
	JNZ  trow

rrow:
	CMPQ BX, R11
	JGE  done
	MOVBQZX (SI)(BX*1), AX
	SHLQ $11, AX
	LEAQ (DI)(AX*1), R13 // the row's sums
	VBROADCASTSD (DX)(BX*8), Z1
	XORQ R14, R14
	JMP  wins

trow:
	CMPQ BX, R11
	JGE  done
	MOVBQZX (SI)(BX*1), AX
	MOVQ AX, R13
	SHLQ $11, R13
	ADDQ DI, R13
	VBROADCASTSD (DX)(BX*8), Z1

tadv:
	LEAQ 1(R12), R14
	CMPQ R14, R9
	JGE  tpart
	MOVQ (R8)(R14*8), R15
	SHRQ $35, R15
	CMPQ R15, BX
	JGT  tpart
	MOVQ R14, R12
	JMP  tadv

tpart:
	// The entries of r's window after r: its mask above r's bit, from
	// entry r+1.
	MOVQ (R8)(R12*8), R15
	MOVQ AX, CX
	ANDQ $7, CX
	MOVL $0xFE, R14
	SHLL CX, R14
	ANDL R15, R14
	ANDL $0xFF, R14
	JZ   tfull
	KMOVW R14, K1
	POPCNTL R14, CX
	MOVL $1, R14
	SHLL CX, R14
	DECL R14
	KMOVW R14, K2
	LEAQ 8(BX*8), CX // entry r+1's value
	MOVQ R15, AX
	MOVQ R12, R14 // apply then goes on with the next window
	JMP  apply

tfull:
	LEAQ 1(R12), R14

wins:
	// Windows R14 to the last, whole, into the row's sums at R13.
	CMPQ R14, R9
	JGE  next
	MOVQ (R8)(R14*8), AX
	MOVBLZX AX, CX
	KMOVW CX, K1
	MOVL AX, CX
	SHRL $8, CX
	MOVBLZX CX, CX
	KMOVW CX, K2
	MOVQ AX, CX
	SHRQ $32, CX

apply:
	// The window of record AX, its lanes K1, its values at byte CX of cv
	// (K2 the low lanes that hold them).
	VMOVUPD.Z (R10)(CX*1), K2, Z0
	VEXPANDPD.Z Z0, K1, Z0
	VMINPD Z1, Z0, Z0
	MOVL AX, CX
	SHRL $16, CX
	VADDPD (R13)(CX*1), Z0, Z0
	VMOVUPD Z0, (R13)(CX*1)
	INCQ R14
	JMP  wins

next:
	INCQ BX
	MOVQ tri+56(FP), AX
	TESTQ AX, AX
	JNZ  trow
	JMP  rrow

done:
	VZEROUPPER
	RET

// func oneSidedRowAVX512(row, cls *float64, n int, c, k, w float64)
//
// The assembly form of oneSidedRowGo for n a positive multiple of 8:
// row[d] += w / √(c·(k + cls[d])), eight d at a time, each lane's
// operations those of the Go form (IEEE sums, product, square root and
// quotient, each rounded once).
TEXT ·oneSidedRowAVX512(SB), NOSPLIT, $0-48
	MOVQ         row+0(FP), DI
	MOVQ         cls+8(FP), SI
	MOVQ         n+16(FP), CX
	VBROADCASTSD c+24(FP), Z1
	VBROADCASTSD k+32(FP), Z2
	VBROADCASTSD w+40(FP), Z3
	SHLQ         $3, CX
	XORQ         AX, AX

osr512:
	VADDPD  (SI)(AX*1), Z2, Z4
	VMULPD  Z4, Z1, Z4
	VSQRTPD Z4, Z4
	VDIVPD  Z4, Z3, Z5
	VADDPD  (DI)(AX*1), Z5, Z5
	VMOVUPD Z5, (DI)(AX*1)
	ADDQ    $64, AX
	CMPQ    AX, CX
	JLT     osr512
	VZEROUPPER
	RET

// func oneSidedRowAVX2(row, cls *float64, n int, c, k, w float64)
//
// oneSidedRowAVX512 four d at a time, for n a positive multiple of 4.
TEXT ·oneSidedRowAVX2(SB), NOSPLIT, $0-48
	MOVQ         row+0(FP), DI
	MOVQ         cls+8(FP), SI
	MOVQ         n+16(FP), CX
	VBROADCASTSD c+24(FP), Y1
	VBROADCASTSD k+32(FP), Y2
	VBROADCASTSD w+40(FP), Y3
	SHLQ         $3, CX
	XORQ         AX, AX

osr256:
	VADDPD  (SI)(AX*1), Y2, Y4
	VMULPD  Y4, Y1, Y4
	VSQRTPD Y4, Y4
	VDIVPD  Y4, Y3, Y5
	VADDPD  (DI)(AX*1), Y5, Y5
	VMOVUPD Y5, (DI)(AX*1)
	ADDQ    $32, AX
	CMPQ    AX, CX
	JLT     osr256
	VZEROUPPER
	RET

// func vawTermsWAVX512(fn, fd, o, c2, a2, t2 *float64, n int, c1, a1, cs1, w, g1, k1 float64)
//
// The assembly form of vawTermsWGo for n a positive multiple of 8, eight
// column entries at a time, each lane's operations those of the Go form
// in its order; the full terms are divided under the mask x > 0 and are
// zero elsewhere, as the Go form leaves them.
TEXT ·vawTermsWAVX512(SB), NOSPLIT, $0-104
	MOVQ         fn+0(FP), DI
	MOVQ         fd+8(FP), SI
	MOVQ         o+16(FP), DX
	MOVQ         c2+24(FP), R8
	MOVQ         a2+32(FP), R9
	MOVQ         t2+40(FP), R10
	MOVQ         n+48(FP), CX
	VBROADCASTSD c1+56(FP), Z20
	VBROADCASTSD a1+64(FP), Z21
	VBROADCASTSD cs1+72(FP), Z22
	VBROADCASTSD w+80(FP), Z23
	VBROADCASTSD g1+88(FP), Z24
	VBROADCASTSD k1+96(FP), Z25
	VPTERNLOGQ   $0xff, Z26, Z26, Z26
	VPSRLQ       $1, Z26, Z26               // |x| mask
	VPXORQ       Z27, Z27, Z27              // 0
	SHLQ         $3, CX
	XORQ         AX, AX

vtw:
	VMOVUPD  (R8)(AX*1), Z0  // c2
	VMOVUPD  (R9)(AX*1), Z1  // a2
	VMOVUPD  (R10)(AX*1), Z2 // t2
	VADDPD   Z2, Z25, Z3     // K1 + t2
	VMULPD   Z3, Z20, Z3     // c1·(K1 + t2)
	VSQRTPD  Z3, Z3
	VDIVPD   Z3, Z24, Z3     // g1 / √…
	VSUBPD   Z0, Z2, Z4      // t2 − c2
	VADDPD   Z22, Z4, Z4     // (t2 − c2) + C1
	VMULPD   Z4, Z0, Z4      // c2·(…)
	VSQRTPD  Z4, Z4
	VMULPD   Z23, Z1, Z5     // a2·w
	VDIVPD   Z4, Z5, Z5      // a2·w / √…
	VADDPD   Z5, Z3, Z3      // o
	VADDPD   Z0, Z20, Z6     // mi = c1 + c2
	VADDPD   Z2, Z22, Z7     // C1 + t2
	VSUBPD   Z6, Z7, Z7      // (C1 + t2) − mi
	VMULPD   Z7, Z6, Z7      // mi·(…)
	VSQRTPD  Z7, Z7          // x
	VCMPPD   $0x1e, Z27, Z7, K1 // x > 0 (ordered: not for NaN)
	VSUBPD   Z1, Z21, Z8     // a1 − a2
	VPANDQ   Z26, Z8, Z8     // |a1 − a2|
	VMULPD   Z23, Z8, Z8
	VDIVPD.Z Z7, Z8, K1, Z8  // fn
	VADDPD   Z1, Z21, Z9     // a1 + a2
	VMULPD   Z23, Z9, Z9
	VDIVPD.Z Z7, Z9, K1, Z9  // fd
	VMOVUPD  Z8, (DI)(AX*1)
	VMOVUPD  Z9, (SI)(AX*1)
	VMOVUPD  Z3, (DX)(AX*1)
	ADDQ     $64, AX
	CMPQ     AX, CX
	JLT      vtw
	VZEROUPPER
	RET

// func vawTermsUAVX512(fd, o, c2, t2 *float64, n int, c1, cs1, w, k1 float64)
//
// The assembly form of vawTermsUGo for n a positive multiple of 8.
TEXT ·vawTermsUAVX512(SB), NOSPLIT, $0-72
	MOVQ         fd+0(FP), SI
	MOVQ         o+8(FP), DI
	MOVQ         c2+16(FP), R8
	MOVQ         t2+24(FP), R10
	MOVQ         n+32(FP), CX
	VBROADCASTSD c1+40(FP), Z20
	VBROADCASTSD cs1+48(FP), Z22
	VBROADCASTSD w+56(FP), Z23
	VBROADCASTSD k1+64(FP), Z25
	VPXORQ       Z27, Z27, Z27
	SHLQ         $3, CX
	XORQ         AX, AX

vtu:
	VMOVUPD  (R8)(AX*1), Z0  // c2
	VMOVUPD  (R10)(AX*1), Z2 // t2
	VADDPD   Z2, Z25, Z3     // K1 + t2
	VMULPD   Z3, Z20, Z3
	VSQRTPD  Z3, Z3
	VDIVPD   Z3, Z23, Z3     // w / √…
	VSUBPD   Z0, Z2, Z4      // t2 − c2
	VADDPD   Z22, Z4, Z4     // + C1
	VMULPD   Z4, Z0, Z4
	VSQRTPD  Z4, Z4
	VDIVPD   Z4, Z23, Z5     // w / √…
	VADDPD   Z5, Z3, Z3      // o
	VADDPD   Z0, Z20, Z6     // mi
	VADDPD   Z2, Z22, Z7     // C1 + t2
	VSUBPD   Z6, Z7, Z7
	VMULPD   Z7, Z6, Z7
	VSQRTPD  Z7, Z7          // x
	VCMPPD   $0x1e, Z27, Z7, K1
	VDIVPD.Z Z7, Z23, K1, Z9 // fd = w / x
	VMOVUPD  Z9, (SI)(AX*1)
	VMOVUPD  Z3, (DI)(AX*1)
	ADDQ     $64, AX
	CMPQ     AX, CX
	JLT      vtu
	VZEROUPPER
	RET
