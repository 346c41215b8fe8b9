//go:build amd64 && !purego

#include "textflag.h"

// func adamPairs(p, g, m, v []float64, k *adamConsts)
//
// For i in [0, len(p)), two at a time, with the operations of adamGo in
// the same order:
//	g' = g + wd·p          (only if wd ≠ 0)
//	m  = b1·m + c1·g'
//	v  = b2·v + (c2·g')·g'
//	p  = p − (step·m)/(√v + epsHat)
// len(p) must be even; g, m, v at least as long.
TEXT ·adamPairs(SB), NOSPLIT, $0-104
	MOVQ p_base+0(FP), DI
	MOVQ p_len+8(FP), CX
	MOVQ g_base+24(FP), SI
	MOVQ m_base+48(FP), R8
	MOVQ v_base+72(FP), R9
	MOVQ k+96(FP), AX

	MOVSD 0(AX), X8 // b1
	UNPCKLPD X8, X8
	MOVSD 8(AX), X9 // c1
	UNPCKLPD X9, X9
	MOVSD 16(AX), X10 // b2
	UNPCKLPD X10, X10
	MOVSD 24(AX), X11 // c2
	UNPCKLPD X11, X11
	MOVSD 32(AX), X12 // step
	UNPCKLPD X12, X12
	MOVSD 40(AX), X13 // epsHat
	UNPCKLPD X13, X13
	MOVSD 48(AX), X14 // wd
	UNPCKLPD X14, X14

	// DX = 1 when wd ≠ 0 (compared as a float: −0 counts as zero).
	XORQ DX, DX
	XORPD X15, X15
	UCOMISD X15, X14
	JNE  haswd
	JPS  haswd
	JMP  start
haswd:
	MOVQ $1, DX
start:
	SHRQ $1, CX
	JZ   done

loop:
	MOVUPD (SI), X0 // g
	MOVUPD (DI), X1 // p
	TESTQ DX, DX
	JZ   nowd
	MOVAPD X14, X2
	MULPD X1, X2 // wd·p
	ADDPD X2, X0 // g + wd·p
nowd:
	MOVUPD (R8), X3 // m
	MULPD X8, X3 // b1·m
	MOVAPD X9, X4
	MULPD X0, X4 // c1·g
	ADDPD X4, X3 // m'
	MOVUPD (R9), X5 // v
	MULPD X10, X5 // b2·v
	MOVAPD X11, X6
	MULPD X0, X6 // c2·g
	MULPD X0, X6 // (c2·g)·g
	ADDPD X6, X5 // v'
	MOVUPD X3, (R8)
	MOVUPD X5, (R9)
	SQRTPD X5, X7
	ADDPD X13, X7 // √v' + epsHat
	MOVAPD X12, X4
	MULPD X3, X4 // step·m'
	DIVPD X7, X4
	SUBPD X4, X1 // p − step·m'/(√v'+epsHat)
	MOVUPD X1, (DI)

	ADDQ $16, DI
	ADDQ $16, SI
	ADDQ $16, R8
	ADDQ $16, R9
	DECQ CX
	JNZ  loop

done:
	RET

// func adamQuads(p, g, m, v []float64, k *adamConsts)
//
// adamPairs with AVX, four parameters at a time (the same operations in
// the same order; VSQRTPD and VDIVPD round correctly, as math.Sqrt and /
// do, and nothing is fused). len(p) must be a multiple of 4; g, m, v at
// least as long.
TEXT ·adamQuads(SB), NOSPLIT, $0-104
	MOVQ p_base+0(FP), DI
	MOVQ p_len+8(FP), CX
	MOVQ g_base+24(FP), SI
	MOVQ m_base+48(FP), R8
	MOVQ v_base+72(FP), R9
	MOVQ k+96(FP), AX

	VBROADCASTSD 0(AX), Y8   // b1
	VBROADCASTSD 8(AX), Y9   // c1
	VBROADCASTSD 16(AX), Y10 // b2
	VBROADCASTSD 24(AX), Y11 // c2
	VBROADCASTSD 32(AX), Y12 // step
	VBROADCASTSD 40(AX), Y13 // epsHat
	VBROADCASTSD 48(AX), Y14 // wd

	// DX = 1 when wd ≠ 0 (compared as a float: −0 counts as zero).
	XORQ    DX, DX
	VXORPD  X15, X15, X15
	VUCOMISD X15, X14
	JNE     haswd4
	JPS     haswd4
	JMP     start4

haswd4:
	MOVQ $1, DX

start4:
	SHRQ $2, CX
	JZ   done4

loop4:
	VMOVUPD (SI), Y0 // g
	VMOVUPD (DI), Y1 // p
	TESTQ   DX, DX
	JZ      nowd4
	VMULPD  Y1, Y14, Y2 // wd·p
	VADDPD  Y2, Y0, Y0  // g + wd·p

nowd4:
	VMULPD  (R8), Y8, Y3 // b1·m
	VMULPD  Y0, Y9, Y4   // c1·g
	VADDPD  Y4, Y3, Y3   // m'
	VMULPD  (R9), Y10, Y5 // b2·v
	VMULPD  Y0, Y11, Y6  // c2·g
	VMULPD  Y0, Y6, Y6   // (c2·g)·g
	VADDPD  Y6, Y5, Y5   // v'
	VMOVUPD Y3, (R8)
	VMOVUPD Y5, (R9)
	VSQRTPD Y5, Y7
	VADDPD  Y13, Y7, Y7 // √v' + epsHat
	VMULPD  Y3, Y12, Y4 // step·m'
	VDIVPD  Y7, Y4, Y4
	VSUBPD  Y4, Y1, Y1  // p − step·m'/(√v'+epsHat)
	VMOVUPD Y1, (DI)

	ADDQ $32, DI
	ADDQ $32, SI
	ADDQ $32, R8
	ADDQ $32, R9
	DECQ CX
	JNZ  loop4

done4:
	VZEROUPPER
	RET

// func adamOcts(p, g, m, v []float64, k *adamConsts)
//
// adamPairs with AVX-512, eight parameters at a time (the same operations in
// the same order; VSQRTPD and VDIVPD round correctly, as math.Sqrt and /
// do, and nothing is fused). len(p) must be a multiple of 8; g, m, v at
// least as long.
TEXT ·adamOcts(SB), NOSPLIT, $0-104
	MOVQ p_base+0(FP), DI
	MOVQ p_len+8(FP), CX
	MOVQ g_base+24(FP), SI
	MOVQ m_base+48(FP), R8
	MOVQ v_base+72(FP), R9
	MOVQ k+96(FP), AX

	VBROADCASTSD 0(AX), Z8   // b1
	VBROADCASTSD 8(AX), Z9   // c1
	VBROADCASTSD 16(AX), Z10 // b2
	VBROADCASTSD 24(AX), Z11 // c2
	VBROADCASTSD 32(AX), Z12 // step
	VBROADCASTSD 40(AX), Z13 // epsHat
	VBROADCASTSD 48(AX), Z14 // wd

	// DX = 1 when wd ≠ 0 (compared as a float: −0 counts as zero).
	XORQ    DX, DX
	VXORPD  X15, X15, X15
	VUCOMISD X15, X14
	JNE     haswd8
	JPS     haswd8
	JMP     start8

haswd8:
	MOVQ $1, DX

start8:
	SHRQ $3, CX
	JZ   done8

loop8:
	VMOVUPD (SI), Z0 // g
	VMOVUPD (DI), Z1 // p
	TESTQ   DX, DX
	JZ      nowd8
	VMULPD  Z1, Z14, Z2 // wd·p
	VADDPD  Z2, Z0, Z0  // g + wd·p

nowd8:
	VMULPD  (R8), Z8, Z3 // b1·m
	VMULPD  Z0, Z9, Z4   // c1·g
	VADDPD  Z4, Z3, Z3   // m'
	VMULPD  (R9), Z10, Z5 // b2·v
	VMULPD  Z0, Z11, Z6  // c2·g
	VMULPD  Z0, Z6, Z6   // (c2·g)·g
	VADDPD  Z6, Z5, Z5   // v'
	VMOVUPD Z3, (R8)
	VMOVUPD Z5, (R9)
	VSQRTPD Z5, Z7
	VADDPD  Z13, Z7, Z7 // √v' + epsHat
	VMULPD  Z3, Z12, Z4 // step·m'
	VDIVPD  Z7, Z4, Z4
	VSUBPD  Z4, Z1, Z1  // p − step·m'/(√v'+epsHat)
	VMOVUPD Z1, (DI)

	ADDQ $64, DI
	ADDQ $64, SI
	ADDQ $64, R8
	ADDQ $64, R9
	DECQ CX
	JNZ  loop8

done8:
	VZEROUPPER
	RET
