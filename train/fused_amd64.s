//go:build amd64 && !purego

#include "textflag.h"

// func fusedLabelsAVX2(a *fusedFrame)
//
// fusedLabelsGo (fused.go) with four features per instruction: the same
// operations in the same order on every number. The frame's layout is
// fusedFrame's (fused_amd64.go).
//
// Registers in the loop over quads: SI &x[0, 4q], DI &W[j, 4q], R8 and R9
// its moments, R10 &G[0, j], R11 the packed next rows of quad q, BX and DX
// the strides of x and G in bytes, R14 the quads left, R13 the label j,
// R12 &z[0, j]; Y6–Y15 the lanes of the ten next rows' logits.
//
// The local frame holds Adam's constants, four times each, at 0, 32, …,
// 192(SP) (β₁, 1−β₁, β₂, 1−β₂, step, ε̂, weight decay), then the flags
// (224), rows (232), quads (240), nz (248), in mod 4 in bytes (256), x
// (264), xp (272) and the number of labels (280).
TEXT ·fusedLabelsAVX2(SB), NOSPLIT, $288-8
	MOVQ a+0(FP), AX
	MOVQ 80(AX), CX // k
	VMOVUPD 0(CX), Y0
	VMOVUPD Y0, 0(SP)
	VMOVUPD 32(CX), Y0
	VMOVUPD Y0, 32(SP)
	VMOVUPD 64(CX), Y0
	VMOVUPD Y0, 64(SP)
	VMOVUPD 96(CX), Y0
	VMOVUPD Y0, 96(SP)
	VMOVUPD 128(CX), Y0
	VMOVUPD Y0, 128(SP)
	VMOVUPD 160(CX), Y0
	VMOVUPD Y0, 160(SP)
	VMOVUPD 192(CX), Y0
	VMOVUPD Y0, 192(SP)

	MOVQ 128(AX), CX
	MOVQ CX, 224(SP) // flags
	MOVQ 104(AX), CX
	MOVQ CX, 232(SP) // rows
	MOVQ 96(AX), CX  // in
	MOVQ CX, BX
	SHLQ $3, BX      // x's stride in bytes
	MOVQ CX, R14
	SHRQ $2, R14
	MOVQ R14, 240(SP) // quads
	ANDQ $3, CX
	SHLQ $3, CX
	MOVQ CX, 256(SP) // in mod 4, in bytes
	MOVQ 120(AX), CX
	MOVQ CX, 248(SP) // nz
	MOVQ 48(AX), CX
	MOVQ CX, 264(SP) // x
	MOVQ 64(AX), CX
	MOVQ CX, 272(SP) // xp
	MOVQ 88(AX), CX
	MOVQ CX, 280(SP) // labels
	MOVQ 112(AX), DX
	SHLQ $3, DX      // G's stride in bytes
	MOVQ 0(AX), DI   // W
	MOVQ 8(AX), R8   // its first moments
	MOVQ 16(AX), R9  // its second moments
	MOVQ 56(AX), R10 // G
	MOVQ 72(AX), R12 // z
	XORQ R13, R13
	TESTQ CX, CX
	JZ   done

label:
	// ∂b_j = Σ_r G[r, j], from 0 in row order.
	VXORPD X0, X0, X0
	MOVQ R10, R15
	MOVQ 232(SP), CX

biassum:
	VADDSD (R15), X0, X0
	ADDQ DX, R15
	DECQ CX
	JNZ  biassum

	// Adam on b_j, one number.
	MOVQ a+0(FP), AX
	MOVQ 24(AX), CX
	LEAQ (CX)(R13*8), CX  // &b[j]
	MOVQ 32(AX), R15
	LEAQ (R15)(R13*8), R15 // &mb[j]
	MOVQ 40(AX), AX
	LEAQ (AX)(R13*8), AX  // &vb[j]
	VMOVSD (CX), X1
	MOVQ 224(SP), R14
	TESTQ $2, R14
	JZ   biasnowd
	VMULSD 192(SP), X1, X2
	VADDSD X2, X0, X0

biasnowd:
	VMOVSD (R15), X3
	VMULSD 0(SP), X3, X3
	VMULSD 32(SP), X0, X2
	VADDSD X2, X3, X3
	VMOVSD X3, (R15)
	VMOVSD (AX), X2
	VMULSD 64(SP), X2, X2
	VMULSD 96(SP), X0, X4
	VMULSD X0, X4, X4
	VADDSD X4, X2, X2
	VMOVSD X2, (AX)
	VSQRTSD X2, X2, X2
	VADDSD 160(SP), X2, X2
	VMULSD 128(SP), X3, X3
	VDIVSD X2, X3, X3
	VSUBSD X3, X1, X1
	VMOVSD X1, (CX)

	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	VXORPD Y8, Y8, Y8
	VXORPD Y9, Y9, Y9
	VXORPD Y10, Y10, Y10
	VXORPD Y11, Y11, Y11
	VXORPD Y12, Y12, Y12
	VXORPD Y13, Y13, Y13
	VXORPD Y14, Y14, Y14
	VXORPD Y15, Y15, Y15
	MOVQ 264(SP), SI
	MOVQ 272(SP), R11
	MOVQ 240(SP), R14
	TESTQ R14, R14
	JZ   reduce

quad:
	// ∂W[j, 4q:4q+4] = Σ_r G[r, j]·x_r[4q:4q+4], fused in row order.
	VXORPD Y0, Y0, Y0
	MOVQ R10, R15
	MOVQ SI, AX
	MOVQ 232(SP), CX

rowloop:
	VBROADCASTSD (R15), Y5
	VFMADD231PD (AX), Y5, Y0
	ADDQ DX, R15
	ADDQ BX, AX
	DECQ CX
	JNZ  rowloop

	// Adam on the quad, as optim's kernels do it.
	VMOVUPD (DI), Y1 // p
	MOVQ 224(SP), CX
	TESTQ $1, CX
	JZ   nowd
	VMULPD 192(SP), Y1, Y2 // wd·p
	VADDPD Y2, Y0, Y0      // g + wd·p

nowd:
	VMOVUPD (R8), Y3
	VMULPD 0(SP), Y3, Y3  // β₁·m
	VMULPD 32(SP), Y0, Y4 // (1−β₁)·g
	VADDPD Y4, Y3, Y3     // m'
	VMOVUPD Y3, (R8)
	VMOVUPD (R9), Y2
	VMULPD 64(SP), Y2, Y2 // β₂·v
	VMULPD 96(SP), Y0, Y4 // (1−β₂)·g
	VMULPD Y0, Y4, Y4     // ((1−β₂)·g)·g
	VADDPD Y4, Y2, Y2     // v'
	VMOVUPD Y2, (R9)
	VSQRTPD Y2, Y2
	VADDPD 160(SP), Y2, Y2 // √v' + ε̂
	VMULPD 128(SP), Y3, Y3 // step·m'
	VDIVPD Y2, Y3, Y3
	VSUBPD Y3, Y1, Y1
	VMOVUPD Y1, (DI)

	// The next rows' lanes with the new weights.
	VFMADD231PD 0(R11), Y1, Y6
	VFMADD231PD 32(R11), Y1, Y7
	VFMADD231PD 64(R11), Y1, Y8
	VFMADD231PD 96(R11), Y1, Y9
	VFMADD231PD 128(R11), Y1, Y10
	VFMADD231PD 160(R11), Y1, Y11
	VFMADD231PD 192(R11), Y1, Y12
	VFMADD231PD 224(R11), Y1, Y13
	VFMADD231PD 256(R11), Y1, Y14
	VFMADD231PD 288(R11), Y1, Y15

	ADDQ $32, SI
	ADDQ $32, DI
	ADDQ $32, R8
	ADDQ $32, R9
	ADDQ $320, R11
	DECQ R14
	JNZ  quad

reduce:
	// Past the row's last in mod 4 weights, which Go finishes.
	MOVQ 256(SP), CX
	ADDQ CX, DI
	ADDQ CX, R8
	ADDQ CX, R9

	// z[s, j] = (b_j +) (l0 + l2) + (l1 + l3), for s < nz.
	MOVQ a+0(FP), AX
	MOVQ 24(AX), AX
	VMOVSD (AX)(R13*8), X4 // b_j, updated
	MOVQ 224(SP), CX
	MOVQ 248(SP), R14
	MOVQ R12, AX

#define STORE(Y, XR) \
	TESTQ R14, R14; \
	JZ   next; \
	VEXTRACTF128 $1, Y, X5; \
	VADDPD XR, X5, X5; \
	VPERMILPD $1, X5, X3; \
	VADDSD X3, X5, X5; \
	TESTQ $4, CX; \
	JZ   2(PC); \
	VADDSD X4, X5, X5; \
	VMOVSD X5, (AX); \
	ADDQ DX, AX; \
	DECQ R14

	STORE(Y6, X6)
	STORE(Y7, X7)
	STORE(Y8, X8)
	STORE(Y9, X9)
	STORE(Y10, X10)
	STORE(Y11, X11)
	STORE(Y12, X12)
	STORE(Y13, X13)
	STORE(Y14, X14)
	STORE(Y15, X15)

next:
	ADDQ $8, R10
	ADDQ $8, R12
	INCQ R13
	CMPQ R13, 280(SP)
	JLT  label

done:
	VZEROUPPER
	RET
