package main

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/twl-ldl/twl/internal/jsonfloat"
	"github.com/twl-ldl/twl/labeldist"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/tw"
)

func runTransport(e *env, args []string) (err error) {
	fs := newFlags("transport", "twl transport --tree TREE [flags] A.jsonl B.jsonl")
	treePath := treeFlag(fs, "required")
	top := fs.Int("top", 0, "keep the `K` largest moves of each plan (0: all)")
	normalize := fs.Bool("normalize", false, "rescale every row to sum 1, instead of requiring it")
	out := fs.OutFile("out", "write the plans to `FILE`, all or nothing, instead of standard output")
	maxMemFlag := fs.maxMemoryFlag(4<<30, "refuse input that would take more than `SIZE` to read: the tree, and a line of A or B (a sixteenth of it, 64 MiB at most)")
	pos, err := fs.parse(e, args)
	if err != nil {
		return err
	}
	maxMem := *maxMemFlag
	defer func() { err = memErr(err, maxMem) }()
	if len(pos) != 2 {
		return fs.fail("want two files of distributions, A.jsonl B.jsonl; got %s", plural(len(pos), "argument"))
	}
	if pos[0] == "-" && pos[1] == "-" {
		return fs.fail("only one of A and B can be standard input ('-')")
	}
	if *treePath == "" {
		return fs.fail("--tree is required")
	}
	if *top < 0 {
		return fs.fail("--top must be 0 (all moves) or more, not %d", *top)
	}
	files := fs.files()
	files.Input("A", pos[0])
	files.Input("B", pos[1])
	inputTree(files, "--tree", *treePath)
	if err := fs.checkFiles(files); err != nil {
		return err
	}
	t, _, err := resolveTree(fs, *treePath, 0)
	if err != nil {
		return err
	}
	opts := &labeldist.Options{Normalize: *normalize, MaxLine: lineLimit(int64(maxMem))}
	A, B, ca, cb, err := rowReaders(e, pos[0], pos[1], t, opts)
	if err != nil {
		return err
	}
	defer ca.Close()
	defer cb.Close()
	w, err := e.create(*out)
	if err != nil {
		return err
	}
	defer w.Abort()
	var (
		ra, rb labeldist.Rows
		p      = tw.NewPlanner(t)
		plan   []tw.Move
		buf    []byte
	)
	prog := newProgress(e.stderr, "twl transport", "pairs")
	for {
		if err := e.stopped(); err != nil {
			return err
		}
		n, err := labeldist.FillPair(&ra, &rb, A, B, chunkRows, "transport pairs them line by line")
		if err != nil {
			return rowsErr(err)
		}
		for r := range n {
			ai, am := ra.Row(r)
			bi, bm := rb.Row(r)
			var cost float64
			plan, cost = p.SparsePlan(plan, ai, am, bi, bm)
			buf = appendPlan(buf, t, cost, plan, *top)
		}
		if _, err := w.Write(buf); err != nil {
			return err
		}
		buf = buf[:0]
		prog.tick(A.Rows())
		if n < chunkRows {
			break
		}
	}
	if A.Rows() == 0 {
		return fmt.Errorf("%s: no distributions (the file is empty or blank)", A.File())
	}
	prog.done(A.Rows())
	return w.Commit()
}

// appendPlan appends one line of JSON, {"cost": c, "plan": [{"from": x,
// "to": y, "mass": m}, …]}, the moves sorted by decreasing mass (then by
// the tree's order of from and to), the top largest if top > 0. plan is
// reordered.
func appendPlan(dst []byte, t *tree.Tree, cost float64, plan []tw.Move, top int) []byte {
	slices.SortFunc(plan, func(x, y tw.Move) int {
		if c := cmp.Compare(y.Mass, x.Mass); c != 0 {
			return c
		}
		if c := cmp.Compare(x.From, y.From); c != 0 {
			return c
		}
		return cmp.Compare(x.To, y.To)
	})
	if top > 0 && len(plan) > top {
		plan = plan[:top]
	}
	moves := []byte{'['}
	for k, m := range plan {
		if k > 0 {
			moves = append(moves, ',')
		}
		obj := jsonfloat.AppendObject(nil, "from", t.Name(int(m.From)), "to", t.Name(int(m.To)), "mass", m.Mass)
		moves = append(moves, obj[:len(obj)-1]...) // without its newline
	}
	moves = append(moves, ']')
	return jsonfloat.AppendObject(dst, "cost", cost, "plan", moves)
}
