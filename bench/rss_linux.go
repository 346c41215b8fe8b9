package bench

import (
	"os"
	"syscall"
)

// peakRSS returns the peak resident memory of a finished child process in
// bytes, as the kernel accounts it (getrusage's ru_maxrss, in kilobytes on
// Linux).
func peakRSS(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss * 1024
	}
	return -1
}
