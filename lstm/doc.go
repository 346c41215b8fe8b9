// Package lstm is the text classifier of the tree-Wasserstein paper's
// real-data experiment (Toyokuni et al., Sec. 4.2), written out by hand in
// float32: word vectors, one LSTM layer, the hidden state at each
// document's last token, a fully connected layer with ReLU, and an output
// layer whose logits feed the losses of package loss.
//
// # The model
//
// For a document of tokens w₁ … w_n, with x_t = E[w_t] its word vectors,
//
//	i_t = σ(W_xi x_t + W_hi h_{t−1} + b_i)     (input gate)
//	f_t = σ(W_xf x_t + W_hf h_{t−1} + b_f)     (forget gate)
//	g_t = tanh(W_xg x_t + W_hg h_{t−1} + b_g)  (candidate)
//	o_t = σ(W_xo x_t + W_ho h_{t−1} + b_o)     (output gate)
//	c_t = f_t ⊙ c_{t−1} + i_t ⊙ g_t,   h_t = o_t ⊙ tanh(c_t),   h_0 = c_0 = 0
//	a = ReLU(W₁ h_n + b₁),   z = W₂ a + b₂
//
// with the gates stacked i, f, g, o in Wx (4H×D), Wh (4H×H) and b (4H), as
// PyTorch's nn.LSTM stacks them (its two biases are one here). An empty
// document has h_n = 0. Model.Init draws the weights as PyTorch does,
// uniform on ±1/√H, except the forget gate's bias, set to 1 (Gers,
// Schmidhuber & Cummins 2000; Jozefowicz et al. 2015) so that cells keep
// their state early in training; word vectors come from package embedding
// (SetEmbeddings) and are frozen or trained (LearnerOptions.TrainEmb).
//
// # Documents of different lengths
//
// A mini-batch is sorted by length, longest first, so that at time step t
// the documents still running are the first b_t of the batch, and their
// rows are a prefix of every per-step matrix: the step's matrix product
// has b_t rows, and a document that has ended simply drops out, its state
// kept as its final state. Nothing is padded and nothing is masked; a
// batch costs exactly its tokens. (PyTorch's pack_padded_sequence does the
// same.) The logits come back in the batch's order.
//
// # Forward and backward
//
// Workspace.Forward computes the input part of every gate of the batch in
// one matrix product, X·Wxᵀ over all N tokens, then runs the recurrence:
// per step one product h_{t−1}·Whᵀ (b_t × H by H × 4H) and the cell. It
// keeps the gates, the cell states, their tanh and the previous hidden
// states. Workspace.Backward runs back through time: per step the cell's
// backward pass gives the gradients of the gates' pre-activations, and one
// product with Wh gives ∂h_{t−1}; the weight gradients are then three
// products over all N tokens at once (∂Wh, ∂Wx, and ∂X when word vectors
// are trained, scattered into the embedding table's gradient). Backward
// adds into the gradient slab, as llm.c's layers do. The matrix products
// are internal/gemm's (AVX-512 and AVX2/FMA, deterministic); the cell
// kernels are AVX-512 assembly on blocks of sixteen units and AVX2 on a
// block of eight (cell_amd64.s), beside their Go references (cell.go),
// equal bit for bit, with their own exp, σ and tanh (act.go): Cody–Waite
// range reduction and Cephes' polynomial, within about 2 ulp.
//
// # Subnormal numbers
//
// Gradients flowing back through time shrink; in float32 they reach the
// subnormal range, where every operation on a subnormal number costs some
// processors a microcode assist of a hundred cycles or more (PyTorch on an
// Intel machine trains this model 20 times slower without
// torch.set_flush_denormal). The cell kernels flush their results below
// 2⁻⁶⁰ to zero, and so does Backward the gradient of the logits it is
// given, so the matrix products only ever see zero or numbers whose
// products with the activations are normal (TestNoSubnormals); Adam32
// flushes its moments below 2⁻¹⁰⁰. What is
// flushed is below 1e-18: no float32 step can see it. (On the AMD EPYC
// machine of the benchmarks a product of subnormal matrices costs only
// 1.2 times a normal one; on Intel processors it is many times.)
//
// # Determinism
//
// Every kernel computes each output in a fixed order, whatever the number
// of cores that share the work, so a seed gives the same model bit for bit
// on 1, 2 or 16 cores (TestLearnerDeterministic).
//
// # Cost
//
// A token costs 4H·(D+H) multiply-adds forward and 4H·(2H+D) backward
// (4H·(2H+2D) when the word vectors are trained): 1.28 MFLOP at the
// paper's D = 100, H = 200 with frozen vectors, 1.44 with trained ones. A
// batch of N tokens keeps N·(7H + D) float32 activations (and N·D more for
// the gradient of trained word vectors). BenchmarkStep and `twl
// bench lstm` time training steps at the paper's shapes; docs/benchmarks.md gives
// the figures beside PyTorch's.
package lstm
