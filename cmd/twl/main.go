// Command twl learns and measures label distributions with the
// tree-Wasserstein distance over a label hierarchy.
//
// Usage:
//
//	twl <command> [flags] [arguments]
//
// The commands are:
//
//	demo       a first run on built-in data: what TW measures, and how fast
//	distance   tree-Wasserstein distances between label distributions
//	bench      time the tree-Wasserstein kernels on random trees
//
// Run "twl help <command>" for a command's flags and examples.
//
// Trees are edge-list files (see package tree); distributions are JSON Lines
// files, one distribution per line (see package labeldist). Errors in input
// files are reported as "FILE:LINE: what is wrong". The exit status is 0 on
// success, 1 on an error and 2 on a mistake in the command line.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
