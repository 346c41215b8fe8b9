package lstm

// The kernels in use: the assembly forms where the processor has them
// (kernel_amd64.go), else the Go references.
var (
	cellForward  = cellForwardGo
	cellBackward = cellBackwardGo
)
