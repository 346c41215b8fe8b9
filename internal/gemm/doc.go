// Package gemm multiplies float32 matrices, fast and deterministically:
// the matrix products of the LSTM text classifier.
//
// # What it computes
//
// For row-major matrices (element (i, j) of a matrix with leading
// dimension ld at index i·ld + j),
//
//	C = op(A)·op(B)    or    C += op(A)·op(B)
//
// with C m×n, op(A) m×k (A, or Aᵀ when A is given k×m) and op(B) k×n (B, or
// Bᵀ when B is given n×k). Workspace.Mul computes it; Packed holds op(B)
// packed once for Workspace.MulPacked, for a B used in many products (the
// recurrent weights, used at every time step). A Workspace holds the
// buffers, so that products allocate nothing once it has grown; it runs
// its loops on the team of internal/parallel. Inputs are never modified;
// C must not overlap A or B. Shape mistakes (negative sizes, leading
// dimensions smaller than the rows they hold, slices too short) panic
// with a "gemm: " message; there is nothing else to fail.
//
// # Arithmetic order
//
// Every element of C is computed by the same operations in the same order,
// whatever computes it. With kc = 256, k is cut into nb = ⌈k/kc⌉ blocks
// of nearly equal depth, block t being [⌊t·k/nb⌋, ⌊(t+1)·k/nb⌋). For each
// block, in increasing t,
//
//	s = +0
//	s = fma(a(i, p), b(p, j), s)    for p in the block, in increasing order
//	C(i, j) = s                     (t = 0, not accumulating)
//	C(i, j) = C(i, j) + s           (otherwise)
//
// where fma rounds a·b + s once to float32 and the addition rounds to
// float32 (round to nearest even, subnormals kept). With k = 0, C is set
// to zero, or left as it is when accumulating. The error of an element is
// at most about (kc + nb + 1)·2⁻²⁴·(Σ_p |a(i, p)||b(p, j)| + |C(i, j)|),
// smaller than the k·2⁻²⁴·(…) of a plain loop for k > kc.
//
// # Determinism
//
// The value of every element of C depends only on the inputs and on kc:
// not on the number of workers or of processors, nor on how the work is
// split, the other blockings (mc, nc), the leading dimensions, Mul or
// MulPacked, or the processor. The assembly kernel and the Go reference
// give the same bits (the Go form's fma32 is the exact single-rounding
// FMA; the tests compare them on millions of inputs), so a product gives
// the same bits on amd64 with AVX2 and FMA, on other processors, and with
// the purego build tag. The one exception: where a result is NaN, its
// payload may differ.
//
// # Kernels
//
// The structure is Goto's (Goto and van de Geijn, "Anatomy of
// High-Performance Matrix Multiplication", ACM TOMS 34(3), 2008; BLIS's
// loops): a microkernel computes a tile of mr×nr = 6×16 elements of C
// over one block of k, in twelve 8-float ymm accumulators, broadcasting
// each a(i, p) (VBROADCASTSS) and fusing it with a row of 16 values of
// op(B) (VFMADD231PS). op(B) is packed into panels of 16 columns, row
// after row, zero-padded at the right edge (Mul packs it on each call,
// Packed once); op(A) is read in place, its rows or columns by stride
// (A's row-major rows keep the 6 streams the kernel reads contiguous, and
// transposed A gives 6 contiguous values per p), except for a last panel
// of fewer than 6 rows, packed zero-padded. Edge tiles of C are stored
// through masks (VMASKMOVPS), touching no element outside C. The kernel is
// AVX2 + FMA assembly (kernel_amd64.s), chosen at run time with
// golang.org/x/sys/cpu; kernelGo is its reference, the same operations in
// Go, which runs on other processors and with -tags purego (at about 1
// GFLOPS: each fma takes a float64 sum and a check for the rare double
// rounding).
//
// Where the processor has AVX-512, two full row panels of op(A) read in
// place go to a second kernel (kernel2) as one 12×16 tile: each row one
// 16-float zmm accumulator, each a(i, p) broadcast from memory into its
// FMA (VFMADD231PS with an embedded broadcast), the columns of an edge
// tile masked by an opmask. Each element gets the same fused multiply-adds
// in the same order as in kernelGo, so the bits are the same. The rows left
// after the pairs of full panels (one full panel, or the packed last panel
// of fewer than 6 rows) keep the AVX2 kernel.
// With their operands in L1, the AVX2 kernel runs at 132–134 GFLOPS on one
// core (BenchmarkKernel: two 8-lane FMAs a cycle, the peak of 256-bit
// instructions), the AVX-512 one at 225–238 (BenchmarkKernel2): this
// project's AMD EPYC (Zen 5) runs two 512-bit FMAs a cycle too.
//
// # Blocking and the parallel split
//
// A panel of op(B) (kc×nr floats, 16 KiB) stays in L1 while the kernel
// runs over mc = 96 rows of A (in L2); the columns are taken nc = 4096 at
// a time. When all of op(B) for those columns is at most 128 Ki floats,
// the rows go mc at a time through all blocks of k (their rows of A and C
// stay in cache); otherwise all rows go through one block of k before the
// next (op(B)'s block stays in cache). kc = 256 and mc = 96 were chosen by
// measurement: kc = 384 or 512 and mc = 48 … 384 were within ±5 % on the
// benchmarks, kc = 192 was 5–13 % slower on the sums with k ≥ 1000; a
// smaller kc also bounds the rounding error better.
//
// The tiles of C are split over the parts of a parallel loop (at most one
// per worker, each of at least some 400 000 floating-point operations) in
// one of three ways, chosen by a cost model that counts the busiest part's
// tiles and the packing of op(B): by row panels, each part packing op(B)
// for itself (large m, small op(B)); by ranges of tiles in column-major
// order, which balances shapes with few rows (100×800: 25 of the 50 column
// panels each, where 17 row panels split 9 and 8); or by row panels with
// op(B) packed by all parts together, block by block (large op(B), such
// as the weight gradients' k = 20000). Work is never split over k.
//
// # Costs
//
// Measured with go test -bench 'Mul|Gonum' -cpu 1,2 on this project's
// 2-core AMD EPYC (Zen 5), Go 1.26 (the machine is shared: with other jobs
// running, the two-core figures fall to the one-core ones or below);
// GFLOPS = 2mnk per second, ranges over three runs; no allocation a call
// once warm. gonum's
// pure-Go Sgemm (blas32) on the same shapes ran at the rate shown on one
// core and was no faster on two; OpenBLAS's sgemm, measured on the same
// kind of machine (docs/reference.md), ran 1000³ at about 29 GFLOPS on one thread.
//
//	shape, m×n×k                           1 core    2 cores    time, 2 cores    gonum
//	recurrent forward, C += A·Bᵀ, packed
//	  100×800×200                          213–215   347–366    87–92 µs         16
//	recurrent backward, C = A·B, packed
//	  100×200×800                          201–202   314–316    101–102 µs       13
//	input projection, A·Bᵀ, 20000×800×100  215–218   405–423    7.6–7.9 ms       15
//	weight gradients, C += Aᵀ·B
//	  800×200×20000                        172–179   297–313    20–22 ms         11
//	  800×100×20000                        155–161   212–266    12–15 ms         12
//	input gradient, A·B, 20000×100×800     194–201   367–392    8.2–8.7 ms       15
//	fully connected, A·Bᵀ, 100×200×200     159–161   257–280    29–31 µs         16
//	  the same, packed                     208–211   325–368    22–25 µs
//	  17×200×200                                65    89–100    14–15 µs         16
//	  17×200×200, packed                       154   142–146    9.3–9.6 µs
//	  1×200×200                                4.8   7.8–8.1    10 µs            10
//	  1×200×200, packed                         18        18    4.4 µs
//	square, A·B, 1000×1000×1000            200–211   291–295    6.8–6.9 ms       16
//
// (2026-11-24, load average about 1; gonum one run.) On one core the large
// shapes run at 65–92 % of the AVX-512 kernel's peak; those with n = 100
// or 200 lose to their last column panel, 4 or 8 columns computed 16 wide,
// and the long sums go through C once per block of k. Of 17 rows, 12 go to
// the AVX-512 kernel and the last 5 (a packed panel) to the AVX2 one; a
// single row goes to the AVX2 kernel. The per-step products (200 a batch, one
// after the other) split over two cores at 1.6–1.7 times the one-core
// speed. Packing op(B) costs 0.3–0.45 ns an element (both recurrent
// weights, 800×200, in 45 and 69 µs, BenchmarkPack), which dominates a Mul
// with few rows and B transposed: use MulPacked for a B
// used more than once. A call costs about 0.1 µs beyond its arithmetic
// (BenchmarkMul/Tiny, 6×16×8).
package gemm
