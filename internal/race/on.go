//go:build race

package race

// Enabled is true: the race detector is on.
const Enabled = true
