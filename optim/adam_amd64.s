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
