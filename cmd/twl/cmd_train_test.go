package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/twl-ldl/twl/ldl"
	"github.com/twl-ldl/twl/model"
)

// ldlTree is the label tree of the synthetic data: a root with two
// children, all three nodes labels.
const ldlTree = "a\tb\na\tc\n"

// ldlRows returns n lines of synthetic JSON Lines data with d features:
// x is random, with feature scales and offsets far from 0 and 1 (so that
// standardization matters), and y = softmax(A·x + c) for a fixed A, c.
func ldlRows(n, d int, seed uint64) string {
	rng := rand.New(rand.NewPCG(seed, 7))
	var b strings.Builder
	for range n {
		x := make([]float64, d)
		z := []float64{0.2, -0.1, 0}
		for k := range x {
			x[k] = 10*float64(k+1) + float64(k+1)*rng.NormFloat64()
			u := (x[k] - 10*float64(k+1)) / float64(k+1)
			z[0] += 0.8 * u
			z[1] -= 0.5 * u * float64(k%2*2-1)
		}
		var s float64
		for _, v := range z {
			s += math.Exp(v)
		}
		xs, _ := json.Marshal(x)
		fmt.Fprintf(&b, `{"x": %s, "y": {"a": %s, "b": %s, "c": %s}}`+"\n", xs,
			strconv.FormatFloat(math.Exp(z[0])/s, 'g', -1, 64),
			strconv.FormatFloat(math.Exp(z[1])/s, 'g', -1, 64),
			strconv.FormatFloat(math.Exp(z[2])/s, 'g', -1, 64))
	}
	return b.String()
}

// ldlDir writes the synthetic tree (t.tree) and data set (d.jsonl, 30 rows
// of 2 features) into a temporary directory.
func ldlDir(t *testing.T) string {
	return write(t, map[string]string{"t.tree": ldlTree, "d.jsonl": ldlRows(30, 2, 1)})
}

// quick are training flags that keep the tests fast.
var quick = []string{"--epochs", "8", "--batch", "4", "--quiet"}

func loadModelFile(t *testing.T, path string) *model.File {
	t.Helper()
	r, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	f, err := model.Load(r, path)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func TestTrainModelFile(t *testing.T) {
	dir := ldlDir(t)
	out := filepath.Join(dir, "m.model")
	code, stdout, stderr := twl(t, "", append([]string{"train", "--data", filepath.Join(dir, "d.jsonl"),
		"--tree", filepath.Join(dir, "t.tree"), "--loss", "kl+tw", "--lambda", "0.5", "--out", out}, quick...)...)
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if !strings.HasPrefix(stdout, "wrote "+out+": softmax-linear, 2 features → 3 labels, loss kl+0.5·tw\n8 epochs on 30 rows") {
		t.Errorf("summary %q", stdout)
	}
	f := loadModelFile(t, out)
	if f.In != 2 || strings.Join(f.Labels, ",") != "a,b,c" || f.Loss != "kl+0.5·tw" || f.Tree.Source != filepath.Join(dir, "t.tree") {
		t.Errorf("model %+v", f)
	}
	// The tree's hash is that of its canonical edge list, every weight
	// written.
	if sum := sha256.Sum256([]byte("a\tb\t1\na\tc\t1\n")); f.Tree.SHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("tree hash %s", f.Tree.SHA256)
	}
	tr := f.Train
	if tr == nil || tr.Rows != 30 || tr.Epochs != 8 || tr.EpochsRun != 8 || tr.BestEpoch != 8 || tr.Batch != 4 ||
		tr.LR != ldl.DefaultLR || tr.WeightDecay != ldl.DefaultWeightDecay || tr.Seed != 1 || tr.ValLoss != nil {
		t.Errorf("train record %+v", tr)
	}

	// The standardization is the mean and population standard deviation
	// of the training features, computed here from the data file.
	X := readFeatures(t, filepath.Join(dir, "d.jsonl"))
	for k := range 2 {
		var m, v float64
		for _, x := range X {
			m += x[k]
		}
		m /= float64(len(X))
		for _, x := range X {
			v += (x[k] - m) * (x[k] - m)
		}
		s := math.Sqrt(v / float64(len(X)))
		if math.Abs(f.Standardize.Mean[k]-m) > 1e-12*math.Abs(m) || math.Abs(f.Standardize.Scale[k]-s) > 1e-12*s {
			t.Errorf("feature %d: standardization %v, %v; want %v, %v", k, f.Standardize.Mean[k], f.Standardize.Scale[k], m, s)
		}
	}

	// Same command, same model, bit for bit.
	out2 := filepath.Join(dir, "m2.model")
	twl(t, "", append([]string{"train", "--data", filepath.Join(dir, "d.jsonl"),
		"--tree", filepath.Join(dir, "t.tree"), "--loss", "kl+tw", "--lambda", "0.5", "--out", out2}, quick...)...)
	g := loadModelFile(t, out2)
	if fmt.Sprint(f.W, f.B) != fmt.Sprint(g.W, g.B) || !sameFloats(f.W, g.W) {
		t.Errorf("two runs differ")
	}
	// Another seed, another model.
	twl(t, "", append([]string{"train", "--data", filepath.Join(dir, "d.jsonl"),
		"--tree", filepath.Join(dir, "t.tree"), "--seed", "2", "--out", out2}, quick...)...)
	if g := loadModelFile(t, out2); sameFloats(f.W, g.W) {
		t.Errorf("--seed 2 gives the same model")
	}
}

func sameFloats(a, b [][]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if len(a[i]) != len(b[i]) {
			return false
		}
		for j := range a[i] {
			if math.Float64bits(a[i][j]) != math.Float64bits(b[i][j]) {
				return false
			}
		}
	}
	return true
}

// readFeatures reads the "x" of every line of a JSON Lines file with
// encoding/json.
func readFeatures(t *testing.T, path string) [][]float64 {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var X [][]float64
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var row struct{ X []float64 }
		if err := json.Unmarshal([]byte(line), &row); err != nil {
			t.Fatal(err)
		}
		X = append(X, row.X)
	}
	return X
}

func TestTrainJSONAndValidation(t *testing.T) {
	dir := ldlDir(t)
	out := filepath.Join(dir, "m.model")
	code, stdout, stderr := twl(t, "", "train", "--data", filepath.Join(dir, "d.jsonl"), "--tree", filepath.Join(dir, "t.tree"),
		"--val", "0.2", "--patience", "2", "--epochs", "400", "--lr", "0.05", "--format", "json", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var sum map[string]any
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil || strings.Count(stdout, "\n") != 1 {
		t.Fatalf("summary %q: %v", stdout, err)
	}
	for _, k := range []string{"model", "in", "labels", "loss", "rows", "val_rows", "epochs_run", "best_epoch",
		"stopped_early", "resumed_from", "train_loss", "val_loss", "seconds"} {
		if _, ok := sum[k]; !ok {
			t.Errorf("summary lacks %q: %s", k, stdout)
		}
	}
	if sum["rows"] != 24.0 || sum["val_rows"] != 6.0 {
		t.Errorf("rows %v + %v, want 24 + 6", sum["rows"], sum["val_rows"])
	}
	// Progress: one line per epoch on stderr, the best epochs starred.
	if !strings.HasPrefix(stderr, "epoch 1/400  loss ") || !strings.Contains(stderr, " val ") || !strings.Contains(stderr, " *") {
		t.Errorf("progress %q", stderr)
	}
	f := loadModelFile(t, out)
	if f.Train.ValRows != 6 || f.Train.ValLoss == nil || f.Train.BestEpoch < 1 || f.Train.BestEpoch > f.Train.EpochsRun {
		t.Errorf("train record %+v", f.Train)
	}
	if sum["stopped_early"] == true && f.Train.EpochsRun >= 400 {
		t.Errorf("stopped early after all epochs")
	}
}

// TestTrainCheckpoint trains 3 epochs with a checkpoint, then asks for 6:
// the second run resumes after epoch 3 and gives the model of an
// uninterrupted 6-epoch run, bit for bit.
func TestTrainCheckpoint(t *testing.T) {
	dir := ldlDir(t)
	args := func(epochs, out, ck string) []string {
		a := []string{"train", "--data", filepath.Join(dir, "d.jsonl"), "--tree", filepath.Join(dir, "t.tree"),
			"--loss", "kl+tw", "--batch", "4", "--epochs", epochs, "--quiet", "--out", filepath.Join(dir, out)}
		if ck != "" {
			a = append(a, "--checkpoint", filepath.Join(dir, ck))
		}
		return a
	}
	if code, _, stderr := twl(t, "", args("6", "full.model", "")...); code != 0 {
		t.Fatal(stderr)
	}
	if code, _, stderr := twl(t, "", args("3", "part.model", "run.ckpt")...); code != 0 || !exists(filepath.Join(dir, "run.ckpt")) {
		t.Fatalf("exit %d, %s", code, stderr)
	}
	code, stdout, stderr := twl(t, "", args("6", "resumed.model", "run.ckpt")...)
	if code != 0 || !strings.Contains(stdout, "(resumed after epoch 3)") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	full, resumed := loadModelFile(t, filepath.Join(dir, "full.model")), loadModelFile(t, filepath.Join(dir, "resumed.model"))
	if !sameFloats(full.W, resumed.W) || !sameFloats([][]float64{full.B}, [][]float64{resumed.B}) {
		t.Errorf("resumed model differs from the uninterrupted one")
	}
	if resumed.Train.Resumed != 3 || resumed.Train.EpochsRun != 6 {
		t.Errorf("train record %+v", resumed.Train)
	}
	// A checkpoint of another run is refused, and nothing is written.
	code, _, stderr = twl(t, "", append(args("6", "other.model", "run.ckpt"), "--lr", "0.5")...)
	if code != 1 || !strings.Contains(stderr, "run.ckpt: checkpoint belongs to another run") || exists(filepath.Join(dir, "other.model")) {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// TestTrainBadInput checks that bad data is an error naming the file and
// line, with exit status 1, and that no model is written.
func TestTrainBadInput(t *testing.T) {
	good := ldlRows(3, 2, 1)
	lines := strings.SplitAfter(good, "\n")
	for _, tc := range []struct {
		name, data, msg string
	}{
		{"wrong dimension", lines[0] + lines[1] + `{"x": [1, 2, 3], "y": {"a": 1}}` + "\n", "d.jsonl:3: wrong dimension: 3 features, want 2 as on line 1"},
		{"unknown label", lines[0] + `{"x": [1, 2], "y": {"zebra": 1}}` + "\n", `d.jsonl:2: unknown label: "zebra"`},
		{"NaN feature", `{"x": [NaN, 2], "y": {"a": 1}}` + "\n", "d.jsonl:1: syntax error"},
		{"huge feature", lines[0] + `{"x": [1e999, 2], "y": {"a": 1}}` + "\n", "d.jsonl:2: non-finite value"},
		{"negative mass", `{"x": [1, 2], "y": {"a": -1, "b": 2}}` + "\n", "d.jsonl:1: negative mass"},
		{"zero row", `{"x": [1, 2], "y": {}}` + "\n", "d.jsonl:1: all masses are zero"},
		{"not JSON", "x,y\n", "d.jsonl:1: syntax error"},
		{"empty", "", "d.jsonl: no samples"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := write(t, map[string]string{"t.tree": ldlTree, "d.jsonl": tc.data})
			out := filepath.Join(dir, "m.model")
			code, stdout, stderr := twl(t, "", append([]string{"train", "--data", filepath.Join(dir, "d.jsonl"),
				"--tree", filepath.Join(dir, "t.tree"), "--out", out}, quick...)...)
			if code != 1 || stdout != "" || !strings.Contains(stderr, tc.msg) || exists(out) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 1 and %q, no model", code, stdout, stderr, tc.msg)
			}
		})
	}
	// A bad tree file: FILE:LINE of the tree.
	dir := write(t, map[string]string{"t.tree": "a\tb\nb\ta\n", "d.jsonl": good})
	code, _, stderr := twl(t, "", "train", "--data", filepath.Join(dir, "d.jsonl"), "--tree", filepath.Join(dir, "t.tree"), "--out", filepath.Join(dir, "m"))
	if code != 1 || !fileLine.MatchString(stderr) || !strings.Contains(stderr, "t.tree:") {
		t.Errorf("bad tree: exit %d, stderr %q", code, stderr)
	}
	// An output directory that does not exist: an error before training.
	code, _, stderr = twl(t, "", "train", "--data", filepath.Join(dir, "d.jsonl"), "--tree", filepath.Join(dir, "t.tree"), "--out", filepath.Join(dir, "no", "m"))
	if code != 1 || !strings.Contains(stderr, "cannot write "+filepath.Join(dir, "no", "m")) {
		t.Errorf("missing directory: exit %d, stderr %q", code, stderr)
	}
	// A missing data file.
	os.WriteFile(filepath.Join(dir, "t.tree"), []byte(ldlTree), 0o644)
	code, _, stderr = twl(t, "", "train", "--data", filepath.Join(dir, "nope.jsonl"), "--tree", filepath.Join(dir, "t.tree"), "--out", filepath.Join(dir, "m"))
	if code != 1 || !strings.Contains(stderr, "nope.jsonl") {
		t.Errorf("missing data: exit %d, stderr %q", code, stderr)
	}
	// A directory as the data or the tree, in each form of either, for
	// train and cv: named as a directory, not read as a file.
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o755)
	os.Mkdir(filepath.Join(dir, "x.mat"), 0o755)
	for _, tc := range []struct{ data, tree, bad string }{
		{sub, filepath.Join(dir, "t.tree"), sub},
		{filepath.Join(dir, "x.mat"), "star", filepath.Join(dir, "x.mat")},
		{filepath.Join(dir, "d.jsonl"), sub, sub},
		{filepath.Join(dir, "d.jsonl"), "taxonomy:" + sub, sub},
		{filepath.Join(dir, "d.jsonl"), "edges:" + sub, sub},
	} {
		for _, cmd := range [][]string{{"train", "--out", filepath.Join(dir, "m")}, {"cv"}} {
			code, out, stderr := twl(t, "", append(cmd, "--data", tc.data, "--tree", tc.tree)...)
			if code != 1 || out != "" || stderr != "twl: "+tc.bad+": is a directory, not a file\n" {
				t.Errorf("%s --data %s --tree %s: exit %d, stderr %q", cmd[0], tc.data, tc.tree, code, stderr)
			}
		}
	}
}

// TestTrainRescaledWarning: label rows that do not sum to 1 are rescaled,
// with a warning naming the first.
func TestTrainRescaledWarning(t *testing.T) {
	dir := write(t, map[string]string{"t.tree": ldlTree,
		"d.jsonl": `{"x": [1, 2], "y": {"a": 2, "b": 2}}` + "\n" + `{"x": [2, 1], "y": {"a": 1}}` + "\n"})
	out := filepath.Join(dir, "m.model")
	code, _, stderr := twl(t, "", append([]string{"train", "--data", filepath.Join(dir, "d.jsonl"),
		"--tree", filepath.Join(dir, "t.tree"), "--out", out}, quick...)...)
	if code != 0 || !strings.Contains(stderr, "d.jsonl:1: 1 of 2 label rows did not sum to 1") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// TestTrainValWarning: a validation split larger than the training split is
// allowed, with a warning; a usual one gets none.
func TestTrainValWarning(t *testing.T) {
	dir := ldlDir(t)
	for _, tc := range []struct {
		val  string
		warn bool
	}{{"0.9", true}, {"0.2", false}} {
		code, _, stderr := twl(t, "", append([]string{"train", "--data", filepath.Join(dir, "d.jsonl"),
			"--tree", filepath.Join(dir, "t.tree"), "--out", filepath.Join(dir, "m.model"), "--val", tc.val}, quick...)...)
		if code != 0 || strings.Contains(stderr, "warning: --val "+tc.val+" holds out more rows") != tc.warn {
			t.Errorf("--val %s: exit %d, stderr %q; want a warning: %v", tc.val, code, stderr, tc.warn)
		}
	}
}

func TestTrainUsage(t *testing.T) {
	dir := ldlDir(t)
	d, tr := filepath.Join(dir, "d.jsonl"), filepath.Join(dir, "t.tree")
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--tree", tr, "--out", "m"}, "--data is required"},
		{[]string{"--data", d, "--out", "m"}, "--tree is required"},
		{[]string{"--data", d, "--tree", tr}, "--out is required"},
		{[]string{"--data", d, "--tree", tr, "--out", "m", "--loss", "mse"}, `--loss must be kl, kl+tw, kl+sinkhorn or kl+tsw, with an optional weight such as kl+0.5tw, not "mse"`},
		{[]string{"--data", d, "--tree", tr, "--out", "m", "--lambda", "-1"}, "--lambda must be"},
		{[]string{"--data", d, "--tree", tr, "--out", "m", "--epochs", "0"}, "--epochs must be at least 1"},
		{[]string{"--data", d, "--tree", tr, "--out", "m", "--lr", "NaN"}, "--lr must be"},
		{[]string{"--data", d, "--tree", tr, "--out", "m", "--val", "1"}, "--val must be a fraction"},
		{[]string{"--data", d, "--tree", tr, "--out", "m", "--patience", "3"}, "--patience needs a validation split"},
		{[]string{"--data", d, "--tree", tr, "--out", "m", "--checkpoint", "m"}, "--out m would overwrite --checkpoint m"},
		{[]string{"--data", d, "--tree", "chain", "--out", "m"}, "--tree chain needs the number of labels"},
		{[]string{"--data", d, "--tree", "star:x", "--out", "m"}, "want star:N"},
		{[]string{"--data", d, "--tree", tr, "--out", "m", "extra"}, "train takes no arguments"},
		{[]string{"--data", d, "--tree", tr, "--out", "m", "--checkpoint-every", "2"}, "--checkpoint-every applies only with --checkpoint"},
		{[]string{"--data", d, "--tree", tr, "--out", "m", "--checkpoint-every", "1"}, "--checkpoint-every applies only with --checkpoint"},
		{[]string{"--data", d, "--tree", tr, "--out", "m", "--lambda", "2"}, "--lambda applies only with --loss kl+tw, kl+sinkhorn or kl+tsw"},
		{[]string{"--data", d, "--tree", tr, "--out", "m", "--loss", "kl+tw", "--reg", "10"}, "--reg applies only with --loss kl+sinkhorn"},
		{[]string{"--data", d, "--tree", tr, "--out", "m", "--iters", "5"}, "--iters applies only with --loss kl+sinkhorn"},
	} {
		code, stdout, stderr := twl(t, "", append([]string{"train"}, tc.args...)...)
		if code != 2 || stdout != "" || !strings.Contains(stderr, tc.msg) || !strings.Contains(stderr, "--help'\n") {
			t.Errorf("twl train %q: exit %d, stderr %q; want exit 2 and %q", tc.args, code, stderr, tc.msg)
		}
	}
}

// TestTrainChainStar trains on JSON Lines whose labels are named 0 … N−1
// with --tree chain:N and star:N, and with kl+sinkhorn.
func TestTrainChainStar(t *testing.T) {
	var b bytes.Buffer
	for i := range 12 {
		fmt.Fprintf(&b, `{"x": [%d, %d], "y": {"%d": 0.75, "%d": 0.25}}`+"\n", i, i*i%5, i%4, (i+1)%4)
	}
	dir := write(t, map[string]string{"d.jsonl": b.String()})
	for _, tc := range []struct{ tree, loss, source string }{
		{"chain:4", "kl+tw", "chain:4"}, {"star:4", "kl+sinkhorn", "star:4"}, {"chain:4", "kl+sinkhorn", "chain:4"},
	} {
		out := filepath.Join(dir, "m.model")
		code, _, stderr := twl(t, "", append([]string{"train", "--data", filepath.Join(dir, "d.jsonl"),
			"--tree", tc.tree, "--loss", tc.loss, "--out", out}, quick...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d, %s", tc, code, stderr)
		}
		f := loadModelFile(t, out)
		if f.Tree.Source != tc.source || len(f.Labels) != 4 || !strings.HasPrefix(f.Loss, "kl+1·") {
			t.Errorf("%v: model %+v", tc, f)
		}
		if tc.loss == "kl+sinkhorn" && (f.Train.SinkhornReg != ldl.DefaultSinkhornReg || f.Train.Iters != ldl.DefaultIters) {
			t.Errorf("%v: train record %+v", tc, f.Train)
		}
	}
	// A label outside 0 … N−1.
	code, _, stderr := twl(t, "", "train", "--data", filepath.Join(dir, "d.jsonl"), "--tree", "chain:3", "--out", filepath.Join(dir, "x"))
	if code != 1 || !strings.Contains(stderr, `d.jsonl:3: unknown label: "3"`) {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// cancelAfter is a standard error that cancels a run, as SIGINT does, once
// a progress line starts with prefix.
type cancelAfter struct {
	prefix string
	cancel context.CancelCauseFunc
	buf    bytes.Buffer
}

func (w *cancelAfter) Write(p []byte) (int, error) {
	w.buf.Write(p)
	if bytes.Contains(w.buf.Bytes(), []byte("\n"+w.prefix)) || bytes.HasPrefix(w.buf.Bytes(), []byte(w.prefix)) {
		w.cancel(&stopSignal{syscall.SIGINT})
	}
	return len(p), nil
}

// TestTrainStopAndResume stops training after epoch 3 with checkpoints
// every 2 epochs: exit status 130, no model, no temporary file, and the
// checkpoint of epoch 2, from which the same command resumes and gives the
// model of an uninterrupted run, bit for bit.
func TestTrainStopAndResume(t *testing.T) {
	dir := ldlDir(t)
	p := func(name string) string { return filepath.Join(dir, name) }
	args := func(out string, ck ...string) []string {
		a := []string{"train", "--data", p("d.jsonl"), "--tree", p("t.tree"), "--epochs", "6", "--batch", "4", "--out", p(out)}
		if len(ck) > 0 {
			a = append(a, "--checkpoint", p(ck[0]), "--checkpoint-every", "2")
		}
		return a
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	stderr := &cancelAfter{prefix: "epoch 3/", cancel: cancel}
	var stdout bytes.Buffer
	code := runContext(ctx, args("m", "ck"), strings.NewReader(""), &stdout, stderr)
	if code != 130 || exists(p("m")) || stdout.Len() != 0 ||
		!strings.Contains(stderr.buf.String(), p("ck")+" keeps the last complete epoch saved; run the same command again to resume") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.buf.String())
	}
	if names := dirNames(t, dir); strings.Join(names, " ") != "ck d.jsonl t.tree" {
		t.Errorf("after the stop the folder holds %q", names)
	}
	var ck struct{ Epoch int }
	if data, err := os.ReadFile(p("ck")); err != nil || json.Unmarshal(data, &ck) != nil || ck.Epoch != 2 {
		t.Errorf("checkpoint of epoch %d (%v), want 2", ck.Epoch, err)
	}
	code, out, errOut := twl(t, "", append(args("m", "ck"), "--quiet")...)
	if code != 0 || !strings.Contains(out, "(resumed after epoch 2)") {
		t.Fatalf("resuming: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if code, _, errOut := twl(t, "", append(args("full"), "--quiet")...); code != 0 {
		t.Fatal(errOut)
	}
	if a, b := loadModelFile(t, p("m")), loadModelFile(t, p("full")); !sameFloats(a.W, b.W) {
		t.Error("the resumed model differs from the uninterrupted one")
	}
	// The checkpoint stays after training.
	if !exists(p("ck")) {
		t.Error("the checkpoint is gone after training")
	}
}

// TestTrainDiverged: a learning rate far too large makes the loss explode
// while staying finite; that is an error naming --lr, and no model.
func TestTrainDiverged(t *testing.T) {
	dir := ldlDir(t)
	for _, cmd := range []string{"train", "cv"} {
		args := append([]string{cmd, "--data", filepath.Join(dir, "d.jsonl"), "--tree", filepath.Join(dir, "t.tree"), "--lr", "1e10"}, quick...)
		if cmd == "train" {
			args = append(args, "--out", filepath.Join(dir, "m"))
		} else {
			args = append(args, "--folds", "2", "--repeats", "1")
		}
		code, out, errOut := twl(t, "", args...)
		if code != 1 || out != "" || !strings.Contains(errOut, "training diverged: the training loss is ") ||
			!strings.Contains(errOut, "times the") || !strings.Contains(errOut, "try a smaller --lr (now 1e+10)") || exists(filepath.Join(dir, "m")) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", cmd, code, out, errOut)
		}
	}

	// The run stops at the first epoch whose loss is that far off (epoch 1
	// here, with 8 steps of 1e10), not after all 50: one progress line.
	for _, val := range []string{"0", "0.2"} {
		code, out, errOut := twl(t, "", "train", "--data", filepath.Join(dir, "d.jsonl"), "--tree", filepath.Join(dir, "t.tree"),
			"--lr", "1e10", "--epochs", "50", "--batch", "4", "--val", val, "--out", filepath.Join(dir, "m"))
		if code != 1 || out != "" || strings.Count(errOut, "epoch ") != 2 || !strings.HasPrefix(errOut, "epoch 1/50  loss ") ||
			!strings.Contains(errOut, "twl: train: epoch 1: training diverged: the training loss is ") || exists(filepath.Join(dir, "m")) {
			t.Errorf("--val %s: exit %d, stdout %q, stderr %q", val, code, out, errOut)
		}
	}
}

// TestTrainDivergedCheckpoint: the epoch that diverges is not saved; the
// checkpoint keeps the last epoch that did not.
func TestTrainDivergedCheckpoint(t *testing.T) {
	dir := ldlDir(t)
	p := func(name string) string { return filepath.Join(dir, name) }
	args := []string{"train", "--data", p("d.jsonl"), "--tree", p("t.tree"), "--epochs", "50", "--batch", "4",
		"--checkpoint", p("ck"), "--out", p("m"), "--quiet"}
	code, _, errOut := twl(t, "", append(args, "--lr", "1e10")...)
	if code != 1 || exists(p("ck")) || exists(p("m")) || !strings.Contains(errOut, "after removing the checkpoint "+p("ck")) {
		t.Errorf("exit %d, checkpoint written %v, stderr %q", code, exists(p("ck")), errOut)
	}
	// A sound run is unaffected.
	if code, out, errOut := twl(t, "", append(args, "--epochs", "3")...); code != 0 || !strings.Contains(out, "3 epochs on 30 rows") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestTrainMATByHeader: a MAT-file is recognized by its header whatever its
// name; a JSON Lines file is not taken for one.
func TestTrainMATByHeader(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "matfile", "testdata", "tiny_le.mat"))
	if err != nil {
		t.Fatal(err)
	}
	dir := write(t, map[string]string{"data.bin": string(raw), "d.dat": ldlRows(3, 2, 1), "v73": v73Header()})
	for name, want := range map[string]bool{"data.bin": true, "v73": true, "d.dat": false, "missing": false} {
		if got := ldl.IsMAT(filepath.Join(dir, name)); got != want {
			t.Errorf("isMAT(%s) = %v", name, got)
		}
	}
	// Read as a MAT-file: its variables are not those of a data set.
	code, _, errOut := twl(t, "", "train", "--data", filepath.Join(dir, "data.bin"), "--tree", "star", "--out", filepath.Join(dir, "m"))
	if code != 1 || !strings.Contains(errOut, `"features"`) {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	code, _, errOut = twl(t, "", "train", "--data", filepath.Join(dir, "v73"), "--tree", "star", "--out", filepath.Join(dir, "m"))
	if code != 1 || !strings.Contains(errOut, "HDF5") {
		t.Errorf("v7.3: exit %d, stderr %q", code, errOut)
	}
	if sj := filepath.Join("..", "..", "..", "shared", "data", "ldl", "SJAFFE.mat"); exists(sj) {
		data, _ := os.ReadFile(sj)
		os.WriteFile(filepath.Join(dir, "sjaffe"), data, 0o644)
		if code, _, errOut := twl(t, "", append([]string{"train", "--data", filepath.Join(dir, "sjaffe"), "--tree", "star",
			"--out", filepath.Join(dir, "m")}, quick...)...); code != 0 {
			t.Errorf("SJAFFE without .mat: exit %d, %s", code, errOut)
		}
	}
}

// TestTrainSIGINT runs the built twl, interrupts training with SIGINT
// once a checkpoint is written, and checks exit status 130, no temporary
// file, the checkpoint present, and a resumed run from it.
func TestTrainSIGINT(t *testing.T) {
	if testing.Short() {
		t.Skip("builds twl")
	}
	if runtime.GOOS == "windows" {
		t.Skip("no SIGINT to send")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "twl")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	data := write(t, map[string]string{"t.tree": ldlTree, "d.jsonl": ldlRows(2000, 2, 1)})
	p := func(name string) string { return filepath.Join(data, name) }
	cmd := exec.Command(bin, "train", "--data", p("d.jsonl"), "--tree", p("t.tree"), "--epochs", "1000000",
		"--batch", "8", "--checkpoint", p("ck"), "--out", p("m"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for !exists(p("ck")) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond) // into later epochs and checkpoints
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Fatalf("exit: %v; stderr tail %q", err, tail(stderr.String(), 400))
	}
	if !strings.HasSuffix(stderr.String(), "twl train: stopped by SIGINT; no file is left half-written\n") {
		t.Errorf("stderr tail %q", tail(stderr.String(), 400))
	}
	if names := dirNames(t, data); strings.Join(names, " ") != "ck d.jsonl t.tree" {
		t.Errorf("after SIGINT the folder holds %q", names)
	}
	var ck struct{ Epoch int }
	if raw, err := os.ReadFile(p("ck")); err != nil || json.Unmarshal(raw, &ck) != nil || ck.Epoch < 1 {
		t.Fatalf("checkpoint: epoch %d, %v", ck.Epoch, err)
	}
	// Resumable: one more epoch from it.
	code, out, errOut := twl(t, "", "train", "--data", p("d.jsonl"), "--tree", p("t.tree"), "--epochs", strconv.Itoa(ck.Epoch+1),
		"--batch", "8", "--checkpoint", p("ck"), "--out", p("m"), "--quiet")
	if code != 0 || !strings.Contains(out, fmt.Sprintf("(resumed after epoch %d)", ck.Epoch)) {
		t.Errorf("resuming: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// v73Header returns the 128-byte header of a MATLAB 7.3 (HDF5) file: its
// text, 8 bytes of subsystem offset, version 0x0200 and "IM".
func v73Header() string {
	text := "MATLAB 7.3 MAT-file, Platform: GLNXA64, Created on: Mon Jan  1 00:00:00 2024 HDF5 schema 1.00 ."
	return text + strings.Repeat(" ", 116-len(text)) + strings.Repeat("\x00", 8) + "\x00\x02IM" + strings.Repeat("\x00", 384)
}

func tail(s string, n int) string { return s[max(0, len(s)-n):] }

// TestTrainEqualsLibrary: twl train writes the model that ldl.Load and
// ldl.Fit make with the same settings, bit for bit but for the training
// time; weighted loss names and --lambda give the same model.
func TestTrainEqualsLibrary(t *testing.T) {
	dir := ldlDir(t)
	data, tr := filepath.Join(dir, "d.jsonl"), filepath.Join(dir, "t.tree")
	for _, tc := range []struct {
		name string
		data string
		tree string
		args []string
		opts ldl.Options
		skip bool
	}{
		{"defaults", data, tr, []string{"--epochs", "8", "--batch", "4"}, ldl.Options{Epochs: 8, Batch: 4, Seed: 1}, false},
		{"kl+tw --lambda", data, tr, []string{"--loss", "kl+tw", "--lambda", "0.5", "--val", "0.2", "--patience", "2", "--epochs", "6",
			"--weight-decay", "0", "--decay-bias", "--seed", "3"},
			ldl.Options{Loss: "kl+0.5tw", Val: 0.2, Patience: 2, Epochs: 6, WeightDecay: -1, DecayBias: true, Seed: 3}, false},
		{"kl+0.5tw", data, tr, []string{"--loss", "kl+0.5tw", "--epochs", "3", "--lr", "0.01", "--seed", "4"},
			ldl.Options{Loss: "kl+tw", Lambda: 0.5, Epochs: 3, LR: 0.01, Seed: 4}, false},
		{"kl+sinkhorn", data, tr, []string{"--loss", "kl+sinkhorn", "--reg", "20", "--iters", "5", "--standardize=false", "--epochs", "2", "--batch", "7"},
			ldl.Options{Loss: "kl+sinkhorn", SinkhornReg: 20, SinkhornIters: 5, Raw: true, Epochs: 2, Batch: 7, Seed: 1}, false},
		{"SJAFFE", "../../../shared/data/ldl/SJAFFE.mat", "star", []string{"--epochs", "2"}, ldl.Options{Epochs: 2, Seed: 1},
			!exists("../../../shared/data/ldl/SJAFFE.mat")},
	} {
		if tc.skip {
			t.Logf("%s: no data, skipped", tc.name)
			continue
		}
		out := filepath.Join(dir, "cli.model")
		args := append([]string{"train", "--data", tc.data, "--tree", tc.tree, "--out", out, "--quiet"}, tc.args...)
		if code, _, stderr := twl(t, "", args...); code != 0 {
			t.Fatalf("%s: %s", tc.name, stderr)
		}
		cli, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		d, err := ldl.Load(context.Background(), tc.data, tc.tree, nil)
		if err != nil {
			t.Fatal(err)
		}
		f, _, err := ldl.Fit(context.Background(), d, &tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		var lib bytes.Buffer
		if err := model.Save(&lib, f); err != nil {
			t.Fatal(err)
		}
		seconds := regexp.MustCompile(`"seconds": *[-+.0-9eE]+`)
		a, b := seconds.ReplaceAll(cli, []byte(`"seconds":0`)), seconds.ReplaceAll(lib.Bytes(), []byte(`"seconds":0`))
		if !bytes.Equal(a, b) {
			t.Errorf("%s: twl train's model differs from ldl.Fit's:\n%.600s\n%.600s", tc.name, a, b)
		}
		if bytes.Equal(cli, seconds.ReplaceAll(cli, nil)) {
			t.Errorf("%s: no \"seconds\" in the model file", tc.name)
		}
	}
}

// TestTrainLossNames: loss names with a weight are accepted, and --lambda
// beside one is a usage error.
func TestTrainLossNames(t *testing.T) {
	dir := ldlDir(t)
	base := []string{"train", "--data", filepath.Join(dir, "d.jsonl"), "--tree", filepath.Join(dir, "t.tree"), "--out", filepath.Join(dir, "m")}
	if code, _, stderr := twl(t, "", append(base, "--loss", "kl+0.5tw", "--epochs", "1", "--quiet")...); code != 0 {
		t.Errorf("--loss kl+0.5tw: exit %d: %s", code, stderr)
	}
	code, _, stderr := twl(t, "", append(base, "--loss", "kl+0.5tw", "--lambda", "2")...)
	if code != 2 || !strings.Contains(stderr, "--lambda and the weight in --loss kl+0.5tw exclude each other") {
		t.Errorf("--loss kl+0.5tw --lambda 2: exit %d: %s", code, stderr)
	}
	code, _, stderr = twl(t, "", append(base, "--loss", "kl+0tw")...)
	if code != 2 || !strings.Contains(stderr, `--loss must be kl, kl+tw, kl+sinkhorn or kl+tsw, with an optional weight such as kl+0.5tw, not "kl+0tw"`) {
		t.Errorf("--loss kl+0tw: exit %d: %s", code, stderr)
	}
}
