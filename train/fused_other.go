//go:build !amd64 || purego

package train

// haveFused is false: the step runs model.Linear's kernels and Adam one
// after the other (the fused step computes the fused forms of the
// products, which model.Linear uses only with its amd64 kernels).
var haveFused = false

func fusedLabels(a *fusedArgs) {
	a.check()
	fusedLabelsGo(a)
}
