//go:build !linux

package bench

import "os"

// peakRSS returns -1: the peak resident memory of a child is read only on
// Linux, where getrusage reports it in known units.
func peakRSS(*os.ProcessState) int64 { return -1 }
