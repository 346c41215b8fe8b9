// Command twl learns and measures label distributions with the
// tree-Wasserstein distance over a label hierarchy.
//
// Usage:
//
//	twl <command> [flags] [arguments]
//
// The commands are (twl help lists them with their subcommands):
//
//	demo       a first run on built-in data: what TW measures, and how fast
//	distance   distances between label distributions (tw, emd, sinkhorn; tsw over --trees)
//	eval       score predicted label distributions against targets or label sets
//	train      fit a label-distribution model (KL, KL + λ·TW, KL + λ·Sinkhorn, KL + λ·TSW)
//	predict    predict label distributions with a trained model
//	cv         repeated k-fold cross-validation of training, every measure
//	bench      time the kernels and commands at several sizes
//	synth      generate the paper's synthetic data set (Algorithm 1)
//	experiment reproduce the paper's experiments and the evidence for trees from points
//	text       labelled text: text stats, text train, text predict
//	tree       label trees built from points: tree build
//	unifrac    UniFrac between all pairs of samples on a phylogeny; unifrac merge
//	permanova  PERMANOVA on a distance matrix: pseudo-F, permutation p-value
//
// Run "twl help <command>" for a command's flags and examples. A command's
// description and examples are the text of help/NAME.txt beside this file.
//
// Trees are edge-list files (see package tree); distributions are JSON Lines
// files, one distribution per line (see package labeldist). Errors in input
// files are reported as "FILE:LINE: what is wrong". The exit status is 0 on
// success, 1 on an error and 2 on a mistake in the command line.
//
// SIGINT (Ctrl-C) or SIGTERM asks a command to stop: it stops at the next
// mini-batch, chunk of rows, fold or case, removes its temporary files,
// keeps the last complete checkpoint, and exits with status 130 (SIGINT) or
// 143 (SIGTERM).
// Outputs are written all or nothing, so none is left half-written. A
// second signal, or a command still busy 5 s after the first (one waiting
// for input from a pipe, say), stops at once, removing the temporary files.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/twl-ldl/twl/internal/atomicfile"
)

// stopGrace is how long a command has to stop by itself after a signal.
const stopGrace = 5 * time.Second

func main() {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		s := <-sigs
		cancel(&stopSignal{s})
		// A second signal, or a command still busy after stopGrace (one
		// blocked reading a pipe or a terminal, or inside a long step),
		// stops at once: the temporary files go, the destinations and the
		// last complete checkpoint stay as they were.
		why := "by a second " + signalName(s)
		select {
		case s2 := <-sigs:
			s, why = s2, "by a second "+signalName(s2)
		case <-time.After(stopGrace):
			why = fmt.Sprintf("%s after %s, still busy", stopGrace, signalName(s))
		}
		atomicfile.RemoveTemps()
		fmt.Fprintf(os.Stderr, "twl: stopped at once, %s; no file is left half-written\n", why)
		os.Exit(signalStatus(s))
	}()
	os.Exit(runContext(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
