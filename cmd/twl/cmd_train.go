package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/twl-ldl/twl/internal/atomicfile"
	"github.com/twl-ldl/twl/ldl"
	"github.com/twl-ldl/twl/model"
)

func runTrain(e *env, args []string) error {
	fs := newFlags("train", "twl train --data DATA --tree TREE --out MODEL [flags]")
	tf := addTrainFlags(fs)
	out := fs.OutFile("out", "write the model to `FILE`, all or nothing (required)")
	checkpoint := fs.OutFile("checkpoint", "save training state to `FILE` after every epoch, and resume from it if it exists (the file stays after training)")
	checkpointEvery := fs.Int("checkpoint-every", 1, "with --checkpoint, save every `N` epochs (and after the last)")
	format := fs.String("format", "text", "summary `FORMAT`: text or json")
	pos, err := fs.parse(e, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return fs.fail("train takes no arguments; give the data with --data")
	}
	if err := tf.check(e, fs); err != nil {
		return err
	}
	switch {
	case *out == "":
		return fs.fail("--out is required")
	case *format != "text" && *format != "json":
		return fs.fail("--format must be text or json, not %q", *format)
	case *checkpointEvery < 1:
		return fs.fail("--checkpoint-every must be at least 1, not %d", *checkpointEvery)
	case fs.isSet("checkpoint-every") && *checkpoint == "":
		return fs.fail("--checkpoint-every applies only with --checkpoint")
	}

	files := fs.files()
	files.Input("--data", *tf.data)
	inputTrees(files, *tf.tree, *tf.trees)
	if err := fs.checkFiles(files); err != nil {
		return err
	}
	d, sliced, err := loadLDL(e, fs, *tf.data, *tf.tree, *tf.trees)
	if err != nil {
		return err
	}
	opts := tf.options(fs, sliced)
	if !*tf.quiet {
		opts.Progress = e.stderr
	}
	opts.Checkpoint, opts.CheckpointEvery = *checkpoint, *checkpointEvery
	f, h, err := ldl.Fit(e.ctx, d, &opts)
	if err != nil {
		if e.stopped() != nil && *checkpoint != "" {
			if _, serr := os.Stat(*checkpoint); serr == nil {
				fmt.Fprintf(e.stderr, "twl train: %s keeps the last complete epoch saved; run the same command again to resume\n", *checkpoint)
			}
		}
		return fitError(err, *tf.lr, *checkpoint)
	}
	var mb bytes.Buffer
	if err := model.Save(&mb, f); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(*out, mb.Bytes(), 0o644); err != nil {
		return err
	}
	var buf bytes.Buffer
	if *format == "json" {
		ldl.WriteFitJSON(&buf, *out, f)
	} else {
		ldl.WriteFitText(&buf, *out, f, h)
	}
	return e.output("", buf.Bytes())
}
