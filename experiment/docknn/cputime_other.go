//go:build !unix

package docknn

import "time"

// processCPU reports that there is no CPU clock here: times are
// wall-clock.
func processCPU() (time.Duration, bool) { return 0, false }
