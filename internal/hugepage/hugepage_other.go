//go:build !linux

package hugepage

// Advise does nothing on this system.
func Advise(b []byte) {}

// Reserve does nothing on this system.
func Reserve(n int) {}
