//go:build amd64 && !purego

#include "textflag.h"

// The AVX2 + FMA microkernel: kernelGo (kernel.go) in assembly, with the
// same fused multiply-adds in the same order, so the two give the same bits.
//
// Register plan:
//	Y0  … Y11  accumulators: row i of the tile in Y(2i) (columns 0–7) and
//	           Y(2i+1) (columns 8–15)
//	Y12, Y13   row p of the B panel (columns 0–7, 8–15)
//	Y14, Y15   a(i, p) broadcast to all lanes (alternately, so that the
//	           next broadcast need not wait for the FMAs of the last)
//	R8         &a(0, p); rows 1 and 2 at R8 + rsa, R8 + 2·rsa
//	R9         &a(3, p); rows 4 and 5 at R9 + rsa, R9 + 2·rsa
//	R10        rsa in bytes
//	R11        csa in bytes (step from p to p+1)
//	SI         &b(p, 0); R12 = csb in bytes
//	CX         iterations left
//	DI, R13    &c(0, 0), &c(3, 0); DX = ldc in bytes
//	AX, BX     rows and columns of the tile to store (an edge tile of C
//	           has fewer than 6 or 16; its lanes are masked)
//	R14        add (0: store acc, 1: add it to C)
//	Y12, Y13   at the edge: the column masks (from colmask, via SI);
//	           Y14, Y15 the masked rows of C

// STEP does one p: twelve FMAs acc += a(i, p)·b(p, j), then moves the A
// and B pointers to p+1.
#define STEP \
	VMOVUPS      (SI), Y12              \
	VMOVUPS      32(SI), Y13            \
	VBROADCASTSS (R8), Y14              \
	VFMADD231PS  Y12, Y14, Y0           \
	VFMADD231PS  Y13, Y14, Y1           \
	VBROADCASTSS (R8)(R10*1), Y15       \
	VFMADD231PS  Y12, Y15, Y2           \
	VFMADD231PS  Y13, Y15, Y3           \
	VBROADCASTSS (R8)(R10*2), Y14       \
	VFMADD231PS  Y12, Y14, Y4           \
	VFMADD231PS  Y13, Y14, Y5           \
	VBROADCASTSS (R9), Y15              \
	VFMADD231PS  Y12, Y15, Y6           \
	VFMADD231PS  Y13, Y15, Y7           \
	VBROADCASTSS (R9)(R10*1), Y14       \
	VFMADD231PS  Y12, Y14, Y8           \
	VFMADD231PS  Y13, Y14, Y9           \
	VBROADCASTSS (R9)(R10*2), Y15       \
	VFMADD231PS  Y12, Y15, Y10          \
	VFMADD231PS  Y13, Y15, Y11          \
	ADDQ         R11, R8                \
	ADDQ         R11, R9                \
	ADDQ         R12, SI

// colmask holds 16 set lanes, then 16 clear ones.
DATA colmask<>+0(SB)/8, $-1
DATA colmask<>+8(SB)/8, $-1
DATA colmask<>+16(SB)/8, $-1
DATA colmask<>+24(SB)/8, $-1
DATA colmask<>+32(SB)/8, $-1
DATA colmask<>+40(SB)/8, $-1
DATA colmask<>+48(SB)/8, $-1
DATA colmask<>+56(SB)/8, $-1
DATA colmask<>+64(SB)/8, $0
DATA colmask<>+72(SB)/8, $0
DATA colmask<>+80(SB)/8, $0
DATA colmask<>+88(SB)/8, $0
DATA colmask<>+96(SB)/8, $0
DATA colmask<>+104(SB)/8, $0
DATA colmask<>+112(SB)/8, $0
DATA colmask<>+120(SB)/8, $0
GLOBL colmask<>(SB), RODATA|NOPTR, $128

// ADDROW(lo, hi, m0, m8) stores c(i, j) + acc into the unmasked columns
// of one row: lo and hi hold its accumulators, m0 and m8 address its
// columns 0 and 8. STOREROW stores acc.
#define ADDROW(lo, hi, m0, m8) \
	VMASKMOVPS m0, Y12, Y14 \
	VADDPS     Y14, lo, lo  \
	VMASKMOVPS lo, Y12, m0  \
	VMASKMOVPS m8, Y13, Y15 \
	VADDPS     Y15, hi, hi  \
	VMASKMOVPS hi, Y13, m8

#define STOREROW(lo, hi, m0, m8) \
	VMASKMOVPS lo, Y12, m0 \
	VMASKMOVPS hi, Y13, m8

// func kernelAVX2(kc int, a *float32, rsa, csa int, b *float32, csb int, c *float32, ldc int, rows, cols int, add bool)
TEXT ·kernelAVX2(SB), NOSPLIT, $0-81
	MOVQ kc+0(FP), CX
	MOVQ a+8(FP), R8
	MOVQ rsa+16(FP), R10
	SHLQ $2, R10
	MOVQ csa+24(FP), R11
	SHLQ $2, R11
	MOVQ b+32(FP), SI
	MOVQ csb+40(FP), R12
	SHLQ $2, R12
	LEAQ (R8)(R10*2), R9
	ADDQ R10, R9 // R9 = &a(3, 0)

	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11

	// Four steps at a time, then one at a time.
	CMPQ CX, $4
	JLT  tail

loop4:
	STEP
	STEP
	STEP
	STEP
	SUBQ $4, CX
	CMPQ CX, $4
	JGE  loop4

tail:
	TESTQ CX, CX
	JZ    store

loop1:
	STEP
	DECQ CX
	JNZ  loop1

store:
	MOVQ c+48(FP), DI
	MOVQ ldc+56(FP), DX
	SHLQ $2, DX
	LEAQ (DI)(DX*2), R13
	ADDQ DX, R13 // R13 = &c(3, 0)
	MOVQ rows+64(FP), AX
	MOVQ cols+72(FP), BX
	MOVBQZX add+80(FP), R14
	CMPQ AX, $6
	JNE  edge
	CMPQ BX, $16
	JNE  edge
	TESTQ R14, R14
	JZ    write

	// c(i, j) + acc
	VADDPS (DI), Y0, Y0
	VADDPS 32(DI), Y1, Y1
	VADDPS (DI)(DX*1), Y2, Y2
	VADDPS 32(DI)(DX*1), Y3, Y3
	VADDPS (DI)(DX*2), Y4, Y4
	VADDPS 32(DI)(DX*2), Y5, Y5
	VADDPS (R13), Y6, Y6
	VADDPS 32(R13), Y7, Y7
	VADDPS (R13)(DX*1), Y8, Y8
	VADDPS 32(R13)(DX*1), Y9, Y9
	VADDPS (R13)(DX*2), Y10, Y10
	VADDPS 32(R13)(DX*2), Y11, Y11

write:
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, (DI)(DX*1)
	VMOVUPS Y3, 32(DI)(DX*1)
	VMOVUPS Y4, (DI)(DX*2)
	VMOVUPS Y5, 32(DI)(DX*2)
	VMOVUPS Y6, (R13)
	VMOVUPS Y7, 32(R13)
	VMOVUPS Y8, (R13)(DX*1)
	VMOVUPS Y9, 32(R13)(DX*1)
	VMOVUPS Y10, (R13)(DX*2)
	VMOVUPS Y11, 32(R13)(DX*2)
	VZEROUPPER
	RET

edge:
	// The first rows rows and cols columns only: Y12 and Y13 mask the
	// columns 0–7 and 8–15 (lanes j < cols set), from 16 − cols entries
	// into colmask; masked-off lanes of C are neither read nor written.
	LEAQ colmask<>(SB), SI
	SHLQ $2, BX
	NEGQ BX
	ADDQ $64, BX
	VMOVDQU (SI)(BX*1), Y12
	VMOVDQU 32(SI)(BX*1), Y13
	TESTQ R14, R14
	JZ    edgewrite
	ADDROW(Y0, Y1, (DI), 32(DI))
	DECQ AX
	JZ   done
	ADDROW(Y2, Y3, (DI)(DX*1), 32(DI)(DX*1))
	DECQ AX
	JZ   done
	ADDROW(Y4, Y5, (DI)(DX*2), 32(DI)(DX*2))
	DECQ AX
	JZ   done
	ADDROW(Y6, Y7, (R13), 32(R13))
	DECQ AX
	JZ   done
	ADDROW(Y8, Y9, (R13)(DX*1), 32(R13)(DX*1))
	DECQ AX
	JZ   done
	ADDROW(Y10, Y11, (R13)(DX*2), 32(R13)(DX*2))
	JMP  done

edgewrite:
	STOREROW(Y0, Y1, (DI), 32(DI))
	DECQ AX
	JZ   done
	STOREROW(Y2, Y3, (DI)(DX*1), 32(DI)(DX*1))
	DECQ AX
	JZ   done
	STOREROW(Y4, Y5, (DI)(DX*2), 32(DI)(DX*2))
	DECQ AX
	JZ   done
	STOREROW(Y6, Y7, (R13), 32(R13))
	DECQ AX
	JZ   done
	STOREROW(Y8, Y9, (R13)(DX*1), 32(R13)(DX*1))
	DECQ AX
	JZ   done
	STOREROW(Y10, Y11, (R13)(DX*2), 32(R13)(DX*2))

done:
	VZEROUPPER
	RET

// func fmaAsm(a, b, c float32) float32
TEXT ·fmaAsm(SB), NOSPLIT, $0-20
	VMOVSS      a+0(FP), X0
	VMOVSS      b+4(FP), X1
	VMOVSS      c+8(FP), X2
	VFMADD231SS X1, X0, X2 // X2 = X0·X1 + X2
	VMOVSS      X2, ret+16(FP)
	RET

// The AVX-512 microkernel: two row panels at once, a 2mr×nr = 12×16 tile,
// each row of it one zmm accumulator, with kernelGo's fused multiply-adds
// in kernelGo's order (so the same bits). Twelve independent accumulators
// keep both of the core's 512-bit FMA units busy where the AVX2 kernel's
// six rows fill only 256-bit lanes.
//
// Register plan:
//	Z0 … Z11   accumulators: row i of the tile in Z(i)
//	Z12        row p of the B panel
//	R8, R9, R13, R14   &a(0, p), &a(3, p), &a(6, p), &a(9, p); rows
//	           r+1, r+2 of each at + rsa, + 2·rsa (broadcast from memory)
//	R10, R11   rsa, csa in bytes; SI = &b(p, 0), R12 = csb in bytes
//	CX         iterations left
//	K1         the columns of the tile to store

// STEP16 does one p: twelve FMAs acc(i) += a(i, p)·b(p, ·), then moves the
// A and B pointers to p+1.
#define STEP16 \
	VMOVUPS              (SI), Z12          \
	VFMADD231PS.BCST     (R8), Z12, Z0      \
	VFMADD231PS.BCST     (R8)(R10*1), Z12, Z1 \
	VFMADD231PS.BCST     (R8)(R10*2), Z12, Z2 \
	VFMADD231PS.BCST     (R9), Z12, Z3      \
	VFMADD231PS.BCST     (R9)(R10*1), Z12, Z4 \
	VFMADD231PS.BCST     (R9)(R10*2), Z12, Z5 \
	VFMADD231PS.BCST     (R13), Z12, Z6     \
	VFMADD231PS.BCST     (R13)(R10*1), Z12, Z7 \
	VFMADD231PS.BCST     (R13)(R10*2), Z12, Z8 \
	VFMADD231PS.BCST     (R14), Z12, Z9     \
	VFMADD231PS.BCST     (R14)(R10*1), Z12, Z10 \
	VFMADD231PS.BCST     (R14)(R10*2), Z12, Z11 \
	ADDQ                 R11, R8            \
	ADDQ                 R11, R9            \
	ADDQ                 R11, R13           \
	ADDQ                 R11, R14           \
	ADDQ                 R12, SI

// ADD3(base, a0, a1, a2) adds rows base, base+ldc and base+2·ldc of C
// (DX = ldc in bytes) into the accumulators a0, a1, a2, in the columns of
// K1; STORE3 stores them there.
#define ADD3(base, a0, a1, a2) \
	VADDPS (base), a0, K1, a0           \
	VADDPS (base)(DX*1), a1, K1, a1     \
	VADDPS (base)(DX*2), a2, K1, a2

#define STORE3(base, a0, a1, a2) \
	VMOVUPS a0, K1, (base)              \
	VMOVUPS a1, K1, (base)(DX*1)        \
	VMOVUPS a2, K1, (base)(DX*2)

// func kernel512(kc int, a *float32, rsa, csa int, b *float32, csb int, c *float32, ldc int, cols int, add bool)
TEXT ·kernel512(SB), NOSPLIT, $0-73
	MOVQ kc+0(FP), CX
	MOVQ a+8(FP), R8
	MOVQ rsa+16(FP), R10
	SHLQ $2, R10
	MOVQ csa+24(FP), R11
	SHLQ $2, R11
	MOVQ b+32(FP), SI
	MOVQ csb+40(FP), R12
	SHLQ $2, R12
	LEAQ (R8)(R10*2), R9
	ADDQ R10, R9  // &a(3, 0)
	LEAQ (R9)(R10*2), R13
	ADDQ R10, R13 // &a(6, 0)
	LEAQ (R13)(R10*2), R14
	ADDQ R10, R14 // &a(9, 0)

	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7
	VPXORD Z8, Z8, Z8
	VPXORD Z9, Z9, Z9
	VPXORD Z10, Z10, Z10
	VPXORD Z11, Z11, Z11

	// Four steps at a time, then one at a time.
	CMPQ CX, $4
	JLT  tail16

loop16x4:
	STEP16
	STEP16
	STEP16
	STEP16
	SUBQ $4, CX
	CMPQ CX, $4
	JGE  loop16x4

tail16:
	TESTQ CX, CX
	JZ    store16

loop16x1:
	STEP16
	DECQ CX
	JNZ  loop16x1

store16:
	// K1: the first cols columns.
	MOVQ cols+64(FP), CX
	MOVL $1, AX
	SHLL CX, AX
	DECL AX
	KMOVW AX, K1
	MOVQ c+48(FP), R8
	MOVQ ldc+56(FP), DX
	SHLQ $2, DX
	LEAQ (R8)(DX*2), R9
	ADDQ DX, R9  // &c(3, 0)
	LEAQ (R9)(DX*2), R13
	ADDQ DX, R13 // &c(6, 0)
	LEAQ (R13)(DX*2), R14
	ADDQ DX, R14 // &c(9, 0)
	MOVBQZX add+72(FP), AX
	TESTQ AX, AX
	JZ    write16
	ADD3(R8, Z0, Z1, Z2)
	ADD3(R9, Z3, Z4, Z5)
	ADD3(R13, Z6, Z7, Z8)
	ADD3(R14, Z9, Z10, Z11)

write16:
	STORE3(R8, Z0, Z1, Z2)
	STORE3(R9, Z3, Z4, Z5)
	STORE3(R13, Z6, Z7, Z8)
	STORE3(R14, Z9, Z10, Z11)
	VZEROUPPER
	RET
