//go:build amd64 && !purego

#include "textflag.h"

DATA negzero<>+0(SB)/8, $0x8000000000000000
GLOBL negzero<>(SB), RODATA|NOPTR, $8

// The kernel's local frame: Adam's constants, four times each, at 0, 32,
// …, 192(SP) (β₁, 1−β₁, β₂, 1−β₂, step, ε̂, weight decay), then the flags
// (224), rows (232), whether a quad follows the octs (240), nz (248), in
// mod 4 in bytes (256), the packed rows x (264) and xp (272), the number
// of labels (280) and of octs (288), and, with fewer than ten rows,
// G[r, j], G[r, j+1] of the pair of labels at hand, 16 bytes a row, from
// 296 (−0 past the rows).

// GRAD2(ZA, ZB) stores in ZA and ZB the gradients of eight weights of
// labels j and j+1, Σ_r G[r, ·]·x_r fused in row order from zero (the
// rows packed at R11, 64 bytes apart; G[r, j] in each lane of Z6+r,
// G[r, j+1] in each lane of Z16+r). It uses Z1.
#define GRAD2(ZA, ZB) \
	VPXORQ ZA, ZA, ZA; \
	VPXORQ ZB, ZB, ZB \
	VMOVUPD 0(R11), Z1; \
	VFMADD231PD Z6, Z1, ZA; \
	VFMADD231PD Z16, Z1, ZB \
	VMOVUPD 64(R11), Z1; \
	VFMADD231PD Z7, Z1, ZA; \
	VFMADD231PD Z17, Z1, ZB \
	VMOVUPD 128(R11), Z1; \
	VFMADD231PD Z8, Z1, ZA; \
	VFMADD231PD Z18, Z1, ZB \
	VMOVUPD 192(R11), Z1; \
	VFMADD231PD Z9, Z1, ZA; \
	VFMADD231PD Z19, Z1, ZB \
	VMOVUPD 256(R11), Z1; \
	VFMADD231PD Z10, Z1, ZA; \
	VFMADD231PD Z20, Z1, ZB \
	VMOVUPD 320(R11), Z1; \
	VFMADD231PD Z11, Z1, ZA; \
	VFMADD231PD Z21, Z1, ZB \
	VMOVUPD 384(R11), Z1; \
	VFMADD231PD Z12, Z1, ZA; \
	VFMADD231PD Z22, Z1, ZB \
	VMOVUPD 448(R11), Z1; \
	VFMADD231PD Z13, Z1, ZA; \
	VFMADD231PD Z23, Z1, ZB \
	VMOVUPD 512(R11), Z1; \
	VFMADD231PD Z14, Z1, ZA; \
	VFMADD231PD Z24, Z1, ZB \
	VMOVUPD 576(R11), Z1; \
	VFMADD231PD Z15, Z1, ZA; \
	VFMADD231PD Z25, Z1, ZB

// GRAD2Q(YA, YB) is GRAD2 for one quad, the rows 32 bytes apart.
#define GRAD2Q(YA, YB) \
	VPXORQ YA, YA, YA; \
	VPXORQ YB, YB, YB \
	VMOVUPD 0(R11), Y1; \
	VFMADD231PD Y6, Y1, YA; \
	VFMADD231PD Y16, Y1, YB \
	VMOVUPD 32(R11), Y1; \
	VFMADD231PD Y7, Y1, YA; \
	VFMADD231PD Y17, Y1, YB \
	VMOVUPD 64(R11), Y1; \
	VFMADD231PD Y8, Y1, YA; \
	VFMADD231PD Y18, Y1, YB \
	VMOVUPD 96(R11), Y1; \
	VFMADD231PD Y9, Y1, YA; \
	VFMADD231PD Y19, Y1, YB \
	VMOVUPD 128(R11), Y1; \
	VFMADD231PD Y10, Y1, YA; \
	VFMADD231PD Y20, Y1, YB \
	VMOVUPD 160(R11), Y1; \
	VFMADD231PD Y11, Y1, YA; \
	VFMADD231PD Y21, Y1, YB \
	VMOVUPD 192(R11), Y1; \
	VFMADD231PD Y12, Y1, YA; \
	VFMADD231PD Y22, Y1, YB \
	VMOVUPD 224(R11), Y1; \
	VFMADD231PD Y13, Y1, YA; \
	VFMADD231PD Y23, Y1, YB \
	VMOVUPD 256(R11), Y1; \
	VFMADD231PD Y14, Y1, YA; \
	VFMADD231PD Y24, Y1, YB \
	VMOVUPD 288(R11), Y1; \
	VFMADD231PD Y15, Y1, YA; \
	VFMADD231PD Y25, Y1, YB

// ADAM8(G, P, M, V) updates the eight weights at P (moments at M
// and V) with the gradient G, as optim's kernels do (CX holds the flags),
// and leaves the new weights in Z4. It uses Z4 and Z5, and G.
#define ADAM8(G, P, M, V) \
	TESTQ $1, CX; \
	JZ   4(PC); \
	VMOVUPD P, Z5; \
	VMULPD.BCST 192(SP), Z5, Z4; \
	VADDPD Z4, G, G; \
	VMULPD.BCST 96(SP), G, Z4; \
	VMULPD G, Z4, Z4; \
	VMULPD.BCST 32(SP), G, G; \
	VMOVUPD V, Z5; \
	VMULPD.BCST 64(SP), Z5, Z5; \
	VADDPD Z4, Z5, Z5; \
	VMOVUPD Z5, V; \
	VMOVUPD M, Z4; \
	VMULPD.BCST 0(SP), Z4, Z4; \
	VADDPD G, Z4, Z4; \
	VMOVUPD Z4, M; \
	VSQRTPD Z5, Z5; \
	VADDPD.BCST 160(SP), Z5, Z5; \
	VMULPD.BCST 128(SP), Z4, Z4; \
	VDIVPD Z5, Z4, Z4; \
	VMOVUPD P, Z5; \
	VSUBPD Z4, Z5, Z4; \
	VMOVUPD Z4, P

// ADAM4 is ADAM8 for four weights (Y registers, Y4 and Y5).
#define ADAM4(G, P, M, V) \
	TESTQ $1, CX; \
	JZ   4(PC); \
	VMOVUPD P, Y5; \
	VMULPD 192(SP), Y5, Y4; \
	VADDPD Y4, G, G; \
	VMULPD 96(SP), G, Y4; \
	VMULPD G, Y4, Y4; \
	VMULPD 32(SP), G, G; \
	VMOVUPD V, Y5; \
	VMULPD 64(SP), Y5, Y5; \
	VADDPD Y4, Y5, Y5; \
	VMOVUPD Y5, V; \
	VMOVUPD M, Y4; \
	VMULPD 0(SP), Y4, Y4; \
	VADDPD G, Y4, Y4; \
	VMOVUPD Y4, M; \
	VSQRTPD Y5, Y5; \
	VADDPD 160(SP), Y5, Y5; \
	VMULPD 128(SP), Y4, Y4; \
	VDIVPD Y5, Y4, Y4; \
	VMOVUPD P, Y5; \
	VSUBPD Y4, Y5, Y4; \
	VMOVUPD Y4, P

// LANESP(off, S, ZA, ZB) adds to the lanes of the next rows' logits the
// products of one quad of weights, held twice in ZA (label j) and in ZB
// (label j+1): the rows go two by two, rows 2p and 2p+1 side by side in
// Z6+p (label j) and Z16+p (label j+1), lanes 0–3 and 4–7, their quads
// packed at SI from off, S bytes apart (packPairs). It uses Z1.
#define LANESP(off, S, ZA, ZB) \
	VMOVUPD off+0*S(SI), Z1; \
	VFMADD231PD Z1, ZA, Z6; \
	VFMADD231PD Z1, ZB, Z16; \
	VMOVUPD off+1*S(SI), Z1; \
	VFMADD231PD Z1, ZA, Z7; \
	VFMADD231PD Z1, ZB, Z17; \
	VMOVUPD off+2*S(SI), Z1; \
	VFMADD231PD Z1, ZA, Z8; \
	VFMADD231PD Z1, ZB, Z18; \
	VMOVUPD off+3*S(SI), Z1; \
	VFMADD231PD Z1, ZA, Z9; \
	VFMADD231PD Z1, ZB, Z19; \
	VMOVUPD off+4*S(SI), Z1; \
	VFMADD231PD Z1, ZA, Z10; \
	VFMADD231PD Z1, ZB, Z20

// LANESW(off, S) adds the products of the quad of new weights at AX
// (label j) and AX+BX (label j+1), each held twice (in Z11 and Z12), with
// the pairs of next rows packed at SI from off, S bytes apart. It uses Z1,
// Z11 and Z12.
#define LANESW(off, S) \
	VBROADCASTF64X4 (AX), Z11; \
	VBROADCASTF64X4 (AX)(BX*1), Z12; \
	LANESP(off, S, Z11, Z12)

// STOREP(A, B) stores the lane sums of a pair of next rows, A of label
// j and B of label j+1 (rows 2p and 2p+1 in lanes 0–3 and 4–7):
// (l0 + l2) + (l1 + l3), plus the biases of labels j and j+1 (Z4, in each
// 128-bit lane) when the flags (CX) say so, at AX (z[s, j] and z[s, j+1])
// for the first row and a row further for the second, moving AX down a
// row and counting the rows left (R14) for each, leaving for next when
// none is. It uses Z21–Z24.
#define STOREP(A, B) \
	TESTQ R14, R14; \
	JZ   next; \
	VSHUFF64X2 $0xB1, A, A, Z21; \
	VADDPD Z21, A, Z21; \
	VSHUFF64X2 $0xB1, B, B, Z22; \
	VADDPD Z22, B, Z22; \
	VUNPCKLPD Z22, Z21, Z23; \
	VUNPCKHPD Z22, Z21, Z24; \
	VADDPD Z24, Z23, Z23; \
	TESTQ $4, CX; \
	JZ   2(PC); \
	VADDPD Z4, Z23, Z23; \
	VMOVUPD X23, (AX); \
	ADDQ DX, AX; \
	DECQ R14; \
	JZ   next; \
	VEXTRACTF32X4 $2, Z23, (AX); \
	ADDQ DX, AX; \
	DECQ R14

// func fusedLabelsAVX512(a *fusedFrame)
//
// fusedLabelsGo (fused.go) in AVX-512 and FMA instructions, for an even
// number of labels: the same operations in the same order on every
// number. The frame's layout is fusedFrame's (fused_amd64.go); x is the
// current rows packed (packRows), xp the next rows packed in pairs
// (packPairs).
//
// First the biases, eight at a time and then one at a time. Then the
// labels two at a time, in two
// passes over their rows of W. The first makes the gradient and the Adam
// step of each oct of weights, the gradients of the next oct (Z0 and Z26,
// the rows packed at R11) computed while Adam runs on this one (gradients
// Z2 and Z27), with the pair's G[r, ·] held broadcast in Z6–Z25 (memory
// operands broadcast in the multiply-adds, the pass took 17–18% longer); then a
// last quad of weights if in mod 8 ≥ 4. The second pass, over the new
// weights (from R15), adds their products with the next rows (packed at
// SI) to the lanes Z6–Z10 (label j) and Z16–Z20 (label j+1), two next rows
// to a register, quad after quad as the reference adds them; then the
// logits. DI, R8 and R9 point into W and its moments (label j; j+1 is BX
// bytes further), R10 at G[0, j], R12 at z[0, j], R13 is j, DX the stride
// of G and z in bytes.
TEXT ·fusedLabelsAVX512(SB), NOSPLIT, $456-8
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
	// G of rows past the last: −0, so that their products, −0 with the
	// zeros packed for their x, leave every sum as it is, −0 included
	// (+0 would turn a sum of −0 into +0).
	VBROADCASTSD negzero<>(SB), Y0
	VMOVUPD Y0, 296(SP)
	VMOVUPD Y0, 328(SP)
	VMOVUPD Y0, 360(SP)
	VMOVUPD Y0, 392(SP)
	VMOVUPD Y0, 424(SP)

	MOVQ 128(AX), CX
	MOVQ CX, 224(SP) // flags
	MOVQ 104(AX), CX
	MOVQ CX, 232(SP) // rows
	MOVQ 96(AX), CX  // in
	MOVQ CX, BX
	SHLQ $3, BX      // a row of W in bytes
	MOVQ CX, R14
	SHRQ $3, R14
	MOVQ R14, 288(SP) // octs
	MOVQ CX, R14
	SHRQ $2, R14
	ANDQ $1, R14
	MOVQ R14, 240(SP) // a quad after the octs
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
	MOVQ 56(AX), R10 // G
	TESTQ CX, CX
	JZ   done

	// The biases: ∂b_j = Σ_r G[r, j] from 0 in row order, then Adam,
	// eight labels at a time, then one at a time.
	MOVQ 24(AX), DI  // b
	MOVQ 32(AX), R8  // its first moments
	MOVQ 40(AX), R9  // its second moments
	MOVQ 224(SP), R11
	XORQ R13, R13
	MOVQ 280(SP), R14
	SUBQ $8, R14     // the last j that starts eight labels

biasoct:
	CMPQ R13, R14
	JGT  biasrest
	VXORPD Z0, Z0, Z0
	LEAQ (R10)(R13*8), R15
	MOVQ 232(SP), CX

biasoctsum:
	VADDPD (R15), Z0, Z0
	ADDQ DX, R15
	DECQ CX
	JNZ  biasoctsum

	VMOVUPD (DI)(R13*8), Z1
	TESTQ $2, R11
	JZ   biasoctnowd
	VMULPD.BCST 192(SP), Z1, Z2
	VADDPD Z2, Z0, Z0

biasoctnowd:
	VMOVUPD (R8)(R13*8), Z3
	VMULPD.BCST 0(SP), Z3, Z3
	VMULPD.BCST 32(SP), Z0, Z2
	VADDPD Z2, Z3, Z3
	VMOVUPD Z3, (R8)(R13*8)
	VMOVUPD (R9)(R13*8), Z2
	VMULPD.BCST 64(SP), Z2, Z2
	VMULPD.BCST 96(SP), Z0, Z4
	VMULPD Z0, Z4, Z4
	VADDPD Z4, Z2, Z2
	VMOVUPD Z2, (R9)(R13*8)
	VSQRTPD Z2, Z2
	VADDPD.BCST 160(SP), Z2, Z2
	VMULPD.BCST 128(SP), Z3, Z3
	VDIVPD Z2, Z3, Z3
	VSUBPD Z3, Z1, Z1
	VMOVUPD Z1, (DI)(R13*8)
	ADDQ $8, R13
	JMP  biasoct

biasrest:
	CMPQ R13, 280(SP)
	JGE  biasdone

bias:
	VXORPD X0, X0, X0
	LEAQ (R10)(R13*8), R15
	MOVQ 232(SP), CX

biassum:
	VADDSD (R15), X0, X0
	ADDQ DX, R15
	DECQ CX
	JNZ  biassum

	VMOVSD (DI)(R13*8), X1
	TESTQ $2, R11
	JZ   biasnowd
	VMULSD 192(SP), X1, X2
	VADDSD X2, X0, X0

biasnowd:
	VMOVSD (R8)(R13*8), X3
	VMULSD 0(SP), X3, X3
	VMULSD 32(SP), X0, X2
	VADDSD X2, X3, X3
	VMOVSD X3, (R8)(R13*8)
	VMOVSD (R9)(R13*8), X2
	VMULSD 64(SP), X2, X2
	VMULSD 96(SP), X0, X4
	VMULSD X0, X4, X4
	VADDSD X4, X2, X2
	VMOVSD X2, (R9)(R13*8)
	VSQRTSD X2, X2, X2
	VADDSD 160(SP), X2, X2
	VMULSD 128(SP), X3, X3
	VDIVSD X2, X3, X3
	VSUBSD X3, X1, X1
	VMOVSD X1, (DI)(R13*8)
	INCQ R13
	CMPQ R13, 280(SP)
	JLT  bias

biasdone:
	MOVQ a+0(FP), AX
	MOVQ 0(AX), DI   // W
	MOVQ 8(AX), R8   // its first moments
	MOVQ 16(AX), R9  // its second moments
	MOVQ 72(AX), R12 // z
	XORQ R13, R13

pair:
	// G[r, j] and G[r, j+1] of the rows in registers, for the octs and
	// the quad: straight from G with all ten rows, else through the frame
	// (zeros past the rows).
	MOVQ R10, R15
	CMPQ 232(SP), $10
	JNE  gframe
	VBROADCASTSD (R15), Z6
	VBROADCASTSD 8(R15), Z16
	ADDQ DX, R15
	VBROADCASTSD (R15), Z7
	VBROADCASTSD 8(R15), Z17
	ADDQ DX, R15
	VBROADCASTSD (R15), Z8
	VBROADCASTSD 8(R15), Z18
	ADDQ DX, R15
	VBROADCASTSD (R15), Z9
	VBROADCASTSD 8(R15), Z19
	ADDQ DX, R15
	VBROADCASTSD (R15), Z10
	VBROADCASTSD 8(R15), Z20
	ADDQ DX, R15
	VBROADCASTSD (R15), Z11
	VBROADCASTSD 8(R15), Z21
	ADDQ DX, R15
	VBROADCASTSD (R15), Z12
	VBROADCASTSD 8(R15), Z22
	ADDQ DX, R15
	VBROADCASTSD (R15), Z13
	VBROADCASTSD 8(R15), Z23
	ADDQ DX, R15
	VBROADCASTSD (R15), Z14
	VBROADCASTSD 8(R15), Z24
	ADDQ DX, R15
	VBROADCASTSD (R15), Z15
	VBROADCASTSD 8(R15), Z25
	JMP  gdone

gframe:
	LEAQ 296(SP), AX
	MOVQ 232(SP), CX

gcopy:
	VMOVUPD (R15), X1
	VMOVUPD X1, (AX)
	ADDQ DX, R15
	ADDQ $16, AX
	DECQ CX
	JNZ  gcopy
	VBROADCASTSD 296(SP), Z6
	VBROADCASTSD 304(SP), Z16
	VBROADCASTSD 312(SP), Z7
	VBROADCASTSD 320(SP), Z17
	VBROADCASTSD 328(SP), Z8
	VBROADCASTSD 336(SP), Z18
	VBROADCASTSD 344(SP), Z9
	VBROADCASTSD 352(SP), Z19
	VBROADCASTSD 360(SP), Z10
	VBROADCASTSD 368(SP), Z20
	VBROADCASTSD 376(SP), Z11
	VBROADCASTSD 384(SP), Z21
	VBROADCASTSD 392(SP), Z12
	VBROADCASTSD 400(SP), Z22
	VBROADCASTSD 408(SP), Z13
	VBROADCASTSD 416(SP), Z23
	VBROADCASTSD 424(SP), Z14
	VBROADCASTSD 432(SP), Z24
	VBROADCASTSD 440(SP), Z15
	VBROADCASTSD 448(SP), Z25

gdone:
	MOVQ DI, R15 // W's row j, for the lanes
	MOVQ 264(SP), R11
	MOVQ 224(SP), CX
	GRAD2(Z2, Z27)
	ADDQ $640, R11
	MOVQ 288(SP), R14
	TESTQ R14, R14
	JZ   octend

oct:
	GRAD2(Z0, Z26)
	ADAM8(Z2, (DI), (R8), (R9))
	ADAM8(Z27, (DI)(BX*1), (R8)(BX*1), (R9)(BX*1))
	VMOVAPD Z0, Z2
	VMOVAPD Z26, Z27
	ADDQ $64, DI
	ADDQ $64, R8
	ADDQ $64, R9
	ADDQ $640, R11
	DECQ R14
	JNZ  oct

octend:
	SUBQ $640, R11

	// A quad after the octs, the current rows packed 32 bytes apart.
	MOVQ 240(SP), R14
	TESTQ R14, R14
	JZ   lanes
	GRAD2Q(Y0, Y26)
	ADAM4(Y0, (DI), (R8), (R9))
	ADAM4(Y26, (DI)(BX*1), (R8)(BX*1), (R9)(BX*1))
	ADDQ $32, DI
	ADDQ $32, R8
	ADDQ $32, R9

lanes:
	// The next rows' lanes, from the new weights of labels j and j+1
	// (from R15), quad after quad: the octs' pairs of rows 128 bytes
	// apart, the last quad's 64.
	VPXORQ Z6, Z6, Z6
	VPXORQ Z7, Z7, Z7
	VPXORQ Z8, Z8, Z8
	VPXORQ Z9, Z9, Z9
	VPXORQ Z10, Z10, Z10
	VPXORQ Z16, Z16, Z16
	VPXORQ Z17, Z17, Z17
	VPXORQ Z18, Z18, Z18
	VPXORQ Z19, Z19, Z19
	VPXORQ Z20, Z20, Z20
	TESTQ $8, CX
	JZ   reduce
	MOVQ R15, AX
	MOVQ 272(SP), SI
	MOVQ 288(SP), R14
	TESTQ R14, R14
	JZ   lanesquad

laneoct:
	LANESW(0, 128)
	ADDQ $32, AX
	LANESW(64, 128)
	ADDQ $32, AX
	ADDQ $640, SI
	DECQ R14
	JNZ  laneoct

lanesquad:
	MOVQ 240(SP), R14
	TESTQ R14, R14
	JZ   reduce
	LANESW(0, 64)

reduce:
	// Past the rows' last in mod 4 weights, which Go finishes, and
	// past label j+1's row.
	MOVQ 256(SP), AX
	ADDQ BX, AX
	ADDQ AX, DI
	ADDQ AX, R8
	ADDQ AX, R9

	// z[s, j] = (b_j +) (l0 + l2) + (l1 + l3), for s < nz, and the same
	// for j+1, side by side.
	MOVQ a+0(FP), AX
	MOVQ 24(AX), AX
	VMOVUPD (AX)(R13*8), X4 // b_j and b_j+1, updated
	VSHUFF64X2 $0, Z4, Z4, Z4 // in each 128-bit lane
	MOVQ 248(SP), R14
	MOVQ R12, AX
	STOREP(Z6, Z16)
	STOREP(Z7, Z17)
	STOREP(Z8, Z18)
	STOREP(Z9, Z19)
	STOREP(Z10, Z20)

next:
	ADDQ $16, R10
	ADDQ $16, R12
	ADDQ $2, R13
	CMPQ R13, 280(SP)
	JLT  pair

done:
	VZEROUPPER
	RET
