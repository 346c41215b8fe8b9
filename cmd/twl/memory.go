package main

import (
	"errors"
	"fmt"
	"math"
	"os"
	"runtime/debug"

	"github.com/twl-ldl/twl/internal/fileerr"
	"github.com/twl-ldl/twl/internal/jsonscan"
)

// maxMemoryFlag defines --max-memory on fs for a command where it bounds
// reading as well as computing: the readers of its inputs take it as
// their limit (maxMemory), and the runtime's memory limit is set to it.
func (f *flags) maxMemoryFlag(def int64, usage string) *byteSize {
	b := byteSize(def)
	f.Var(&b, "max-memory", usage)
	f.readLimit = &b
	return &b
}

// minMemory is the least memory reading, and the runtime's limit, are
// given whatever --max-memory: below it, --max-memory bounds only the
// work it names (the process itself, code and runtime, takes about 10
// MiB).
const minMemory = 32 << 20

// maxMemory returns the limit of reading under the --max-memory of a
// command defined by maxMemoryFlag (at least minMemory), or 0 (no limit
// beyond the formats' own) for the others.
func (f *flags) maxMemory() int64 {
	if f.readLimit == nil {
		return 0
	}
	return max(int64(*f.readLimit), minMemory)
}

// lineLimit is the longest line of JSON Lines read under --max-memory n:
// a sixteenth of it, or of minMemory (the line is held, and the row
// parsed from it), at most jsonscan.MaxLine (64 MiB).
func lineLimit(n int64) int {
	return int(min(max(n, minMemory)/16, jsonscan.MaxLine))
}

// memErr adds --max-memory to an error of a reader refusing an input past
// it (fileerr.ErrTooLarge), so that the message says which limit.
func memErr(err error, n byteSize) error {
	if err != nil && errors.Is(err, fileerr.ErrTooLarge) {
		return fmt.Errorf("%w (under --max-memory %s)", err, n)
	}
	return err
}

// setMemoryLimit sets the runtime's memory limit to n bytes (--max-memory)
// unless GOMEMLIMIT is set, and returns the function that restores it: a
// run that needs more than it estimated collects garbage harder as it
// nears n (minMemory at least), instead of growing past it.
func setMemoryLimit(n int64) (restore func()) {
	if n <= 0 || os.Getenv("GOMEMLIMIT") != "" || debug.SetMemoryLimit(-1) != math.MaxInt64 {
		return func() {}
	}
	old := debug.SetMemoryLimit(max(n, minMemory))
	return func() { debug.SetMemoryLimit(old) }
}
