package gemm_test

import (
	"fmt"

	"github.com/twl-ldl/twl/internal/gemm"
)

// A 2×3 times 3×2 product, then the same B transposed and packed once for
// an accumulating product.
func ExampleWorkspace_Mul() {
	a := []float32{
		1, 2, 3,
		4, 5, 6,
	}
	b := []float32{
		1, 0,
		0, 1,
		1, 1,
	}
	c := make([]float32, 2*2)
	w := gemm.NewWorkspace(0)
	w.Mul(c, 2, a, 3, false, b, 2, false, 2, 2, 3, false) // C = A·B
	fmt.Println(c)

	bt := []float32{ // Bᵀ, 2×3: op(B) = (Bᵀ)ᵀ = B
		1, 0, 1,
		0, 1, 1,
	}
	var p gemm.Packed
	p.Pack(bt, 3, true, 3, 2)
	w.MulPacked(c, 2, a, 3, false, &p, 2, true) // C += A·B
	fmt.Println(c)
	// Output:
	// [4 5 10 11]
	// [8 10 20 22]
}
