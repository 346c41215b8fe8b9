//go:build !linux

package atomicfile

import "os"

// startWriteback does nothing where the kernel has no sync_file_range: the
// sync of Commit writes everything.
func startWriteback(f *os.File, off, n int64) {}
