package main

import (
	"bytes"
	"embed"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/twl-ldl/twl/bench"
	"github.com/twl-ldl/twl/internal/atomicfile"
	"github.com/twl-ldl/twl/internal/human"
	"github.com/twl-ldl/twl/labeldist"
	"github.com/twl-ldl/twl/metric"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/tw"
)

// demoFiles are the demo's data: the tree of Figure 1 of the paper and a few
// predictions of the label "cat", with one target per prediction.
//
//go:embed demo/figure1.tree demo/predictions.jsonl demo/targets.jsonl
var demoFiles embed.FS

var demoNames = []string{"figure1.tree", "predictions.jsonl", "targets.jsonl"}

func runDemo(e *env, args []string) error {
	fs := newFlags("demo", "twl demo [flags]")
	dir := fs.OutDir("dir", "", "also write the demo's tree and distributions to `DIR`")
	labels := fs.Int("labels", 100000, "`L` labels in the random tree for the timing")
	pos, err := fs.parse(e, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return fs.fail("demo takes no arguments, got %q", pos)
	}
	if *labels < 1 || *labels > 1e7 {
		return fs.fail("--labels must be between 1 and 10^7")
	}
	// Links in an existing --dir could make two of its files one.
	files := fs.files()
	if *dir != "" {
		for _, name := range demoNames {
			files.Output("a file of --dir", filepath.Join(*dir, name))
		}
	}
	if err := fs.checkFiles(files); err != nil {
		return err
	}

	data := make(map[string][]byte)
	for _, name := range demoNames {
		b, err := demoFiles.ReadFile("demo/" + name)
		if err != nil {
			return err
		}
		data[name] = b
	}
	t, err := tree.Read(bytes.NewReader(data["figure1.tree"]), "figure1.tree", nil)
	if err != nil {
		return err
	}
	pred, err := labeldist.Read(bytes.NewReader(data["predictions.jsonl"]), "predictions.jsonl", t, nil)
	if err != nil {
		return err
	}
	truth, err := labeldist.Read(bytes.NewReader(data["targets.jsonl"]), "targets.jsonl", t, nil)
	if err != nil {
		return err
	}

	var out bytes.Buffer
	fmt.Fprintf(&out, "The label tree of Figure 1 of the paper (unit edge weights):\n\n")
	t.Draw(&out, "  ")
	fmt.Fprintf(&out, "\nThe truth is %q. How far from it is each prediction?\n\n", "cat")
	fmt.Fprintf(&out, "  %-40s %6s %16s %12s\n", "prediction", "TW", "total variation", "KL(truth‖p)")
	lines := strings.Split(string(data["predictions.jsonl"]), "\n")
	ws := tw.NewWorkspace(t)
	for r := range pred.Rows {
		p, q := pred.Row(r), truth.Row(r)
		fmt.Fprintf(&out, "  %-40s %6.4g %16.4g %12.4g\n",
			lines[pred.Lines[r]-1], ws.Distance(p, q), metric.TotalVariation(p, q), metric.KL(p, q))
	}
	fmt.Fprint(&out, `
TW charges for the distance the mass moves along the tree: "dog", a sibling
of "cat", is nearer than "snake", and "mammal" nearer still. Total variation
and KL see only that the mass sits on a wrong label.
`)

	// Timing at scale, on the same kernel the training losses use.
	L := *labels
	sec, v := bench.TimeDistanceGrad(L, 200*time.Millisecond)
	fmt.Fprintf(&out, "\nAt scale: TW and its gradient on a random tree of %d labels take %s\n"+
		"per call (one sweep up the tree, one down, labels numbered breadth-first;\n"+
		"TW = %.4g between two random distributions).\n", L, human.Seconds(sec), v)

	if *dir != "" {
		if err := os.MkdirAll(*dir, 0o755); err != nil {
			return err
		}
		for _, name := range demoNames {
			if err := atomicfile.WriteFile(filepath.Join(*dir, name), data[name], 0o644); err != nil {
				return err
			}
		}
		fmt.Fprintf(&out, "\nWrote %s to %s.\n", strings.Join(demoNames, ", "), *dir)
	}
	d := *dir
	if d == "" {
		d = "twl-demo"
	}
	fmt.Fprintf(&out, "\nTry next:\n")
	if *dir == "" {
		fmt.Fprintf(&out, "  twl demo --dir %s          # write this demo's files\n", d)
	}
	fmt.Fprintf(&out, "  twl distance --tree %[1]s/figure1.tree %[1]s/predictions.jsonl %[1]s/targets.jsonl\n", d)
	fmt.Fprintf(&out, "  twl distance --pairwise --tree %[1]s/figure1.tree %[1]s/predictions.jsonl %[1]s/predictions.jsonl\n", d)
	fmt.Fprintf(&out, "  twl bench tw --labels 1000,100000\n")
	fmt.Fprintf(&out, "  twl help\n")
	return e.output("", out.Bytes())
}
