// Package race reports whether the program was built with the race
// detector (go test -race), under which code runs several times slower
// and in more memory. Tests use it to shrink their largest inputs there:
// the race detector looks for unsynchronised memory accesses, which the
// smaller inputs exercise as well, while the full sizes run without it.
package race
