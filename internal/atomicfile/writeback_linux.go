package atomicfile

import (
	"os"

	"golang.org/x/sys/unix"
)

// startWriteback asks the kernel to start writing bytes [off, off+n) of f
// to the device, without waiting for it: the sync of Commit then waits only
// for what is still in flight. Errors are left to that sync to report.
func startWriteback(f *os.File, off, n int64) {
	unix.SyncFileRange(int(f.Fd()), off, n, unix.SYNC_FILE_RANGE_WRITE)
}
