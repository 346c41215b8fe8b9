package text

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/embedding"
	"github.com/twl-ldl/twl/experiment/report"
	"github.com/twl-ldl/twl/vocab"
)

// FastText runs fastText's supervised mode (the fasttext executable of
// fastText 0.9.x) as the outside row of the bag's experiment: for each
// seed, on the seed's training documents (not the validation ones, which
// fastText has no use for), their text as the experiment's tokenizer
// splits it (so that both see the same words) and their label sets as the
// experiment reads them (closed under ancestors by default), with the
// settings Args, -dim the word vectors' dimension (100 without them),
// -thread Threads and -seed the seed; the word vectors of the experiment,
// when it has them, are given by -pretrainedVectors (a .vec file written
// for the run): all of them for a .vec file, which fastText adds to its
// dictionary as twl's bag adds them to its vocabulary; for a fastText .bin
// model, which -pretrainedVectors cannot read, the vectors it gives the
// words of the training documents.
// The test documents are then predicted by 'fasttext predict-prob MODEL
// FILE -1' and each distribution normalized to sum 1 (fastText adds 10⁻⁵
// to every probability), and scored as twl's runs are.
type FastText struct {
	// Path is the executable.
	Path string
	// Args are the training settings; nil means DefaultFastTextArgs.
	Args []string
	// Threads is fastText's -thread; 0 means runtime.GOMAXPROCS(0). With
	// more than one, fastText's results vary from run to run.
	Threads int
}

// DefaultFastTextArgs are the settings of fastText's row: a strong,
// common configuration (25 epochs, lr 0.5, word bigrams, softmax).
var DefaultFastTextArgs = []string{"-epoch", "25", "-lr", "0.5", "-wordNgrams", "2", "-loss", "softmax"}

// FastTextID names fastText's row among the losses: its runs and its
// comparisons.
const FastTextID = "fasttext"

// FastTextRun is what a report records of the fastText runs.
type FastTextRun struct {
	Path    string   `json:"path"`
	Args    []string `json:"args"`
	Dim     int      `json:"dim"`
	Threads int      `json:"threads"`
	// Vectors says which word vectors -pretrainedVectors gives:
	// VectorsAll, VectorsOfTraining, or none ("").
	Vectors string `json:"pretrained_vectors,omitempty"`
}

// The word vectors of fastText's -pretrainedVectors (FastTextRun.Vectors).
const (
	VectorsAll        = "all"            // every vector of a .vec file
	VectorsOfTraining = "training words" // those of the training documents' words (a fastText .bin)
)

// resolve returns the run of f, checked by c, with the word vectors emb
// (nil: none).
func (f *FastText) resolve(c report.Checker, emb embedding.Source) (*FastTextRun, error) {
	if f.Path == "" {
		return nil, c.Bad("FastText", nil, "no fasttext executable")
	}
	r := &FastTextRun{Path: f.Path, Args: f.Args, Dim: 100, Threads: f.Threads}
	if r.Args == nil {
		r.Args = DefaultFastTextArgs
	}
	for _, a := range r.Args {
		switch a {
		case "-input", "-output", "-dim", "-thread", "-seed", "-pretrainedVectors", "-label":
			return nil, c.Bad("FastText", a, "is set by the experiment")
		}
	}
	if r.Threads == 0 {
		r.Threads = runtime.GOMAXPROCS(0)
	}
	if emb != nil {
		r.Dim, r.Vectors = emb.Dim(), VectorsOfTraining
		if _, ok := emb.(*embedding.Vectors); ok {
			r.Vectors = VectorsAll
		}
	}
	return r, nil
}

// ftLabel writes label i as fastText's label: by index, since a node's
// name may hold white space.
func ftLabel(b []byte, i int) []byte {
	return strconv.AppendInt(append(b, corpus.DefaultLabelPrefix...), int64(i), 10)
}

// writeFastText writes the documents of c as fastText's lines to path: the
// labels of each (with them), then its tokens as tk splits them.
func writeFastText(path string, c *corpus.Corpus, tk *vocab.Tokenizer, labels bool, words map[string]bool) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	var line []byte
	var toks []string
	for _, d := range c.Docs {
		line = line[:0]
		if labels {
			for _, l := range d.Labels {
				line = append(ftLabel(line, l), ' ')
			}
		}
		toks = tk.Append(toks[:0], d.Text)
		for i, t := range toks {
			if i > 0 {
				line = append(line, ' ')
			}
			line = append(line, t...)
			if words != nil {
				words[t] = true
			}
		}
		w.Write(append(line, '\n'))
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// writeVectors writes word vectors for fastText's -pretrainedVectors as a
// .vec file: all of emb's when it is a .vec file read whole
// (*embedding.Vectors), as fastText would read that file; else those that
// emb has of words.
func writeVectors(path string, emb embedding.Source, words map[string]bool) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	v := make([]float32, emb.Dim())
	var body bytes.Buffer
	n := 0
	list := slices.Sorted(maps.Keys(words))
	if vs, ok := emb.(*embedding.Vectors); ok {
		list = vs.Words
	}
	for _, word := range list {
		if emb.Lookup(v, word) == embedding.Missing {
			continue
		}
		n++
		body.WriteString(word)
		for _, x := range v {
			body.WriteByte(' ')
			body.Write(strconv.AppendFloat(nil, float64(x), 'g', -1, 32))
		}
		body.WriteByte('\n')
	}
	fmt.Fprintf(w, "%d %d\n", n, emb.Dim())
	w.Write(body.Bytes())
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// runFastText trains fastText on fit and predicts test, in a temporary
// folder under dir ("" for the system's), and returns the predicted
// distributions (one row of L a document) and the training time.
func runFastText(ctx context.Context, r *FastTextRun, fit, test *corpus.Corpus, tk *vocab.Tokenizer, emb embedding.Source, seed, L int, dir string) (P []float64, seconds float64, err error) {
	tmp, err := os.MkdirTemp(dir, "fasttext-")
	if err != nil {
		return nil, 0, err
	}
	defer os.RemoveAll(tmp)
	trainFile, testFile, model := filepath.Join(tmp, "train.txt"), filepath.Join(tmp, "test.txt"), filepath.Join(tmp, "model")
	var words map[string]bool
	if emb != nil {
		words = map[string]bool{}
	}
	if err := writeFastText(trainFile, fit, tk, true, words); err != nil {
		return nil, 0, err
	}
	if err := writeFastText(testFile, test, tk, false, nil); err != nil {
		return nil, 0, err
	}
	args := append([]string{"supervised", "-input", trainFile, "-output", model}, r.Args...)
	args = append(args, "-dim", strconv.Itoa(r.Dim), "-thread", strconv.Itoa(r.Threads), "-seed", strconv.Itoa(seed), "-verbose", "0")
	if emb != nil {
		vec := filepath.Join(tmp, "vectors.vec")
		if err := writeVectors(vec, emb, words); err != nil {
			return nil, 0, err
		}
		args = append(args, "-pretrainedVectors", vec)
	}
	t0 := time.Now()
	if err := command(ctx, r.Path, args, io.Discard); err != nil {
		return nil, 0, err
	}
	seconds = time.Since(t0).Seconds()
	var out bytes.Buffer
	if err := command(ctx, r.Path, []string{"predict-prob", model + ".bin", testFile, "-1"}, &out); err != nil {
		return nil, 0, err
	}
	P, err = readPredictProb(&out, test.Len(), L)
	if err != nil {
		return nil, 0, fmt.Errorf("%s predict-prob: %w", r.Path, err)
	}
	return P, seconds, nil
}

// command runs path with args, its standard output to stdout; its error
// says what it wrote on standard error.
func command(ctx context.Context, path string, args []string, stdout io.Writer) error {
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Stdout, cmd.Stderr = stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		msg := strings.TrimSpace(stderr.String())
		if len(msg) > 500 {
			msg = msg[:500] + "…"
		}
		return fmt.Errorf("%s %s: %v: %s", path, args[0], err, msg)
	}
	return nil
}

// readPredictProb reads the output of 'fasttext predict-prob MODEL FILE -1'
// for n documents over L labels written by ftLabel: a line per document of
// "__label__I p" pairs. Labels it leaves out (those of no training
// document) get 0; each row is normalized to sum 1.
func readPredictProb(r io.Reader, n, L int) ([]float64, error) {
	P := make([]float64, n*L)
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<26)
	k := 0
	for ; sc.Scan(); k++ {
		if k == n {
			return nil, fmt.Errorf("more than the %d lines of the test documents", n)
		}
		f := strings.Fields(sc.Text())
		if len(f)%2 != 0 {
			return nil, fmt.Errorf("line %d: want pairs of a label and a probability, got %q", k+1, sc.Text())
		}
		row := P[k*L : (k+1)*L]
		var sum float64
		for i := 0; i < len(f); i += 2 {
			name, ok := strings.CutPrefix(f[i], corpus.DefaultLabelPrefix)
			l, err := strconv.Atoi(name)
			if !ok || err != nil || l < 0 || l >= L {
				return nil, fmt.Errorf("line %d: %q is not a label of the test", k+1, f[i])
			}
			p, err := strconv.ParseFloat(f[i+1], 64)
			if err != nil || !(p >= 0) || math.IsInf(p, 0) {
				return nil, fmt.Errorf("line %d: %q is not a probability", k+1, f[i+1])
			}
			row[l] = p
			sum += p
		}
		if !(sum > 0) {
			return nil, fmt.Errorf("line %d: no probability", k+1)
		}
		for j := range row {
			row[j] /= sum
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if k != n {
		return nil, fmt.Errorf("%d lines for %d test documents", k, n)
	}
	return P, nil
}
