package efficiency

// published holds one cell pair of the paper's Table 3: the time in
// seconds and the memory in bytes, with the text as printed. A zero
// Seconds means "-" (not run); Estimated marks a memory figure in
// parentheses, what the method would have needed.
type published struct {
	TimeText, MemoryText string
	Seconds              float64
	Bytes                float64
	Estimated            bool
}

// paperTW, paperGPU and paperCPU are Table 3 of the paper, by L: TW (PyTorch
// on CPU), W¹ by Sinkhorn on a GPU and on a CPU. The paper writes MB and GB;
// its GPU figure at 10⁵, 37.25 GB, is its CPU figure 40.00 GB in GiB, so
// both are read as decimal units here, 1 MB = 10⁶ bytes.
var (
	paperTW = map[int]published{
		100:    {"0.0024", "1.58 MB", 0.0024, 1.58e6, false},
		1000:   {"0.0126", "2.44 MB", 0.0126, 2.44e6, false},
		10000:  {"0.1204", "9.82 MB", 0.1204, 9.82e6, false},
		100000: {"1.6454", "66.00 MB", 1.6454, 66.00e6, false},
	}
	paperGPU = map[int]published{
		100:    {"0.0062", "3.32 MB", 0.0062, 3.32e6, false},
		1000:   {"0.0071", "16.94 MB", 0.0071, 16.94e6, false},
		10000:  {"0.5277", "766.88 MB", 0.5277, 766.88e6, false},
		100000: {"-", "(37.25 GB)", 0, 40e9, true},
	}
	paperCPU = map[int]published{
		100:    {"0.0528", "2.98 MB", 0.0528, 2.98e6, false},
		1000:   {"0.1279", "7.08 MB", 0.1279, 7.08e6, false},
		10000:  {"25.7985", "1148.22 MB", 25.7985, 1148.22e6, false},
		100000: {"-", "(40.00 GB)", 0, 40e9, true},
	}
)

// reference is a figure measured outside twl on the same kind of 2-core
// machine, from ../shared/REFERENCE.md (relative to the repository).
type reference struct {
	Text    string
	Seconds float64 // the time, or the low end of a range
	Max     float64 // the high end of a range of times; 0 for a single figure
	Peak    float64 // peak memory in bytes; 0 if not measured
}

// Figures of ../shared/REFERENCE.md: TW forward + gradient in PyTorch 1.13
// on the CPU, in three forms, and Sinkhorn by POT 0.8.2
// sinkhorn2(method="sinkhorn_log"), 10 iterations, reg 1/50.
//
// The Euler-tour form is the strongest PyTorch anchor for TW: nodes in
// depth-first preorder make every subtree a contiguous range, so subtree
// sums are differences of one cumulative sum (one gather, one cumsum, one
// gather, autograd for the gradient), O(L) and fully vectorized. The
// level-wise scatter (one scatter_add per tree level) and the sparse
// subtree matrix are 30–600× slower than it at 10⁵; the level-wise figure
// varies 0.07–0.30 s with the machine's load.
var (
	refTorchEuler = map[int]reference{
		100:    {"0.14 ms", 0.14e-3, 0, 0},
		1000:   {"0.16 ms", 0.16e-3, 0, 0},
		10000:  {"0.54 ms", 0.54e-3, 0, 0},
		100000: {"4.2–6.4 ms, 0.3 GB peak", 4.2e-3, 6.4e-3, 0.3e9},
	}
	refTorchSparse = map[int]reference{
		100:    {"0.29 ms", 0.29e-3, 0, 0},
		1000:   {"73 ms", 73e-3, 0, 0},
		10000:  {"191 ms", 191e-3, 0, 0},
		100000: {"2.78 s, 4.2 GB peak", 2.78, 0, 4.2e9},
	}
	refTorchScatter = map[int]reference{
		100:    {"0.49 ms", 0.49e-3, 0, 0},
		1000:   {"4.3 ms", 4.3e-3, 0, 0},
		10000:  {"12 ms", 12e-3, 0, 0},
		100000: {"0.07–0.30 s, 0.6–0.9 GB peak", 0.07, 0.30, 0.6e9},
	}
	refPOT = map[int]reference{
		100:   {"0.9 ms", 0.9e-3, 0, 0},
		1000:  {"172 ms", 172e-3, 0, 0},
		10000: {"17.5 s, 4.1 GB peak", 17.5, 0, 4.1e9},
	}
)
