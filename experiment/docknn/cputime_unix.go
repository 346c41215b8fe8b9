//go:build unix

package docknn

import (
	"time"

	"golang.org/x/sys/unix"
)

// processCPU returns the CPU time (user and system) used by the process so
// far, and whether there is such a clock.
func processCPU() (time.Duration, bool) {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
