package sinkhorn_test

import (
	"fmt"
	"log"

	"github.com/twl-ldl/twl/ot/sinkhorn"
)

// The loss between a prediction and a target on three labels with the
// cost 11ᵀ − I (the exact transport cost is 0.3), and its gradient with
// respect to the prediction.
func Example() {
	cost := []float64{
		0, 1, 1,
		1, 0, 1,
		1, 1, 0,
	}
	pred := []float64{0.5, 0.3, 0.2}
	target := []float64{0.2, 0.3, 0.5}

	// λ = 50, iterated to the default tolerance.
	s, err := sinkhorn.New(cost, 3, 3, sinkhorn.Settings{Lambda: 50})
	if err != nil {
		log.Fatal(err)
	}
	grad := make([]float64, 3)
	loss, err := s.Grad(grad, pred, target)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("loss %.4f, gradient %.4f\n", loss, grad)

	// The paper's baseline, 10 iterations: at λ = 50 the scalings need far
	// more iterations to move mass off the diagonal, so the plan is still
	// far from the marginal b and its cost far from 0.3.
	res, err := sinkhorn.Solve(cost, pred, target, sinkhorn.Settings{Lambda: 50, Iters: 10, Tol: -1})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("10 iterations: loss %.2g, marginal error %.2f\n", res.Value, res.MarginalErr)
	// Output:
	// loss 0.3000, gradient [0.5025 0.0031 -0.5056]
	// 10 iterations: loss 3.5e-15, marginal error 0.60
}

// A training step's loss: two rows of logits against two targets, sharing
// one cost matrix; the gradients are with respect to the logits.
func ExampleSolver_BatchLogitGrad() {
	cost := []float64{
		0, 1, 2,
		1, 0, 1,
		2, 1, 0,
	}
	logits := []float64{
		2, 0, -1,
		0, 0, 0,
	}
	targets := []float64{
		0, 0, 1,
		0, 1, 0,
	}
	s, err := sinkhorn.New(cost, 3, 3, sinkhorn.Settings{Lambda: 10})
	if err != nil {
		log.Fatal(err)
	}
	values := make([]float64, 2)
	grads := make([]float64, 6)
	if err := s.BatchLogitGrad(values, grads, logits, targets); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("losses %.4f\n", values)
	fmt.Printf("gradients %.4f\n", grads)
	// Output:
	// losses [1.8018 0.6667]
	// gradients [0.1972 -0.1104 -0.0868 0.1111 -0.2222 0.1111]
}
