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
//	distance   tree-Wasserstein distances between label distributions (tw, emd, sinkhorn)
//	eval       score predicted label distributions against targets
//	train      fit a label-distribution model (KL, KL + λ·TW, KL + λ·Sinkhorn) to data
//	predict    predict label distributions with a trained model
//	cv         repeated k-fold cross-validation of training, every measure
//	bench      time the kernels (tw, emd, sinkhorn) at several sizes
//	synth      generate the paper's synthetic data set (Algorithm 1)
//	experiment reproduce the paper's experiments and tables as reports
//	text       labelled text for hierarchical multi-label classification (stats)
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
