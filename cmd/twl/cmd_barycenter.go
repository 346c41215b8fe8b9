package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/twl-ldl/twl/barycenter"
	"github.com/twl-ldl/twl/internal/jsonfloat"
	"github.com/twl-ldl/twl/labeldist"
)

func runBarycenter(e *env, args []string) (err error) {
	fs := newFlags("barycenter", "twl barycenter --tree TREE --out B.jsonl [flags] D.jsonl")
	treePath := treeFlag(fs, "required")
	weightList := fs.String("weights", "", "the weights `W1,W2,…` of the distributions, one per row of D.jsonl, non-negative (default: equal)")
	leaves := fs.Bool("leaves", false, "put the barycenter's mass on the tree's leaves only")
	normalize := fs.Bool("normalize", false, "rescale every row to sum 1, instead of requiring it")
	out := fs.OutFile("out", "write the barycenter to `FILE`, one JSON Lines row, all or nothing (required; '-' for standard output)")
	maxMemFlag := fs.maxMemoryFlag(4<<30, "refuse input that would take more than `SIZE`: the tree, a line of D (a sixteenth of it, 64 MiB at most), and all of D, held in memory")
	pos, err := fs.parse(e, args)
	if err != nil {
		return err
	}
	maxMem := *maxMemFlag
	defer func() { err = memErr(err, maxMem) }()
	if len(pos) != 1 {
		return fs.fail("want one file of distributions, D.jsonl; got %s", plural(len(pos), "argument"))
	}
	if *treePath == "" {
		return fs.fail("--tree is required")
	}
	if *out == "" {
		return fs.fail("--out is required: the file the barycenter is written to ('-' for standard output)")
	}
	var weights []float64
	if fs.isSet("weights") {
		if weights, err = parseWeights(fs, *weightList); err != nil {
			return err
		}
	}
	files := fs.files()
	files.Input("D", pos[0])
	inputTree(files, "--tree", *treePath)
	if err := fs.checkFiles(files); err != nil {
		return err
	}
	t, _, err := resolveTree(fs, *treePath, 0)
	if err != nil {
		return err
	}
	D, cd, err := rowReader(e, pos[0], t, &labeldist.Options{Normalize: *normalize, MaxLine: lineLimit(int64(maxMem))})
	if err != nil {
		return err
	}
	defer cd.Close()
	var rows labeldist.Rows
	for {
		if err := e.stopped(); err != nil {
			return err
		}
		n, err := rows.Fill(D, chunkRows)
		if err != nil {
			return rowsErr(err)
		}
		if rows.Bytes() > int64(maxMem) {
			// D is held sparsely: 16 bytes per listed label and per row.
			return fmt.Errorf("%s: the barycenter holds all of %s in memory, %s after %s, more than --max-memory %s",
				D.At(), D.File(), formatBytes(float64(rows.Bytes())), plural(D.Rows(), "distribution"), maxMem)
		}
		if n < chunkRows {
			break
		}
	}
	if rows.Rows() == 0 {
		return fmt.Errorf("%s: no distributions (the file is empty or blank)", D.File())
	}
	if weights != nil && len(weights) != rows.Rows() {
		return fmt.Errorf("%s has %s, --weights gives %s", D.File(), plural(rows.Rows(), "distribution"), plural(len(weights), "weight"))
	}
	w, err := e.create(*out)
	if err != nil {
		return err
	}
	defer w.Abort()
	nu := make([]float64, t.Len())
	obj, err := barycenter.New(t).Solve(nu, &rows, weights, &barycenter.Options{Leaves: *leaves})
	if err != nil {
		return err
	}
	line, err := labeldist.AppendFormat(nil, t, nu)
	if err != nil {
		return err
	}
	if _, err := w.Write(append(line, '\n')); err != nil {
		return err
	}
	if err := w.Commit(); err != nil {
		return err
	}
	report := e.stdout
	if *out == "-" {
		report = e.stderr
	}
	_, err = fmt.Fprintf(report, "%s\n", jsonfloat.AppendShortest(nil, obj))
	return err
}

// parseWeights reads the comma-separated weights of --weights: finite,
// non-negative numbers, not all zero.
func parseWeights(fs *flags, list string) ([]float64, error) {
	var w []float64
	var total float64
	for i, f := range strings.Split(list, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || !(v >= 0) || math.IsInf(v, 1) {
			return nil, fs.fail("--weights: weight %d, %q, is not a finite non-negative number", i+1, f)
		}
		w = append(w, v)
		total += v
	}
	if total == 0 {
		return nil, fs.fail("--weights are all zero")
	}
	return w, nil
}
