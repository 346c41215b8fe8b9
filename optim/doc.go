// Package optim holds first-order optimizers that update a flat parameter
// slice in place from its gradient.
//
// Adam is the method of Kingma & Ba ("Adam: A Method for Stochastic
// Optimization", ICLR 2015, Algorithm 1), with the paper's defaults
// (β₁ = 0.9, β₂ = 0.999, ε = 1e-8) and the learning rate 1e-3 that
// Toyokuni et al. use. Bias corrections are folded into the step size as in
// the paper's "more efficient" ordering, with ε scaled so that every update
// equals PyTorch's torch.optim.Adam exactly in real arithmetic:
//
//	θ ← θ − (α/(1−β₁ᵗ)) · m / (√v / √(1−β₂ᵗ) + ε).
//
// Optional L2 weight decay adds λ·θ to the gradient before the moments, as
// PyTorch's weight_decay does (not the decoupled AdamW rule).
package optim
